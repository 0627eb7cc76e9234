"""Analysing learned strategies: policy probes, agreement with reference agents, the disagreement audit,
value calibration, strategy fingerprints, population evaluation (docs/analysis.md).

    from ktenv.analysis import probe, agreement, audit, audit_summary
    probes = probe("ppo:models/ppo_2p.zip", "runs/records", references=["expert", "greedy"])
    agreement(probes, "expert")                    # by decision kind, with Wilson intervals
    audited = audit("runs/records", probes, worlds=32)
    audit_summary(audited)                          # better / worse / undecided, by decision kind
    fingerprints.curves("runs/data", "income")      # strategy fingerprints from a dataset's tables
    table = crosstable("runs/t.sqlite")             # population evaluation: who beats whom, by seat
    nash_average(payoff_matrix(table))              # ... the maximum-entropy Nash of the population; alpha_rank
    checkpoint_ratings("runs/ppo_2p")               # a run's checkpoints against anchors, rated by step
    ablation(model, ["build", "move_select"])      # the decision ablation: which kinds of decisions lose games
    # the exploiter (a best response to a frozen model): ktenv.analysis.exploiter, `ktenv exploit`

Shared code: a game's facts come through the registry (its ``dataset``, ``engine`` and ``analysis`` parts).
"""

from . import fingerprints
from .ablation import ablation, plot_ablation
from .audit import audit, audit_summary, disagreements, paired
from .calibration import calibration
from .plots import OKABE_ITO, plot_agreement, plot_audit, plot_calibration
from .policy import Policy, entropy, load_policy
from .population import (
    alpha_rank,
    checkpoint_ratings,
    crosstable,
    fit_ratings,
    nash_average,
    payoff_matrix,
    plot_checkpoint_ratings,
    plot_crosstable,
    plot_population,
)
from .probes import agreement, load_records, probe

__all__ = ["OKABE_ITO", "Policy", "ablation", "agreement", "alpha_rank", "audit", "audit_summary", "calibration",
           "checkpoint_ratings", "crosstable", "disagreements", "entropy", "fingerprints", "fit_ratings", "load_policy",
           "load_records", "nash_average", "paired", "payoff_matrix", "plot_ablation", "plot_agreement", "plot_audit",
           "plot_calibration", "plot_checkpoint_ratings", "plot_crosstable", "plot_population", "probe"]

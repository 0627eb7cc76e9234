"""Analysing learned strategies: policy probes, agreement with reference agents, the disagreement audit,
value calibration (docs/analysis.md).

    from ktenv.analysis import probe, agreement, audit, audit_summary
    probes = probe("ppo:models/ppo_2p.zip", "runs/records", references=["expert", "greedy"])
    agreement(probes, "expert")                    # by decision kind, with Wilson intervals
    audited = audit("runs/records", probes, worlds=32)
    audit_summary(audited)                          # better / worse / undecided, by decision kind
    fingerprints.curves("runs/data", "income")      # strategy fingerprints from a dataset's tables

Shared code: a game's facts come through the registry (its ``dataset``, ``engine`` and ``analysis`` parts).
"""

from . import fingerprints
from .audit import audit, audit_summary, disagreements, paired
from .calibration import calibration
from .plots import OKABE_ITO, plot_agreement, plot_audit, plot_calibration
from .policy import Policy, entropy, load_policy
from .probes import agreement, load_records, probe

__all__ = ["OKABE_ITO", "Policy", "agreement", "audit", "audit_summary", "calibration", "disagreements", "entropy",
           "fingerprints", "load_policy", "load_records", "paired", "plot_agreement", "plot_audit", "plot_calibration",
           "probe"]

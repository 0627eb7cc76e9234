"""The disagreement audit: where the model and a reference agent choose differently, which choice does better?

At each such position both choices are played out from the same worlds with common random numbers: the
game's ``analysis`` part (`paired_differences`) samples worlds from what the deciding seat may know (its
information set, never the true hidden facts), plays the reference's action and the model's action in
copies of each world with the same future dice and the same rollout agents, and returns the seat's
value difference per world (model minus reference; a win counts 1). The mean difference, its standard
error and a 95% interval say which choice wins more; a verdict is drawn only when the interval excludes 0.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from .. import registry
from ..arena.ratings import Z95
from ..arena.records import replay
from .probes import RecordLike, _with_rate, load_records


def disagreements(probes: pd.DataFrame, reference: str = "expert") -> pd.DataFrame:
    """The probed positions where the model's top action is not `reference`'s choice."""
    return probes[~probes[f"{reference}_agrees"].astype(bool)]


def _states(record, indexes: set[int]) -> dict[int, object]:
    """Copies of the record's states just before the decisions `indexes`."""
    kept: dict[int, object] = {}

    def keep(s, k: int, _action: int) -> None:
        if k in indexes:
            kept[k] = s.copy()

    replay(record, upto=max(indexes) + 1, on_move=keep)
    return kept


def paired(state, seat: int, reference_action: int, model_action: int, worlds: int = 32, cutoff: int = 2000,
           seed: int = 0) -> dict:
    """The paired comparison at one position (the game's `paired_differences`): the mean of the model's
    action minus the reference's over `worlds` sampled worlds, its standard error and 95% interval."""
    spec = registry.game_of_state(state)
    if not spec.has("analysis"):
        raise ValueError(f"{spec.title} has no paired evaluation for the audit")
    d = spec.analysis.paired_differences(state, seat, [int(reference_action), int(model_action)], worlds=worlds,
                                         cutoff=cutoff, seed=seed)[:, 0]
    mean = float(d.mean())
    se = float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else float("inf")
    low, high = mean - Z95 * se, mean + Z95 * se
    verdict = "better" if low > 0 else "worse" if high < 0 else "undecided"
    return {"worlds": int(d.size), "mean": mean, "se": se, "low": low, "high": high, "verdict": verdict,
            "model_wins_more": float((d > 0).mean()), "reference_wins_more": float((d < 0).mean()),
            "no_effect": bool((d == 0).all())}


def audit(records: Iterable[RecordLike] | RecordLike, probes: pd.DataFrame, reference: str = "expert",
          worlds: int = 32, cutoff: int = 2000, seed: int = 0, limit: int | None = None) -> pd.DataFrame:
    """One row per audited disagreement of `probes` (made from the same `records` by `probe`): the position,
    both choices in English, and `paired`'s mean difference (model minus reference), se, low, high and
    verdict (better: the model's choice wins more, worse, undecided). `limit` audits that many, spread evenly
    over the disagreements; world seeds come from `seed`, the game and the decision's index."""
    rows = disagreements(probes, reference)
    if limit is not None and len(rows) > limit:
        rows = rows.iloc[np.linspace(0, len(rows) - 1, int(limit)).round().astype(int)]
    loaded = load_records(records)
    out = []
    for game, group in rows.groupby("game"):
        states = _states(loaded[int(game)][1], set(group["index"].astype(int)))
        for row in group.itertuples():
            world_seed = int(np.random.SeedSequence([seed, int(game), row.index]).generate_state(1, np.uint64)[0])
            result = paired(states[row.index], row.actor, getattr(row, f"{reference}_action"), row.model_action,
                            worlds, cutoff, seed=world_seed)
            out.append({"game": int(game), "index": row.index, "round": row.round, "decision": row.decision,
                        "actor": row.actor, "reference": reference,
                        "reference_text": getattr(row, f"{reference}_text"), "model_text": row.model_text,
                        "model_p": row.model_p, **result})
    return pd.DataFrame(out)


def audit_summary(audited: pd.DataFrame, by: str = "decision") -> pd.DataFrame:
    """Per `by` (and "all"): disagreements audited, how many the model's choice did better, worse and
    undecided, the undecided ones where no world's playout changed at all (no_effect: the game was decided
    either way), the share better with its 95% Wilson interval, and the mean difference."""
    def count(frame: pd.DataFrame) -> dict:
        verdicts = frame["verdict"].value_counts()
        return {"audited": len(frame), **{v: int(verdicts.get(v, 0)) for v in ("better", "worse", "undecided")},
                "no_effect": int(frame["no_effect"].sum()), "mean": float(frame["mean"].mean())}

    table = [{by: key, **count(frame)} for key, frame in audited.groupby(by)]
    table.sort(key=lambda r: -r["audited"])
    table = pd.DataFrame(table + [{by: "all", **count(audited)}])
    return _with_rate(table, "better", "audited")


__all__ = ["audit", "audit_summary", "disagreements", "paired"]

"""Value calibration: the critic's predicted value at probed positions against how the game ended."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .probes import _with_rate


def calibration(probes: pd.DataFrame, bins: int = 8) -> pd.DataFrame:
    """The probed positions in `bins` bins of equal count by predicted value: per bin the positions, the mean
    value, the actor's wins, the win rate and its 95% Wilson interval. A value trained on a win/loss reward
    that is calibrated rises with the win rate."""
    rated = probes.dropna(subset=["value"])
    if rated.empty:
        raise ValueError("no values in the probes (a model without a critic, or torch not installed)")
    edges = np.unique(np.quantile(rated["value"], np.linspace(0, 1, bins + 1)))
    which = np.clip(np.searchsorted(edges, rated["value"], side="right") - 1, 0, max(len(edges) - 2, 0))
    grouped = rated.assign(bin=which).groupby("bin")
    table = grouped.agg(positions=("value", "size"), value=("value", "mean"), low_edge=("value", "min"),
                        high_edge=("value", "max"), wins=("won", "sum")).reset_index(drop=True)
    return _with_rate(table, "wins", "positions")


__all__ = ["calibration"]

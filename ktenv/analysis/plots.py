"""Pictures of the probes, in the Okabe-Ito palette (safe for the common colour-vision deficiencies)."""

from __future__ import annotations

import pandas as pd

OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")
VERDICT_COLOURS = {"better": "#009E73", "worse": "#D55E00", "undecided": "#999999"}


def _axes(ax, size: tuple[float, float]):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=size)[1]


def _errors(table: pd.DataFrame, column: str) -> list:
    """Error bar lengths below and above `column` from its interval (`low`, `high`), never negative."""
    return [(table[column] - table["low"]).clip(lower=0), (table["high"] - table[column]).clip(lower=0)]


def plot_agreement(table: pd.DataFrame, by: str = "decision", ax=None, title: str = ""):
    """`agreement`'s rates as bars with their 95% intervals, most frequent kinds at the top."""
    ax = _axes(ax, (6, 0.35 * len(table) + 1))
    y = range(len(table))[::-1]
    ax.barh(list(y), table["rate"], color=OKABE_ITO[4], alpha=0.8)
    ax.errorbar(table["rate"], list(y), xerr=_errors(table, "rate"),
                fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_yticks(list(y), [f"{k} ({n})" for k, n in zip(table[by], table["positions"])])
    ax.set_xlim(0, 1)
    ax.set_xlabel("agreement (bars: 95% Wilson interval)")
    ax.set_title(title or "model's top action = reference's choice")
    return ax


def plot_audit(summary: pd.DataFrame, by: str = "decision", ax=None, title: str = ""):
    """`audit_summary`'s verdicts as stacked bars: better, undecided, worse for the model's choice."""
    ax = _axes(ax, (6, 0.35 * len(summary) + 1))
    y = list(range(len(summary))[::-1])
    left = pd.Series(0.0, index=summary.index)
    for verdict in ("better", "undecided", "worse"):
        ax.barh(y, summary[verdict], left=left, color=VERDICT_COLOURS[verdict], label=verdict)
        left = left + summary[verdict]
    ax.set_yticks(y, summary[by].tolist())
    ax.set_xlabel("disagreements audited")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title or "model's choice against the reference's, paired playouts")
    return ax


def plot_calibration(table: pd.DataFrame, ax=None, title: str = ""):
    """`calibration`'s win rate per bin of predicted value, with 95% intervals."""
    ax = _axes(ax, (5, 4))
    ax.errorbar(table["value"], table["rate"], yerr=_errors(table, "rate"),
                fmt="o-", color=OKABE_ITO[5], ecolor=OKABE_ITO[5], capsize=3)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("predicted value (bin mean)")
    ax.set_ylabel("actor's win rate (95% interval)")
    ax.set_title(title or "value calibration")
    ax.grid(alpha=0.3)
    return ax


__all__ = ["OKABE_ITO", "plot_agreement", "plot_audit", "plot_calibration"]

"""Strategy fingerprints: how each agent plays, over many games, from a dataset's tables (docs/datasets.md).

Every figure is the game's own (the `rounds` and `seats` tables' figure columns), so the functions name no
game: the curves of any figure by round, the round a figure first reaches a level (the first fort, the
Citadel), the share of decisions by kind, events per game by kind, and a one-row-per-agent summary. Intervals
are 95%: Wilson for shares, mean +- 1.96 standard errors for means (over games: a game's rounds are not
independent, so curves average each game's value at a round).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..arena.ratings import Z95
from .plots import OKABE_ITO
from .probes import _with_rate

_KEYS = ("game", "round", "player", "seat", "won", "alive", "agent", "agent_spec")


def read_tables(data: str | Path) -> dict[str, pd.DataFrame]:
    """A dataset's tables (`ktenv dataset` or `ktenv tournament --dataset`) as pandas frames."""
    root = Path(data)
    if not (root / "manifest.json").is_file():
        raise FileNotFoundError(f"{root}: not a ktenv dataset (no manifest.json)")
    return {t: pd.read_parquet(root / t) for t in ("games", "seats", "rounds", "decisions", "events")
            if (root / t).is_dir()}


def _tables(data) -> dict[str, pd.DataFrame]:
    return data if isinstance(data, dict) else read_tables(data)


def _mean_ci(frame: pd.DataFrame, keys: list[str], column: str) -> pd.DataFrame:
    out = frame.groupby(keys)[column].agg(n="size", mean="mean", sd="std").reset_index()
    half = Z95 * out["sd"].fillna(0) / np.sqrt(out["n"])
    return out.assign(low=out["mean"] - half, high=out["mean"] + half).drop(columns="sd")


def _with_agents(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The `rounds` rows with the agent that played each player."""
    seats = tables["seats"][["game", "seat", "agent"]].rename(columns={"seat": "player"})
    return tables["rounds"].merge(seats, on=["game", "player"])


def figures(data) -> list[str]:
    """The game's per-player figures in the dataset (the columns of `rounds` past game, round, player)."""
    return [c for c in _tables(data)["rounds"].columns if c not in _KEYS]


def curves(data, figure: str) -> pd.DataFrame:
    """Per agent and round: games, the mean of `figure` at the round's start, and its 95% interval."""
    return _mean_ci(_with_agents(_tables(data)), ["agent", "round"], figure)


def first_reached(data, figure: str, level: float = 1) -> pd.DataFrame:
    """Per agent: the share of its games where `figure` reached `level` (Wilson interval) and the round it
    first did, mean and interval over those games (the first Citadel: ``first_reached(d, "citadels")``)."""
    rows = _with_agents(_tables(data))
    seats = rows.groupby(["agent", "game", "player"])["round"].size().reset_index()[["agent", "game", "player"]]
    hit = rows[rows[figure] >= level].groupby(["agent", "game", "player"])["round"].min().reset_index()
    table = seats.groupby("agent").size().rename("games").reset_index()
    table = table.merge(hit.groupby("agent").size().rename("reached").reset_index(), how="left").fillna(0)
    table = _with_rate(table, "reached", "games")
    when = _mean_ci(hit, ["agent"], "round").rename(columns={"mean": "round", "low": "round_low",
                                                            "high": "round_high"}).drop(columns="n")
    return table.merge(when, how="left")


def decision_shares(data) -> pd.DataFrame:
    """Per agent and decision kind: decisions, their share of the agent's decisions, with Wilson intervals."""
    decisions = _tables(data)["decisions"]
    table = decisions.groupby(["agent", "decision"]).size().rename("decisions").reset_index()
    table["total"] = table.groupby("agent")["decisions"].transform("sum")
    return _with_rate(table, "decisions", "total").sort_values(["agent", "rate"], ascending=[True, False])


def event_rates(data) -> pd.DataFrame:
    """Per agent and event kind: the mean number per game (the events the agent's player did or met as
    `player`), with a 95% interval over games."""
    tables = _tables(data)
    seats = tables["seats"][["game", "seat", "agent"]]
    events = tables["events"].merge(seats.rename(columns={"seat": "player"}), on=["game", "player"])
    counts = events.groupby(["game", "player", "kind"]).size().rename("count").reset_index()
    kinds = events["kind"].unique()
    grid = seats.rename(columns={"seat": "player"}).merge(pd.DataFrame({"kind": kinds}), how="cross")
    full = grid.merge(counts, how="left", on=["game", "player", "kind"]).fillna({"count": 0})
    table = _mean_ci(full, ["agent", "kind"], "count").rename(columns={"n": "games"})
    return table.assign(low=table["low"].clip(lower=0))  # a count is never negative


def summary(data) -> pd.DataFrame:
    """One row per agent: games, wins, win rate (Wilson) and the mean of each figure at the game's end."""
    seats = _tables(data)["seats"]
    numbers = [c for c in seats.columns if c not in _KEYS and pd.api.types.is_numeric_dtype(seats[c])]
    table = seats.groupby("agent").agg(games=("won", "size"), wins=("won", "sum"),
                                       **{c: (c, "mean") for c in numbers}).reset_index()
    return _with_rate(table, "wins", "games")


def plot_curves(table: pd.DataFrame, figure: str = "", ax=None):
    """`curves`' means by round, one colour per agent, with their 95% bands."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(6, 4))[1]
    for colour, (agent, rows) in zip(OKABE_ITO, table.groupby("agent")):
        ax.plot(rows["round"], rows["mean"], "o-", color=colour, label=agent, ms=3)
        ax.fill_between(rows["round"], rows["low"], rows["high"], color=colour, alpha=0.2)
    ax.set_xlabel("round")
    ax.set_ylabel(f"{figure} (mean, 95% band)" if figure else "mean, 95% band")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return ax


def plot_compare(table: pd.DataFrame, key: str, value: str = "mean", top: int = 12, ax=None, title: str = ""):
    """Grouped bars, one colour per agent, of `value` by `key` with the 95% interval (`low`, `high`): the
    `top` keys of the largest values (`event_rates` by kind, `decision_shares` by decision with value="rate")."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(7, 0.45 * top + 1))[1]
    keys = table.groupby(key)[value].max().nlargest(top).index.tolist()[::-1]
    agents = sorted(table["agent"].unique())
    height = 0.8 / max(len(agents), 1)
    for i, (colour, agent) in enumerate(zip(OKABE_ITO, agents)):
        rows = table[table["agent"] == agent].set_index(key).reindex(keys)
        y = np.arange(len(keys)) + i * height
        ax.barh(y, rows[value].fillna(0), height, color=colour, label=agent,
                xerr=[(rows[value] - rows["low"]).fillna(0), (rows["high"] - rows[value]).fillna(0)],
                error_kw={"lw": 1, "capsize": 2})
    ax.set_yticks(np.arange(len(keys)) + 0.4 - height / 2, keys)
    ax.set_xlabel(f"{value} (bars: 95% interval)")
    ax.legend(fontsize=8)
    if title:
        ax.set_title(title)
    return ax


__all__ = ["curves", "decision_shares", "event_rates", "figures", "first_reached", "plot_compare", "plot_curves",
           "read_tables", "summary"]

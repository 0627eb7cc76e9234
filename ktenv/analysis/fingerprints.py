"""Strategy fingerprints: how each agent plays, over many games, from a dataset's tables (docs/datasets.md).

Every figure is the game's own (the `rounds` and `seats` tables' figure columns), so the functions name no
game: the curves of any figure by round, the round a figure first reaches a level (the first fort, the
Citadel), the share of decisions by kind, events per game by kind, a one-row-per-agent summary; a figure's
game-long level and one figure's share of another (how many stacks an agent keeps face down, how much of its
army the table has never seen: its room to bluff); and the flow of a resource: how much an agent holds
against what it gains and spends, round by round and over the game (gold banked against gold spent).
Intervals are 95%: Wilson for shares, mean +- 1.96 standard errors for means (over games: a game's rounds are
not independent, so curves average each game's value at a round).
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


def _bounded(table: pd.DataFrame, values: pd.Series, share: bool = False) -> pd.DataFrame:
    """Intervals kept inside what the values can be: never negative for counts, at most 1 for shares."""
    if (values >= 0).all():
        table = table.assign(low=table["low"].clip(lower=0))
    return table.assign(high=table["high"].clip(upper=1)) if share else table


def _require(rows: pd.DataFrame, figures: list[str]) -> None:
    missing = [f for f in figures if f not in rows.columns]
    if missing:
        raise KeyError(f"no figure {missing} in this dataset; it has {[c for c in rows.columns if c not in _KEYS]}")


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


def per_game(data, figures: list[str], first_round: int = 1) -> pd.DataFrame:
    """Per agent and figure: each game's mean of the figure over its rounds from `first_round` (the setup is
    round 0 in some games), then the mean over games with its 95% interval (`plot_compare(t, "figure")`)."""
    rows = _with_agents(_tables(data))
    rows = rows[rows["round"] >= first_round]
    _require(rows, figures)
    games = rows.groupby(["agent", "game", "player"])[figures].mean().reset_index()
    long = games.melt(["agent", "game", "player"], figures, var_name="figure", value_name="value")
    return _bounded(_mean_ci(long, ["agent", "figure"], "value"), long["value"]).rename(columns={"n": "games"})


def ratio_curves(data, part: str, whole: str) -> pd.DataFrame:
    """Per agent and round: the mean over games of `part` / `whole` at the round's start (rounds where `whole`
    is 0 left out), with its 95% interval: the share of the army never seen by the table is
    ``ratio_curves(d, "unseen_things", "board_things")``."""
    rows = _with_agents(_tables(data))
    _require(rows, [part, whole])
    rows = rows[rows[whole] > 0]
    rows = rows.assign(ratio=rows[part] / rows[whole])
    return _bounded(_mean_ci(rows, ["agent", "round"], "ratio"), rows["ratio"], share=(rows["ratio"] <= 1).all())


def round_flows(data, held: str = "gold", gained: str = "gold_gained", spent: str = "gold_spent") -> pd.DataFrame:
    """Per game, player and round: what the player `held` at the round's start, and what it `gained` and
    `spent` during the round (the running totals' rise to the next round's start, or to the game's end), with
    `spent_share`: the part of what it had to spend (held + gained) that it spent (NaN when that was 0)."""
    tables = _tables(data)
    rows = _with_agents(tables)
    _require(rows, [held, gained, spent])
    rows = rows[["agent", "game", "player", "round", held, gained, spent]].sort_values(["game", "player", "round"])
    rows = rows.reset_index(drop=True)
    ends = rows[["game", "player"]].merge(tables["seats"].rename(columns={"seat": "player"}), how="left",
                                          on=["game", "player"])[[gained, spent]]
    after = rows.groupby(["game", "player"])[[gained, spent]].shift(-1).fillna(ends)
    out = pd.DataFrame({"agent": rows["agent"], "game": rows["game"], "player": rows["player"],
                        "round": rows["round"], "held": rows[held], "gained": after[gained] - rows[gained],
                        "spent": after[spent] - rows[spent]})
    at_hand = out["held"] + out["gained"]
    return out.assign(spent_share=out["spent"] / at_hand.where(at_hand > 0))


def flow_curves(data, held: str = "gold", gained: str = "gold_gained", spent: str = "gold_spent") -> pd.DataFrame:
    """Per agent, round and measure (held, gained, spent, spent_share): the mean over games and its 95%
    interval (`round_flows`)."""
    flows = round_flows(data, held, gained, spent)
    long = flows.melt(["agent", "game", "player", "round"], ["held", "gained", "spent", "spent_share"],
                      var_name="measure", value_name="value").dropna(subset=["value"])
    return _bounded_flows(_mean_ci(long, ["agent", "round", "measure"], "value"), long)


def flow_summary(data, held: str = "gold", gained: str = "gold_gained", spent: str = "gold_spent") -> pd.DataFrame:
    """Per agent and measure, over whole games: `gained` and `spent` in the game, `held` at its end (banked),
    and `spent_share`: what it spent of all that came to hand (its start and all it gained); means over games
    with 95% intervals (`plot_compare(t, "measure")` for measures of one scale)."""
    flows = round_flows(data, held, gained, spent)
    first = flows.groupby(["agent", "game", "player"]).first()["held"]
    games = flows.groupby(["agent", "game", "player"])[["gained", "spent"]].sum()
    games["held"] = first + games["gained"] - games["spent"]
    came = first + games["gained"]
    games["spent_share"] = games["spent"] / came.where(came > 0)
    long = games.reset_index().melt(["agent", "game", "player"], ["gained", "spent", "held", "spent_share"],
                                    var_name="measure", value_name="value").dropna(subset=["value"])
    return _bounded_flows(_mean_ci(long, ["agent", "measure"], "value"), long).rename(columns={"n": "games"})


def _bounded_flows(table: pd.DataFrame, long: pd.DataFrame) -> pd.DataFrame:
    share = table["measure"] == "spent_share"
    table = _bounded(table, long["value"])
    return table.assign(high=table["high"].where(~share, table["high"].clip(upper=1)))


def plot_flow(table: pd.DataFrame, measures: tuple[str, ...] = ("held", "spent"), label: str = "gold", ax=None):
    """`flow_curves` by round, one colour per agent, one line style per measure (held: solid, spent: dashed,
    gained: dotted, spent_share: dash-dot), with their 95% bands."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(6, 4))[1]
    styles = {"held": "-", "spent": "--", "gained": ":", "spent_share": "-."}
    for colour, (agent, rows) in zip(OKABE_ITO, table.groupby("agent")):
        for measure in measures:
            line = rows[rows["measure"] == measure]
            ax.plot(line["round"], line["mean"], styles[measure], color=colour, marker="o", ms=3,
                    label=f"{agent}: {measure}")
            ax.fill_between(line["round"], line["low"], line["high"], color=colour, alpha=0.15)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("round")
    ax.set_ylabel(f"{label} (mean, 95% band)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return ax


def plot_curves(table: pd.DataFrame, figure: str = "", ax=None):
    """`curves`' means by round, one colour per agent, with their 95% bands."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(6, 4))[1]
    for colour, (agent, rows) in zip(OKABE_ITO, table.groupby("agent")):
        ax.plot(rows["round"], rows["mean"], "o-", color=colour, label=agent, ms=3)
        ax.fill_between(rows["round"], rows["low"], rows["high"], color=colour, alpha=0.2)
    ax.xaxis.get_major_locator().set_params(integer=True)  # rounds are whole
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
                xerr=[(rows[value] - rows["low"]).fillna(0).clip(lower=0),  # Wilson's bounds in floating point
                      (rows["high"] - rows[value]).fillna(0).clip(lower=0)],
                error_kw={"lw": 1, "capsize": 2})
    ax.set_yticks(np.arange(len(keys)) + 0.4 - height / 2, keys)
    ax.set_xlabel(f"{value} (bars: 95% interval)")
    ax.legend(fontsize=8)
    if title:
        ax.set_title(title)
    return ax


__all__ = ["curves", "decision_shares", "event_rates", "figures", "first_reached", "flow_curves", "flow_summary",
           "per_game", "plot_compare", "plot_curves", "plot_flow", "ratio_curves", "read_tables", "round_flows",
           "summary"]

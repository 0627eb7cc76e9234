"""Population evaluation: who beats whom in a population of agents, and what that makes of each of them
(docs/analysis.md, "Population evaluation").

- `crosstable(source)`: per ordered pair of agents, the games they met in and the row agent's wins, split by the
  row agent's seat, with 95% Wilson intervals; `plot_crosstable` draws it.
- `payoff_matrix(table)`: the antisymmetric payoff of every pair (win share minus loss share), from which
  `nash_average` (the maximum-entropy Nash equilibrium of the symmetric zero-sum game and each agent's payoff
  against it, Balduzzi et al. 2018) and `alpha_rank` (the single-population alpha-Rank of Omidshafiei et al.
  2019) rank the population without assuming that strength is one number.
- `fit_ratings(table, fixed=...)`: Bradley-Terry (Elo-scale) ratings with 95% intervals, one agent fixed at 0;
  `checkpoint_ratings(run)` plays every checkpoint of a training run against anchor agents through the arena
  and rates them by training step; `plot_checkpoint_ratings` draws that.

A source of games is a tournament store (SQLite), a dataset folder (its `games` table), the arena's game rows
(`run_tournament(...)["games"]`), or a list of such sources. Games cut short by an engine error or by the bound
on decisions are left out, as the standings leave them out. A win shared by several seats counts as a share.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..arena.ratings import Z95, counted, wilson
from .plots import OKABE_ITO

ELO = 400 / math.log(10)  # Elo points per unit of the logistic scale: 400 points = 10:1 odds


# ----------------------------------------------------------------------------- games

def games_of(source: Any) -> list[dict]:
    """The counted games of `source` as rows with ``agents`` (per seat) and ``winners`` (seats)."""
    rows = _rows(source)
    for row in rows:
        if not isinstance(row.get("agents"), Sequence) or not isinstance(row.get("winners"), Sequence):
            raise ValueError(f"a game row needs 'agents' and 'winners' lists, got {sorted(row)}")
    return counted(rows)


def _rows(source: Any) -> list[dict]:
    if isinstance(source, pd.DataFrame):
        return [{"agents": list(a), "winners": [int(w) for w in ws], "reason": r}
                for a, ws, r in zip(source["agents"], source["winners"], source["reason"])]
    if isinstance(source, dict) and "games" in source:  # a dataset's tables
        return _rows(source["games"])
    if isinstance(source, str | Path):
        return _rows_of_path(Path(source))
    if isinstance(source, Iterable):
        items = list(source)
        if all(isinstance(item, dict) and "agents" in item for item in items):
            return items
        return [row for item in items for row in _rows(item)]
    raise TypeError(f"not a source of games: {type(source).__name__} (a tournament store, a dataset folder, "
                    "game rows, or a list of them)")


def _rows_of_path(path: Path) -> list[dict]:
    if path.is_dir():
        if not (path / "manifest.json").is_file() or not (path / "games").is_dir():
            raise FileNotFoundError(f"{path}: not a ktenv dataset (no manifest.json and games table)")
        return _rows(pd.read_parquet(path / "games", columns=["agents", "winners", "reason"]))
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such tournament store or dataset")
    from ..arena.tournament import Store

    store = Store(path)
    try:
        return store.games()
    finally:
        store.close()


# ----------------------------------------------------------------------------- the crosstable

def crosstable(source: Any, agents: Sequence[str] | None = None) -> pd.DataFrame:
    """Per ordered pair (agent, opponent) that met: ``games``, the agent's ``wins`` (a shared win counts as a
    share), ``rate`` with its 95% Wilson interval (``low``, ``high``), and the same by the agent's seat
    (``seat0_games``, ``seat0_wins``, ``seat0_rate``, ``seat0_low``, ``seat0_high``, then seat 1 ...). With two
    players the seat split is the agent as the first seat against it as the second; the tournament's schedule
    rotates the seats, so both halves hold about as many games. An agent that holds several seats of a game
    (more seats than agents) plays one game there and wins its seats' shares; each of its seats counts in the
    split. `agents` orders (and selects) the rows."""
    games = games_of(source)
    if not games:
        raise ValueError("no counted games in the source")
    met: dict[tuple[str, str, int], float] = defaultdict(float)  # by seat (-1: the whole game)
    won: dict[tuple[str, str, int], float] = defaultdict(float)
    seats = max(len(g["agents"]) for g in games)
    for g in games:
        names, winners = list(g["agents"]), set(g["winners"])
        share = 1.0 / len(winners) if winners else 0.0
        for agent in set(names):  # an agent in several seats (more seats than agents) plays one game
            mine = [s for s, name in enumerate(names) if name == agent]
            for opponent in set(names) - {agent}:
                met[agent, opponent, -1] += 1
                won[agent, opponent, -1] += share * len(winners & set(mine))
                for seat in mine:
                    met[agent, opponent, seat] += 1
                    won[agent, opponent, seat] += share if seat in winners else 0.0
    order = _order(agents, {a for a, _, _ in met})
    rows = []
    for agent in order:
        for opponent in order:
            if agent == opponent or not met.get((agent, opponent, -1)):
                continue
            row = {"agent": agent, "opponent": opponent}
            for s in range(-1, seats):
                row.update(_rate("" if s < 0 else f"seat{s}_", won.get((agent, opponent, s), 0.0),
                                 met.get((agent, opponent, s), 0.0)))
            rows.append(row)
    return pd.DataFrame(rows)


def _order(agents: Sequence[str] | None, found: set[str]) -> list[str]:
    if agents is None:
        return sorted(found)
    missing = [a for a in agents if a not in found]
    if missing:
        raise ValueError(f"agent(s) {missing} played no counted game in the source (found: {sorted(found)})")
    return list(agents)


def _rate(prefix: str, wins: float, games: float) -> dict:
    rate = wins / games if games else float("nan")
    low, high = wilson(wins, int(round(games))) if games else (float("nan"), float("nan"))
    if games:  # Wilson's bounds are floating point: never let them exclude the rate itself
        low, high = min(low, rate), max(high, rate)
    return {f"{prefix}games": int(round(games)), f"{prefix}wins": wins, f"{prefix}rate": rate,
            f"{prefix}low": low, f"{prefix}high": high}


def rate_matrix(table: pd.DataFrame, agents: Sequence[str] | None = None) -> pd.DataFrame:
    """`crosstable`'s rates as a square frame: row agent's win share against the column agent (NaN: never met)."""
    order = list(agents) if agents is not None else sorted(set(table["agent"]) | set(table["opponent"]))
    matrix = table.pivot(index="agent", columns="opponent", values="rate")
    return matrix.reindex(index=order, columns=order)


def plot_crosstable(table: pd.DataFrame, agents: Sequence[str] | None = None, ax=None, title: str = ""):
    """The rate matrix as a heat map (cividis: colour-blind safe), each cell's rate and games written in it."""
    from ..arena.plots import HEAD_TO_HEAD_CMAP, text_colour

    matrix = rate_matrix(table, agents)
    order = list(matrix.index)
    games = table.pivot(index="agent", columns="opponent", values="games").reindex(index=order, columns=order)
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(1.2 * len(order) + 2.5, 1.0 * len(order) + 1.5))[1]
    data = matrix.to_numpy(dtype=float)
    image = ax.imshow(data, vmin=0, vmax=1, cmap=HEAD_TO_HEAD_CMAP)
    for i in range(len(order)):
        for j in range(len(order)):
            if i == j or np.isnan(data[i, j]):
                ax.text(j, i, "-", ha="center", va="center", fontsize=8)
                continue
            ax.text(j, i, f"{100 * data[i, j]:.0f}%\n({int(games.iat[i, j])})", ha="center", va="center",
                    fontsize=8, color=text_colour(image.cmap(image.norm(data[i, j]))))
    ax.set_xticks(range(len(order)), order, rotation=30, ha="right")
    ax.set_yticks(range(len(order)), order)
    ax.set_title(title or "row agent's win share against the column agent (games)")
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return ax


# ----------------------------------------------------------------------------- the population's game

def payoff_matrix(table: pd.DataFrame, agents: Sequence[str] | None = None) -> pd.DataFrame:
    """The symmetric zero-sum game of the population: ``payoff[a][b]`` = a's win share against b minus b's
    against a (in [-1, 1], antisymmetric; with two players it is 2 x rate - 1). Every pair must have met."""
    rates = rate_matrix(table, agents)
    payoff = rates - rates.T
    missing = [(a, b) for a in payoff.index for b in payoff.columns if a < b and np.isnan(payoff.at[a, b])]
    if missing:
        raise ValueError(f"pairs that never met (the payoff matrix needs every pair): {missing[:5]}")
    for a in payoff.index:
        payoff.at[a, a] = 0.0
    return payoff


def _square(payoff: pd.DataFrame | np.ndarray) -> tuple[np.ndarray, list[str]]:
    if isinstance(payoff, pd.DataFrame):
        if list(payoff.index) != list(payoff.columns):
            raise ValueError("the payoff matrix's rows and columns must name the same agents in the same order")
        names, matrix = [str(a) for a in payoff.index], payoff.to_numpy(dtype=float)
    else:
        matrix = np.asarray(payoff, dtype=float)
        names = [str(i) for i in range(len(matrix))]
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or not len(matrix):
        raise ValueError(f"expected a square payoff matrix, got shape {matrix.shape}")
    if not np.isfinite(matrix).all():
        raise ValueError("the payoff matrix has missing or infinite entries")
    return matrix, names


def nash_average(payoff: pd.DataFrame | np.ndarray, tolerance: float = 1e-9) -> pd.DataFrame:
    """Nash averaging (Balduzzi et al. 2018) of an antisymmetric payoff matrix: per agent, its ``mass`` in the
    maximum-entropy Nash equilibrium of the symmetric zero-sum game, and its ``payoff`` against that mixture
    (0 for every agent the equilibrium plays, below 0 for the others). Adding copies of an agent or of a weak
    one changes neither: strength against the strongest mixture, not against whoever happens to be in the pool.

    Solved as linear programs (scipy): which agents some equilibrium plays, then the mixture of largest entropy
    over those."""
    from scipy.optimize import linprog, minimize

    matrix, names = _square(payoff)
    if np.abs(matrix + matrix.T).max() > 1e-9:
        raise ValueError("Nash averaging needs an antisymmetric payoff matrix (payoff_matrix gives one)")
    n = len(matrix)
    # the equilibria (value 0): mixtures p >= 0, sum 1, with matrix @ p <= 0 (no agent gains against p)
    bounds, equal = [(0, 1)] * n, (np.ones((1, n)), [1.0])
    vertices = []
    for i in range(n):
        goal = np.zeros(n)
        goal[i] = -1.0
        found = linprog(goal, A_ub=matrix, b_ub=np.zeros(n), A_eq=equal[0], b_eq=equal[1], bounds=bounds,
                        method="highs")
        if found.status != 0:
            raise RuntimeError(f"Nash averaging: the linear program failed ({found.message})")
        vertices.append(found.x)
    support = np.array([v[i] > tolerance for i, v in enumerate(vertices)])
    start = np.mean(vertices, axis=0)[support]  # inside the equilibria: every supported agent has mass
    sub = matrix[:, support]

    def negentropy(p):
        q = np.clip(p, 1e-300, None)
        return float(np.sum(q * np.log(q))), np.log(q) + 1.0

    result = minimize(negentropy, start / start.sum(), jac=True, method="SLSQP", bounds=[(0, 1)] * len(start),
                      constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1.0, "jac": lambda p: np.ones_like(p)},
                                   {"type": "ineq", "fun": lambda p: -sub @ p, "jac": lambda p: -sub}],
                      options={"ftol": 1e-12, "maxiter": 500})
    mix = np.zeros(n)
    chosen = result.x if result.success and (sub @ result.x).max() <= 1e-7 else start / start.sum()
    mix[support] = np.clip(chosen, 0, None) / np.clip(chosen, 0, None).sum()
    table = pd.DataFrame({"agent": names, "mass": mix, "payoff": matrix @ mix}).round(12)  # (solver noise)
    return table.sort_values(["payoff", "mass"], ascending=False, ignore_index=True, kind="stable")


def alpha_rank(payoff: pd.DataFrame | np.ndarray, alpha: float = 50.0, population: int = 50) -> pd.DataFrame:
    """Single-population alpha-Rank (Omidshafiei et al. 2019): the stationary distribution (``mass``) of the
    Markov chain whose states are monomorphic populations of one agent, moving to another agent at the rate
    that a single mutant of it takes over a population of `population` (Fermi selection of strength `alpha`).
    `payoff[a][b]` is a's payoff against b (any symmetric two-player game, e.g. `payoff_matrix`). Large `alpha`
    approaches the ranking's limit: the mass sits on the agents no other agent invades, cycles share it."""
    matrix, names = _square(payoff)
    if alpha <= 0 or population < 2:
        raise ValueError(f"alpha must be > 0 and population >= 2, got {alpha} and {population}")
    n = len(matrix)
    if n == 1:
        return pd.DataFrame({"agent": names, "mass": [1.0], "rank": [1]})
    chain = np.zeros((n, n))
    m = population
    for s in range(n):
        for r in range(n):
            if r != s:
                chain[s, r] = _fixation(matrix, r, s, alpha, m) / (n - 1)
        chain[s, s] = 1.0 - chain[s].sum()
    # the stationary distribution: pi @ chain = pi, sum(pi) = 1
    system = np.vstack([chain.T - np.eye(n), np.ones((1, n))])
    target = np.zeros(n + 1)
    target[-1] = 1.0
    mass = np.clip(np.linalg.lstsq(system, target, rcond=None)[0], 0, None)
    mass /= mass.sum()
    table = pd.DataFrame({"agent": names, "mass": mass.round(12)})  # (rounding noise must not split a tie)
    table = table.sort_values("mass", ascending=False, ignore_index=True, kind="stable")
    table["rank"] = table["mass"].rank(ascending=False, method="min").astype(int)
    return table


def _fixation(matrix: np.ndarray, r: int, s: int, alpha: float, m: int) -> float:
    """The chance that one mutant playing r takes over a population of m playing s (a Moran process)."""
    k = np.arange(1, m)
    fitness_r = ((k - 1) * matrix[r, r] + (m - k) * matrix[r, s]) / (m - 1)
    fitness_s = (k * matrix[s, r] + (m - k - 1) * matrix[s, s]) / (m - 1)
    logs = np.concatenate([[0.0], np.cumsum(-alpha * (fitness_r - fitness_s))])
    top = logs.max()
    return float(np.exp(-top) / np.exp(logs - top).sum())  # 1 / sum_l exp(logs[l]), without overflow


def plot_population(table: pd.DataFrame, value: str = "mass", ax=None, title: str = ""):
    """`nash_average`'s or `alpha_rank`'s masses (or Nash payoffs with value="payoff") as bars, best at the top."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(6, 0.4 * len(table) + 1))[1]
    y = np.arange(len(table))[::-1]
    ax.barh(y, table[value], color=OKABE_ITO[2])
    ax.set_yticks(y, table["agent"].tolist())
    ax.set_xlabel(value)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_title(title or value)
    return ax


# ----------------------------------------------------------------------------- ratings

def fit_ratings(table: pd.DataFrame, fixed: str = "expert", prior_games: float = 1.0) -> pd.DataFrame:
    """Bradley-Terry ratings on the Elo scale (400 points: 10 to 1 odds) from `crosstable`'s results, `fixed`
    at 0, with 95% intervals from the likelihood's curvature. Each pair's score is the first agent's win
    share against the second's (their games where neither won count for nothing). `prior_games`: a virtual
    game drawn with `fixed` for every other agent, so an agent that won or lost every game gets a finite
    rating (0 for none: then such a rating runs off to infinity)."""
    agents = sorted(set(table["agent"]) | set(table["opponent"]))
    if fixed not in agents:
        raise ValueError(f"the fixed agent {fixed!r} played no game here (agents: {agents})")
    index = {a: i for i, a in enumerate(agents)}
    wins = np.zeros((len(agents), len(agents)))
    for row in table.itertuples(index=False):
        wins[index[row.agent], index[row.opponent]] = row.wins
    for a in agents:
        if a != fixed and prior_games > 0:
            wins[index[a], index[fixed]] += prior_games / 2
            wins[index[fixed], index[a]] += prior_games / 2
    ratings, covariance = _bradley_terry(wins, index[fixed])
    # odds beyond e^15 (6,500 points) only come from a likelihood whose maximum lies at infinity
    if not np.isfinite(ratings).all() or np.abs(ratings).max() > 15:
        raise ValueError("the ratings do not converge: an agent won or lost every game (set prior_games > 0) or "
                         f"is not connected to {fixed!r} by games")
    se = np.sqrt(np.clip(np.diag(covariance), 0, None))
    games = table.groupby("agent")["games"].sum()
    out = pd.DataFrame({"agent": agents, "rating": ELO * ratings, "low": ELO * (ratings - Z95 * se),
                        "high": ELO * (ratings + Z95 * se), "games": [int(games.get(a, 0)) for a in agents]})
    return out.sort_values("rating", ascending=False, ignore_index=True)


def _bradley_terry(wins: np.ndarray, fixed: int, iterations: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Maximum likelihood of P(i beats j) = sigmoid(r_i - r_j) with r[fixed] = 0, by Newton's method:
    (ratings, their covariance; 0 for the fixed one)."""
    n = len(wins)
    free = [i for i in range(n) if i != fixed]
    games = wins + wins.T
    r = np.zeros(n)
    covariance = np.zeros((n, n))
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
        gradient = (wins - games * p).sum(axis=1)
        information = np.diag((games * p * (1 - p)).sum(axis=1)) - games * p * (1 - p)
        sub = information[np.ix_(free, free)]
        try:
            step = np.linalg.solve(sub, gradient[free])
        except np.linalg.LinAlgError:
            return np.full(n, np.nan), covariance
        r[free] += np.clip(step, -5, 5)
        if np.abs(step).max() < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
    information = np.diag((games * p * (1 - p)).sum(axis=1)) - games * p * (1 - p)
    covariance[np.ix_(free, free)] = np.linalg.inv(information[np.ix_(free, free)])
    return r, covariance


# ----------------------------------------------------------------------------- a training run's checkpoints

def run_checkpoints(run: str | Path) -> list[tuple[int, Path]]:
    """(training step, model file) of a run folder's checkpoints (``checkpoints/step_N.zip``) and
    ``final.zip``, by step; final.zip stands for its step when a checkpoint of that step is there too."""
    from ..training.policy import CheckpointError, read_meta

    run = Path(run)
    if not (run / "config.yaml").is_file():
        raise FileNotFoundError(f"{run}: not a training run folder (no config.yaml)")
    found: dict[int, Path] = {}
    for path in sorted((run / "checkpoints").glob("step_*.zip")):
        stem = path.stem.removeprefix("step_")
        if stem.isdigit() and not path.name.endswith(".partial.zip"):
            found[int(stem)] = path
    final = run / "final.zip"
    if final.is_file():
        try:
            step = read_meta(final).get("step")
        except CheckpointError:
            step = None
        if isinstance(step, int):
            found[step] = final
    if not found:
        raise FileNotFoundError(f"{run}: no checkpoints/step_N.zip and no final.zip to rate")
    return sorted(found.items())


def checkpoint_label(step: int) -> str:
    return f"step_{step}"


def checkpoint_ratings(run: str | Path, anchors: Sequence[str] = ("expert", "greedy", "random"),
                       games: int = 40, fixed: str = "expert", out: str | Path | None = None, workers: int = 1,
                       seed: int = 1, steps: Sequence[int] | None = None,
                       between_checkpoints: bool = False) -> dict[str, pd.DataFrame]:
    """Play every checkpoint of the training run `run` (`run_checkpoints`, or those of `steps`) against each
    anchor (any agent spec; ``LABEL=SPEC`` names one: ``shipped=ppo:models/ppo_2p.zip``), and the anchors
    against each other, `games` games a pair in the run's own game (players, round limit, options) with seats
    rotated (`between_checkpoints`: every pair of checkpoints too, which the payoff matrix of `nash_average` and
    `alpha_rank` needs), through the arena's tournaments (one SQLite store per pair under `out`, default
    ``<run>/ratings``, so a second call plays only what is missing); then rate everyone with `fit_ratings`,
    `fixed` at 0.

    Returns ``{"ratings": one row per agent with its training step (None for anchors), rating and 95% interval,
    and its win rate against each anchor; "crosstable": all the pairs' results; "games": the game rows}``."""
    from ..arena import TournamentConfig, run_tournament
    from ..gamekit.cli import agent_label

    specs = dict(agent_label(a) for a in anchors)  # LABEL=SPEC anchors go by their label
    anchors = list(specs)
    if fixed not in anchors:
        raise ValueError(f"the fixed agent {fixed!r} must be one of the anchors {anchors}")
    cfg = _run_config(run)
    checkpoints = run_checkpoints(run)
    if steps is not None:
        wanted = set(steps)
        checkpoints = [(s, p) for s, p in checkpoints if s in wanted]
        if missing := sorted(wanted - {s for s, _ in checkpoints}):
            raise ValueError(f"{run}: no checkpoint of step(s) {missing}")
    specs.update({checkpoint_label(step): f"ppo:{path}" for step, path in checkpoints})
    models = [checkpoint_label(step) for step, _ in checkpoints]
    folder = Path(out) if out is not None else Path(run) / "ratings"
    pairs = [(m, a) for m in models for a in anchors] + \
            [(a, b) for i, a in enumerate(anchors) for b in anchors[i + 1:]]
    if between_checkpoints:
        pairs += [(a, b) for i, a in enumerate(models) for b in models[i + 1:]]
    rows: list[dict] = []
    for a, b in pairs:
        agents = [x if specs[x] == x else f"{x}={specs[x]}" for x in (a, b)]
        tournament = TournamentConfig(
            agents=agents, players=cfg.env.players, games=games, workers=workers, seed=seed,
            max_rounds=cfg.env.max_rounds, game=dict(cfg.env.game), game_name=cfg.env.game_name, progress=False,
            resume=True, db=str(folder / f"{a}_vs_{b}.sqlite"))
        rows += run_tournament(tournament)["games"]
    table = crosstable(rows)
    ratings = fit_ratings(table, fixed=fixed)
    step_of = {checkpoint_label(step): step for step, _ in checkpoints}
    ratings.insert(1, "step", [step_of.get(a) for a in ratings["agent"]])
    for anchor in anchors:
        against = table[table["opponent"] == anchor].set_index("agent")
        for column in ("rate", "low", "high"):
            ratings[f"vs_{anchor}_{column}"] = ratings["agent"].map(against[column])
    ratings = pd.concat([ratings[ratings["step"].notna()].sort_values("step"), ratings[ratings["step"].isna()]],
                        ignore_index=True)
    ratings["step"] = ratings["step"].astype("Int64")
    return {"ratings": ratings, "crosstable": table, "games": rows}


def _run_config(run: str | Path):
    from ..training.config import TrainConfig

    path = Path(run) / "config.yaml"
    if not path.is_file():
        raise FileNotFoundError(f"{run}: not a training run folder (no config.yaml)")
    return TrainConfig.from_yaml(path)


def plot_checkpoint_ratings(ratings: pd.DataFrame, ax=None, title: str = ""):
    """Each checkpoint's rating by training step with its 95% interval; the anchors as level lines with bands."""
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots(figsize=(7, 4))[1]
    points = ratings[ratings["step"].notna()]
    steps = points["step"].astype(float)
    ax.errorbar(steps, points["rating"], yerr=[points["rating"] - points["low"], points["high"] - points["rating"]],
                fmt="o-", color=OKABE_ITO[4], ecolor=OKABE_ITO[4], capsize=3, label="checkpoints")
    anchors = ratings[ratings["step"].isna()]
    for colour, row in zip((OKABE_ITO[5], OKABE_ITO[0], OKABE_ITO[6], OKABE_ITO[2]), anchors.itertuples()):
        ax.axhline(row.rating, color=colour, lw=1.2, ls="--", label=row.agent)
        ax.axhspan(row.low, row.high, color=colour, alpha=0.12)
    ax.set_xlabel("training step")
    ax.set_ylabel("rating (Elo scale; bars and bands: 95%)")
    ax.set_title(title or "checkpoints against the anchor agents")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return ax


__all__ = ["alpha_rank", "checkpoint_ratings", "crosstable", "fit_ratings", "games_of", "nash_average",
           "payoff_matrix", "plot_checkpoint_ratings", "plot_crosstable", "plot_population", "rate_matrix",
           "run_checkpoints"]

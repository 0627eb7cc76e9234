"""The outcome model: a game's win chances from the public facts of its players, fitted to games' outcomes.

Each player's ten public facts (`FEATURES`) are weighed; the win chance of each player still in the game is the
softmax of the weighted sums (for two players the logistic of the difference). The weights are fitted by
logistic regression to the winners of native `expert`-vs-`expert` games, the games the search's rollouts
play: the search's option ``outcome=PATH`` values an unfinished rollout by it instead of the public score's
share. Fit one with

    python -m ktenv.agents.kings_and_things.outcome --players 2 --games 10000 --seed 900000 --out models/outcome_2p.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from ktenv.kings_and_things.env.stats import (
    BOARD_THINGS,
    CITADELS,
    FORT_LEVELS,
    GOLD,
    HEROES,
    HEXES,
    INCOME,
    SCREEN_SIZE,
    player_stats,
)

# In the native search's order (search/ismcts.hpp, kOutcome)
FEATURES = ("income", "hexes", "fort_levels", "citadels", "highest_fort", "heroes", "gold", "citadel_step",
            "board_things", "screen")
GOLD_CAP = 25.0  # gold beyond this many (five recruits) says little about the winner
CITADEL_INCOME = {6: 25.0, 4: 20.0}  # R14.3, R20.1; 15 otherwise (as the search's race_progress)


@dataclass(frozen=True)
class OutcomeModel:
    n_players: int
    weights: np.ndarray  # float64[len(FEATURES)]
    gold_cap: float
    about: dict  # how it was fitted: games, seeds, held-out log loss


def table(stats: np.ndarray, highest: np.ndarray, n_players: int, gold_cap: float) -> np.ndarray:
    """float64[n, len(FEATURES)] from `player_stats` rows and each player's highest fort level."""
    st = stats.astype(np.float64)
    income, gold = st[:, INCOME], st[:, GOLD]
    on_castle = np.minimum(1.0, income / CITADEL_INCOME.get(n_players, 15.0)) + np.minimum(1.0, gold / 5.0)
    step = np.where(highest == 4, 2.0, np.where(highest == 3, on_castle, 0.0))  # the Citadel's last step (R14.3)
    return np.stack([income, st[:, HEXES], st[:, FORT_LEVELS], st[:, CITADELS], highest.astype(np.float64),
                     st[:, HEROES], np.minimum(gold, gold_cap), step, st[:, BOARD_THINGS], st[:, SCREEN_SIZE]], -1)


def highest_forts(hex_owner: np.ndarray, hex_fort: np.ndarray, n_players: int) -> np.ndarray:
    highest = np.zeros(n_players)
    owner = np.asarray(hex_owner)
    own = (owner >= 0) & (owner < n_players)
    np.maximum.at(highest, owner[own].astype(np.int64), np.asarray(hex_fort)[own])
    return highest


def features(s, gold_cap: float = GOLD_CAP) -> np.ndarray:
    """The players' features in a game (Python or native state)."""
    n = s.n_players
    stats = s.player_stats() if hasattr(s, "player_stats") else player_stats(s)
    return table(stats, highest_forts(s.hex_owner, s.hex_fort, n), n, gold_cap)


def win_chances(x: np.ndarray, weights: np.ndarray, alive: np.ndarray) -> np.ndarray:
    """The softmax over the players still in the game of weights . features (0 for the others)."""
    score = np.where(alive, x @ weights, -np.inf)
    e = np.exp(score - score.max()) * alive
    return e / e.sum()


def value(s, model: OutcomeModel) -> np.ndarray:
    """Per player, the model's win chance in an unfinished game."""
    return win_chances(features(s, model.gold_cap), model.weights, np.asarray(s.alive, bool))


# ----- files


def load(path: str, n_players: int | None = None) -> OutcomeModel:
    """The model in a JSON file; a one-line ValueError for a missing or malformed file or another table size."""
    try:
        with open(path) as f:
            d = json.load(f)
        weights = np.asarray([float(d["weights"][k]) for k in FEATURES])
        model = OutcomeModel(int(d["n_players"]), weights, float(d.get("gold_cap", GOLD_CAP)), dict(d.get("about", {})))
    except OSError as exc:
        raise ValueError(f"outcome model {path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"outcome model {path}: not an outcome model ({type(exc).__name__}: {exc}); it needs "
                         f"n_players and weights for {', '.join(FEATURES)}") from None
    if not (np.isfinite(model.weights).all() and math.isfinite(model.gold_cap) and model.gold_cap > 0):
        raise ValueError(f"outcome model {path}: weights and gold_cap must be finite, gold_cap > 0")
    if n_players is not None and model.n_players != n_players:
        raise ValueError(f"outcome model {path} was fitted to {model.n_players}-player games; this table has "
                         f"{n_players} players")
    return model


def save(model: OutcomeModel, path: str) -> None:
    """Written whole or not at all (a temporary file renamed into place)."""
    d = {"n_players": model.n_players, "gold_cap": model.gold_cap,
         "weights": {k: round(float(w), 6) for k, w in zip(FEATURES, model.weights)}, "about": model.about}
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


# ----- fitting


def play(job: tuple[int, int, int, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One native expert game (the round cap given): features at sampled decisions, their rounds, the winners' share."""
    from ktenv.gamekit.native import seed_words
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.native.bridge import core
    from ktenv.kings_and_things.native.expert import expert_plan_for
    from ktenv.kings_and_things.native.game import NativeGame
    from ktenv.kings_and_things.native.observation import NativeObservationEncoder

    n, seed, max_rounds, every = job
    cfg = GameConfig(n_players=n, max_rounds=max_rounds)
    g, plan = NativeGame.new(cfg, seed), expert_plan_for(cfg)
    obs_plan = NativeObservationEncoder(cfg).plan
    experts = [core().Expert(plan, seed_words(seed * 10 + p)) for p in range(n)]
    rng = np.random.default_rng(seed)
    rows, rounds = [], []
    while not g.game_over:
        if rng.random() < every:
            rows.append(features(g))
            rounds.append(g.round)
        p = g.actor
        g.step(experts[p].act_state(g.native, obs_plan, p, g.legal_mask()))
    won = np.zeros(n)
    won[list(g.winners)] = 1.0 / max(len(g.winners), 1)
    return np.asarray(rows).reshape(-1, n, len(FEATURES)), np.asarray(rounds, np.int64), won


def fit_weights(x: np.ndarray, won: np.ndarray, l2: float = 1e-4) -> np.ndarray:
    """Multinomial logistic regression of the winner on the players' features (x: [rows, n, k], won: [rows, n])."""
    from scipy.optimize import minimize

    def loss(w):
        z = x @ w
        z = z - z.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        p = np.exp(logp)
        grad = np.einsum("rn,rnk->k", p - won, x) / len(x)
        return -(won * logp).sum(1).mean() + l2 * w @ w, grad + 2 * l2 * w

    return minimize(loss, np.zeros(x.shape[2]), jac=True, method="L-BFGS-B").x


def log_loss(x: np.ndarray, won: np.ndarray, w: np.ndarray) -> float:
    z = x @ w
    z = z - z.max(1, keepdims=True)
    return float(-(won * (z - np.log(np.exp(z).sum(1, keepdims=True)))).sum(1).mean())


def fit(n_players: int, games: int, seed: int, max_rounds: int = 40, every: float = 0.02, workers: int = 2,
        held_out: int = 5) -> OutcomeModel:
    """Play `games` expert games (seeds seed...), fit on all but every `held_out`-th game, report its log loss."""
    t0 = time.perf_counter()
    jobs = [(n_players, seed + g, max_rounds, every) for g in range(games)]
    xs, ys, test = [], [], []
    with ProcessPoolExecutor(workers) as pool:
        for i, (x, _, won) in enumerate(pool.map(play, jobs, chunksize=8)):
            xs.append(x)
            ys.append(np.repeat(won[None], len(x), 0))
            test.append(np.full(len(x), i % held_out == 0))
            if (i + 1) % max(1, games // 10) == 0:
                print(f"  {i + 1}/{games} games, {sum(map(len, xs))} positions, {time.perf_counter() - t0:.0f} s",
                      flush=True)
    x, won, test = np.concatenate(xs), np.concatenate(ys), np.concatenate(test)
    decided = won.max(1) == 1.0  # shared wins say little about the features
    train, check = decided & ~test, decided & test
    w = fit_weights(x[train], won[train])
    even = np.full(n_players, 1.0 / n_players)
    about = {"games": games, "seeds": [seed, seed + games - 1], "max_rounds": max_rounds, "positions": int(train.sum()),
             "held_out_log_loss": round(log_loss(x[check], won[check], w), 4),
             "coin_log_loss": round(float(-(won[check] * np.log(even)).sum(1).mean()), 4),
             "fitted_in_seconds": round(time.perf_counter() - t0, 1)}
    return OutcomeModel(n_players, w, GOLD_CAP, about)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=900000)
    ap.add_argument("--max-rounds", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    model = fit(args.players, args.games, args.seed, args.max_rounds, workers=args.workers)
    save(model, args.out)
    print(json.dumps({k: round(float(w), 4) for k, w in zip(FEATURES, model.weights)}), model.about, sep="\n")


if __name__ == "__main__":
    main()

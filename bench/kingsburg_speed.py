"""Kingsburg's two engines side by side, in one run: random playouts, decisions per second.

    python bench/kingsburg_speed.py --seconds 5 --players 4

Rows (uniform random decisions among the legal ones; each row for about `--seconds`):

- Python engine: `new_game(backend="python")`, `legal_mask`, `step` (the reference);
- native engine driven from Python: the same calls on a native game (`backend="native"`), the floor of any
  Python driver (a PettingZoo env adds its observations on top);
- native random playouts inside native code (`_kingsburg_core.random_games`, one core, the GIL released);
- the batched games (`VectorEnv`, 256 games, observations and masks written every call, seat 0 the caller's
  uniform random choice made with numpy, the other seats native players: random, on one thread and on
  `--threads`; then greedy and expert): the caller's decisions/s and the decisions of whole games per second
  (their `final_length`, every seat's).

A decision is a step of `machine.step`: a choice among two or more legal actions (forced moves are taken by
the engines themselves, K16). The last line: the native/Python ratio of random playouts and the batched games'
decisions/s (random seats, `--threads` threads).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def run_engine(backend: str, players: int, seconds: float, seed: int = 0) -> tuple[float, int, int]:
    """(decisions/s, decisions, games) of random play through ktenv.kingsburg.machine on `backend`."""
    from ktenv.kingsburg.config import KingsburgConfig
    from ktenv.kingsburg.machine import legal_mask, new_game, step

    cfg = KingsburgConfig(n_players=players)
    rng = np.random.default_rng(seed)
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        s = new_game(cfg, seed + games, backend=backend)
        games += 1
        while not s.game_over:
            legal = np.flatnonzero(legal_mask(s))
            step(s, int(legal[rng.integers(legal.size)]))
            decisions += 1
    return decisions / (time.perf_counter() - start), decisions, games


def run_native_playouts(players: int, seconds: float, seed: int = 0) -> tuple[float, int, int]:
    """(decisions/s, decisions, games) of random playouts inside native code, in batches until `seconds`."""
    from ktenv.kingsburg.config import KingsburgConfig
    from ktenv.kingsburg.native import core
    from ktenv.rng import Dice

    cfg = KingsburgConfig(n_players=players)
    decisions = games = 0
    elapsed = 0.0
    batch = 100
    while elapsed < seconds:
        made, took = core().random_games(cfg, Dice(seed + games).state, batch)
        decisions, games, elapsed = decisions + made, games + batch, elapsed + took
        batch = min(batch * 2, 20_000)
    return decisions / elapsed, decisions, games


def run_vector(players: int, seconds: float, seed: int = 0, num_envs: int = 256, threads: int = 1,
               native: str = "random") -> tuple[float, float, int]:
    """(the caller's decisions/s, every seat's decisions/s in the games that ended, games ended) of VectorEnv
    with `native` seats beside the caller's."""
    from ktenv.kingsburg.native.vector import VectorEnv

    env = VectorEnv(num_envs, num_players=players, seed=seed, seats=("external",) + (native,) * (players - 1),
                    num_threads=threads)
    out = env.reset()
    rng = np.random.default_rng(seed)
    calls = games = whole = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        out = env.step((rng.random(out["action_mask"].shape, dtype=np.float32) * out["action_mask"]).argmax(1))
        calls += 1
        games += int(out["terminated"].sum())
        whole += int(out["final_length"].sum())
    took = time.perf_counter() - start
    return calls * num_envs / took, whole / took, games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="about this long for each row")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2, help="threads of the batched games' second row")
    args = parser.parse_args(argv)
    from ktenv.kingsburg import native

    print(f"Kingsburg, {args.players} players, random decisions, about {args.seconds:g} s a row")
    py, py_decisions, py_games = run_engine("python", args.players, args.seconds, args.seed)
    print(f"  python engine                 {py:>12,.0f} decisions/s  ({py_decisions} decisions, {py_games} games)")
    if not native.available():
        print("  the native engine is not built (pip install -e .): no native rows")
        return 1
    driven, d_decisions, d_games = run_engine("native", args.players, args.seconds, args.seed)
    print(f"  native, driven from Python    {driven:>12,.0f} decisions/s  ({d_decisions} decisions, {d_games} games)")
    nat, n_decisions, n_games = run_native_playouts(args.players, args.seconds, args.seed)
    print(f"  native playouts (one core)    {nat:>12,.0f} decisions/s  ({n_decisions} decisions, {n_games} games)")
    rows = [("random", 1), ("random", args.threads), ("greedy", args.threads), ("expert", args.threads)]
    vector = {}
    for kind, threads in rows:
        caller, whole, v_games = vector[kind, threads] = run_vector(args.players, args.seconds, args.seed,
                                                                    threads=threads, native=kind)
        label = f"{threads} thread{'s' if threads > 1 else ' '}"
        print(f"  VectorEnv, 256 games, {kind:<6} seats, {label} {caller:>10,.0f} caller decisions/s, "
              f"{whole:>10,.0f} decisions/s of whole games ({v_games} games)")
    print(f"  native driven from Python / python: {driven / py:.1f}x")
    caller, whole, _ = vector["random", args.threads]
    print(f"native/python random playouts: {nat / py:.0f}x (target >= 50x); VectorEnv {args.threads} threads: "
          f"{whole:,.0f} decisions/s of whole games, {caller:,.0f} caller decisions/s (target >= 500,000)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

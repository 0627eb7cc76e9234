"""Does `ismcts:seconds=T` keep its per-decision time budget? Wall-clock seconds of
every search decision (single-action decisions, played at once, are left out), mean and max, with
the iterations (playouts) the search made in them. On a native game (the default backend for the
base game) the search is the native one.

    python bench/ismcts_budget.py --seconds 0.1 0.25 --games 2 --players 2 --max-rounds 4
    python bench/ismcts_budget.py --seconds 0.15 --options rollout=greedy,cutoff=20 --opponent expert
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from ktenv.agents import kings_and_things as agents

from ktenv.kings_and_things.arena import play_game


def measure(seconds: float, games: int, players: int, max_rounds: int, opponent: str, cutoff: int,
            options: str = "") -> dict:
    times: list[float] = []
    iterations: list[int] = []
    original = agents.ISMCTSAgent.act

    def timed(self, observation, mask):
        t0 = time.perf_counter()
        a = original(self, observation, mask)
        if np.count_nonzero(mask) > 1:
            times.append(time.perf_counter() - t0)
            iterations.append(self.last_iterations)
        return a

    agents.ISMCTSAgent.act = timed
    try:
        from ktenv.kings_and_things.config import GameConfig

        cfg = GameConfig(n_players=players, max_rounds=max_rounds)
        for g in range(games):
            spec = f"ismcts:seconds={seconds},cutoff={cutoff}" + (f",{options}" if options else "")
            names = [spec] + [opponent] * (players - 1)
            names = names[g % players:] + names[:g % players]  # seats rotated
            play_game(cfg, 1000 + g, names)
    finally:
        agents.ISMCTSAgent.act = original
    t = np.asarray(times)
    return {"budget_s": seconds, "decisions": int(t.size), "mean_s": round(float(t.mean()), 4),
            "max_s": round(float(t.max()), 4), "p99_s": round(float(np.quantile(t, 0.99)), 4),
            "over_budget": int(np.count_nonzero(t > seconds)), "mean_iterations": round(float(np.mean(iterations)), 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, nargs="+", default=[0.1, 0.25])
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--max-rounds", type=int, default=4)
    p.add_argument("--cutoff", type=int, default=20)
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--options", default="", help="more ismcts options, e.g. rollout=greedy,c=0.3")
    args = p.parse_args()
    for s in args.seconds:
        print(json.dumps(measure(s, args.games, args.players, args.max_rounds, args.opponent, args.cutoff,
                                 args.options)))


if __name__ == "__main__":
    main()

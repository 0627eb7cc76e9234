"""A 2-player Kingsburg match of the `search` agent against one opponent, seats swapped every game.

    python bench/kingsburg_search_match.py "search:seconds=0.1" expert --games 200 --workers 2

Prints the search agent's wins (a shared victory counts half), its win share with a 95% Wilson interval, its
mean VP lead, the searched decisions per game, their latency (wall time of the agent's whole `act`, expert
ranking included; mean and 95th percentile), the paired rounds per searched decision and the share of decisions
where it did not play the expert's move. Game g has seed `seed + g`; the search agent sits in seat g % 2.
Progress: a line every `--every` games.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from ktenv.agents.kingsburg import AGENTS

from ktenv.arena.game import agent_seed
from ktenv.arena.ratings import wilson
from ktenv.kingsburg.config import KingsburgConfig
from ktenv.kingsburg.machine import legal_mask, new_game, step
from ktenv.kingsburg.observation import ObservationEncoder
from ktenv.kingsburg.worlds import WorldSampler


def play(job: tuple[str, str, int, int]) -> dict:
    search, other, seed, seat = job
    cfg = KingsburgConfig.from_dict({"n_players": 2})
    names = [search, other] if seat == 0 else [other, search]
    seats = [AGENTS.make(name, seed=agent_seed(seed, p)) for p, name in enumerate(names)]
    enc = ObservationEncoder(2)
    s = new_game(cfg, seed, backend="native")
    latency, rounds, deviated = [], 0, 0
    while not s.game_over:
        p, mask = s.actor, legal_mask(s)
        agent = seats[p]
        obs = {"observation": enc.encode(s, p), "action_mask": mask}
        if getattr(agent, "needs_worlds", False):
            obs["worlds"] = WorldSampler(s, p)
        t0 = time.perf_counter()
        a = agent.act(obs, mask)
        if p == seat and getattr(agent, "last_candidate", -1) >= 0:
            latency.append(time.perf_counter() - t0)
            rounds += agent.last_rounds
            deviated += agent.last_candidate > 0
        step(s, a)
    won = 1.0 if list(s.winners) == [seat] else 0.5 if seat in s.winners else 0.0
    return {"won": won, "lead": int(s.vp[seat]) - int(s.vp[1 - seat]), "latency": latency, "rounds": rounds,
            "deviated": deviated}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("search")
    ap.add_argument("other")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=26000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--every", type=int, default=20, help="a progress line every this many games")
    args = ap.parse_args()
    jobs = [(args.search, args.other, args.seed + g, g % 2) for g in range(args.games)]
    results, t0 = [], time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for r in pool.map(play, jobs):
            results.append(r)
            if len(results) % args.every == 0 and len(results) < len(jobs):
                wins = sum(x["won"] for x in results)
                print(f"  {len(results)} games: {wins:g} won, {time.perf_counter() - t0:.0f} s", flush=True)
    n = len(results)
    wins = sum(r["won"] for r in results)
    lo, hi = wilson(wins, n)
    latency = np.array([x for r in results for x in r["latency"]])
    searched = max(latency.size, 1)
    print(f"{args.search} vs {args.other}: {wins:g}/{n} = {wins / n:.1%} [{lo:.1%}, {hi:.1%}] (95% Wilson); "
          f"VP lead {np.mean([r['lead'] for r in results]):+.1f}; {latency.size / n:.0f} searched decisions a game, "
          f"{latency.mean() * 1e3 if latency.size else 0:.0f} ms each (95th percentile "
          f"{np.percentile(latency, 95) * 1e3 if latency.size else 0:.0f} ms); "
          f"{sum(r['rounds'] for r in results) / searched:.0f} paired rounds a decision, not the expert's move in "
          f"{sum(r['deviated'] for r in results) / searched:.1%}; {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

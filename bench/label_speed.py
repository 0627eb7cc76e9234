"""How fast does the search label decisions (training/expert_iteration.py's stage A)? Labels per second of
`imitation.collect` with a searching teacher in 1 and 2 threads, side by side in one run, on the same games
(the same seeds: the labels are the same whatever the thread count, which this checks too).

    python bench/label_speed.py --games 4 --max-rounds 4
    python bench/label_speed.py --search "ismcts:playouts=240,rollout=expert,cutoff=150,paired=3,z=2" --threads 1 2

A label is one decision of the labelled seat; a searched label one where the search weighed candidates (the
rest: a single legal action, or a move the expert carries out for the stack the search chose). The games are
the search against `expert` (the labelled seat alternating), each played to its end (a shard's games).

Also printed: the process's CPU seconds, and the searches' concurrency: the seconds the searches took (as the
native search measures them) summed, over the wall time. A concurrency near the thread count shows the
searches overlapping (the GIL released); on a machine shared with other work, the labels per second can still
stay flat when the process's share of the CPU is the limit (then the CPU seconds stay flat too).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from ktenv.training import imitation
from ktenv.training.imitation import collect

SEARCH = "ismcts:playouts=240,rollout=expert,cutoff=150,paired=3,z=2"  # about the 0.15 s of `ismcts`, fixed


def measure(search: str, threads: int, games: int, max_rounds: int, seed: int, opponent: str) -> tuple[dict, object]:
    spent: list[float] = []
    original = imitation._search

    def timed(job: tuple):
        out = original(job)
        spent.append(float(getattr(job[1], "last_seconds", 0.0)))
        return out

    imitation._search = timed
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        demos = collect(search, 0, players=2, game={"max_rounds": max_rounds}, reward="shaped", gamma=0.997,
                        opponents={opponent: 1.0}, seed=seed, num_envs=games, threads=threads, one_game_each=True)
    finally:
        imitation._search = original
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    searched = int(((demos.candidates >= 0).sum(1) >= 2).sum()) if demos.candidates is not None else 0
    return {"threads": threads, "games": demos.games, "labels": len(demos), "searched": searched,
            "seconds": round(seconds, 1), "labels_per_s": round(len(demos) / seconds, 2),
            "searched_per_s": round(searched / seconds, 2), "cpu_s": round(cpu, 1),
            "concurrency": round(sum(spent) / seconds, 2),
            "search_won": demos.acting_wins}, demos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", default=SEARCH)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", type=int, default=4, help="games played at once (a shard)")
    parser.add_argument("--max-rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="expert")
    args = parser.parse_args()
    rows, first = [], None
    for threads in args.threads:
        row, demos = measure(args.search, threads, args.games, args.max_rounds, args.seed, args.opponent)
        if first is None:
            first, base = demos, row["labels_per_s"]
        else:
            row["same_labels"] = bool(np.array_equal(first.actions, demos.actions))
        row["speedup"] = round(row["labels_per_s"] / base, 2)
        rows.append(row)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()

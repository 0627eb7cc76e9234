"""A 2-player match of one search agent against one opponent, seats swapped every game.

    python bench/ismcts_match.py "ismcts:seconds=0.1,rollout=expert" expert --games 40 --workers 2
    python bench/ismcts_match.py ismcts expert --games 200 --seed 19000 --out runs/ismcts_200.jsonl

A line per finished game shows the tally so far. With ``--out`` every finished game is appended to a
JSON-lines file at once; run the same command again after an interruption and the games already there
are not played again (the file must hold games of the same match: search, opponent, round limit).

Prints the search agent's wins, its win share with a 95% Wilson interval, the games' rounds, and the
search's decisions per game and seconds per decision (measured in native code: `last_seconds`); with
``paired=K``, the paired rounds per searched decision and the share of them where it did not play the
expert's move (with ``policy=PATH``, the model's); each game's line in ``--out`` lists those departures as
``[round, decision, candidate, mean gain]``.
Game g has seed `seed + g`; the search agent sits in seat g % 2. A drawn or unfinished game counts half.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from ktenv import agents
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.arena import agent_seed, encoder_for
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine import new_game
from ktenv.kings_and_things.engine.machine import legal_mask, step
from ktenv.kings_and_things.worlds import WorldSampler


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(job: tuple[str, str, int, int, int]) -> dict:
    search, other, seed, seat, max_rounds = job
    cfg = GameConfig(n_players=2, max_rounds=max_rounds)
    names = [search, other] if seat == 0 else [other, search]
    seats = [agents.make(name, seed=agent_seed(seed, p)) for p, name in enumerate(names)]
    enc = encoder_for(cfg)
    s = new_game(cfg, seed)
    searched, spent, iterations, t0 = 0, 0.0, 0, time.perf_counter()
    paired_rounds, deviated, departures = 0, 0, []
    while not s.game_over:
        p, mask = s.actor, legal_mask(s)
        agent = seats[p]
        obs = {"observation": enc.encode(s, p), "action_mask": mask}
        if getattr(agent, "needs_worlds", False):
            obs["worlds"] = WorldSampler(s, p)
        a = agent.act(obs, mask)
        paired = getattr(agent, "last_candidate", -1) >= 0  # a paired search, even of no whole round
        if p == seat and mask.sum() > 1 and (getattr(agent, "last_iterations", 0) > 0 or paired):
            searched += 1
            spent += getattr(agent, "last_seconds", 0.0)
            iterations += getattr(agent, "last_iterations", 0)
            if paired:
                paired_rounds += agent.last_rounds
                deviated += agent.last_candidate > 0
                if agent.last_candidate > 0:
                    departures.append([int(s.round), D.NAMES[int(s.decision)], agent.last_candidate,
                                       round(agent.last_gains[agent.last_candidate], 4)])
        step(s, a)
    won = 1.0 if list(s.winners) == [seat] else 0.5 if seat in s.winners or not s.winners else 0.0
    return {"won": won, "rounds": int(s.round), "searched": searched, "spent": spent, "iterations": iterations,
            "seconds": time.perf_counter() - t0, "reason": s.reason, "paired_rounds": paired_rounds,
            "deviated": deviated, "departures": departures}


def finished_games(path: Path, match: dict) -> dict[int, dict]:
    """The games of this match already in `path`, by seed; a torn last line (an interrupted write) is
    dropped from the file, anything else unreadable or of another match stops with an error."""
    if not path.exists():
        return {}
    lines = path.read_text().splitlines(keepends=True)
    games: dict[int, dict] = {}
    for i, line in enumerate(lines):
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            if i == len(lines) - 1 and not line.endswith("\n"):
                path.write_text("".join(lines[:-1]))  # the game is played again
                break
            raise SystemExit(f"ismcts_match: {path} line {i + 1} is not JSON") from None
        if not isinstance(r, dict) or {k: r.get(k) for k in match} != match or not isinstance(r.get("game_seed"), int):
            raise SystemExit(f"ismcts_match: {path} line {i + 1} is not a game of this match ({match})")
        games[r["game_seed"]] = r
    return games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("search")
    ap.add_argument("other")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=16000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=40)
    ap.add_argument("--out", type=Path, help="JSON lines, a finished game each; games already there are skipped")
    args = ap.parse_args()
    match = {"search": args.search, "other": args.other, "max_rounds": args.max_rounds}
    done = finished_games(args.out, match) if args.out else {}
    jobs = [(args.search, args.other, args.seed + g, g % 2, args.max_rounds) for g in range(args.games)]
    results = [done[job[2]] for job in jobs if job[2] in done]
    if results:
        print(f"{len(results)} games already in {args.out}", flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        futures = {pool.submit(play, job): job for job in jobs if job[2] not in done}
        for future in as_completed(futures):
            r = {**match, "game_seed": futures[future][2], "seat": futures[future][3], **future.result()}
            results.append(r)
            if args.out:
                with open(args.out, "a") as f:  # one write a game: an interruption loses at most the game under way
                    f.write(json.dumps(r) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
            wins = sum(x["won"] for x in results)
            outcome = {1.0: "won", 0.0: "lost"}.get(r["won"], "drawn")
            print(f"[{len(results)}/{len(jobs)}] seed {r['game_seed']}: {outcome} in {r['rounds']} rounds; "
                  f"{wins:g} of {len(results)} so far", flush=True)
    wins = sum(r["won"] for r in results)
    lo, hi = wilson(wins, len(results))
    searched = sum(r["searched"] for r in results)
    print(f"{args.search} vs {args.other}: {wins:g}/{len(results)} = {wins / len(results):.0%} "
          f"[{lo:.0%}, {hi:.0%}] (95% Wilson); rounds {sum(r['rounds'] for r in results) / len(results):.1f}; "
          f"{searched / len(results):.0f} searched decisions a game, "
          f"{sum(r['spent'] for r in results) / max(searched, 1) * 1e3:.1f} ms and "
          f"{sum(r['iterations'] for r in results) / max(searched, 1):.0f} iterations each; "
          f"{sum(r['seconds'] for r in results) / len(results):.0f} s a game")
    if any(r["paired_rounds"] for r in results):
        print(f"paired: {sum(r['paired_rounds'] for r in results) / max(searched, 1):.0f} rounds a searched decision, "
              f"not candidate 0 (the expert's move, or with policy= the model's) in "
              f"{sum(r['deviated'] for r in results) / max(searched, 1):.1%} of them")


if __name__ == "__main__":
    main()

"""Two builds of the native engine side by side in one run: random playouts and the paired search.

    cp ktenv/kings_and_things/native/_core*.so /tmp/old_core.so     # keep a build before changing the C++
    python bench/playout_speed.py --baseline /tmp/old_core.so --rounds 5
    python bench/playout_speed.py --baseline /tmp/old_core.so --threads 2   # and the new build's search on 2 threads

Each engine runs in a worker process of its own (two builds of one extension module cannot share a
process), and the workers take turns on the same work, round by round, so that both see the same load:

- random playouts: `--games` new 4-player games (by default) played to the end with uniformly random
  actions inside native code (`_core.play_random_games`, one core), the same seeds for both engines;
- the paired search: the first `--decisions` decisions of a game where seat 0 is
  `ismcts:playouts=P,rollout=expert,cutoff=150,paired=3,z=2` and the others the expert (the arena's loop);
  rollouts per second of native search time (`last_iterations` / `last_seconds` of every searched decision);
  with `--threads N`, a third worker runs the new build's search with `threads=N` (N rounds at once: the
  same choices, rollouts per second of wall time; it needs N free cores).

Bit-exact engines play the same games: the workers' decisions and rollouts must agree, and the script
stops with an error if they do not. The last line gives the ratios (new / baseline).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

SEARCH = "ismcts:playouts={playouts},rollout=expert,cutoff=150,paired=3,z=2"
MODULE = "ktenv.kings_and_things.native._core"


def load_core(path: str) -> None:
    """Make the extension module at `path` the game's native core (before anything imports it)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(MODULE, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"playout_speed: {path} is not an extension module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE] = module
    spec.loader.exec_module(module)


def random_chunk(cfg, seed: int, games: int) -> dict:
    from ktenv.kings_and_things.dev.diff import rules_for
    from ktenv.kings_and_things.native import core

    decisions, seconds = core().play_random_games(rules_for(cfg), seed, games)
    return {"work": int(decisions), "seconds": float(seconds)}


def paired_chunk(cfg, seed: int, decisions: int, playouts: int, threads: int) -> dict:
    from ktenv.agents.kings_and_things import ISMCTSAgent

    from ktenv.kings_and_things.arena import play_out

    rollouts, seconds, actions = [], [], []
    original = ISMCTSAgent.act

    def timed(self, observation, mask):
        a = original(self, observation, mask)
        if self.last_iterations:
            rollouts.append(int(self.last_iterations))
            seconds.append(float(self.last_seconds))
        return a

    ISMCTSAgent.act = timed
    try:
        search = SEARCH.format(playouts=playouts) + (f",threads={threads}" if threads > 1 else "")
        names = [search] + ["expert"] * (cfg.n_players - 1)
        actions = play_out(cfg, seed, names, max_decisions=decisions, backend="native").actions
    finally:
        ISMCTSAgent.act = original
    return {"work": sum(rollouts), "seconds": sum(seconds), "searches": len(rollouts), "actions": actions}


def worker(core_path: str, options: dict) -> None:
    """Answer one JSON request a line on stdin (a chunk of work) with one JSON line on stdout."""
    if core_path:
        load_core(core_path)
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.native import core

    cfg = GameConfig(**options)
    print(json.dumps({"core": core().__file__}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        if job["task"] == "random":
            out = random_chunk(cfg, job["seed"], job["games"])
        else:
            out = paired_chunk(cfg, job["seed"], job["decisions"], job["playouts"], job.get("threads", 1))
        print(json.dumps(out), flush=True)


class Engine:
    def __init__(self, name: str, core_path: str, options: dict, threads: int = 1) -> None:
        self.name, self.threads = name, threads
        cmd = [sys.executable, __file__, "--worker", core_path, "--options", json.dumps(options)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.path = json.loads(self.proc.stdout.readline())["core"]
        self.totals: dict[str, list[float]] = {"random": [0, 0.0], "paired": [0, 0.0]}

    def run(self, job: dict) -> dict:
        self.proc.stdin.write(json.dumps({**job, "threads": self.threads}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"playout_speed: the {self.name} worker stopped (see its error above)")
        out = json.loads(line)
        total = self.totals[job["task"]]
        total[0] += out["work"]
        total[1] += out["seconds"]
        return out

    def rate(self, task: str) -> float:
        work, seconds = self.totals[task]
        return work / seconds if seconds else 0.0

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="the old build's _core*.so (a copy kept before rebuilding)")
    parser.add_argument("--new", default="", help="the new build's _core*.so (default: the installed one)")
    parser.add_argument("--rounds", type=int, default=3, help="turns each engine takes (default 3)")
    parser.add_argument("--games", type=int, default=8, help="random games per round (default 8)")
    parser.add_argument("--decisions", type=int, default=40, help="game decisions per paired round (default 40)")
    parser.add_argument("--playouts", type=int, default=12, help="paired rounds per search (default 12)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--max-rounds", type=int, default=100)
    parser.add_argument("--skip-paired", action="store_true", help="random playouts only")
    parser.add_argument("--threads", type=int, default=1,
                        help="also run the new build's paired search on this many threads (default 1: not)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker, json.loads(args.options))
        return
    if not args.baseline or not Path(args.baseline).is_file():
        raise SystemExit("playout_speed: --baseline names the old build's _core*.so (a copy of the module kept "
                         "before rebuilding, or one built from the base commit)")
    options = {"n_players": args.players, "max_rounds": args.max_rounds}
    engines = [Engine("baseline", args.baseline, options), Engine("new", args.new, options)]
    if args.threads > 1 and not args.skip_paired:
        engines.append(Engine(f"new x{args.threads}", args.new, options, args.threads))
    for e in engines:
        print(f"{e.name:>8}: {e.path}")
    tasks = ["random"] + ([] if args.skip_paired else ["paired"])
    print(f"{args.rounds} rounds, {args.players} players; a round: {args.games} random games"
          + ("" if args.skip_paired else f", {args.decisions} decisions with a paired search "
             f"({SEARCH.format(playouts=args.playouts)})"), flush=True)
    t0 = time.perf_counter()
    try:
        for r in range(args.rounds):
            for task in tasks:
                job = ({"task": task, "seed": 1000 * r, "games": args.games} if task == "random" else
                       {"task": task, "seed": 5000 + r, "decisions": args.decisions, "playouts": args.playouts})
                runners = engines if task == "paired" else engines[:2]  # threads change only the search
                outs = [e.run(job) for e in (runners if r % 2 == 0 else runners[::-1])]
                if any((o["work"], o.get("actions")) != (outs[0]["work"], outs[0].get("actions")) for o in outs):
                    raise SystemExit(f"playout_speed: the engines played different games ({task}, round {r})")
            print(f"  round {r + 1}/{args.rounds} ({time.perf_counter() - t0:.0f} s): "
                  + ", ".join(f"{e.name} {e.rate('random'):,.0f} decisions/s" for e in engines[:2]), flush=True)
    finally:
        for e in engines:
            e.close()
    old, new = engines[:2]
    print(f"\n{'':<46}{'baseline':>14}{'new':>14}{'ratio':>8}")
    rows = [("random playouts, decisions/s (one core)", "random")]
    if not args.skip_paired:
        rows.append(("paired search, rollouts/s", "paired"))
    for text, task in rows:
        print(f"{text:<46}{old.rate(task):>14,.0f}{new.rate(task):>14,.0f}{new.rate(task) / old.rate(task):>7.2f}x")
    ratios = [f"{task} {new.rate(task) / old.rate(task):.2f}x" for _, task in rows]
    for e in engines[2:]:
        text = f"paired search, {e.threads} threads, rollouts/s"
        print(f"{text:<46}{old.rate('paired'):>14,.0f}{e.rate('paired'):>14,.0f}"
              f"{e.rate('paired') / old.rate('paired'):>7.2f}x")
        ratios.append(f"paired on {e.threads} threads {e.rate('paired') / old.rate('paired'):.2f}x")
    print("ratios (new / baseline): " + ", ".join(ratios))


if __name__ == "__main__":
    main()

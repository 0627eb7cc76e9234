"""How fast `ktenv dataset` exports, in decisions per second on one process, beside a plain replay.

Plays a small 2-player tournament with records (expert against greedy by default), then times, over the
same records: a plain replay (verify only, `ktenv.arena.records.replay`), the export without writing the
observations, and the export with them. Then the same tournament again with records only and with
`--dataset` (the tables written while it plays), side by side: what the live dataset costs the tournament.

    python bench/dataset_speed.py --games 200 --repeat 3
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from functools import partial
from pathlib import Path

from ktenv.arena import TournamentConfig, run_tournament
from ktenv.arena.records import GameRecord, replay
from ktenv.datasets.export import export_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agents", default="expert,greedy")
    parser.add_argument("--game", default=None, help="registry name (default: the default game)")
    parser.add_argument("--max-rounds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts (default 3)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ktenv-dataset-bench-"))
    try:
        run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args: argparse.Namespace, work: Path) -> None:
    cfg = TournamentConfig(agents=args.agents.split(","), players=2, games=args.games, max_rounds=args.max_rounds,
                           seed=7, workers=2, db=str(work / "t.sqlite"), records=str(work / "records"), fresh=True,
                           progress=False, game_name=args.game)
    run_tournament(cfg)
    records = [GameRecord.load(p) for p in sorted((work / "records").glob("*.json"))]
    decisions = sum(len(r.actions) for r in records)
    replay(records[0])  # load the native engine before timing
    print(f"{len(records)} games, {decisions} decisions; decisions/s by the clock and per second of this "
          f"process's CPU time (what one core gives when others share the machine), best of {args.repeat}")
    timed = partial(_timed, args.repeat)
    wall, cpu = timed(lambda: [replay(r) for r in records])
    print(f"plain replay (verify only)   {decisions / wall:10,.0f} {decisions / cpu:10,.0f}")
    for label, observations in (("export", False), ("export --observations", True)):
        wall, cpu = timed(export_dataset, work / "t.sqlite", work / f"out-{observations}", observations=observations,
                          fresh=True)
        print(f"{label:28s} {decisions / wall:10,.0f} {decisions / cpu:10,.0f}")
    _live(cfg, work)


def _live(cfg: TournamentConfig, work: Path) -> None:
    """The tournament with records only, then with the live dataset too (two workers; the driver exports)."""
    seconds = {}
    for label, dataset in (("records only", None), ("records and --dataset", str(work / "live"))):
        again = TournamentConfig(**{**cfg.to_dict(), "dataset": dataset, "fresh": True})
        t0 = time.perf_counter()
        run_tournament(again)
        seconds[label] = time.perf_counter() - t0
    base = seconds["records only"]
    print(f"tournament ({cfg.games} games, {cfg.workers} workers): games/s by the clock")
    for label, s in seconds.items():
        print(f"  {label:26s} {cfg.games / s:8.2f}  ({base / s:.2f}x of records only)")


def _timed(repeat: int, work, *args, **kwargs) -> tuple[float, float]:
    """The best wall-clock and CPU seconds of `repeat` runs."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        work(*args, **kwargs)
        best = min(best[0], time.perf_counter() - t0), min(best[1], time.process_time() - c0)
    return best


if __name__ == "__main__":
    main()

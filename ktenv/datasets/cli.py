"""`ktenv dataset` (added to the `ktenv` command line by ktenv.cli)."""

from __future__ import annotations

import argparse
import sys


def add_dataset_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("dataset", help="turn a tournament or a folder of game records into Parquet tables",
                       description="Replay and verify every game record of a tournament store (SQLite) or a records "
                                   "folder and write the tables games, seats, rounds, decisions and events as "
                                   "sharded Parquet files under --out (docs/datasets.md). An interrupted export "
                                   "resumes when run again.")
    p.add_argument("source", metavar="SOURCE", help="a tournament's SQLite store, or a folder of game records")
    p.add_argument("--out", required=True, metavar="DIR", help="the dataset folder (one folder per table)")
    p.add_argument("--records", metavar="DIR", help="the store's records folder (default: the one its tournament "
                                                    "wrote, when it is there)")
    p.add_argument("--observations", action="store_true",
                   help="add each decision's observation (the actor's) and legal-action mask")
    p.add_argument("--shard-games", type=int, default=1000, metavar="N", help="games per shard (default 1000)")
    p.add_argument("--fresh", action="store_true", help="replace a dataset already in --out")
    p.add_argument("--no-progress", action="store_true", help="no progress line")
    p.set_defaults(func=cmd_dataset)
    return p


def cmd_dataset(args: argparse.Namespace) -> int:
    from .export import export_dataset, print_progress

    try:
        summary = export_dataset(args.source, args.out, records=args.records, observations=args.observations,
                                 shard_games=args.shard_games, fresh=args.fresh,
                                 progress=None if args.no_progress else print_progress)
    except KeyboardInterrupt:
        print(f"\nktenv: interrupted; the whole shards are kept in {args.out} (run the same command to resume)",
              file=sys.stderr)
        return 130
    for note in summary.notes:
        print(f"note: {note}")
    rate = f", {summary.decisions / summary.seconds:,.0f} decisions/s" if summary.decisions else ""
    print(f"{summary.out}: {summary.games} games ({summary.added} added, {summary.decisions} decisions in "
          f"{summary.seconds:.1f} s{rate})")
    return 0

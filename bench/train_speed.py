"""Learner steps/s of `ktenv train` on the batched native games beside the subprocess games, in one run.

    python bench/train_speed.py --steps 60000                      # configs/ppo_2p.yaml, both paths
    python bench/train_speed.py --steps 60000 --repeats 3          # alternating runs, median ratio
    python bench/train_speed.py --steps 30000 --set torch_threads=2

Each path trains the same config (its network, PPO settings, league and rollout size: 64 games x 64
steps on the batched path, 8 processes x 512 steps on the subprocess path, the same 4,096-step rollout)
for ``--steps`` learner steps from scratch, without the imitation warm start and without evaluations,
in a fresh run folder. The figures are the runs' own TensorBoard scalars at their end: learner steps/s
and ``speed/env_share`` (the share of wall time spent in the games and the opponents' moves), over whole
rollout-and-update cycles. Compare rows of one run only: they depend on the machine and its load. With
``--repeats``, the paths take turns (vector, subproc, vector, ...) so that a change in the machine's load
touches both, and the ratio is also given per pair with the median of the pairs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATHS = {"vector": ["--set", "vec_env=vector", "--set", "n_envs=64", "--set", "ppo.n_steps=64"],
         "subproc": ["--set", "vec_env=subproc", "--set", "n_envs=8", "--set", "ppo.n_steps=512"]}


def train(path: str, steps: int, config: str, extra: list[str], folder: Path) -> dict[str, float]:
    """Train one path; its last steps/s and env share, and the wall time of the whole command."""
    from ktenv.training.curve import read_scalars

    out = folder / path
    command = [sys.executable, "-m", "ktenv.training.train_ppo", "--config", config, "--out", str(out),
               "--total-steps", str(steps), "--set", "imitation.teacher=null", "--set", "eval.every=0",
               "--set", "eval.games=1", "--set", "eval.opponents=[random]", "--set", "log_every_seconds=30",
               *PATHS[path], *extra]
    start = time.perf_counter()
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
    scalars = read_scalars(out)
    return {"steps_per_second": scalars["speed/steps_per_second"][-1][1],
            "env_share": scalars["speed/env_share"][-1][1], "wall": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=60_000, help="learner steps per path")
    parser.add_argument("--config", default=str(ROOT / "configs" / "ppo_2p.yaml"))
    parser.add_argument("--paths", default="vector,subproc")
    parser.add_argument("--repeats", type=int, default=1, help="runs per path, taking turns")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="for both paths")
    args = parser.parse_args()
    extra = [item for kv in args.set for item in ("--set", kv)]
    paths = args.paths.split(",")
    rows: list[tuple[str, int, dict]] = []
    loads = []
    with tempfile.TemporaryDirectory() as folder:
        for repeat in range(args.repeats):
            for path in paths:
                print(f"training {args.steps:,} steps on the {path} path (run {repeat + 1}/{args.repeats}) ...",
                      file=sys.stderr, flush=True)
                rows.append((path, repeat, train(path, args.steps, args.config, extra, Path(folder) / str(repeat))))
                loads.append(os.getloadavg()[0])
    print(f"{args.steps:,} learner steps per path, {Path(args.config).name} {' '.join(args.set)}; load average "
          f"{min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores\n")
    base = {repeat: row["steps_per_second"] for path, repeat, row in rows if path == "subproc"}
    print(f"{'path':<10} {'run':>4} {'steps/s':>9} {'x subproc':>10} {'env share':>10} {'wall s':>8}")
    for path, repeat, row in rows:
        ratio = f"{row['steps_per_second'] / base[repeat]:.2f}" if repeat in base else "-"
        print(f"{path:<10} {repeat + 1:>4} {row['steps_per_second']:>9,.0f} {ratio:>10} {row['env_share']:>10.2f} "
              f"{row['wall']:>8.0f}")
    ratios = [row["steps_per_second"] / base[repeat] for path, repeat, row in rows
              if path != "subproc" and repeat in base]
    if len(ratios) > 1:
        print(f"\nmedian ratio to subproc over {len(ratios)} pairs: {statistics.median(ratios):.2f} "
              f"(range {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()

"""Learner steps/s of `ktenv train` on the batched native games beside the subprocess games, in one run.

    python bench/train_speed.py --steps 60000                      # configs/ppo_2p.yaml, both paths
    python bench/train_speed.py --steps 60000 --repeats 3          # alternating runs, median ratio
    python bench/train_speed.py --steps 30000 --set torch_threads=2
    python bench/train_speed.py --steps 60000 --repeats 2 --warm runs/ppo_2p   # a run under way

Each path trains the same config (its network, PPO settings, league and rollout size: the config's
``n_envs`` x ``ppo.n_steps`` on the batched path, 64 games x 64 steps in configs/ppo_2p.yaml, and the
same number of steps from 8 processes on the subprocess path, 8 x 512) for ``--steps`` learner steps
from scratch, without the imitation and without evaluations, in a fresh run folder. From scratch,
the league's snapshots join early (one every eighth of the steps, not every ``league.snapshot_every``;
``--set league.snapshot_every=N`` overrides it), but a game draws its opponents when it starts and lasts
hundreds of learner steps, so few games meet them in a short run. ``--warm RUN`` measures a run under
way instead: both paths start from that run folder's newest checkpoint (same network) with its league of
snapshots in the pool from the first game, and take new snapshots at the config's pace. The figures are
the runs' own TensorBoard scalars at their end: learner steps/s and ``speed/env_share`` (the share of
wall time spent in the games and the opponents' moves), over whole rollout-and-update cycles. Compare
rows of one run only: they depend on the machine and its load. With ``--repeats``, the paths take turns
(vector, subproc, vector, ...) so that a change in the machine's load touches both, and the ratio is
also given per pair with the median of the pairs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBPROCESSES = 8


def path_settings(path: str, config: str, extra: list[str]) -> list[str]:
    """The --set options of one path: the config's batch of games, or its rollout from 8 processes."""
    from ktenv.training.config import TrainConfig
    from ktenv.training.train_ppo import parse_overrides

    cfg = TrainConfig.from_yaml(config, parse_overrides(extra[1::2])[0])
    if path == "vector":
        return ["--set", "vec_env=vector", "--set", f"n_envs={cfg.n_envs}", "--set", f"ppo.n_steps={cfg.ppo.n_steps}"]
    rollout = cfg.n_envs * cfg.ppo.n_steps
    if rollout % SUBPROCESSES:
        raise SystemExit(f"the rollout of {rollout} steps does not split over {SUBPROCESSES} processes")
    return ["--set", "vec_env=subproc", "--set", f"n_envs={SUBPROCESSES}", "--set",
            f"ppo.n_steps={rollout // SUBPROCESSES}"]


def early_snapshots(steps: int, warm: Path | None) -> list[str]:
    """From scratch, a snapshot every eighth of the steps (else none would play); a run under way already has its
    league, and takes snapshots at the config's own pace (saving one costs a fraction of a second)."""
    return [] if warm is not None else ["--set", f"league.snapshot_every={max(1, steps // 8)}"]


def train(path: str, steps: int, config: str, extra: list[str], folder: Path, warm: Path | None = None
          ) -> dict[str, float]:
    """Train one path; its last steps/s and env share, and the wall time of the whole command."""
    from ktenv.training.curve import read_scalars

    out = folder / path
    if warm is not None:  # a run folder's imitation.zip is loaded instead of imitating (train_ppo.warm_start)
        from ktenv.training.checkpoints import read_latest

        out.mkdir(parents=True)
        shutil.copyfile(read_latest(warm)[0], out / "imitation.zip")
        shutil.copytree(warm / "league", out / "league")
        shutil.copyfile(warm / "league.json", out / "league.json")
    teacher = "expert" if warm is not None else "null"
    command = [sys.executable, "-m", "ktenv.training.train_ppo", "--config", config, "--out", str(out),
               "--total-steps", str(steps), "--set", f"imitation.teacher={teacher}", "--set", "eval.every=0",
               "--set", "eval.games=1", "--set", "eval.opponents=[random]", "--set", "eval.best_against=null",
               "--set", "log_every_seconds=30", *early_snapshots(steps, warm),
               *path_settings(path, config, extra), *extra]
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
    parser.add_argument("--warm", type=Path, metavar="RUN", help="start both paths from this run folder's newest "
                        "checkpoint (same network), its league's snapshots in play from the start")
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
                row = train(path, args.steps, args.config, extra, Path(folder) / str(repeat), args.warm)
                rows.append((path, repeat, row))
                loads.append(os.getloadavg()[0])
    start = f"from {args.warm}" if args.warm else "from scratch"
    print(f"{args.steps:,} learner steps per path {start}, {Path(args.config).name} {' '.join(args.set)}; "
          f"load average "
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

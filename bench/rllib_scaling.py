"""RLlib training speed with 1, 2, ... env runners, side by side, in one run on one Ray cluster.

    python bench/rllib_scaling.py --runners 1 2 --iterations 6 --repeats 2 --plot docs/img/rllib_scaling.png

For each runner count: the algorithm of ``--config`` (default configs/rllib_2p.yaml, with ``--set``
overrides) with ``rllib.env_runners`` set to it, one warm-up iteration (actors start, first
forward passes), then ``--iterations`` timed ones. Reported: env steps sampled per second of wall
time over the timed iterations (sampling and learning together, as ``speed/steps_per_second`` in
a run). Every runner plays ``n_envs`` games, so an iteration of k runners collects k times the
steps (``ppo.n_steps`` x ``n_envs`` x k). ``--repeats R`` measures the counts in turn R times (on a
shared machine the load moves; the median of each count is the bar, every measurement a dot).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")  # Okabe-Ito: colour-blind safe


def measure(cfg, iterations: int) -> dict:
    from ktenv.training.rllib_train import build_algorithm

    t0 = time.perf_counter()
    algo = build_algorithm(cfg, [])
    try:
        built = time.perf_counter() - t0
        algo.train()  # warm-up
        steps, t0 = 0, time.perf_counter()
        for _ in range(iterations):
            steps += int(algo.train()["env_runners"]["num_env_steps_sampled"])
        wall = time.perf_counter() - t0
    finally:
        algo.stop()
    return {"env_runners": cfg.rllib.env_runners, "steps": steps, "seconds": wall, "steps_per_second": steps / wall,
            "build_seconds": built}


def medians(rows: list[dict]) -> dict[int, float]:
    counts = sorted({r["env_runners"] for r in rows})
    return {k: float(np.median([r["steps_per_second"] for r in rows if r["env_runners"] == k])) for k in counts}


def plot(rows: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.6), dpi=120)
    middle = medians(rows)
    labels = [f"{k} env runner{'s' if k != 1 else ''}" for k in middle]
    values = list(middle.values())
    bars = ax.bar(labels, values, color=[COLOURS[i % len(COLOURS)] for i in range(len(rows))],
                  edgecolor="black", linewidth=0.6)
    hatches = ("", "//", "..", "xx", "\\\\", "oo")  # a second cue besides colour
    for bar, hatch in zip(bars, hatches):
        bar.set_hatch(hatch)
    for i, (bar, value) in enumerate(zip(bars, values)):
        ax.annotate(f"{value:,.0f}", (bar.get_x() + bar.get_width() / 2, value), ha="center", va="bottom",
                    fontsize=9)
        k = list(middle)[i]
        dots = [r["steps_per_second"] for r in rows if r["env_runners"] == k]
        ax.plot([bar.get_x() + bar.get_width() * (0.3 + 0.4 * j / max(len(dots) - 1, 1)) for j in range(len(dots))],
                dots, "o", color="black", markersize=4, label="one measurement" if i == 0 else None)
    ax.set_ylabel("env steps per second (sampling + learning)")
    ax.set_title(title, fontsize=9)
    ax.set_ylim(0, max(r["steps_per_second"] for r in rows) * 1.2)
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "rllib_2p.yaml"))
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=1, help="measure the runner counts in turn this many times")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", default=[],
                        help="config overrides (default: n_envs=4, ppo.n_steps=128, eval.every=0)")
    parser.add_argument("--ray-address", help="an existing Ray cluster (default: a local one)")
    parser.add_argument("--plot", help="PNG of the bars")
    parser.add_argument("--json", help="the numbers as JSON")
    args = parser.parse_args(argv)

    import ray
    import yaml
    from ktenv.training.config import TrainConfig

    from ktenv.ray_cluster import join

    overrides = {"n_envs": 4, "ppo.n_steps": 128, "eval.every": 0}
    for item in args.set:
        key, _, value = item.partition("=")
        overrides[key.strip()] = yaml.safe_load(value)
    started = join(args.ray_address)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        rows = []
        for _ in range(args.repeats):
            for k in args.runners:
                cfg = TrainConfig.from_yaml(args.config, {**overrides, "rllib.env_runners": k})
                rows.append(measure(cfg, args.iterations))
                r = rows[-1]
                print(f"{k} env runner(s): {r['steps_per_second']:,.0f} steps/s ({r['steps']:,} steps in "
                      f"{r['seconds']:.1f} s; algorithm built in {r['build_seconds']:.0f} s)", flush=True)
    finally:
        if started:
            ray.shutdown()
    middle = medians(rows)
    base = next(iter(middle.values()))
    print("\n| env runners | steps/s (median) | each measurement | ratio |\n|---|---|---|---|")
    for k, value in middle.items():
        each = ", ".join(f"{r['steps_per_second']:,.0f}" for r in rows if r["env_runners"] == k)
        print(f"| {k} | {value:,.0f} | {each} | {value / base:.2f}x |")
    title = (f"RLlib PPO, {cfg.env.players} players, {cfg.n_envs} games per runner, {cpus} CPUs "
             f"({Path(args.config).name})")
    if args.plot:
        plot(rows, Path(args.plot), title)
        print(f"plot: {args.plot}")
    if args.json:
        Path(args.json).write_text(json.dumps({"cpus": cpus, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

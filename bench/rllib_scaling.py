"""RLlib training speed with 1, 2, ... env runners, side by side, in one run on one Ray cluster.

    python bench/rllib_scaling.py --runners 1 2 --iterations 6 --plot docs/img/rllib_scaling.png

For each runner count: the algorithm of ``--config`` (default configs/rllib_2p.yaml, with ``--set``
overrides) with ``rllib.env_runners`` set to it, one warm-up iteration (actors start, first
forward passes), then ``--iterations`` timed ones. Reported: env steps sampled per second of wall
time over the timed iterations (sampling and learning together, as ``speed/steps_per_second`` in
a run) and the share of it that the sampling took. Every runner plays ``n_envs`` games, so an
iteration of k runners collects k times the steps (``ppo.n_steps`` x ``n_envs`` x k).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")  # Okabe-Ito: colour-blind safe


def measure(cfg, iterations: int) -> dict:
    from ktenv.training.rllib_train import build_algorithm

    t0 = time.perf_counter()
    algo = build_algorithm(cfg, [])
    try:
        built = time.perf_counter() - t0
        algo.train()  # warm-up
        steps, sample_seconds, t0 = 0, 0.0, time.perf_counter()
        for _ in range(iterations):
            result = algo.train()
            steps += int(result["env_runners"]["num_env_steps_sampled"])
            sample_seconds += float(result.get("timers", {}).get("env_runner_sampling_timer", 0.0))
        wall = time.perf_counter() - t0
    finally:
        algo.stop()
    return {"env_runners": cfg.rllib.env_runners, "steps": steps, "seconds": wall, "steps_per_second": steps / wall,
            "sampling_share": sample_seconds / wall, "build_seconds": built}


def plot(rows: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.6), dpi=120)
    labels = [f"{r['env_runners']} env runner{'s' if r['env_runners'] != 1 else ''}" for r in rows]
    values = [r["steps_per_second"] for r in rows]
    bars = ax.bar(labels, values, color=[COLOURS[i % len(COLOURS)] for i in range(len(rows))],
                  edgecolor="black", linewidth=0.6)
    hatches = ("", "//", "..", "xx", "\\\\", "oo")  # a second cue besides colour
    for bar, hatch in zip(bars, hatches):
        bar.set_hatch(hatch)
    for bar, value in zip(bars, values):
        ax.annotate(f"{value:,.0f}", (bar.get_x() + bar.get_width() / 2, value), ha="center", va="bottom",
                    fontsize=9)
    ax.set_ylabel("env steps per second (sampling + learning)")
    ax.set_title(title, fontsize=9)
    ax.set_ylim(0, max(values) * 1.2)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "rllib_2p.yaml"))
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", default=[],
                        help="config overrides (default: n_envs=4, ppo.n_steps=128, eval.every=0)")
    parser.add_argument("--ray-address", help="an existing Ray cluster (default: a local one)")
    parser.add_argument("--plot", help="PNG of the bars")
    parser.add_argument("--json", help="the numbers as JSON")
    args = parser.parse_args(argv)

    import ray
    import yaml

    from ktenv.ray_cluster import join
    from ktenv.training.config import TrainConfig

    overrides = {"n_envs": 4, "ppo.n_steps": 128, "eval.every": 0}
    for item in args.set:
        key, _, value = item.partition("=")
        overrides[key.strip()] = yaml.safe_load(value)
    started = join(args.ray_address)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        rows = []
        for k in args.runners:
            cfg = TrainConfig.from_yaml(args.config, {**overrides, "rllib.env_runners": k})
            rows.append(measure(cfg, args.iterations))
            r = rows[-1]
            print(f"{k} env runner(s): {r['steps_per_second']:,.0f} steps/s ({r['steps']:,} steps in "
                  f"{r['seconds']:.1f} s; sampling {100 * r['sampling_share']:.0f}% of it; algorithm built in "
                  f"{r['build_seconds']:.0f} s)", flush=True)
    finally:
        if started:
            ray.shutdown()
    base = rows[0]["steps_per_second"]
    print("\n| env runners | steps/s | ratio |\n|---|---|---|")
    for r in rows:
        print(f"| {r['env_runners']} | {r['steps_per_second']:,.0f} | {r['steps_per_second'] / base:.2f}x |")
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

"""RLlib training speed with 1, 2, ... env runners beside the single-machine SB3 trainer, in one run.

    python bench/rllib_scaling.py --runners 1 2 --steps 49152 --repeats 2 --plot docs/img/rllib_scaling.png

Each measurement is a real training run of ``--steps`` learner decisions (``ktenv train``; no imitation,
only a token final evaluation) and reads the run's own TensorBoard figure, ``speed/steps_per_second``: the
learner's decisions per second of wall time since training started, sampling and learning together, the same
count for both trainers. The SB3 trainer (``--sb3-config``, default configs/ppo_2p.yaml: MaskablePPO on one
batch of native games in one process) runs as a subprocess; the RLlib runs (``--config``, default
configs/rllib_2p.yaml: the same games, network and PPO settings) share one Ray cluster with
``rllib.env_runners`` set to each count. Also read: ``speed/learner_share`` (RLlib: the share of wall time in
the learner's updates) and ``speed/env_share`` (SB3: the share in the games). ``--repeats R`` measures
everything in turn R times (on a shared machine the load moves; the median is the bar, every measurement a
dot).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")  # Okabe-Ito: colour-blind safe
SB3 = "SB3"  # the label of the single-machine trainer's rows


def overrides(steps: int) -> dict:
    """Every run: `steps` learner decisions, no imitation, no checkpoint or evaluation on the way, a token final
    evaluation (two games against greedy)."""
    return {"total_steps": steps, "checkpoint_every": 10**9, "log_every_seconds": 3600, "eval.every": 0,
            "eval.games": 2, "eval.opponents": ["greedy"], "eval.workers": 1}


def last_scalars(run_dir: Path) -> dict[str, float]:
    from ktenv.training.curve import read_scalars

    return {tag: float(points[-1][1]) for tag, points in read_scalars(run_dir).items() if points}


def measure_sb3(config: str, steps: int, folder: Path, extra: dict) -> dict:
    out = folder / f"sb3_{time.monotonic_ns()}"
    sets = {**overrides(steps), **extra, "imitation.teacher": None}
    command = [sys.executable, "-m", "ktenv.cli", "train", "--config", config, "--out", str(out)]
    for key, value in sets.items():
        command += ["--set", f"{key}={json.dumps(value)}"]
    t0 = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    scalars = last_scalars(out)
    return {"trainer": SB3, "env_runners": None, "steps_per_second": scalars["speed/steps_per_second"],
            "env_share": scalars.get("speed/env_share"), "seconds": time.perf_counter() - t0}


def measure_rllib(config: str, runners: int, steps: int, folder: Path, extra: dict) -> dict:
    from ktenv.training.config import TrainConfig
    from ktenv.training.rllib_train import train

    out = folder / f"rllib{runners}_{time.monotonic_ns()}"
    cfg = TrainConfig.from_yaml(config, {**overrides(steps), **extra, "rllib.env_runners": runners,
                                         "out": str(out)})
    t0 = time.perf_counter()
    train(cfg, out)
    scalars = last_scalars(out)
    return {"trainer": "RLlib", "env_runners": runners, "steps_per_second": scalars["speed/steps_per_second"],
            "learner_share": scalars.get("speed/learner_share"), "seconds": time.perf_counter() - t0}


def label(row: dict) -> str:
    if row["trainer"] == SB3:
        return "SB3, one process"
    k = row["env_runners"]
    return f"RLlib, {k} env runner{'s' if k != 1 else ''}"


def medians(rows: list[dict]) -> dict[str, dict]:
    """Per label: the median steps/s and the median learner share (RLlib) or game share (SB3)."""
    out: dict[str, dict] = {}
    for name in dict.fromkeys(label(r) for r in rows):
        mine = [r for r in rows if label(r) == name]
        share = [r.get("learner_share") for r in mine if r.get("learner_share") is not None]
        out[name] = {"steps_per_second": float(np.median([r["steps_per_second"] for r in mine])),
                     "each": [r["steps_per_second"] for r in mine],
                     "learner_share": float(np.median(share)) if share else None}
    return out


def plot(rows: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    middle = medians(rows)
    fig, ax = plt.subplots(figsize=(6.4, 3.8), dpi=120)
    names, values = list(middle), [m["steps_per_second"] for m in middle.values()]
    bars = ax.bar(names, values, color=[COLOURS[i % len(COLOURS)] for i in range(len(names))], edgecolor="black",
                  linewidth=0.6)
    for bar, hatch in zip(bars, ("", "//", "..", "xx", "\\\\", "oo")):  # a second cue besides colour
        bar.set_hatch(hatch)
    for i, (bar, name) in enumerate(zip(bars, names)):
        m = middle[name]
        note = f"{m['steps_per_second']:,.0f}"
        if m["learner_share"] is not None:
            note += f"\nlearner {100 * m['learner_share']:.0f}%"
        ax.annotate(note, (bar.get_x() + bar.get_width() / 2, m["steps_per_second"]), ha="center", va="bottom",
                    fontsize=8)
        dots = m["each"]
        ax.plot([bar.get_x() + bar.get_width() * (0.3 + 0.4 * j / max(len(dots) - 1, 1)) for j in range(len(dots))],
                dots, "o", color="black", markersize=4, label="one measurement" if i == 0 else None)
    if SB3 in {r["trainer"] for r in rows}:
        half = middle[label({"trainer": SB3})]["steps_per_second"] / 2
        ax.axhline(half, color=COLOURS[5], linestyle="--", linewidth=1, label="half the SB3 trainer's")
    ax.set_ylabel("learner steps per second\n(sampling + learning)")
    ax.set_title(title, fontsize=9)
    ax.set_ylim(0, max(r["steps_per_second"] for r in rows) * 1.3)
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def table(rows: list[dict]) -> str:
    middle = medians(rows)
    sb3 = middle.get(label({"trainer": SB3}), {}).get("steps_per_second")
    one = middle.get(label({"trainer": "RLlib", "env_runners": 1}), {}).get("steps_per_second")
    lines = ["| trainer | steps/s (median) | each measurement | of SB3 | of 1 runner | learner share |",
             "|---|---|---|---|---|---|"]
    for name, m in middle.items():
        of_sb3 = f"{m['steps_per_second'] / sb3:.2f}x" if sb3 else ""
        of_one = f"{m['steps_per_second'] / one:.2f}x" if one and name.startswith("RLlib") else ""
        share = "" if m["learner_share"] is None else f"{100 * m['learner_share']:.0f}%"
        each = ", ".join(f"{v:,.0f}" for v in m["each"])
        lines.append(f"| {name} | {m['steps_per_second']:,.0f} | {each} | {of_sb3} | {of_one} | {share} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "rllib_2p.yaml"))
    parser.add_argument("--sb3-config", default=str(ROOT / "configs" / "ppo_2p.yaml"),
                        help="the single-machine trainer's config ('none': skip it)")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--steps", type=int, default=49_152, help="learner decisions per run")
    parser.add_argument("--repeats", type=int, default=1, help="measure everything in turn this many times")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", default=[],
                        help="RLlib config overrides, e.g. n_envs=128")
    parser.add_argument("--torch-threads", type=int,
                        help="torch_threads of both trainers (default: each config's; 1 on a machine others share)")
    parser.add_argument("--ray-address", help="an existing Ray cluster (default: a local one)")
    parser.add_argument("--plot", help="PNG of the bars")
    parser.add_argument("--json", help="the numbers as JSON")
    args = parser.parse_args(argv)

    import ray
    import yaml

    from ktenv.ray_cluster import join

    extra = {}
    for item in args.set:
        key, _, value = item.partition("=")
        extra[key.strip()] = yaml.safe_load(value)
    both = {} if args.torch_threads is None else {"torch_threads": args.torch_threads}
    extra.update(both)
    rows: list[dict] = []
    started = join(args.ray_address)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        with tempfile.TemporaryDirectory(prefix="rllib-scaling-") as folder:
            for _ in range(args.repeats):
                if args.sb3_config != "none":
                    rows.append(measure_sb3(args.sb3_config, args.steps, Path(folder), both))
                    print(f"{label(rows[-1])}: {rows[-1]['steps_per_second']:,.0f} steps/s", flush=True)
                for k in args.runners:
                    rows.append(measure_rllib(args.config, k, args.steps, Path(folder), extra))
                    share = rows[-1]["learner_share"]
                    print(f"{label(rows[-1])}: {rows[-1]['steps_per_second']:,.0f} steps/s (learner "
                          f"{100 * (share or 0):.0f}% of the time)", flush=True)
    finally:
        if started:
            ray.shutdown()
    print("\n" + table(rows))
    load = os.getloadavg()[0]
    threads = f", torch_threads {args.torch_threads}" if args.torch_threads else ""
    title = (f"PPO, 2 players, {Path(args.config).name} vs {Path(args.sb3_config).name}: {args.steps:,} steps,\n"
             f"{cpus} CPUs{threads} (load average {load:.1f} at the end)")
    if args.plot:
        plot(rows, Path(args.plot), title)
        print(f"plot: {args.plot}")
    if args.json:
        Path(args.json).write_text(json.dumps({"cpus": cpus, "load_average": load, "torch_threads": args.torch_threads,
                                               "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

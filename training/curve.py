"""The learning curve of a run, drawn from its TensorBoard scalars.

    python -m ktenv.training.curve runs/ppo_2p            # writes runs/ppo_2p/learning_curve.png

Left: the learner's win rate in its training games against each kind of opponent (random,
greedy, expert, snapshot). Right: the evaluation win rate against each eval opponent (the arena's
tournament games), and the mean shaped return per game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def read_scalars(run_dir: str | Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar tag of the run's TensorBoard logs: tag -> [(step, value)] (all event files)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tb = Path(run_dir) / "tb"
    if not tb.is_dir():
        raise FileNotFoundError(f"{tb}: no TensorBoard logs (is {run_dir} a training run folder?)")
    acc = EventAccumulator(str(tb), size_guidance={"scalars": 0})
    acc.Reload()
    out: dict[str, list[tuple[int, float]]] = {}
    for tag in acc.Tags().get("scalars", []):
        points = {e.step: e.value for e in acc.Scalars(tag)}  # a resumed run may log a step twice
        out[tag] = sorted(points.items())
    return out


def plot_learning_curve(run_dir: str | Path, out: str | Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scalars = read_scalars(run_dir)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for tag in sorted(t for t in scalars if t.startswith("game/win_rate")):
        steps, values = zip(*scalars[tag])
        label = "all games" if tag == "game/win_rate" else "vs " + tag.rsplit("_vs_", 1)[1]
        left.plot(steps, values, label=label, lw=2 if tag == "game/win_rate" else 1.2)
    left.set(title="training games: learner's win rate (last 200)", xlabel="learner steps", ylabel="win rate",
             ylim=(-0.02, 1.02))
    for tag in sorted(t for t in scalars if t.startswith("eval/win_rate_vs_")):
        steps, values = zip(*scalars[tag])
        right.plot(steps, values, marker="o", label="eval vs " + tag.rsplit("_vs_", 1)[1])
    right.set(title="evaluation (arena tournaments, seats swapped)", xlabel="learner steps", ylabel="win rate",
              ylim=(-0.02, 1.02))
    if "rollout/ep_rew_mean" in scalars:
        twin = right.twinx()
        steps, values = zip(*scalars["rollout/ep_rew_mean"])
        twin.plot(steps, values, color="grey", ls=":", label="return per game")
        twin.set_ylabel("mean return per game (dotted)")
    for ax in (left, right):
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"ktenv training run {Path(run_dir).name}")
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.training.curve", description=__doc__.split("\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("--out", help="PNG path (default: RUN_DIR/learning_curve.png)")
    args = parser.parse_args(argv)
    try:
        path = plot_learning_curve(args.run_dir, args.out or Path(args.run_dir) / "learning_curve.png")
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The learning curve of a run, drawn from its TensorBoard scalars.

    python -m ktenv.training.curve runs/ppo_2p            # writes runs/ppo_2p/learning_curve.png

Three panels (four after an imitation warm start: its agreement with the teacher comes first): the
learner's win rate in its training games against each kind of opponent (random,
greedy, expert, snapshot); the evaluation win rate against each eval opponent (the arena's
tournament games); the mean return per training game (its own scale, shaped or +-1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def read_scalars(run_dir: str | Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar tag of the run's TensorBoard logs: tag -> [(step, value)].

    Each start or resume writes a new event file; a later file replaces what earlier ones logged
    from its first step on (a run resumed from an older checkpoint drops the abandoned steps)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tb = Path(run_dir) / "tb"
    if not tb.is_dir():
        raise FileNotFoundError(f"{tb}: no TensorBoard logs (is {run_dir} a training run folder?)")
    merged: dict[str, dict[int, float]] = {}
    for path in sorted(tb.glob("events.out.tfevents.*"), key=_file_order):
        acc = EventAccumulator(str(path), size_guidance={"scalars": 0})
        acc.Reload()
        found = {tag: {e.step: e.value for e in acc.Scalars(tag)} for tag in acc.Tags().get("scalars", [])}
        first = min((min(points) for points in found.values() if points), default=None)
        if first is None:
            continue
        for points in merged.values():
            for step in [s for s in points if s >= first]:
                del points[step]
        for tag, points in found.items():
            merged.setdefault(tag, {}).update(points)
    return {tag: sorted(points.items()) for tag, points in merged.items() if points}


def _file_order(path: Path) -> tuple:
    """events.out.tfevents.<seconds>.<host>.<pid>.<n>: by time written, then by number."""
    parts = path.name.split(".")
    return (int(parts[3]) if parts[3].isdigit() else 0, int(parts[-1]) if parts[-1].isdigit() else 0, path.name)


# Okabe & Ito's colour-blind-safe palette. Each line also has its own dash pattern and marker, and
# lines drawn later are thinner and lie on top, so lines with the same values (all at 0% early in a
# run) show as nested stripes instead of hiding each other.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")
DASHES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (8, 2)), (0, (1, 2)), (0, (3, 1, 1, 1)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def line_style(i: int, n: int, points: int) -> dict:
    """Matplotlib keywords of the i-th of n lines in a panel (see COLOURS)."""
    width = 1.2 + 3.0 * (n - 1 - i) / max(n - 1, 1)
    every = max(points // 8, 1)
    return {"color": COLOURS[i % len(COLOURS)], "ls": DASHES[i % len(DASHES)], "marker": MARKERS[i % len(MARKERS)],
            "lw": width, "ms": 3.0 + 1.6 * width, "markevery": (i * every // n, every), "zorder": 2 + i}


def draw_lines(ax, series: list[tuple[str, list[tuple[int, float]]]]) -> None:
    for i, (label, points) in enumerate(series):
        steps, values = zip(*points)
        ax.plot(steps, values, label=label, **line_style(i, len(series), len(points)))


def draw_curve(scalars: dict[str, list[tuple[int, float]]], title: str):
    """The figure: training win rates, evaluation win rates, training return, one panel each."""
    import matplotlib.pyplot as plt

    imitated = "imitation/agreement" in scalars
    fig, axes = plt.subplots(1, 4 if imitated else 3, figsize=(21 if imitated else 16, 4.5))
    games, evals, returns = axes[-3:]
    if imitated:  # the warm start comes first: its own panel, by epoch
        draw_lines(axes[0], [("agreement with the teacher (held out)", scalars["imitation/agreement"])])
        axes[0].set(title="imitation warm start", xlabel="epoch (over every round's data)", ylabel="share",
                    ylim=(-0.04, 1.04))
    series = [("all games", scalars["game/win_rate"])] if "game/win_rate" in scalars else []
    tags = sorted(t for t in scalars if t.startswith("game/win_rate_vs_"))
    draw_lines(games, series + [("vs " + t.rsplit("_vs_", 1)[1], scalars[t]) for t in tags])
    games.set(title="training games: learner's win rate (last 200)", ylabel="win rate", ylim=(-0.04, 1.04))
    tags = sorted(t for t in scalars if t.startswith("eval/win_rate_vs_"))
    draw_lines(evals, [("vs " + t.rsplit("_vs_", 1)[1], scalars[t]) for t in tags])
    evals.set(title="evaluation (arena tournaments, seats swapped)", ylabel="win rate", ylim=(-0.04, 1.04))
    if "rollout/ep_rew_mean" in scalars:
        draw_lines(returns, [("return per game", scalars["rollout/ep_rew_mean"])])
    returns.set(title="training games: mean return per game", ylabel="return")
    for ax in axes:
        if ax is not axes[0] or not imitated:
            ax.set_xlabel("learner steps")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="best", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_learning_curve(run_dir: str | Path, out: str | Path) -> Path:
    import matplotlib.pyplot as plt  # no backend forced: a notebook that trains keeps its inline figures

    fig = draw_curve(read_scalars(run_dir), f"ktenv training run {Path(run_dir).name}")
    out = Path(out)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`ktenv curve` and `python -m ktenv.training.curve` take the same arguments."""
    parser.add_argument("run_dir", help="a training run's folder")
    parser.add_argument("--out", help="PNG path (default: RUN_DIR/learning_curve.png)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.training.curve", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    try:
        path = plot_learning_curve(args.run_dir, args.out or Path(args.run_dir) / "learning_curve.png")
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Tournament pictures: ratings with their uncertainty, and the head-to-head matrix (matplotlib)."""

from __future__ import annotations

from pathlib import Path

from .ratings import Standing, head_to_head


def plot_standings(path: str | Path, rows: list[Standing], games: list[dict], title: str = "") -> Path:
    try:
        import matplotlib.pyplot as plt  # no backend forced (matplotlib picks Agg where there is no display)
    except ImportError:
        raise RuntimeError("--plot needs the 'matplotlib' package (pip install matplotlib)") from None
    import numpy as np

    agents = [s.agent for s in rows]  # best first
    k = len(agents)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6 + 1.6 * k, 2.2 + 0.9 * k), gridspec_kw={"width_ratios": [1.1, 1]})

    # ratings: mu with 2-sigma bars (about a 95% band), best at the top
    y = np.arange(k)[::-1]
    mu = np.array([s.rating_mu for s in rows])
    sigma = np.array([s.rating_sigma for s in rows])
    ax1.errorbar(mu, y, xerr=2 * sigma, fmt="o", color="tab:blue", ecolor="tab:blue", capsize=5, lw=2)
    for yi, s in zip(y, rows):
        ax1.annotate(f"{s.rating_mu:.1f} ± {s.rating_sigma:.1f}\nwin {100 * s.win_rate:.0f}% ({s.games} games)",
                     (s.rating_mu, yi), textcoords="offset points", xytext=(0, 9), ha="center", fontsize=8)
    ax1.set_yticks(y, agents)
    ax1.set_ylim(-0.7, k - 0.3)
    ax1.set_xlabel("OpenSkill rating (mu, bars: ±2 sigma)")
    ax1.set_title("Ratings")
    ax1.grid(axis="x", alpha=0.3)

    draw_head_to_head(ax2, games, agents)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


HEAD_TO_HEAD_CMAP = "cividis"  # colour-blind safe, and its lightness rises evenly from 0% to 100%


def draw_head_to_head(ax, games: list[dict], agents: list[str]):
    """The matrix of how often the row agent finished ahead of the column agent, with readable cell text."""
    import numpy as np

    k = len(agents)
    matrix = head_to_head(games, agents)
    data = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float)
    im = ax.imshow(data, vmin=0, vmax=1, cmap=HEAD_TO_HEAD_CMAP)
    for i in range(k):
        for j in range(k):
            text = "-" if i == j else ("n/a" if np.isnan(data[i, j]) else _percent(data[i, j]))
            colour = "black" if np.isnan(data[i, j]) else text_colour(im.cmap(im.norm(data[i, j])))
            ax.text(j, i, text, ha="center", va="center", fontsize=9, color=colour)
    ax.set_xticks(range(k), agents, rotation=30, ha="right")
    ax.set_yticks(range(k), agents)
    ax.set_title("Head to head: row ahead of column")
    ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return im


def text_colour(rgba) -> str:
    """Black on light cells, white on dark ones (relative luminance of the cell's sRGB colour, WCAG)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgba[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if luminance > 0.179 else "white"  # 0.179: equal contrast against black and white


def _percent(share: float) -> str:
    """0.995 is "99.5%", not "100%": only a clean sweep shows 100%."""
    text = f"{100 * share:.0f}%"
    if text in ("0%", "100%") and share not in (0.0, 1.0):
        text = f"{100 * share:.1f}%"
    return text

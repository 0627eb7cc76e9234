"""The decision ablation: which kinds of decisions cost a policy its games.

    from ktenv.analysis.ablation import ablation, plot_ablation
    table = ablation("ppo:models/ppo_2p.zip", ["build", "move_select", "move_stack"], games=400)
    plot_ablation(table)

Each row is a tournament of the policy against `opponent` in which one kind of decision (or a group, "a+b") is
handed to `reference` (`agents.handoff`): the reference watches the whole game and is told every action played,
so a plan it keeps follows the game as it went. Two rows frame the others: ``none`` (the policy alone) and
``all`` (the reference alone). Two questions, two modes:

- ``mode="hand"``: the policy plays, the reference makes the row's kind. ``effect`` is the row's win rate less
  ``none``'s: what the policy would gain from the reference's decisions of that kind in its own games.
- ``mode="only"``: the reference plays, the policy makes the row's kind. ``effect`` is ``all``'s win rate less
  the row's: what the policy's decisions of that kind cost an otherwise sound game.

A large ``effect`` marks a kind where the policy loses its games; ``share`` is it as a share of the gap between
``none`` and ``all`` (while the policy trails the reference; else NaN). The effects need not add up: the
decisions of a game lean on each other (a Citadel plan's forts, the stacks that guard them). Every row plays
the same tournament seed, so the games are dealt alike and the rows differ only in who decides.

    python -m ktenv.analysis.ablation ppo:models/ppo_2p.zip build move_select move_stack --games 400 --mode only

Shared code: the kinds are the names of the observation's decision columns (`agents.handoff.decision_kinds`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from ..errors import ConfigError

FRAME = ("none", "all")  # the policy alone, the reference alone
MODES = ("hand", "only")


def handoff_spec(model: str, kinds: str, reference: str, only: bool = False) -> str:
    return f"handoff:to={reference};{'only' if only else 'kinds'}={kinds};model={model}"


def _standing(agents: list[str], args: dict, label: str):
    from ..arena.config import TournamentConfig
    from ..arena.tournament import run_tournament

    settings = json.dumps([agents, {k: v for k, v in args.items() if k not in ("db_dir", "progress", "workers")}])
    db = Path(args["db_dir"]) / f"{label}_{hashlib.sha256(settings.encode()).hexdigest()[:10]}.sqlite"
    cfg = TournamentConfig(agents=agents, players=args["players"], games=args["games"], workers=args["workers"],
                           seed=args["seed"], max_rounds=args["max_rounds"], db=str(db), resume=True,
                           progress=args["progress"], game_name=args["game"])
    return next(s for s in run_tournament(cfg)["standings"] if s.agent == "policy")


def ablation(model: str, kinds: Sequence[str], *, mode: str = "hand", reference: str = "expert",
             opponent: str = "expert", game: str | None = None, players: int = 2, games: int = 400,
             seed: int = 90_001, workers: int = 2, max_rounds: int = 30, db_dir: str = "runs/ablation",
             progress: bool = True) -> pd.DataFrame:
    """One row per entry of `kinds` (a decision kind, or several joined by "+"), framed by ``none`` and ``all``:
    the policy's wins against `opponent` (with a 95% Wilson interval) when `mode` splits the decisions between it
    and `reference` at that kind, the row's ``effect`` and its ``share`` (the module's docstring). Each
    tournament is kept in `db_dir` (named by its row and a digest of its settings), so an interrupted ablation
    goes on where it stopped."""
    if mode not in MODES:
        raise ConfigError(f"ablation: mode {mode!r} is not one of {', '.join(MODES)}")
    if not kinds:
        raise ConfigError("ablation: name at least one decision kind (agents.handoff.decision_kinds lists them)")
    if opponent.startswith("policy=") or players < 2:
        raise ConfigError("ablation: the opponent needs a spec of its own and the game two players or more")
    Path(db_dir).mkdir(parents=True, exist_ok=True)
    args = {"players": players, "games": games, "workers": workers, "seed": seed, "max_rounds": max_rounds,
            "db_dir": db_dir, "progress": progress, "game": game}
    rows = []
    for k, kind in enumerate([*FRAME, *dict.fromkeys(kinds)]):
        only = mode == "only" and k >= len(FRAME)
        agents = [f"policy={handoff_spec(model, kind, reference, only)}"] + [f"opponent{k}={opponent}"
                                                                             for k in range(1, players)]
        s = _standing(agents, args, ("only_" if only else "") + kind.replace("+", "_"))
        rows.append({"kind": kind, "mode": "frame" if k < len(FRAME) else mode, "games": s.games, "wins": s.wins,
                     "win_rate": s.win_rate, "low": s.win_low, "high": s.win_high})
    table = pd.DataFrame(rows)
    alone, ref = table["win_rate"].iloc[0], table["win_rate"].iloc[1]
    table["effect"] = table["win_rate"] - alone if mode == "hand" else ref - table["win_rate"]
    table.loc[table["mode"] == "frame", "effect"] = float("nan")
    table["share"] = table["effect"] / (ref - alone) if ref > alone else float("nan")  # no gap: no share of it
    return table


def plot_ablation(table: pd.DataFrame, ax=None, title: str = ""):
    """The rows' win rates as bars with their 95% intervals; dashed lines mark the policy and the reference alone."""
    from .plots import OKABE_ITO, _axes, _errors

    ax = _axes(ax, (6.5, 0.4 * len(table) + 1.2))
    kinds = table[table["mode"] != "frame"].sort_values("effect", ascending=False)
    only = bool((kinds["mode"] == "only").any())
    y = list(range(len(kinds)))[::-1]
    ax.barh(y, kinds["win_rate"], color=OKABE_ITO[4], alpha=0.85)
    ax.errorbar(kinds["win_rate"], y, xerr=_errors(kinds, "win_rate"), fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_yticks(y, list(kinds["kind"]))
    for kind, colour, style in (("none", OKABE_ITO[5], "--"), ("all", OKABE_ITO[2], ":")):
        rate = float(table.loc[table["kind"] == kind, "win_rate"].iloc[0])
        ax.axvline(rate, color=colour, ls=style, lw=1.5,
                   label=f"{'the policy' if kind == 'none' else 'the reference'} alone: {rate:.1%}")
    ax.set_xlim(0, 1)
    ax.set_xlabel(("win rate, the policy making only these decisions" if only else
                   "win rate, these decisions handed to the reference") + " (bars: 95% Wilson interval)")
    ax.set_title(title or "where the policy loses its games")
    ax.legend(loc="lower right", fontsize=8)
    return ax


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="the policy's agent spec, e.g. ppo:models/ppo_2p.zip")
    ap.add_argument("kinds", nargs="+", help="decision kinds to hand over, one per row (a+b: together)")
    ap.add_argument("--mode", choices=MODES, default="hand",
                    help="hand: the reference makes the row's kind; only: the policy makes only the row's kind")
    ap.add_argument("--reference", default="expert")
    ap.add_argument("--opponent", default="expert")
    ap.add_argument("--game", default=None)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=90_001)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=30)
    ap.add_argument("--db-dir", default="runs/ablation")
    ap.add_argument("--plot", help="draw the table into this PNG")
    a = ap.parse_args(argv)
    table = ablation(a.model, a.kinds, mode=a.mode, reference=a.reference, opponent=a.opponent, game=a.game,
                     players=a.players, games=a.games, seed=a.seed, workers=a.workers, max_rounds=a.max_rounds,
                     db_dir=a.db_dir)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if a.plot:
        ax = plot_ablation(table)
        ax.figure.tight_layout()
        ax.figure.savefig(a.plot, dpi=120)


if __name__ == "__main__":
    main()

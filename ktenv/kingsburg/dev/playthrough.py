"""Golden playthroughs of Kingsburg (the OpenSpiel habit, as every game keeps them): seeded games of random
agents written out decision by decision under ``tests/playthroughs/kingsburg_*.txt``.

Each decision block names the year, phase, actor and decision, every legal action with its English text,
the action taken and a digest of the actor's observation and mask; the text board (`render.ansi`) comes at
every change of phase and at the end, then the winners and a digest of the final state's ``to_json()``.
The test replays every file on both engines (Python and native) and shows the first difference. After an
intended change of the rules, the actions or the observation, regenerate them and review the diff:

    python -m ktenv.kingsburg.dev.playthrough --regenerate
    python -m ktenv.kingsburg.dev.playthrough --check
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import sys
from pathlib import Path

import numpy as np

from .. import actions as A
from ..config import KingsburgConfig
from ..machine import describe_action, legal_mask, new_game, step
from ..observation import ObservationEncoder
from ..render import ansi
from ..state import PHASE_NAMES

FOLDER = Path(__file__).resolve().parents[3] / "tests" / "playthroughs"
GAMES = {"kingsburg_2p.txt": ({"n_players": 2}, 11), "kingsburg_4p.txt": ({"n_players": 4}, 12),
         "kingsburg_5p_options.txt": ({"n_players": 5, "merchants_guild_good_of_choice": True,
                                       "neutral_dice_players": [2, 5]}, 13)}


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:10]


def playthrough(config: dict, seed: int, backend: str = "auto") -> str:
    """The record of one game; the same text on either engine (`backend`: python, native or auto)."""
    cfg = KingsburgConfig.from_dict(config)
    s = new_game(cfg, seed, backend=backend)
    enc = ObservationEncoder(cfg.n_players)
    rng = np.random.default_rng(seed)
    lines = [f"# Kingsburg golden playthrough: config {cfg.to_dict()}, seed {seed}, random agents",
             "# regenerate: python -m ktenv.kingsburg.dev.playthrough --regenerate", ""]
    phase = None
    while not s.game_over:
        if (s.year, s.phase) != phase:
            phase = (s.year, s.phase)
            lines += ["", ansi(s), ""]
        mask = legal_mask(s)
        legal = np.flatnonzero(mask)
        a = int(legal[rng.integers(legal.size)])
        lines.append(f"[{s.steps}] year {s.year} {PHASE_NAMES[s.phase]} | p{s.actor} decides: "
                     f"{A.DECISION_NAMES[s.decision]}")
        lines.append("  legal: " + " | ".join(f"{int(x)} {A.action_name(int(x))}" for x in legal))
        lines.append(f"  action {a}: {describe_action(s, a)}")
        lines.append(f"  digest {_digest(enc.encode(s, s.actor), mask)}")
        step(s, a)
    final = hashlib.sha256(s.to_json().encode()).hexdigest()[:16]
    lines += ["", ansi(s), "", f"winners {s.winners}; final state {final}"]
    return "\n".join(lines) + "\n"


def check(folder: Path = FOLDER, backend: str = "auto") -> list[str]:
    """The first difference of every file that no longer replays on the engine `backend` (empty: all replay)."""
    problems = []
    for name, (config, seed) in GAMES.items():
        path = folder / name
        want = path.read_text() if path.exists() else ""
        got = playthrough(config, seed, backend)
        if got != want:
            diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), str(path), "replayed", n=2,
                                             lineterm=""))
            problems.append("\n".join(diff[:40]) or f"{path}: missing")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", help="rewrite tests/playthroughs/kingsburg_*.txt")
    parser.add_argument("--check", action="store_true", help="replay them and show the first differences")
    args = parser.parse_args(argv)
    if args.regenerate:
        for name, (config, seed) in GAMES.items():
            (FOLDER / name).write_text(playthrough(config, seed))
            print(f"wrote {FOLDER / name}")
        return 0
    problems = check()
    for p in problems:
        print(p)
    print("all Kingsburg playthroughs replay" if not problems else f"{len(problems)} differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

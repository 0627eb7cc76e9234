"""Golden playthroughs (the OpenSpiel habit): seeded games written out step by step as text.

Each file under ``tests/playthroughs/`` is one game of seeded random agents, one line per decision:
the round, phase and decision, who decides, how many actions are legal, short digests of the mask
and of the decider's observation, and the action taken with its English description. The test
replays every file and fails at the first line that differs, so any change to the rules, the
action layout or the observation shows up as a reviewed diff of these files. After an intended
change, regenerate them and read the diff:

    python -m ktenv.playthrough --regenerate      # rewrites tests/playthroughs/*.txt
    python -m ktenv.playthrough --check           # what the test does
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from .config import GameConfig
from .engine import decisions as D
from .engine import describe_action, legal_mask, new_game, step
from .engine.machine import PHASE_NAMES
from .env.observation import ObservationEncoder

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
HEADER = "# ktenv golden playthrough; regenerate: python -m ktenv.playthrough --regenerate"

# (file name, game options, seed): short games that still reach battles, events and heroes
GAMES = (
    ("2p_standard.txt", {"n_players": 2, "max_rounds": 8}, 11),
    ("3p_standard.txt", {"n_players": 3, "max_rounds": 6}, 12),
    ("4p_options.txt", {"n_players": 4, "max_rounds": 5, "encounter_powers": True,
                        "stack_limit_check": "end_of_movement", "where_will_they_stop": True}, 13),
)


def digest(a: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()[:10]


def play_lines(options: dict, seed: int) -> list[str]:
    """The playthrough of one game: random agents seeded from `seed`, every decision a line."""
    from .board import board_radius, geometry

    cfg = GameConfig.from_dict(options)
    encoder = ObservationEncoder(cfg, geometry(board_radius(cfg.n_players)).n_hexes)
    rngs = [np.random.default_rng(seed * 100 + p) for p in range(cfg.n_players)]
    s = new_game(cfg, seed)
    lines = [HEADER, f"config: {json.dumps(options, sort_keys=True)}", f"seed: {seed}"]
    k = 0
    while not s.game_over:
        p = s.actor
        mask = legal_mask(s)
        legal = np.flatnonzero(mask)
        action = int(legal[rngs[p].integers(legal.size)])
        obs = encoder.encode(s, p)
        lines.append(f"{k} | r{s.round} {PHASE_NAMES[s.phase]} | p{p} {D.NAMES.get(s.decision, s.decision)} | "
                     f"legal {legal.size} {digest(mask)} | obs {digest(obs)} | {action}: {describe_action(s, action)}")
        step(s, action)
        k += 1
    lines.append(f"result: winners {list(s.winners)} reason {s.reason} round {s.round}")
    lines.append(f"state: {hashlib.sha256(s.to_json().encode()).hexdigest()}")
    return lines


def first_difference(expected: list[str], actual: list[str]) -> str | None:
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e != a:
            return f"line {i + 1}:\n  stored:   {e}\n  replayed: {a}"
    if len(expected) != len(actual):
        return f"stored {len(expected)} lines, replayed {len(actual)}"
    return None


def check(folder: Path = FOLDER) -> list[str]:
    """Problems found (empty when every playthrough replays exactly)."""
    problems = []
    for name, options, seed in GAMES:
        path = folder / name
        if not path.exists():
            problems.append(f"{path}: missing (python -m ktenv.playthrough --regenerate)")
            continue
        diff = first_difference(path.read_text().splitlines(), play_lines(options, seed))
        if diff:
            problems.append(f"{path.name} differs at {diff}")
    return problems


def regenerate(folder: Path = FOLDER) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, options, seed in GAMES:
        path = folder / name
        path.write_text("\n".join(play_lines(options, seed)) + "\n")
        out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.playthrough", description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--regenerate", action="store_true", help="rewrite the stored playthroughs")
    group.add_argument("--check", action="store_true", help="replay them and report the first difference")
    args = parser.parse_args(argv)
    if args.regenerate:
        for path in regenerate():
            print(f"wrote {path} ({len(path.read_text().splitlines())} lines)")
        return 0
    problems = check()
    print("\n".join(problems) if problems else "all playthroughs replay exactly")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

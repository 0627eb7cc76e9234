"""The differential check of the two Kingsburg engines: seeded games played on both with the same random
decisions, compared field by field and mask by mask at every decision; the first difference is named.

    python -m ktenv.kingsburg.native.diff --games 10000     # the slow form of the tests, from the shell
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from ...rng import Dice
from .. import actions as A
from ..config import KingsburgConfig
from ..machine import legal_mask, new_game, step
from ..state import _ARRAY_FIELDS, _INT_FIELDS, STAGE_NAMES, KingsburgState
from .game import NativeKingsburg


def config_of_game(index: int) -> KingsburgConfig:
    """The configs the check cycles through: 2-5 players and every switchable decision of K15."""
    return KingsburgConfig(n_players=2 + index % 4, building_token_limit=(17, None, 6)[index % 3],
                           merchants_guild_good_of_choice=index % 5 in (1, 3),
                           kings_reward_requires_building=index % 7 == 2,
                           neutral_dice_players=((2,), (2, 3, 4, 5), ())[index % 3])


def same_state(py: KingsburgState, nat: NativeKingsburg) -> bool:
    """Whether the two states are equal: scalars, generator, winners and the arrays' bytes."""
    ns = nat.native
    return (ns.scalars() == [py.game_over, *(getattr(py, name) for name in _INT_FIELDS)]
            and ns.array_bytes() == b"".join(getattr(py, name).tobytes() for name in _ARRAY_FIELDS)
            and py.rng.state == ns.rng_state and py.rng.script == ns.rng_script and py.winners == ns.winners)


def mismatch(py: KingsburgState, nat: NativeKingsburg) -> str | None:
    """The first field where the two states differ, in words (None: equal)."""
    if same_state(py, nat):
        return None
    ns = nat.native
    for name in ("game_over", *_INT_FIELDS):
        if getattr(py, name) != getattr(ns, name):
            return f"{name}: python {getattr(py, name)}, native {getattr(ns, name)}"
    if list(py.winners) != list(ns.winners):
        return f"winners: python {py.winners}, native {ns.winners}"
    if py.rng.state != ns.rng_state or list(py.rng.script) != list(ns.rng_script):
        return "the generator (a die rolled in one engine only, or in another order)"
    for name in _ARRAY_FIELDS:
        a, b = getattr(py, name), getattr(ns, name)
        if a.shape != b.shape or not np.array_equal(a, b):
            return f"{name}: python {a.tolist()}, native {b.tolist()}"
    return "the arrays' bytes (an array of another type or layout)"


def play_both(cfg: KingsburgConfig, seed: int) -> tuple[int, str | None]:
    """One game on both engines with random decisions; (decisions played, the first difference or None)."""
    py = new_game(cfg, seed, backend="python")
    nat = new_game(cfg, seed, backend="native")
    pick = Dice(seed + 7919)
    decisions = 0
    where = f"{STAGE_NAMES[py.stage]}, year {py.year}"
    while True:
        problem = mismatch(py, nat)
        if problem is not None:
            return decisions, f"seed {seed}, after decision {decisions} ({where}): {problem}"
        mask = legal_mask(py)
        if not np.array_equal(mask, legal_mask(nat)):
            return decisions, (f"seed {seed}, decision {decisions} ({A.DECISION_NAMES[py.decision]}): masks differ, "
                               f"python {np.flatnonzero(mask).tolist()}, native "
                               f"{np.flatnonzero(legal_mask(nat)).tolist()}")
        if py.game_over:
            return decisions, None
        legal = np.flatnonzero(mask)
        action = int(legal[pick.below(legal.size)])
        where = f"{A.DECISION_NAMES[py.decision]} {A.action_name(action)}, {STAGE_NAMES[py.stage]}, year {py.year}"
        step(py, action)
        step(nat, action)
        decisions += 1


def check(games: int, first: int = 0) -> tuple[int, list[str]]:
    """`games` games from game index `first`: (decisions compared, the differences found)."""
    total, problems = 0, []
    for index in range(first, first + games):
        played, problem = play_both(config_of_game(index), index)
        total += played
        if problem is not None:
            problems.append(problem)
    return total, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    decisions, problems = check(args.games, args.first)
    for p in problems[:10]:
        print(p)
    print(f"{args.games} games, {decisions} decisions compared, {len(problems)} differing games "
          f"({time.perf_counter() - t0:.0f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

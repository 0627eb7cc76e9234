"""Small helpers every part of the year uses: asking a player, moving to the next stage, goods masks."""

from __future__ import annotations

import numpy as np

from ..errors import IllegalActionError
from . import actions as A
from . import catalog as cat
from .state import KingsburgState

ALL_KINDS = 0b111

__all__ = ["ALL_KINDS", "IllegalActionError", "ask", "done", "enter", "kinds_mask", "owned_kinds", "pick_legal",
           "stable_bonus", "turn_order"]


def enter(s: KingsburgState, stage: int, phase: int | None = None) -> None:
    """Start `stage` (of `phase`) from its beginning."""
    s.stage, s.cursor, s.sub = stage, 0, 0
    if phase is not None:
        s.phase = phase


def ask(s: KingsburgState, decision: int, player: int, picks: int = 0, kinds: int = ALL_KINDS) -> None:
    """Stop at `decision` for `player`; for good picks, `picks` goods among the kinds of bitmask `kinds`."""
    s.decision, s.actor, s.picks_left, s.pick_kinds = decision, int(player), int(picks), int(kinds)


def done(s: KingsburgState) -> None:
    s.decision, s.actor, s.picks_left, s.pick_kinds = A.NONE, -1, 0, 0


def owned_kinds(s: KingsburgState, player: int) -> int:
    """Bitmask of the goods kinds `player` owns at least one of."""
    return sum(1 << k for k in range(3) if s.goods[player, k] > 0)


def kinds_mask(kinds: int) -> list[int]:
    return [k for k in range(3) if kinds >> k & 1]


def pick_legal(s: KingsburgState, mask: np.ndarray, paying: bool) -> None:
    """PICK_GOOD for the kinds of the pending pick (only kinds owned when the player gives goods away)."""
    kinds = s.pick_kinds & (owned_kinds(s, s.actor) if paying else ALL_KINDS)
    for k in kinds_mask(kinds):
        mask[A.PICK_GOOD + k] = 1


def turn_order(s: KingsburgState) -> list[int]:
    return [int(p) for p in s.order]


def stable_bonus(s: KingsburgState, player: int) -> int:
    """K15.D5: the Stable adds 1 soldier to every help that gives soldiers."""
    return 1 if s.owns(player, cat.STABLE) else 0

"""Choices the rules insert wherever play pauses: turning a lost hero over (R7.11, RP-2.6) and
getting a screen back down to 10 (R17.1.2). The machine asks these before resuming a phase."""

from __future__ import annotations

import numpy as np

from ..constants import SCREEN, SCREEN_LIMIT
from ..state import GameState
from . import decisions as D
from . import dice, powers, reactions
from .actions import PASS, YES, ActionLayout
from .common import to_cup
from .support import clear_hero_turn


def pending(s: GameState) -> bool:
    """Set the decision of the first pending interrupt; False when there is none."""
    faces = s.reg.get("hero_turns", 0)
    if faces:
        face = (faces & -faces).bit_length() - 1  # the lowest pending face
        s.reg["hero_turn"] = face
        s.decision, s.actor = D.HERO_TURN, s.reg[f"hero_turn_{face}"]
        return True
    if dice.pending(s) or reactions.pending(s) or powers.pending(s):  # R21.4 / R21.5 Encounter powers
        return True
    if s.reg.get("setup_screens"):
        return False
    open_player = s.reg.get("screen_open", 0) - 1
    sizes = np.bincount(s.thing_owner[s.thing_place == SCREEN], minlength=s.n_players)
    if sizes.max() <= SCREEN_LIMIT:
        return False
    for p in s.turn_order():
        if p != open_player and sizes[p] > SCREEN_LIMIT:
            s.reg["screen_open"] = p + 1  # over the limit only while discarding
            s.reg["discarding"] = 1  # others over the limit discard next (invariants allow it)
            s.decision, s.actor = D.DISCARD, p
            return True
    return False


def legal_hero_turn(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[YES] = mask[PASS] = 1


def apply_hero_turn(s: GameState, lay: ActionLayout, action: int) -> None:
    face = s.reg.pop("hero_turn")
    s.reg.pop(f"hero_turn_{face}")
    clear_hero_turn(s, face)
    if action == YES:
        s.hero_up[face // 2] ^= 1
    s.decision = D.NONE


def legal_discard(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.thing + s.screen(s.actor)] = 1


def apply_discard(s: GameState, lay: ActionLayout, action: int) -> None:
    """R17.1.2 / RD3.2: the owner discards counters of their choice to the cup (or cashes)."""
    to_cup(s, action - lay.thing)
    discard_done(s)


def discard_done(s: GameState) -> None:
    if s.screen_size(s.actor) <= SCREEN_LIMIT:
        s.reg.pop("screen_open", None)
        s.reg.pop("discarding", None)
        s.decision = D.NONE


DECISIONS = {
    **reactions.DECISIONS,
    **dice.DECISIONS,
    D.HERO_TURN: (legal_hero_turn, apply_hero_turn),
    D.DISCARD: (legal_discard, apply_discard),
}

"""Choices the rules insert wherever play pauses: turning a lost hero over (R7.11, RP-2.6) and
getting a screen back down to 10 (R17.1.2). The machine asks these before resuming a phase.

C++ twin: native/src/engine/interrupts.cpp
"""

from __future__ import annotations

import numpy as np

from .. import decisions as D
from ..constants import SCREEN, SCREEN_LIMIT
from ..procedures import Discard, HeroTurnOver, RecruitTurn, Setup
from ..state import GameState
from . import dice, hooks, reactions
from .actions import PASS, YES, ActionLayout
from .common import to_cup
from .support import clear_hero_turn


def pending(s: GameState) -> bool:
    """Set the decision of the first pending interrupt; False when there is none."""
    turning = s.frame(HeroTurnOver)
    if turning is not None and turning.faces:
        turning.face = turning.faces[0]  # the lowest pending face
        s.decision, s.actor = D.HERO_TURN, turning.owners[0]
        return True
    if dice.pending(s) or reactions.pending(s) or hooks.interrupt(s):  # R21.4 / R21.5 Encounter powers
        return True
    setup = s.frame(Setup)
    if setup is not None and setup.screens_open:
        return False
    open_player = s.open_screen()
    sizes = np.bincount(s.thing_owner[s.thing_place == SCREEN], minlength=s.n_players)
    if sizes.max() <= SCREEN_LIMIT:
        return False
    for p in s.turn_order():
        if p != open_player and sizes[p] > SCREEN_LIMIT:
            recruiting = s.frame(RecruitTurn)
            if recruiting is not None:
                recruiting.open_screen = -1  # the recruiting player's wait ends too (one waiver at a time)
            s.drop(Discard)
            s.push(Discard(player=p))  # over the limit only while discarding; the others follow
            s.decision, s.actor = D.DISCARD, p
            return True
    return False


def legal_hero_turn(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[YES] = mask[PASS] = 1


def apply_hero_turn(s: GameState, lay: ActionLayout, action: int) -> None:
    face = s.frame(HeroTurnOver).face
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
        s.drop(Discard)
        s.decision = D.NONE


DECISIONS = {
    **reactions.DECISIONS,
    **dice.DECISIONS,
    D.HERO_TURN: (legal_hero_turn, apply_hero_turn),
    D.DISCARD: (legal_discard, apply_discard),
}

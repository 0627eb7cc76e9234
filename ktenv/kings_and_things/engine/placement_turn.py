"""The placing decision (RP-S5, RP-S7, RP-3.4, RP-6.13): pick a Thing, then its hex; PASS ends.

In the Recruit Things turn the same decision also lets the player remove own income counters
(R8.2.2), since both are "arranging the kingdom" choices made before PASS.

C++ twin: native/src/engine/placement_turn.cpp
"""

from __future__ import annotations

import numpy as np

from .. import decisions as D
from ..constants import BOARD
from ..procedures import Placement
from ..state import GameState
from .actions import PASS, ActionLayout
from .common import own_income_counters, put_on_board, remove_income_counter
from .placement import PlacementTargets


def begin_placement(s: GameState, player: int, only_new: bool = False, only_hex: int = -1,
                    allow_remove: bool = False) -> None:
    s.drop(Placement)
    s.push(Placement(only_new=only_new, hex=only_hex, may_remove=allow_remove))
    s.decision, s.actor = D.PLACE, player


def _placement(s: GameState) -> Placement:
    return s.frame(Placement)  # type: ignore[return-value]


def _end_placement(s: GameState) -> None:
    s.drop(Placement)
    s.decision = D.NONE


def _candidates(s: GameState, targets: PlacementTargets) -> np.ndarray:
    mine = s.screen(s.actor)
    if _placement(s).only_new:
        mine = mine[s.thing_new[mine]]
    return targets.placeable(mine)


def legal_place(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    targets = PlacementTargets(s, s.actor, _placement(s).hex)
    mask[lay.thing + _candidates(s, targets)] = 1
    if _placement(s).may_remove:
        mask[lay.thing + own_income_counters(s, s.actor)] = 1
    mask[PASS] = 1


def apply_place(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        _end_placement(s)
        return
    c = action - lay.thing
    if s.thing_place[c] == BOARD:  # only own income counters are offered from the board
        remove_income_counter(s, c)
        return
    _placement(s).thing = c
    s.decision = D.PLACE_HEX


def legal_place_hex(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    placing = _placement(s)
    targets = PlacementTargets(s, s.actor, placing.hex)
    mask[lay.hex + np.flatnonzero(targets.hexes_for(placing.thing))] = 1


def apply_place_hex(s: GameState, lay: ActionLayout, action: int) -> None:
    placing = _placement(s)
    c, placing.thing = placing.thing, -1
    put_on_board(s, c, s.actor, action - lay.hex)
    s.decision = D.PLACE


def placeable_count(s: GameState, player: int) -> int:
    """How many screen Things could be placed now (for agents and tests)."""
    return int(PlacementTargets(s, player).placeable(s.screen(player)).size)


DECISIONS = {
    D.PLACE: (legal_place, apply_place),
    D.PLACE_HEX: (legal_place_hex, apply_place_hex),
}

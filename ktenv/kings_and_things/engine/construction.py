"""R14 phase 7: build Towers and raise forts, 5 gold a level, one level per hex per round.

C++ twin: native/src/engine/construction.cpp
"""

from __future__ import annotations

import numpy as np

from .. import decisions as D
from ..state import CONSTRUCTION, SPECIAL, GameState
from . import hooks
from .actions import PASS, ActionLayout
from .common import own_income_counters, remove_income_counter
from .victory import after_citadel_change, check_sole_citadel

BUILD_COST = 5  # R14.1


def run(s: GameState) -> None:
    order = s.turn_order()
    if s.turn >= len(order):
        check_sole_citadel(s)  # R14.7 / R16.2
        if not s.game_over:
            s.phase, s.stage, s.turn = SPECIAL, 0, 0
        return
    s.decision, s.actor = D.BUILD, order[s.turn]


def supply_left(s: GameState, level: int) -> bool:
    """R14.5: a level can be built only while one of its counters is in the bank."""
    return s.cfg.fort_supply == "unlimited" or s.fort_in_use(level) < int(s.cat.FORT_COUNT[level])


def may_build_citadel(s: GameState, player: int) -> bool:
    """R14.3: owns no Citadel, income at least 20 (15 with 2-3 players); R19.2.1: only the first."""
    if s.citadel_hexes(player).size:
        return False
    if s.cfg.victory == "unique_a" and s.citadel_hexes().size:
        return False
    return s.income(player) >= s.cfg.citadel_income


def buildable(s: GameState, player: int) -> np.ndarray:
    """Hexes where `player` may build now (boolean per hex)."""
    if s.gold[player] < hooks.build_cost(s, player, BUILD_COST) or (s.cfg.no_construction_round_1 and s.round == 1):
        return np.zeros(s.geo.n_hexes, bool)
    ok = (s.hex_owner == player) & (s.hex_fort < 4) & (s.hex_fort_round != s.round)  # R14.2
    for level in range(1, 5):  # the level a build would reach: fort + 1
        at = ok & (s.hex_fort == level - 1)
        if at.any() and not supply_left(s, level):
            ok &= ~at
    castles = ok & (s.hex_fort == 3)
    if castles.any() and not may_build_citadel(s, player):
        ok &= ~castles
    return ok


def legal_build(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + np.flatnonzero(buildable(s, s.actor))] = 1
    mask[lay.thing + own_income_counters(s, s.actor)] = 1  # R18.4 / RD8.4
    mask[PASS] = 1


def apply_build(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        s.decision = D.NONE
        s.turn += 1
        return
    if action >= lay.thing:
        remove_income_counter(s, action - lay.thing)
        return
    raise_fort(s, action - lay.hex, paid=True)


def raise_fort(s: GameState, hx: int, paid: bool) -> None:
    """One level up (a Tower on an empty hex); the fort counter below returns to the bank."""
    if paid:
        s.gold[s.hex_owner[hx]] -= hooks.build_cost(s, int(s.hex_owner[hx]), BUILD_COST)  # R21.3 Builder
    s.hex_fort[hx] += 1
    s.hex_fort_round[hx] = s.round
    s.stats["forts_built"] += 1
    if s.hex_fort[hx] == 4:
        s.hex_citadel_round[hx] = s.round
        s.hex_citadel_seq[hx] = s.citadel_seq
        s.citadel_seq += 1
        s.hex_citadel_built[hx] = True
        after_citadel_change(s)


DECISIONS = {D.BUILD: (legal_build, apply_build)}

RUNNERS = {CONSTRUCTION: run}

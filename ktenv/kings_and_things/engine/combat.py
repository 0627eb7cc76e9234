"""R12 phase 6: exploration and battles, organised in player segments (R12.1).

From the first player round the table, each player involved in a pending battle, exploration
or contest chooses one and resolves it completely; the phase ends when none is left.

C++ twin: native/src/engine/combat.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CITY, CREATURE, NEUTRAL, NOBODY, SEA, VILLAGE
from ..procedures import Battle, Entries, Exploration
from ..state import COMBAT, CONSTRUCTION, GameState
from . import battle, exploration, hooks, movement
from .actions import ActionLayout

_KIND = cat.THING_KIND


def presence(s: GameState) -> np.ndarray:
    """bool[player, hex]: the player has combat counters or face-down counters there (R12.1.1);
    the hex owner's forts, cities and villages count as the owner's."""
    n, h = s.n_players, s.geo.n_hexes
    out = np.zeros((n, h), bool)
    mine = (s.thing_place == BOARD) & (s.cat.THING_KIND == CREATURE) & (s.thing_owner < n)
    out[s.thing_owner[mine], s.thing_hex[mine]] = True
    owned = s.hero_owner >= 0
    out[s.hero_owner[owned], s.hero_hex[owned]] = True
    towns = np.zeros(h, bool)
    inc = s.hex_income >= 0
    towns[inc] = np.isin(_KIND[s.hex_income[inc]], (CITY, VILLAGE))
    held = (s.hex_owner >= 0) & ((s.hex_fort > 0) | towns)
    out[s.hex_owner[held], np.flatnonzero(held)] = True
    return out


def pending_items(s: GameState) -> tuple[np.ndarray, np.ndarray]:
    """(hexes with a pending battle, exploration or contest; presence matrix)."""
    here = presence(s)
    count = here.sum(axis=0)
    owned = s.hex_owner >= 0
    land = (s.hex_terrain != SEA) | s.hex_down  # R20.3: a face-down tile is explored (and turned up)
    items = (owned & (count >= 2)) | (~owned & land & (count >= 1))
    return np.flatnonzero(items), here


def run(s: GameState) -> None:
    x = s.frame(Exploration)
    if x is not None:
        if x.done:
            _item_done(s)
        else:
            exploration.run(s)
        return
    b = s.frame(Battle)
    if b is not None:
        if b.done:
            _battle_done(s)
        else:
            battle.run(s)
        return
    items, here = pending_items(s)
    if items.size == 0:  # R12.1.4
        s.drop(Entries)  # entry orders matter only until the contests are fought
        s.phase, s.stage, s.turn = CONSTRUCTION, 0, 0
        return
    order = s.turn_order()
    player = order[s.turn % len(order)]
    if here[player, items].any():  # R12.1.3: choosing is mandatory when involved
        s.decision, s.actor = D.SEGMENT, player
    else:
        s.turn += 1


def legal_segment(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    items, here = pending_items(s)
    mask[lay.hex + items[here[s.actor, items]]] = 1


def apply_segment(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = action - lay.hex
    player = s.actor
    s.decision = D.NONE
    _, here = pending_items(s)
    present = [p for p in s.turn_order() if here[p, hx]]
    if hooks.combat_hex_chosen(s, hx):  # R20.3 / RD10.15: Sea: everybody there goes back
        s.turn += 1
        return
    if s.hex_owner[hx] != NOBODY:  # R12.1.5: the owner defends, every other player attacks
        battle.begin(s, hx, battle.OWNED, player, present, int(s.hex_owner[hx]))
    elif len(present) == 1:
        exploration.begin(s, hx, player)
    else:  # R12.3 contest: the chooser attacks; the nearest player to the right defends
        attacker = _contest_attacker(s, hx, player, present)
        battle.begin(s, hx, battle.CONTEST, attacker, present, _contest_defender(s, attacker, present))


def _contest_attacker(s: GameState, hx: int, chooser: int, present: list[int]) -> int:
    """X12: the player who chose the contest, or (option) the second player to have moved in."""
    if s.cfg.contest_attacker == "second_to_enter":
        entered = [p for p in movement.entry_order(s, hx) if p in present]
        if len(entered) >= 2:
            return entered[1]
    return chooser


def _contest_defender(s: GameState, attacker: int, present: list[int]) -> int:
    order = s.turn_order()
    i = order.index(attacker)
    for k in range(1, len(order)):
        candidate = order[(i - k) % len(order)]
        if candidate in present:
            return candidate
    return attacker


def _battle_done(s: GameState) -> None:
    b = s.frame(Battle)
    kind, hx, won = b.kind, b.hex, b.winner
    s.drop(Battle)
    if kind == battle.CONTEST and won >= 0 and won != NEUTRAL:
        exploration.begin(s, hx, won)  # R12.3.1: the survivor explores in the same segment
        return
    s.turn += 1


def _item_done(s: GameState) -> None:
    s.drop(Exploration)
    s.turn += 1


RUNNERS = {COMBAT: run}
DECISIONS = {
    D.SEGMENT: (legal_segment, apply_segment),
    **battle.DECISIONS,
    **exploration.DECISIONS,
}

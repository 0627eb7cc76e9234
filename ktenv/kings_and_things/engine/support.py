"""R9 support and bluffs, R7.11 hero losses: shared by movement, battles and events.

A creature is supported if its owner owns a land hex of its home terrain anywhere, or if the
owner's terrain lord of that terrain stands in its hex (R9.1). Face-up unsupported creatures
leave at once (RD3.1, R9.5); face-down ones are never removed as bluffs.

C++ twin: native/src/engine/support.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CREATURE, NEUTRAL, NOBODY
from ..procedures import HeroTurnOver
from ..state import GameState
from . import hooks
from .common import to_cup

_IS_CREATURE = cat.THING_KIND == CREATURE


def supported(s: GameState, c: int) -> bool:
    """R9.1 for one creature on the board (neutral defenders need no support, R9.2)."""
    owner = int(s.thing_owner[c])
    if owner == NEUTRAL:
        return True
    terrain = cat.THING_TERRAIN[c]
    if ((s.hex_owner == owner) & (s.hex_terrain == terrain)).any():
        return True
    lords = np.flatnonzero((s.hero_owner == owner) & (s.cat.HERO_LORD_TERRAIN == terrain))
    return bool(lords.size) and s.hero_hex[lords[0]] == s.thing_hex[c]


def supported_mask(s: GameState, player: int) -> np.ndarray:
    """Per Thing: a creature of `player` that is supported now (False for anything else)."""
    own_terrains = np.zeros(8, bool)
    own_terrains[s.hex_terrain[s.hex_owner == player]] = True
    mine = (s.thing_owner == player) & _IS_CREATURE[:s.n_things] & (s.thing_place == BOARD)
    ok = mine & own_terrains[np.maximum(s.cat.THING_TERRAIN, 0)]
    for face in np.flatnonzero((s.hero_owner == player) & (s.cat.HERO_LORD_TERRAIN >= 0)):
        ok |= mine & (s.cat.THING_TERRAIN == cat.HERO_LORD_TERRAIN[face]) & (s.thing_hex == s.hero_hex[face])
    return ok


def remove_revealed_bluffs(s: GameState) -> list[int]:
    """R9.5: every face-up unsupported creature of a player goes to the cup (not a casualty, R9.7)."""
    removed = []
    face_up = np.flatnonzero(s.thing_face_up & _IS_CREATURE[:s.n_things] & (s.thing_place == BOARD)
                             & (s.thing_owner != NEUTRAL))
    for owner in np.unique(s.thing_owner[face_up]):
        ok = supported_mask(s, int(owner))
        for c in face_up[s.thing_owner[face_up] == owner]:
            if not ok[c]:
                to_cup(s, int(c))
                removed.append(int(c))
    return removed


def reveal(s: GameState, c: int) -> bool:
    """Turn a creature face up for all to see (R9.6, RI.4); False if it was a bluff and left."""
    s.thing_face_up[c] = True
    s.thing_public[c] = True
    if s.thing_owner[c] != NEUTRAL and not supported(s, c):
        to_cup(s, c)
        return False
    return True


def lose_hero(s: GameState, face: int) -> None:
    """R7.11: an eliminated hero returns to the pool; its former owner may turn the counter over
    (RP-2.6), asked at the next pause in the rules (see interrupts)."""
    owner = int(s.hero_owner[face])
    s.hero_owner[face] = NOBODY
    s.hero_hex[face] = -1
    s.hero_status[face] = 0
    s.hero_pinned[face] = False
    s.hero_moved[face] = False
    if owner != NOBODY and hooks.hero_may_turn(s, face):  # R22.4: not Tycho Brahe's counter without Kadab
        turning = s.frame(HeroTurnOver) or s.push(HeroTurnOver())
        if face in turning.faces:
            turning.owners[turning.faces.index(face)] = owner
        else:
            i = sum(f < face for f in turning.faces)  # kept lowest first
            turning.faces.insert(i, face)
            turning.owners.insert(i, owner)


def clear_hero_turn(s: GameState, face: int) -> None:
    """The turning-over question for `face` is settled (asked, or decided by a rule)."""
    turning = s.frame(HeroTurnOver)
    if turning is None:
        return
    if face in turning.faces:
        i = turning.faces.index(face)
        del turning.faces[i], turning.owners[i]
    if turning.face == face:
        turning.face = -1
    if not turning.faces and turning.face < 0:
        s.drop(HeroTurnOver)

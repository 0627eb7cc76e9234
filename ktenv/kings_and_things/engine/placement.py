"""R8.3: where a Thing from the screen may be placed (setup, recruiting, after a conquest).

C++ twin: native/src/engine/placement.hpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import CITY, CREATURE, SPECIAL_INCOME, VILLAGE
from ..state import GameState


class PlacementTargets:
    """Legal hexes per kind of Thing for one player, computed once per decision."""

    __slots__ = ("creature", "city", "by_terrain")

    def __init__(self, s: GameState, player: int, only_hex: int = -1) -> None:
        own = s.hex_owner == player  # R8.3.1: only land hexes the player owns
        if only_hex >= 0:  # R13.11.2: only the newly conquered hex
            restrict = np.zeros_like(own)
            restrict[only_hex] = True
            own &= restrict
        self.creature = own & (s.room_for(player) > 0)  # R8.3.5: at most 10 (Citadel: no limit)
        self.city = own & (s.hex_income < 0)  # R8.3.3: one income counter per hex
        self.by_terrain = [self.city & (s.hex_terrain == t) for t in range(7)]  # R8.3.4

    def hexes_for(self, c: int) -> np.ndarray:
        """Boolean mask of the hexes where Thing `c` may go (all False: it stays behind the screen)."""
        kind = cat.THING_KIND[c]
        if kind == CREATURE:
            return self.creature
        if kind in (CITY, VILLAGE):
            return self.city
        if kind == SPECIAL_INCOME:
            return self.by_terrain[cat.THING_TERRAIN[c]]
        return np.zeros_like(self.city)  # R8.3.2: magic items, events, treasures never go on the board

    def placeable(self, things: np.ndarray) -> np.ndarray:
        """The subset of `things` that has at least one legal hex."""
        if things.size == 0:
            return things
        kinds = cat.THING_KIND[things]
        ok = np.zeros(things.size, bool)
        ok[kinds == CREATURE] = self.creature.any()
        ok[(kinds == CITY) | (kinds == VILLAGE)] = self.city.any()
        special = kinds == SPECIAL_INCOME
        if special.any():
            terrain_ok = np.array([m.any() for m in self.by_terrain])
            ok[special] = terrain_ok[cat.THING_TERRAIN[things[special]]]
        return things[ok]

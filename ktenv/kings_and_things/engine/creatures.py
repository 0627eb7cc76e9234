"""Creature rules that every part of the turn asks: which Things fly.

A flying creature (the wing symbol: `catalog.THING_FLYING`; flying heroes `catalog.HERO_FLYING`) pays
1 MP a hex whatever the terrain (RD4.7), may leave a pin (R11.5) and pass enemy hexes under R11.6,
may not enter or cross a full hex (R11.4.3). `flying` is the one answer to "does this Thing fly now";
the optional rules may add flyers through the hook point `hooks.flyers` (R21.2: the Aviator's creature
of this round).

C++ twin: native/src/engine/creatures.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..state import GameState
from . import hooks

THING_FLYING = cat.THING_FLYING.astype(bool)  # printed
HERO_FLYING = cat.HERO_FLYING.astype(bool)


def flying(s: GameState) -> np.ndarray:
    """Per Thing of the game: moves as a flyer now (the printed flag, plus what the optional rules add)."""
    return hooks.flyers(s, THING_FLYING[:s.n_things])

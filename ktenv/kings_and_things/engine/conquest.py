"""R13.11 conquest (any way of taking a hex), fort reduction, and what an emptied hex leaves.

C++ twin: native/src/engine/conquest.cpp
"""

from __future__ import annotations

from ..constants import BOARD, NEUTRAL
from ..state import GameState
from . import victory
from .common import to_cup
from .stacks import allow_overflow
from .support import remove_revealed_bluffs


def conquer(s: GameState, hx: int, player: int) -> None:
    """The conqueror's control marker; fort and income counter change hands; the black cloud
    goes; support is re-evaluated; Citadel changes are checked for victory (R13.11.1)."""
    s.hex_owner[hx] = player
    c = int(s.hex_income[hx])
    if c >= 0:
        s.thing_owner[c] = player
    if s.cloud_hex == hx:
        s.cloud_hex = -1  # B.10
    s.stats["hexes_conquered"] += 1
    remove_revealed_bluffs(s)  # R9.3
    if s.hex_fort[hx] == 4:
        victory.citadel_captured(s, hx)
    if not s.game_over and s.cfg.land_check == "immediate" and s.cfg.victory == "land_conquest":
        victory.check_land_conquest(s)


def reduce_fort(s: GameState, hx: int) -> None:
    """One level down (a Tower goes back to the bank); always possible whatever the supply (RD7.8).

    A Citadel reduced to a Castle (R19.2.2 variant B) brings back the stack limit it had lifted
    (R11.4.2): a stack there over 10 may stay so until its owner next moves and trims it (RP-5.9), as
    after the Warlord (RD10.2). [The rules page is silent; this is the engine's reading.]"""
    citadel = s.hex_fort[hx] == 4
    if citadel:
        s.hex_citadel_round[hx] = -1
        s.hex_citadel_seq[hx] = -1
        s.hex_citadel_built[hx] = False
    s.hex_fort[hx] -= 1
    if citadel:
        for p in range(s.n_players):
            if s.room_for(p)[hx] < 0:
                allow_overflow(s, p)


def leftovers_to_cup(s: GameState, hx: int) -> None:
    """RD6.3: treasures, magic items and a special income counter left in an emptied unexplored hex."""
    for c in ((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)).nonzero()[0]:
        to_cup(s, int(c))

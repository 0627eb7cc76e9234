"""R13.11 conquest (any way of taking a hex) and R13.10 step 2, the damage rolls after a battle."""

from __future__ import annotations

from .. import catalog as cat
from ..constants import BOARD, CITY, NEUTRAL, SPECIAL_INCOME, VILLAGE
from ..state import GameState
from . import victory
from .common import to_cup
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


def damage_rolls(s: GameState, hx: int) -> None:
    """R13.10.2 / RD7.5: d6 for the fort and the income counter; on 1 or 6 the income counter,
    city or village is destroyed and the fort loses a level (a Citadel never, except R19.2.2)."""
    if s.hex_fort[hx] > 0:
        roll = s.rng.d6()
        citadel_safe = not (s.cfg.victory == "unique_b" and s.cfg.unique_b_vulnerable == "combat_and_disaster")
        if roll in (1, 6) and not (s.hex_fort[hx] == 4 and citadel_safe):
            reduce_fort(s, hx)
    c = int(s.hex_income[hx])
    if c >= 0 and cat.THING_KIND[c] in (SPECIAL_INCOME, CITY, VILLAGE):
        if s.rng.d6() in (1, 6):
            to_cup(s, c)


def reduce_fort(s: GameState, hx: int) -> None:
    """One level down (a Tower goes back to the bank); always possible whatever the supply (RD7.8)."""
    if s.hex_fort[hx] == 4:
        s.hex_citadel_round[hx] = -1
        s.hex_citadel_seq[hx] = -1
        s.hex_citadel_built[hx] = False
    s.hex_fort[hx] -= 1


def leftovers_to_cup(s: GameState, hx: int) -> None:
    """RD6.3: treasures, magic items and a special income counter left in an emptied unexplored hex."""
    for c in ((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)).nonzero()[0]:
        to_cup(s, int(c))

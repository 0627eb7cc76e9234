"""Small moves every part of the turn uses: drawing from the cup, returning, cashing, paying; what a
face-down tile hides (R20.3: `known_sea`, `known_land`, `turn_up`; without Mysterious Kadab no tile is
face down); forts and towns that change hex (`move_town`, `move_fort`: R21.10, R22.3).

C++ twin: native/src/engine/common.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CITY, CUP, NOBODY, OUT, SCREEN, SEA, SPECIAL_INCOME, VILLAGE
from ..state import GameState


def draw(s: GameState, player: int) -> int:
    """Draw one Thing at random from the cup to `player`'s screen; -1 if the cup is empty (R8.1.5)."""
    cup = np.flatnonzero(s.thing_place == CUP)
    if cup.size == 0:
        return -1
    c = int(cup[s.rng.below(cup.size)])
    s.thing_place[c] = SCREEN
    s.thing_owner[c] = player
    if cup.size == 1:
        s.cup_ran_dry = 1  # R17.2.1: true elimination from the moment the last counter is drawn
    return c


def to_cup(s: GameState, c: int) -> None:
    """A Thing leaves the board or a screen for the cup; its identity is forgotten (RI.4)."""
    if s.thing_place[c] == BOARD and s.hex_income[s.thing_hex[c]] == c:
        s.hex_income[s.thing_hex[c]] = -1
    s.thing_place[c] = CUP
    s.thing_owner[c] = NOBODY
    s.thing_hex[c] = -1
    s.thing_face_up[c] = False
    s.thing_public[c] = False
    s.thing_selected[c] = False
    s.thing_in_play[c] = False
    s.thing_bearer[c] = -1
    s.thing_damage[c] = 0
    s.thing_mp[c] = s.thing_status[c] = 0  # a counter that leaves the board no longer moves
    s.thing_pinned[c] = s.thing_moved[c] = False


# ----- R20.1: the second box's magic items are played as their first-box originals -----

_THING_STATE = tuple(name for name in GameState.__slots__ if name.startswith("thing_"))


def playable_copy(s: GameState, c: int) -> bool:
    """A magic item of the second box (R20.1) may be played while its first-box original is not
    in play [DECISION: at most one copy of each magic item in play at a time]; first-box counters
    always pass this test."""
    o = int(cat.THING_ORIGINAL[c])
    return o == c or not s.thing_in_play[o]


def as_original(s: GameState, c: int) -> int:
    """The id under which item `c` is played: `c` itself, or for a second-box copy its first-box
    original, after the two counters changed places. The two are the same design, so exchanging
    where they are changes nothing in the game; the rules of Appendix C keep their in-play state
    on the original's id. Call only when `playable_copy(s, c)`."""
    o = int(cat.THING_ORIGINAL[c])
    if o != c:
        for name in _THING_STATE:
            a = getattr(s, name)
            a[c], a[o] = a[o], a[c]
    return o


def used_up(s: GameState, c: int) -> None:
    """A played event, used magic item or cashed treasure: to the cup, or out once it ran dry (R17.2)."""
    to_cup(s, c)
    if s.cup_ran_dry:
        s.thing_place[c] = OUT


def cash(s: GameState, player: int, c: int) -> None:
    """R18.3: show a treasure, take its value in gold, return it (R17.2 applies)."""
    s.gold[player] += int(cat.THING_GOLD[c])
    s.stats["treasures_cashed"] += 1
    used_up(s, c)


def treasure_value(s: GameState, player: int) -> int:
    """Gold the player could raise at once by cashing every treasure behind the screen."""
    mine = s.screen(player)
    return int(cat.THING_GOLD[mine].sum())


def put_on_board(s: GameState, c: int, player: int, hx: int) -> None:
    """Place a Thing from the screen on an own hex (R8.3): income counters face up, creatures face down."""
    s.thing_place[c] = BOARD
    s.thing_owner[c] = player
    s.thing_hex[c] = hx
    s.thing_selected[c] = False
    kind = cat.THING_KIND[c]
    if kind in (SPECIAL_INCOME, CITY, VILLAGE):
        s.hex_income[hx] = c
        s.thing_face_up[c] = True
        s.thing_public[c] = True
    else:
        s.thing_face_up[c] = False


def own_income_counters(s: GameState, player: int) -> np.ndarray:
    """Income counters on the player's hexes (they may be removed voluntarily, R18.4)."""
    counters = s.hex_income[s.hex_owner == player]
    return counters[counters >= 0].astype(np.int64)


def remove_income_counter(s: GameState, c: int) -> None:
    """R8.2.2 / R18.4: an own income counter goes from the board to the cup (never to the screen)."""
    to_cup(s, c)
    s.stats["income_counters_removed"] += 1


# ----- face-down tiles (R20.3: laid only with Mysterious Kadab; `s.hex_down` is all False without) -----

def known_sea(s: GameState) -> np.ndarray:
    """Per hex: a Sea that everybody can see (a face-down Sea looks like any face-down tile)."""
    return (s.hex_terrain == SEA) & ~s.hex_down


def known_land(s: GameState) -> np.ndarray:
    return (s.hex_terrain != SEA) & ~s.hex_down


def turn_up(s: GameState, hx: int) -> bool:
    """Turn the tile up; True when it is Sea."""
    s.hex_down[hx] = False
    return bool(s.hex_terrain[hx] == SEA)


# ----- forts and towns that change hex (R21.10 Nomad, R22.3 Gypsy King) -----

def move_town(s: GameState, c: int, src: int, dest: int) -> None:
    """A city or village changes hex (R21.10 Nomad, R22.3 Gypsy King)."""
    s.thing_hex[c] = dest
    s.hex_income[src], s.hex_income[dest] = -1, c


def move_fort(s: GameState, src: int, dest: int) -> None:
    """A Tower or Keep changes hex (R21.10 Nomad, R22.3 Gypsy King)."""
    s.hex_fort[dest], s.hex_fort[src] = s.hex_fort[src], 0
    s.hex_fort_round[dest], s.hex_fort_round[src] = s.hex_fort_round[src], -1

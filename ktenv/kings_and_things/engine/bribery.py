"""R12.2.5 bribery: before the battle of an exploration the explorer may buy off neutral defenders.

Each defender costs its combat value in gold, doubled when the hex holds a treasure, a magic item or an
income counter (RD6.1: a city or village counts too, option `bribe_double_on_city`). A bribed creature
goes back to the cup; a bribed city or village is neutralized (it stays, fully damaged). Bribing every
defender conquers the hex without a battle and without damage rolls (exploration.py: `apply_bribe`,
`_conquered`). Defenders that have fought a round are never bribed (R12.4.2; exploration.py asks for
bribes only before the battle). The decision is BRIBE (exploration.py: `legal_bribe`, `apply_bribe`).

C++ twin: native/src/engine/bribery.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CREATURE, MAGIC, SPECIAL_INCOME, TREASURE
from ..state import GameState
from .common import to_cup

_KIND = cat.THING_KIND


def bribe_price(s: GameState, hx: int, c: int) -> int:
    """Defender `c` of `hx`: combat value, doubled when the hex holds a treasure, magic item or income counter."""
    guarded = (s.thing_place == BOARD) & (s.thing_hex == hx) & np.isin(s.cat.THING_KIND, (TREASURE, MAGIC))
    income = int(s.hex_income[hx])
    doubles = guarded.any() or (income >= 0 and (_KIND[income] == SPECIAL_INCOME or s.cfg.bribe_double_on_city))
    return int(cat.THING_COMBAT[c]) * (2 if doubles else 1)


def bribable(s: GameState, player: int, hx: int, defenders: np.ndarray) -> np.ndarray:
    """The defenders of `hx` that `player` can pay for."""
    gold = int(s.gold[player])
    return np.array([c for c in defenders.tolist() if bribe_price(s, hx, c) <= gold], np.int64)


def bribe(s: GameState, player: int, hx: int, c: int) -> None:
    """`player` pays for defender `c` of `hx`: a creature goes to the cup, a city or village is neutralized."""
    s.gold[player] -= bribe_price(s, hx, c)
    s.stats["bribes"] += 1
    if _KIND[c] == CREATURE:
        to_cup(s, c)  # bribed creatures go back to the cup
    else:
        s.thing_damage[c] = cat.THING_COMBAT[c]  # a bribed city or village is neutralized but stays

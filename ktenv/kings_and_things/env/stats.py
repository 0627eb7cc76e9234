"""Public per-player numbers for all players at once (observation, infos, shaped reward).

One vectorised pass over the state instead of `GameState.income(p)` per player (a dozen numpy
calls each). `tests/envs/test_env_observation.py` checks it against the engine's own `income()`,
`land_hex_count()` and `screen_size()` on many random states, so that a rules change in the
engine which this copy misses fails a test.
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CITY, SCREEN, SPECIAL_INCOME, VILLAGE
from ..state import RECRUIT, GameState

# Columns of the table `player_stats` returns, in order (all public, RI.1 / RD3.3).
STAT_COLUMNS = (
    "alive",  # still in the game (R16.6)
    "gold",
    "hexes",  # land hexes owned
    "income",  # current income (R6.2)
    "fort_levels",  # sum of fort levels over owned hexes
    "forts",  # number of forts
    "citadels",
    "heroes",
    "screen",  # counters behind the screen (RD3.3)
    "board_things",  # Things on the board (creatures; income counters not counted)
    "income_counters",  # income counters on owned hexes
    "drawn",  # Things drawn in the current recruiting turn
    "trade_set",  # counters in the trade set being declared (public, R8.1.1)
)
(ALIVE, GOLD, HEXES, INCOME, FORT_LEVELS, FORTS, CITADELS, HEROES, SCREEN_SIZE, BOARD_THINGS,
 INCOME_COUNTERS, DRAWN, TRADE_SET) = range(len(STAT_COLUMNS))

_IS_INCOME = np.isin(cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))
_DWARF_KING = cat.hero_id("Dwarf King")
_INCOME_VALUE = cat.THING_INCOME.astype(np.int64)
_NOT_INCOME = ~_IS_INCOME


def player_stats(s: GameState, memo: dict | None = None) -> np.ndarray:
    """int64[n_players, len(STAT_COLUMNS)], rows in absolute player order.

    `memo` (a dict the caller keeps, e.g. one per env) remembers the hex-based columns by the
    bytes of the arrays they come from: they change seldom (claims, forts, conquests, heroes),
    so most calls skip their dozen numpy operations."""
    if not isinstance(s, GameState):  # a native game: computed natively
        return s.player_stats()
    n = s.n_players
    hex_part = None
    if memo is not None:
        key = (s.hex_owner.tobytes(), s.hex_fort.tobytes(), s.hex_income.tobytes(), s.hero_owner.tobytes(),
               s.power_hex.tobytes())
        hex_part = memo.get(key)
    if hex_part is None:
        hex_part = _hex_columns(s)
        if memo is not None:
            if len(memo) > 256:
                memo.clear()
            memo[key] = hex_part
    out = hex_part.copy()
    place, towner = s.thing_place, s.thing_owner
    on_screen = place == SCREEN
    out[:, SCREEN_SIZE] = np.bincount(towner[on_screen], minlength=n)
    on_board = (place == BOARD) & _NOT_INCOME[:s.n_things] & (towner >= 0) & (towner < n)
    out[:, BOARD_THINGS] = np.bincount(towner[on_board], minlength=n)
    if s.phase == RECRUIT:
        trade = on_screen & s.thing_selected
        out[:, TRADE_SET] = np.bincount(towner[trade], minlength=n)
    out[:, ALIVE] = s.alive
    out[:, GOLD] = s.gold
    out[:, DRAWN] = s.drawn
    return out


def _hex_columns(s: GameState) -> np.ndarray:
    """The columns that depend only on hex owners, forts, income counters and heroes."""
    n = s.n_players
    out = np.zeros((n, len(STAT_COLUMNS)), np.int64)
    owner = s.hex_owner
    owned = owner >= 0
    o = owner[owned].astype(np.intp)
    fort = s.hex_fort[owned]
    out[:, HEXES] = np.bincount(o, minlength=n)
    out[:, FORT_LEVELS] = np.bincount(o, weights=fort, minlength=n)
    out[:, FORTS] = np.bincount(o[fort > 0], minlength=n)
    out[:, CITADELS] = np.bincount(o[fort == 4], minlength=n)
    inc = s.hex_income[owned]
    has = inc >= 0
    if has.any():
        ids = inc[has]
        oi = o[has]
        values = _INCOME_VALUE[ids]
        king = s.hero_owner[_DWARF_KING]
        if king >= 0:  # A.9: the Dwarf King doubles his owner's mines
            values = np.where(cat.THING_IS_MINE[ids] & (oi == king), values * 2, values)
        out[:, INCOME_COUNTERS] = np.bincount(oi, minlength=n)
        income_values = np.bincount(oi, weights=values, minlength=n)
    else:
        income_values = 0
    hero_owner = s.hero_owner[s.hero_owner >= 0]
    out[:, HEROES] = np.bincount(hero_owner, minlength=n)
    out[:, INCOME] = out[:, HEXES] + out[:, FORT_LEVELS] + income_values + out[:, HEROES]
    for p in np.flatnonzero(s.power_hex >= 0).tolist():  # R21.7 Tax Farmer: the marked counter counts double
        hx = int(s.power_hex[p])
        c = int(s.hex_income[hx])
        if owner[hx] == p and c >= 0:
            mine = cat.THING_IS_MINE[c] and s.hero_owner[_DWARF_KING] == p
            out[p, INCOME] += int(_INCOME_VALUE[c]) * (2 if mine else 1)
    return out

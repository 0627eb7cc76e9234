"""Phase 1, Aid from the King (K4): a white die for spring, or one good of choice for each tied player."""

from __future__ import annotations

import numpy as np

from . import actions as A
from .common import ask, done, enter, turn_order
from .state import AID, SEASON_START, KingsburgState


def fewest(values: np.ndarray, among: list[int]) -> list[int]:
    """The players of `among` with the smallest value."""
    low = min(int(values[p]) for p in among)
    return [p for p in among if int(values[p]) == low]


def recipients(s: KingsburgState) -> tuple[int, list[int]]:
    """(the aid-die player or -1, the players who take one good each) by K4.1-K4.3 (ties by D14's goods)."""
    buildings = s.built.sum(axis=(1, 2))
    f = fewest(buildings, list(range(s.n_players)))
    if len(f) == 1:
        return f[0], []
    g = fewest(s.goods.sum(axis=1), f)
    return (g[0], []) if len(g) == 1 else (-1, g)


def run(s: KingsburgState) -> None:
    if s.sub == 0:
        s.aid_player, takers = recipients(s)
        s.pending[:] = False
        s.pending[takers] = True
        s.sub, s.cursor = 1, 0
    order = turn_order(s)
    while s.cursor < s.n_players:  # K4.5: in turn order
        p = order[s.cursor]
        s.cursor += 1
        if s.pending[p]:
            s.pending[p] = False
            ask(s, A.AID_GOOD, p, picks=1)
            return
    enter(s, SEASON_START, phase=2)


def take_good(s: KingsburgState, action: int) -> None:
    """PICK_GOOD for a good taken from the supply (aid, advisors, rewards, the Merchants' Guild)."""
    s.goods[s.actor, action - A.PICK_GOOD] += 1
    s.picks_left -= 1
    if s.picks_left <= 0:
        done(s)


RUNNERS = {AID: run}

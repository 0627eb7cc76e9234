"""Phase 7, recruiting soldiers (K8.1, K15.D4; decision P11): RECRUIT or DONE, then the goods that pay."""

from __future__ import annotations

import numpy as np

from . import actions as A
from . import catalog as cat
from .common import ask, done, enter, owned_kinds, turn_order
from .state import BATTLE, RECRUIT, KingsburgState


def price(s: KingsburgState, p: int) -> int:
    """Goods per soldier: 2 of any kinds, 1 with the Barracks (D4)."""
    return 1 if s.owns(p, cat.BARRACKS) else 2


def run(s: KingsburgState) -> None:
    """cursor: the player's place in the turn order; sub = 1 once that player said DONE."""
    order = turn_order(s)
    while s.cursor < s.n_players:
        p = order[s.cursor]
        if s.sub == 0 and s.goods_count(p) >= price(s, p):
            ask(s, A.RECRUIT_TURN, p)
            return
        s.cursor += 1
        s.sub = 0
    enter(s, BATTLE, phase=8)


def recruit_legal(s: KingsburgState, mask: np.ndarray) -> None:
    mask[A.PASS] = mask[A.RECRUIT] = 1


def recruit_apply(s: KingsburgState, action: int) -> None:
    p = s.actor
    if action == A.PASS:
        s.sub = 1
        done(s)
        return
    s.soldiers[p] += 1
    ask(s, A.RECRUIT_PAY, p, picks=price(s, p), kinds=owned_kinds(s, p))


def pay_apply(s: KingsburgState, action: int) -> None:
    """One good of the soldier's price (also a good lost in a defeat: LOSS_GOOD, D16)."""
    s.goods[s.actor, action - A.PICK_GOOD] -= 1
    s.picks_left -= 1
    if s.picks_left <= 0:
        done(s)


RUNNERS = {RECRUIT: run}

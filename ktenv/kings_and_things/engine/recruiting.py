"""R8 phase 3: recruit Things. Declare paid draws and a trade set, draw, pay, return the trades,
place (R8.2, R8.3), then get down to the screen limit (R17.1).

C++ twin: native/src/engine/recruiting.cpp
"""

from __future__ import annotations

import numpy as np

from .. import decisions as D
from ..constants import SCREEN
from ..procedures import RecruitStep, RecruitTurn
from ..state import EVENTS, RECRUIT, GameState
from . import hooks
from .actions import N_NUMBERS, NUMBER, PASS, ActionLayout
from .common import draw, to_cup
from .placement_turn import begin_placement

MAX_PAID = 5  # R8.1.1: at most 25 gold, 5 each
MAX_TRADED = 5  # R8.1.1: at most five Things by trade (ten counters)

# Steps of one player's recruiting turn.
PAID, TRADE, DRAW, PLACE, LIMIT, DONE = RecruitStep  # LIMIT: the screen limit applies again


def free_count(s: GameState, player: int) -> int:
    """R8.1.1: one free Thing per two land hexes, rounded up (RT.20)."""
    return -(-s.land_hex_count(player) // 2) + hooks.extra_free_things(s, player)  # R21.8 King of Things


def run(s: GameState) -> None:
    order = s.turn_order()
    if s.turn >= len(order):
        s.phase, s.stage, s.turn = EVENTS, 0, 0
        return
    player = order[s.turn]
    turn = _turn(s)
    s.actor = player
    if turn.step == PAID:
        turn.open_screen = player  # R17.1.1: the limit waits until placement is finished
        s.drawn[player] = 0
        s.decision = D.RECRUIT_PAID
    elif turn.step == TRADE:
        s.decision = D.RECRUIT_TRADE
    elif turn.step == DRAW:
        _draw_all(s, player)
    elif turn.step == PLACE:
        turn.step = LIMIT
        begin_placement(s, player, allow_remove=True)
    elif turn.step == LIMIT:
        turn.open_screen = -1  # placement done: over 10 now means discarding (interrupts)
        turn.step = DONE
    else:
        s.drop(RecruitTurn)
        s.turn += 1


def _turn(s: GameState) -> RecruitTurn:
    """The player's Recruit Things turn under way (started on first use)."""
    return s.frame(RecruitTurn) or s.push(RecruitTurn())


# ----- declarations -----

def legal_paid(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """R8.1.1: 0-5 paid Things at 5 gold. R20.2 lifts the cap: NUMBER 15 then asks for more."""
    paid = (s.frame(RecruitTurn) or RecruitTurn()).paid
    affordable = int(s.gold[s.actor]) // 5 - paid
    top = min(N_NUMBERS - 1 if s.cfg.where_will_they_stop else MAX_PAID, affordable)
    mask[NUMBER:NUMBER + top + 1] = 1
    if not s.cfg.free_draws_mandatory and paid == 0:  # asked again only after 15 or more (R20.2)
        mask[PASS] = 1  # X7 option: the whole draw may be declined


def apply_paid(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    turn = _turn(s)
    if action == PASS:
        turn.step = PLACE  # no draws and no trade this round
        return
    count = action - NUMBER
    turn.paid += count
    more = int(s.gold[s.actor]) // 5 - turn.paid
    if s.cfg.where_will_they_stop and count == N_NUMBERS - 1 and more > 0:
        s.decision = D.RECRUIT_PAID  # the largest amount: the player may declare more
        return
    turn.step = TRADE


def _trade_set(s: GameState, player: int) -> np.ndarray:
    return np.flatnonzero(s.thing_selected & (s.thing_owner == player) & (s.thing_place == SCREEN))


def legal_trade(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """An even set of at most ten; a first counter of a pair only when a partner is left."""
    k = hooks.trade_ratio(s, s.actor)  # R21.14 Trafficker: 1-for-1, at most five
    mine = s.screen(s.actor)
    chosen = int(s.thing_selected[mine].sum())
    free = mine[~s.thing_selected[mine]]
    if chosen % k != 0 or (chosen < k * MAX_TRADED and free.size >= k):
        mask[lay.thing + free] = 1
    if chosen % k == 0:
        mask[PASS] = 1
    elif free.size == 0:  # cashing a treasure left an odd set with no partner: take one back
        mask[lay.thing + mine[s.thing_selected[mine]]] = 1


def apply_trade(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        _turn(s).step = DRAW
        s.decision = D.NONE
    else:
        c = action - lay.thing
        s.thing_selected[c] = not s.thing_selected[c]  # R8.1.1: the trade set is shown to all


# ----- drawing (R8.1.1 steps 4-6, R8.1.5) -----

def _draw_all(s: GameState, player: int) -> None:
    """Draws one at a time: free, then paid, then traded; stops when the cup is empty."""
    trades = _trade_set(s, player)
    k = hooks.trade_ratio(s, player)  # R21.14 Trafficker: one counter a Thing
    wanted = (free_count(s, player), _turn(s).paid, trades.size // k)
    got = [0, 0, 0]
    for kind, count in enumerate(wanted):
        for _ in range(count):
            if draw(s, player) < 0:
                break
            got[kind] += 1
    s.gold[player] -= 5 * got[1]  # only paid draws received are paid for
    total = sum(got)
    s.drawn[player] = total
    s.stats["things_drawn"] += total
    missing = wanted[2] - got[2]
    if missing:
        if k * missing >= trades.size:  # every trade counter stays: nothing to choose
            s.thing_selected[trades] = False
        else:
            _turn(s).keep = k * missing
            s.decision = D.TRADE_KEEP
            return
    _return_trades(s, player)


def _return_trades(s: GameState, player: int) -> None:
    for c in _trade_set(s, player):
        to_cup(s, int(c))
    turn = _turn(s)
    turn.keep = 0
    turn.step = PLACE
    s.decision = D.NONE


def legal_keep(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    trades = _trade_set(s, s.actor)
    if trades.size > (s.frame(RecruitTurn) or RecruitTurn()).keep:
        mask[lay.thing + trades] = 1
    else:  # a trade treasure was cashed meanwhile (RD8.1): what is left all stays (PASS)
        mask[PASS] = 1


def apply_keep(s: GameState, lay: ActionLayout, action: int) -> None:
    """R8.1.5: two trade counters per traded draw not received stay behind the screen."""
    if action == PASS:
        s.thing_selected[_trade_set(s, s.actor)] = False
        _return_trades(s, s.actor)
        return
    s.thing_selected[action - lay.thing] = False
    turn = _turn(s)
    turn.keep -= 1
    if turn.keep == 0:
        _return_trades(s, s.actor)


DECISIONS = {
    D.RECRUIT_PAID: (legal_paid, apply_paid),
    D.RECRUIT_TRADE: (legal_trade, apply_trade),
    D.TRADE_KEEP: (legal_keep, apply_keep),
}

RUNNERS = {RECRUIT: run}

"""Roll events (R18.5.1) and the Lucky Charm (C.6).

Every roll the rules make goes through `roll(s, code, n)`: the dice are kept in the `Rolls` frame
and, if somebody holds the Lucky Charm, a `LuckyCharm` window asks the holder (LUCKY_DIE,
LUCKY_SIGN) before the roll is used; the rule that rolled reads the dice with `take(s, code)` in its
next stage. Only the holder is asked, and nobody else can tell that a window was offered (RD8.2).
With two boxes (R20.1) two players may hold a Lucky Charm: each is asked in turn order from the
first player (R18.6.1), the second seeing the dice as the first left them (`LuckyCharm.asked`).

C++ twin: native/src/engine/dice.cpp
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import SCREEN
from ..procedures import LuckyCharm, Rolls
from ..state import GameState
from .actions import NUMBER, PASS, ActionLayout
from .common import used_up

LUCKY_CHARM = cat.MAGIC_ID["Lucky Charm"]
_CHARMS = np.flatnonzero(cat.THING_ORIGINAL == LUCKY_CHARM)  # R20.1: one per box

# Codes of the rolls (`Rolls.code`). Battle sides use BATTLE + side.
HERO, EXPLORE, DAMAGE, SAVE, FIREWALL, WARLORD, DUEL_A, DUEL_B, STRIKE, EVENT, EVENT_B = range(11)
BATTLE = 20


class _Watch(threading.local):
    """Who is told of the dice the rules read (`take`), on this thread: the browser app's log of a move's
    rolls (`ktenv.kings_and_things.rolls`). Not a rule: nothing in the game depends on it (no C++ twin)."""

    on_take: Callable[[GameState, int, list[int]], None] | None = None


WATCH = _Watch()
SHOWN = 16  # the Lucky Charm's holder sees (and may change) the first 16 dice of a roll


def roll(s: GameState, code: int, n: int) -> None:
    """Roll n dice for one purpose; offer the Lucky Charm to its holder, if any."""
    rolled = [s.rng.d6() for _ in range(n)]
    rolls = s.frame(Rolls) or s.push(Rolls())
    if code in rolls.code:
        _remove(rolls, code)  # a roll never read gives way to the new one
    rolls.code.append(code)
    rolls.count.append(n)
    rolls.dice.extend(rolled)
    if n and holder(s) >= 0:
        window = s.push(LuckyCharm(code=code))
        _show(s, window)


def _span(rolls: Rolls, code: int) -> tuple[int, int]:
    """Where the dice of roll `code` lie in `rolls.dice`: (first, count)."""
    k = rolls.code.index(code)
    return sum(rolls.count[:k]), rolls.count[k]


def _remove(rolls: Rolls, code: int) -> list[int]:
    first, n = _span(rolls, code)
    k = rolls.code.index(code)
    out = rolls.dice[first:first + n]
    del rolls.dice[first:first + n], rolls.code[k], rolls.count[k]
    return out


def _show(s: GameState, window: LuckyCharm) -> None:
    """The holder sees the dice it may change (observation registers, actor only)."""
    window.shown = peek(s, window.code)[:SHOWN]


def held(s: GameState, code: int) -> bool:
    """Was roll `code` made and not yet taken?"""
    rolls = s.frame(Rolls)
    return rolls is not None and code in rolls.code


def take(s: GameState, code: int) -> list[int]:
    """The dice of a roll, after any Lucky Charm; the roll is done with."""
    rolls = s.frame(Rolls)
    out = _remove(rolls, code)
    if not rolls.code:
        s.drop(Rolls)
    if WATCH.on_take is not None:
        WATCH.on_take(s, code, out)
    return out


def peek(s: GameState, code: int) -> list[int]:
    rolls = s.frame(Rolls)
    first, n = _span(rolls, code)
    return rolls.dice[first:first + n]


def set_die(s: GameState, code: int, i: int, value: int) -> None:
    """Die `i` of roll `code` becomes `value` (the Lucky Charm, the Lucky re-roll)."""
    rolls = s.frame(Rolls)
    rolls.dice[_span(rolls, code)[0] + i] = value


def table(value: int) -> int:
    """R18.5.2: for table rolls (1/6 results, saves, 6-8) a 0 counts as 1 and a 7 as 6."""
    return min(6, max(1, value))


def _charm_of(s: GameState, p: int) -> int:
    """The Lucky Charm behind `p`'s screen (either box), or -1."""
    for c in _CHARMS[_CHARMS < s.n_things].tolist():
        if s.thing_place[c] == SCREEN and s.thing_owner[c] == p:
            return c
    return -1


def holder(s: GameState) -> int:
    """The next player to ask about the roll: a holder of a Lucky Charm not yet asked, in turn
    order (one holder with one box); -1 if none."""
    window = s.frame(LuckyCharm)
    asked = window.asked if window is not None else 0
    holders = {int(s.thing_owner[c]) for c in _CHARMS[_CHARMS < s.n_things].tolist() if s.thing_place[c] == SCREEN}
    for p in s.turn_order():
        if p in holders and not asked >> p & 1:
            return p
    return -1


def _next_holder(s: GameState) -> None:
    """The asked holder is done with this roll; the window stays open for another holder."""
    window = s.frame(LuckyCharm)
    window.asked |= 1 << s.actor
    window.die = -1
    _show(s, window)


def pending(s: GameState) -> bool:
    """Interrupt: the holder may change one die of the roll just made."""
    window = s.frame(LuckyCharm)
    if window is None:
        return False
    p = holder(s)
    if p < 0:
        s.drop(LuckyCharm)
        return False
    s.decision, s.actor = (D.LUCKY_SIGN if window.die >= 0 else D.LUCKY_DIE), p
    return True


def legal_die(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    n = len(peek(s, s.frame(LuckyCharm).code))
    mask[NUMBER:NUMBER + min(n, SHOWN)] = 1
    mask[PASS] = 1


def apply_die(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    if action == PASS:
        _next_holder(s)
    else:
        s.frame(LuckyCharm).die = action - NUMBER


def legal_sign(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    window = s.frame(LuckyCharm)
    die = peek(s, window.code)[window.die]
    if die > 0:
        mask[NUMBER] = 1  # -1
    if die < 7:
        mask[NUMBER + 1] = 1  # +1


def apply_sign(s: GameState, lay: ActionLayout, action: int) -> None:
    """C.6: one die +1 or -1 (R18.5.2: it may leave 1-6); then the charm goes to the cup."""
    window = s.frame(LuckyCharm)
    value = peek(s, window.code)[window.die]
    set_die(s, window.code, window.die, value + (1 if action == NUMBER + 1 else -1))
    used_up(s, _charm_of(s, s.actor))
    _next_holder(s)
    s.stats["magic_played"] += 1
    s.decision = D.NONE


DECISIONS = {
    D.LUCKY_DIE: (legal_die, apply_die),
    D.LUCKY_SIGN: (legal_sign, apply_sign),
}

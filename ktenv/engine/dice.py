"""Roll events (R18.5.1) and the Lucky Charm (C.6).

Every roll the rules make goes through `roll(s, code, n)`: the dice are kept in `s.reg` and, if
somebody holds the Lucky Charm, the holder is asked (LUCKY_DIE, LUCKY_SIGN) before the roll is
used; the rule that rolled reads the dice with `take(s, code)` in its next stage. Only the
holder is asked, and nobody else can tell that a window was offered (RD8.2). With two boxes
(R20.1) two players may hold a Lucky Charm: each is asked in turn order from the first player
(R18.6.1), the second seeing the dice as the first left them (`lucky_asked` marks who was asked).
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import SCREEN
from ..state import GameState
from . import decisions as D
from .actions import NUMBER, PASS, ActionLayout
from .common import used_up

LUCKY_CHARM = cat.MAGIC_ID["Lucky Charm"]
_CHARMS = np.flatnonzero(cat.THING_ORIGINAL == LUCKY_CHARM)  # R20.1: one per box

# Codes of the rolls (keys in s.reg). Battle sides use BATTLE + side.
HERO, EXPLORE, DAMAGE, SAVE, FIREWALL, WARLORD, DUEL_A, DUEL_B, STRIKE, EVENT, EVENT_B = range(11)
BATTLE = 20
_BITS = 4  # a die after the charm lies in 0..7: 4 bits each, packed into one int


def roll(s: GameState, code: int, n: int) -> None:
    """Roll n dice for one purpose; offer the Lucky Charm to its holder, if any."""
    packed = 0
    for i in range(n):
        packed |= s.rng.d6() << (_BITS * i)
    s.reg[f"dice{code}"] = packed
    s.reg[f"dice{code}_n"] = n
    if n and holder(s) >= 0:
        s.reg["lucky_code"] = code
        _show(s)


def _show(s: GameState) -> None:
    """The holder sees the dice it may change (observation registers, actor only)."""
    code = s.reg["lucky_code"]
    packed, n = s.reg[f"dice{code}"], s.reg[f"dice{code}_n"]
    s.reg["lucky_n"] = min(n, 16)
    for i in range(min(n, 16)):
        s.reg[f"lucky_d{i}"] = (packed >> (_BITS * i)) & 15


def take(s: GameState, code: int) -> list[int]:
    """The dice of a roll, after any Lucky Charm; they are removed from the registers."""
    packed = s.reg.pop(f"dice{code}")
    n = s.reg.pop(f"dice{code}_n")
    return [(packed >> (_BITS * i)) & 15 for i in range(n)]


def peek(s: GameState, code: int) -> list[int]:
    packed, n = s.reg[f"dice{code}"], s.reg[f"dice{code}_n"]
    return [(packed >> (_BITS * i)) & 15 for i in range(n)]


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
    asked = s.reg.get("lucky_asked", 0)
    holders = {int(s.thing_owner[c]) for c in _CHARMS[_CHARMS < s.n_things].tolist() if s.thing_place[c] == SCREEN}
    for p in s.turn_order():
        if p in holders and not asked >> p & 1:
            return p
    return -1


def _next_holder(s: GameState) -> None:
    """The asked holder is done with this roll; the window stays open for another holder."""
    asked = s.reg.get("lucky_asked", 0) | 1 << s.actor
    for key in [k for k in s.reg if k.startswith("lucky_") and k != "lucky_code"]:
        del s.reg[key]
    s.reg["lucky_asked"] = asked
    _show(s)


def _close(s: GameState) -> None:
    for key in [k for k in s.reg if k.startswith("lucky_")]:
        del s.reg[key]


def pending(s: GameState) -> bool:
    """Interrupt: the holder may change one die of the roll just made."""
    if "lucky_code" not in s.reg:
        return False
    p = holder(s)
    if p < 0:
        _close(s)
        return False
    s.decision, s.actor = (D.LUCKY_SIGN if "lucky_die" in s.reg else D.LUCKY_DIE), p
    return True


def legal_die(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    n = s.reg[f"dice{s.reg['lucky_code']}_n"]
    mask[NUMBER:NUMBER + min(n, 16)] = 1
    mask[PASS] = 1


def apply_die(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    if action == PASS:
        _next_holder(s)
    else:
        s.reg["lucky_die"] = action - NUMBER


def legal_sign(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    die = peek(s, s.reg["lucky_code"])[s.reg["lucky_die"]]
    if die > 0:
        mask[NUMBER] = 1  # -1
    if die < 7:
        mask[NUMBER + 1] = 1  # +1


def apply_sign(s: GameState, lay: ActionLayout, action: int) -> None:
    """C.6: one die +1 or -1 (R18.5.2: it may leave 1-6); then the charm goes to the cup."""
    code, i = s.reg["lucky_code"], s.reg["lucky_die"]
    key = f"dice{code}"
    value = (s.reg[key] >> (_BITS * i)) & 15
    value += 1 if action == NUMBER + 1 else -1
    s.reg[key] = (s.reg[key] & ~(15 << (_BITS * i))) | (value << (_BITS * i))
    used_up(s, _charm_of(s, s.actor))
    _next_holder(s)
    s.stats["magic_played"] += 1
    s.decision = D.NONE


DECISIONS = {
    D.LUCKY_DIE: (legal_die, apply_die),
    D.LUCKY_SIGN: (legal_sign, apply_sign),
}

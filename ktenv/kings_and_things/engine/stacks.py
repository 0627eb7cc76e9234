"""R11.4 the stack limit (10 creatures and heroes of one player in a hex; a Citadel has none) and
RP-5.9 / RD10.2 stacks over it: who may be over the limit for now, and the trim at the end of the
owner's movement turn.

The limit itself is counted by the state (`GameState.army_counts`, `GameState.room_for`: per hex how
many more `p` may have there; `constants.STACK_LIMIT`); movement applies it at every step (R11.4.3,
R11.4.4: `movement._legal_steps`, `movement._limit_waits`). Some rules may leave a stack over 10 until
its owner next moves: a Warlord's defector (battle_items), a Balloon or Boat blown off course (balloon,
boat), a reduced Citadel (conquest, R19.2.2), Mysterious Kadab's send-back (kadab): `allow_overflow`.
A retreat may overfill a hex until its excess is eliminated (R13.8.4: `retreat_overflow`). At the end of
the owner's movement turn `trim` asks them to eliminate the excess (decision RETREAT_EXCESS, answered
in battle.py: `legal_excess`, `apply_excess`), hex by hex (`over_limit`).

C++ twin: native/src/engine/stacks.cpp
"""

from __future__ import annotations

import numpy as np

from .. import decisions as D
from ..procedures import Excess, StackOverflow
from ..state import GameState

# ----- RP-5.9 / RD10.2: stacks allowed over the limit of 10 for now -----

def allow_overflow(s: GameState, p: int) -> None:
    """RD10.2: `p`'s stacks may be over 10 until the end of p's next movement turn (RP-5.9)."""
    f = s.frame(StackOverflow) or s.push(StackOverflow())
    f.owners[p] = 1


def overflow_allowed(s: GameState, p: int) -> bool:
    f = s.frame(StackOverflow)
    return f is not None and (bool(f.owners[p]) or f.retreat)


def overflow_trimmed(s: GameState, p: int) -> None:
    """`p` has no stack over 10 any more (RP-5.9)."""
    f = s.frame(StackOverflow)
    if f is not None:
        f.owners[p] = 0
        _overflow_drop(s, f)


def retreat_overflow(s: GameState, on: bool) -> None:
    """R13.8.4: a retreat overfilled a hex (on), or its excess is eliminated (off)."""
    f = s.frame(StackOverflow) or s.push(StackOverflow())
    f.retreat = on
    _overflow_drop(s, f)


def _overflow_drop(s: GameState, f: StackOverflow) -> None:
    if not f.retreat and not any(f.owners):
        s.drop(StackOverflow)


# ----- RP-5.9: back to 10 at the end of the owner's movement turn -----

def over_limit(s: GameState, p: int) -> int:
    """A hex where `p` has more than 10 creatures and heroes (no Citadel), or -1."""
    room = s.room_for(p)
    over = np.flatnonzero(room < 0)
    return int(over[0]) if over.size else -1


def trim(s: GameState, p: int) -> bool:
    """Ask `p` to eliminate counters over the limit; False when nothing is over any more."""
    hx = over_limit(s, p)
    if hx < 0:
        overflow_trimmed(s, p)
        s.drop(Excess)
        return False
    ex = s.frame(Excess) or s.push(Excess())
    ex.hex, ex.side = hx, p
    s.decision, s.actor = D.RETREAT_EXCESS, p
    return True

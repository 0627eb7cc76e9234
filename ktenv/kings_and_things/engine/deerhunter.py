"""A.3 Deerhunter / RD4.5: cost bookkeeping of the counters that move with him.

A counter *qualifies* when it was in the moving stack as the move started with the Deerhunter in
it and has not been separated from him since; it pays 1 MP per hex whatever the terrain (Effect 1)
and may leave the hex where it is pinned (Effect 2). The Deerhunter himself always pays 1 per hex.
The bookkeeping is in the `Move` frame (ktenv.kings_and_things.procedures): `deerhunter` the mode is on, `steps`
hexes entered since the move started, `ground_cost` their normal ground cost, `qualifying` the
qualifying counters (a Thing by its id, a hero face by the game's number of Things + face).

C++ twin: native/src/engine/deerhunter.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..procedures import Move
from ..state import MOVING, GameState

DEERHUNTER = cat.hero_id("Deerhunter")
MP = 4  # R11.1.2
_T_FLY = cat.THING_FLYING.astype(bool)
_H_FLY = cat.HERO_FLYING.astype(bool)


def start(s: GameState, things: np.ndarray, heroes: np.ndarray) -> None:
    """A move starts with these members; the Deerhunter among them turns the mode on."""
    if not (heroes == DEERHUNTER).any():
        return
    m = s.frame(Move)
    m.deerhunter, m.steps, m.ground_cost = True, 0, 0
    m.qualifying = sorted(set(things.tolist()) | {s.n_things + f for f in heroes.tolist()})


def qualifying(s: GameState, things: np.ndarray, heroes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per member: does it pay 1 per hex and ignore its pin (A.3)."""
    m = s.frame(Move)
    if m is None or not m.deerhunter:
        return np.zeros(things.size, bool), np.zeros(heroes.size, bool)
    q = m.qualifying
    qt = np.array([c in q for c in things.tolist()], bool)
    qh = np.array([s.n_things + f in q for f in heroes.tolist()], bool)
    return qt, qh


def entered(s: GameState, cost: int) -> None:
    """The stack entered a hex of normal ground cost `cost`."""
    m = s.frame(Move)
    if m.deerhunter:
        m.steps += 1
        m.ground_cost += cost


def normal_spent(s: GameState, flying: bool) -> int:
    """MP a qualifying counter would have spent so far at normal costs (flyers: 1 a hex)."""
    m = s.frame(Move)
    return m.steps if flying else m.ground_cost


def may_drop_thing(s: GameState, c: int) -> bool:
    """RD4.5: separating a qualifying Thing is illegal when its normal cost exceeds 4."""
    return c not in _qualifying(s) or normal_spent(s, bool(_T_FLY[c])) <= MP


def may_drop_hero(s: GameState, f: int, things: np.ndarray, heroes: np.ndarray) -> bool:
    """Dropping the Deerhunter separates every other qualifying member (RD4.5)."""
    if s.n_things + f not in _qualifying(s):
        return True
    if f != DEERHUNTER:
        return normal_spent(s, bool(_H_FLY[f])) <= MP
    qt, qh = qualifying(s, things, heroes)
    flying = np.concatenate((_T_FLY[things[qt]], _H_FLY[heroes[qh & (heroes != DEERHUNTER)]]))
    if flying.all():
        return True
    return s.frame(Move).ground_cost <= MP


def separate(s: GameState, c: int = -1, f: int = -1) -> None:
    """A member left the stack (dropped, stopped or removed): forget it; without the Deerhunter the
    others pay normal costs for the whole path from now on (RD4.5)."""
    m = s.frame(Move)
    if m is None or not m.deerhunter:
        return
    for x in (c if c >= 0 else None, s.n_things + f if f >= 0 else None):
        if x is not None and x in m.qualifying:
            m.qualifying.remove(x)
    if s.hero_status[DEERHUNTER] == MOVING and s.n_things + DEERHUNTER in m.qualifying:
        return
    things = np.flatnonzero(s.thing_status == MOVING)
    heroes = np.flatnonzero(s.hero_status == MOVING)
    qt, qh = qualifying(s, things, heroes)
    for c2 in things[qt].tolist():
        s.thing_mp[c2] = max(0, MP - normal_spent(s, bool(_T_FLY[c2])))
    for f2 in heroes[qh].tolist():
        s.hero_mp[f2] = max(0, MP - normal_spent(s, bool(_H_FLY[f2])))
    clear(s)


def _qualifying(s: GameState) -> list[int]:
    m = s.frame(Move)
    return m.qualifying if m is not None else []


def clear(s: GameState) -> None:
    """The Deerhunter's company is over for this move."""
    m = s.frame(Move)
    if m is not None:
        m.deerhunter, m.steps, m.ground_cost, m.qualifying = False, 0, 0, []

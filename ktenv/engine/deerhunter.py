"""A.3 Deerhunter / RD4.5: cost bookkeeping of the counters that move with him.

A counter *qualifies* when it was in the moving stack as the move started with the Deerhunter in
it and has not been separated from him since; it pays 1 MP per hex whatever the terrain (Effect 1)
and may leave the hex where it is pinned (Effect 2). The Deerhunter himself always pays 1 per hex.
Registers (ints, so the state stays JSON): `mv_dh` the mode is on, `mv_steps` hexes entered since
the move started, `mv_land` their normal ground cost, `mv_q<id>` one per qualifying counter (a Thing
by its id, a hero face by the game's number of Things + face).
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..state import MOVING, GameState

DEERHUNTER = cat.hero_id("Deerhunter")
MP = 4  # R11.1.2
_T_FLY = cat.THING_FLYING.astype(bool)
_H_FLY = cat.HERO_FLYING.astype(bool)


def start(s: GameState, things: np.ndarray, heroes: np.ndarray) -> None:
    """A move starts with these members; the Deerhunter among them turns the mode on."""
    if not (heroes == DEERHUNTER).any():
        return
    reg = s.reg
    reg["mv_dh"], reg["mv_steps"], reg["mv_land"] = 1, 0, 0
    for c in things.tolist():
        reg[f"mv_q{c}"] = 1
    for f in heroes.tolist():
        reg[f"mv_q{s.n_things + f}"] = 1


def qualifying(s: GameState, things: np.ndarray, heroes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per member: does it pay 1 per hex and ignore its pin (A.3)."""
    if not s.reg.get("mv_dh"):
        return np.zeros(things.size, bool), np.zeros(heroes.size, bool)
    reg = s.reg
    qt = np.array([f"mv_q{c}" in reg for c in things.tolist()], bool)
    qh = np.array([f"mv_q{s.n_things + f}" in reg for f in heroes.tolist()], bool)
    return qt, qh


def entered(s: GameState, cost: int) -> None:
    """The stack entered a hex of normal ground cost `cost`."""
    if s.reg.get("mv_dh"):
        s.reg["mv_steps"] += 1
        s.reg["mv_land"] += cost


def normal_spent(s: GameState, flying: bool) -> int:
    """MP a qualifying counter would have spent so far at normal costs (flyers: 1 a hex)."""
    return s.reg["mv_steps"] if flying else s.reg["mv_land"]


def may_drop_thing(s: GameState, c: int) -> bool:
    """RD4.5: separating a qualifying Thing is illegal when its normal cost exceeds 4."""
    return f"mv_q{c}" not in s.reg or normal_spent(s, bool(_T_FLY[c])) <= MP


def may_drop_hero(s: GameState, f: int, things: np.ndarray, heroes: np.ndarray) -> bool:
    """Dropping the Deerhunter separates every other qualifying member (RD4.5)."""
    reg = s.reg
    if f"mv_q{s.n_things + f}" not in reg:
        return True
    if f != DEERHUNTER:
        return normal_spent(s, bool(_H_FLY[f])) <= MP
    qt, qh = qualifying(s, things, heroes)
    flying = np.concatenate((_T_FLY[things[qt]], _H_FLY[heroes[qh & (heroes != DEERHUNTER)]]))
    if flying.all():
        return True
    return reg["mv_land"] <= MP


def separate(s: GameState, c: int = -1, f: int = -1) -> None:
    """A member left the stack (dropped, stopped or removed): forget it; without the Deerhunter the
    others pay normal costs for the whole path from now on (RD4.5)."""
    reg = s.reg
    if not reg.get("mv_dh"):
        return
    if c >= 0:
        reg.pop(f"mv_q{c}", None)
    if f >= 0:
        reg.pop(f"mv_q{s.n_things + f}", None)
    if s.hero_status[DEERHUNTER] == MOVING and f"mv_q{s.n_things + DEERHUNTER}" in reg:
        return
    things = np.flatnonzero(s.thing_status == MOVING)
    heroes = np.flatnonzero(s.hero_status == MOVING)
    qt, qh = qualifying(s, things, heroes)
    for c2 in things[qt].tolist():
        s.thing_mp[c2] = max(0, MP - normal_spent(s, bool(_T_FLY[c2])))
    for f2 in heroes[qh].tolist():
        s.hero_mp[f2] = max(0, MP - normal_spent(s, bool(_H_FLY[f2])))
    clear(s)


def clear(s: GameState) -> None:
    for key in [k for k in s.reg if k.startswith("mv_q") or k in ("mv_dh", "mv_steps", "mv_land")]:
        del s.reg[key]

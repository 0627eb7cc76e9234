"""C.2 the Balloon (and the Fan against it, C.3). A Balloon blown onto a full hex leaves a stack over
10 that its owner trims at the end of their next movement turn (RP-5.9: stacks.py).

The Balloon is a move of its own in the owner's movement turn: load 1-3 unmoved creatures of
printed value 3 or less from one hex (pinned ones too, RD10.12), pick a land hex 1-3 hexes away,
then the reactions (Dispel Magic cancels it; a Fan moves the landing hex to a neighbour, Sea
sinks the Balloon and the passengers escape to an adjacent own hex or are lost). The passengers
are done for the round; the Balloon stays in play with them until the end of the round. FAN_HEX and
ESCAPE_HEX are routed by events.py (events ask them too).

C++ twin: native/src/engine/balloon.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CREATURE, SCREEN, SEA, STACK_LIMIT
from ..procedures import BalloonFlight, BalloonStage
from ..state import DONE, UNMOVED, GameState
from . import hooks, reactions
from .actions import PASS, YES, ActionLayout
from .common import as_original, used_up
from .stacks import allow_overflow

BALLOON = cat.MAGIC_ID["Balloon"]
_BALLOONS = np.flatnonzero(cat.THING_ORIGINAL == BALLOON)  # R20.1: one per box
MAX_LOAD = 3  # X21: up to three
MAX_VALUE = 3  # value 4 or more (heroes included) may not ride
RANGE = 3
LOAD, DEST, WAIT, FANNED, ESCAPE, FLOWN = BalloonStage


def flight(s: GameState) -> BalloonFlight | None:
    """This round's Balloon flight (under way, or flown: its passengers and owner), or None."""
    return s.frame(BalloonFlight)


def flying(s: GameState) -> bool:
    """A Balloon flight is under way (its reactions or choices pending)."""
    f = s.frame(BalloonFlight)
    return f is not None and f.stage != FLOWN


def passengers(s: GameState) -> list[int]:
    f = s.frame(BalloonFlight)
    return list(f.passengers) if f is not None else []


def _loadable(s: GameState, p: int) -> np.ndarray:
    """Creatures that may board now. One boards only if the Balloon could still come down with it:
    some land hex 1-3 away has room for the load with it (C.2), so a flight never reaches a
    destination choice with nowhere to land."""
    ids = np.flatnonzero((s.thing_place == BOARD) & (s.thing_owner == p) & (s.cat.THING_KIND == CREATURE)
                         & (s.thing_status == UNMOVED) & (s.thing_mp > 0) & (s.cat.THING_COMBAT <= MAX_VALUE))
    f = flight(s)
    load = 0
    if f is not None and f.n:
        ids = ids[s.thing_hex[ids] == f.hex]
        ids = ids[~np.isin(ids, passengers(s))]
        load = f.n
    if ids.size == 0:
        return ids
    room = s.room_for(p)
    starts = [h for h in np.unique(s.thing_hex[ids]).tolist() if _landings(s, h, load + 1, room).size]
    return ids[np.isin(s.thing_hex[ids], starts)]


def held(s: GameState, p: int) -> int:
    """The Balloon behind `p`'s screen (either box, R20.1), or -1."""
    for c in _BALLOONS[_BALLOONS < s.n_things].tolist():
        if s.thing_place[c] == SCREEN and s.thing_owner[c] == p:
            return c
    return -1


def can_fly(s: GameState, p: int) -> bool:
    """The Balloon may be played now (RP-5.1): held, not used this round, something to carry.
    [DECISION R20.1: with two boxes, one Balloon flight per round, like one box's one Balloon.]"""
    f = flight(s)
    return held(s, p) >= 0 and not (f is not None and f.used) and _loadable(s, p).size > 0


def begin(s: GameState, c: int = BALLOON) -> None:
    """The move with the Balloon `c` starts (a second-box Balloon flies as the first's, R20.1)."""
    as_original(s, c)
    s.push(BalloonFlight(stage=LOAD))
    s.decision = D.BALLOON_LOAD


def legal_load(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    f = flight(s)
    if f.n < MAX_LOAD:
        mask[lay.thing + _loadable(s, s.actor)] = 1
    if f.n:
        mask[YES] = 1


def apply_load(s: GameState, lay: ActionLayout, action: int) -> None:
    f = flight(s)
    if action == YES:
        f.stage = DEST
        s.decision = D.BALLOON_DEST
        return
    c = action - lay.thing
    f.passengers.append(c)
    f.n += 1
    f.hex = int(s.thing_hex[c])


def destinations(s: GameState, p: int) -> np.ndarray:
    """Land hexes 1-3 away with room for the passengers (stack limit, Citadel exempt)."""
    f = flight(s)
    return _landings(s, f.hex, f.n, s.room_for(p))


def _landings(s: GameState, start: int, load: int, room: np.ndarray) -> np.ndarray:
    """Face-up land hexes 1-3 from `start` with room for `load` passengers."""
    dist = s.geo.distance[start]
    ok = (dist >= 1) & (dist <= RANGE) & (s.hex_terrain != SEA) & ~s.hex_down & (room >= load)
    return np.flatnonzero(ok)


def legal_dest(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + destinations(s, s.actor)] = 1


def apply_dest(s: GameState, lay: ActionLayout, action: int) -> None:
    """The Balloon is shown and played; other players may react (Dispel Magic, the Fan)."""
    f = flight(s)
    f.dest, f.owner, f.used, f.stage = action - lay.hex, s.actor, True, WAIT
    s.stats["magic_played"] += 1
    s.thing_place[BALLOON], s.thing_hex[BALLOON] = BOARD, f.hex
    s.thing_in_play[BALLOON] = s.thing_face_up[BALLOON] = s.thing_public[BALLOON] = True
    s.decision = D.NONE
    reactions.open_round(s, BALLOON, s.actor)


def run(s: GameState) -> None:
    """Resume the Balloon after the reactions (or after the Fan's and the escape choices)."""
    f = flight(s)
    if f.stage == WAIT:
        reactions.resume_flight(s, BALLOON, f, FANNED, _clear, _land, f.dest)


def legal_fan(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """C.3: the Fan's player blows the Balloon to any hex next to its landing hex."""
    around = s.geo.neighbours[flight(s).dest]
    mask[lay.hex + around[around >= 0]] = 1


def apply_fan(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = action - lay.hex
    s.decision = D.NONE
    f = flight(s)
    s.actor = f.owner
    s.hex_down[hx] = False  # R20.3: blown onto a face-down tile, it is turned up
    if s.hex_terrain[hx] != SEA:
        _land(s, hx)
        return
    used_up(s, BALLOON)  # blown to Sea: the Balloon is lost; the passengers may escape
    f.sea = hx
    if escape_hexes(s).size:
        f.stage = ESCAPE
        s.decision = D.ESCAPE_HEX
        return
    for c in passengers(s):
        hooks.eliminate(s, c)  # to the cup (R21.4 Brute)
    _clear(s, keep_flight=True)


def escape_hexes(s: GameState) -> np.ndarray:
    f = flight(s)
    around = s.geo.neighbours[f.sea]
    around = around[around >= 0]
    return around[s.hex_owner[around] == f.owner].astype(np.int64)


def legal_escape(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + escape_hexes(s)] = 1
    mask[PASS] = 1


def apply_escape(s: GameState, lay: ActionLayout, action: int) -> None:
    """R11.3.4 exception: the passengers escape together to one adjacent own hex, or are lost."""
    s.decision = D.NONE
    if action == PASS:
        for c in passengers(s):
            hooks.eliminate(s, c)  # R21.4
    else:
        _put(s, action - lay.hex)
    _clear(s, keep_flight=True)


def _land(s: GameState, hx: int) -> None:
    _put(s, hx)
    s.thing_hex[BALLOON] = hx
    _clear(s, keep_flight=True)


def _put(s: GameState, hx: int) -> None:
    """The passengers are placed on the hex: done for the round, they entered it (R11.8.1)."""
    owner = flight(s).owner
    for c in passengers(s):
        s.thing_hex[c] = hx
        s.thing_status[c] = DONE
        s.thing_moved[c] = True
    if s.army_counts(owner)[hx] > STACK_LIMIT and s.hex_fort[hx] != 4:
        allow_overflow(s, owner)  # blown onto a full hex: the owner trims it (RP-5.9)


def _clear(s: GameState, keep_flight: bool) -> None:
    """Keep what battles need (passengers, owner) while the Balloon flies this round."""
    f = flight(s)
    f.stage, f.hex, f.dest, f.sea = FLOWN, -1, -1, -1
    if not keep_flight:
        f.passengers, f.n, f.owner = [], 0, -1
    s.decision = D.NONE


def riding(s: GameState, side: int) -> set[int]:
    """Passengers of the Balloon in play with `side` (they attack as ranged, C.2)."""
    if not (s.thing_in_play[BALLOON] and s.thing_owner[BALLOON] == side and not s.thing_damage[BALLOON]):
        return set()
    return {c for c in passengers(s) if s.thing_place[c] == BOARD and s.thing_hex[c] == s.thing_hex[BALLOON]}


def end_of_round(s: GameState) -> None:
    """C.2: the Balloon returns to the cup at the end of the round in which it was used."""
    if s.thing_in_play[BALLOON]:
        used_up(s, BALLOON)
    s.drop(BalloonFlight)


DECISIONS = {
    D.BALLOON_LOAD: (legal_load, apply_load),
    D.BALLOON_DEST: (legal_dest, apply_dest),
    # D.FAN_HEX and D.ESCAPE_HEX: events.DECISIONS (shared with the events that ask them)
}

"""R22.6 the Boat (Bateau), house magic item (only with house_content), modelled on the Balloon.

In the owner's movement turn, as a move of its own (MOVE_START: THING Boat): BOAT_LOAD picks 1-3
unmoved own creatures (any value) or heroes from one hex (THING/HERO; YES sails; pinned ones too,
as the Balloon, RD10.12), BOAT_PATH then picks the Sea hexes one by one (HEX: 1-3 of them, a path
starting next to the start hex, RD10.17) and finally the land destination next to the last one
(HEX; only offered while a destination stays reachable, so a path never dead-ends). Then the
reactions (R18.2): Dispel Magic cancels it, the Bellows (Fan, C.3 [FV]) diverts it to a land hex of
the Bellows player's choice next to the last Sea hex crossed (FAN_HEX). The passengers are done for
the round. With Mysterious Kadab only face-up Sea hexes and face-up land hexes are used (a
face-down tile's terrain is unknown).

In battles this round (battle_sides): while the Boat is in play with them the passengers attack
as Ranged (one die each; heroes too) and the Boat fights in the ranged step with value
HOUSE_ITEM_VALUE["Boat"] (ASSUMPTION 3, [DATA M7], like the Balloon's printed ranged 3; RD7.1);
one hit eliminates it. A side made only of passengers may retreat by Boat across one Sea hex: to
an own hex without enemies next to a Sea hex next to the battle hex. The Boat is removed at the
end of the round.

The trip is the frame `procedures.BoatTrip` (kept for the round: owner, passengers, used). The Boat
exists in a game's catalog only with house_content (or six players, out of play), so everything
here checks `on(s)` before touching it.

C++ twin: native/src/engine/boat.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CREATURE, SCREEN, STACK_LIMIT
from ..procedures import Battle, BoatStage, BoatTrip
from ..state import DONE, UNMOVED, GameState
from . import hooks, reactions
from .actions import YES, ActionLayout
from .common import known_land, known_sea, used_up
from .stacks import allow_overflow

BOAT = cat.MAGIC_ID["Boat"]
BOAT_VALUE = int(cat.HOUSE_ITEM_VALUE["Boat"])
MAX_LOAD = 3
MAX_SEA = 3
LOAD, PATH, WAIT, FANNED, SAILED = BoatStage


def trip(s: GameState) -> BoatTrip | None:
    """This round's Boat trip (under way, or sailed: its passengers and owner), or None."""
    return s.frame(BoatTrip)


def on(s: GameState) -> bool:
    return bool(s.cfg.house_content)


def sailing(s: GameState) -> bool:
    """A Boat trip is under way (its choices or reactions pending)."""
    f = s.frame(BoatTrip)
    return f is not None and f.stage != SAILED


def passengers(s: GameState) -> tuple[list[int], list[int]]:
    f = trip(s)
    codes = f.passengers if f is not None else []
    return [c for c in codes if c >= 0], [~c for c in codes if c < 0]


def _destinations(s: GameState, frm: int, budget: int, n: int, start: bool) -> np.ndarray:
    """Face-up land hexes other than the start hex, with room for n, next to a face-up Sea hex that
    the path can still reach: start=True: `frm` is the (land) start hex and the path has 1..budget
    Sea hexes beginning next to it; start=False: `frm` is the path's current Sea hex and up to
    `budget` more may follow (Sea hexes already crossed are not crossed again)."""
    sea, land, adjacent = known_sea(s), known_land(s), s.geo.adjacent
    path = [] if start else trip(s).path
    frontier = [y for y in adjacent[frm] if sea[y]] if start else [frm]
    seen = set(frontier) | set(path)
    region = list(frontier)
    for _ in range(budget - 1 if start else budget):
        frontier = list(dict.fromkeys(y for x in frontier for y in adjacent[x] if sea[y] and y not in seen))
        seen.update(frontier)
        region += frontier
    ok = np.zeros(s.geo.n_hexes, bool)
    for x in region:
        ok[[y for y in adjacent[x] if land[y]]] = True
    ok[frm if start else trip(s).hex] = False
    ok &= s.room_for(int(s.actor)) >= n
    return np.flatnonzero(ok)


def _loadable(s: GameState, p: int) -> tuple[np.ndarray, np.ndarray]:
    t = np.flatnonzero((s.thing_place == BOARD) & (s.thing_owner == p) & (s.cat.THING_KIND == CREATURE)
                       & (s.thing_status == UNMOVED) & (s.thing_mp > 0))
    h = np.flatnonzero((s.hero_owner == p) & (s.hero_status == UNMOVED) & (s.hero_mp > 0))
    f = trip(s)
    if f is not None and f.n:
        hx = f.hex
        pt, ph = passengers(s)
        t = t[(s.thing_hex[t] == hx) & ~np.isin(t, pt)]
        h = h[(s.hero_hex[h] == hx) & ~np.isin(h, ph)]
        return t, h
    starts = {hx for hx in set(s.thing_hex[t].tolist()) | set(s.hero_hex[h].tolist())
              if _destinations(s, hx, MAX_SEA, 1, True).size}
    return t[np.isin(s.thing_hex[t], list(starts))], h[np.isin(s.hero_hex[h], list(starts))]


def can_sail(s: GameState, p: int) -> bool:
    """R22.6: held, not used this round, something to carry somewhere (house_content only)."""
    f = trip(s)
    if not on(s) or s.thing_place[BOAT] != SCREEN or s.thing_owner[BOAT] != p or (f is not None and f.used):
        return False
    t, h = _loadable(s, p)
    return bool(t.size + h.size)


def begin(s: GameState) -> None:
    s.push(BoatTrip(stage=LOAD))
    s.decision = D.BOAT_LOAD


def legal_load(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    f = trip(s)
    if f.n < MAX_LOAD:
        t, h = _loadable(s, s.actor)
        mask[lay.thing + t] = 1
        mask[lay.hero + h] = 1
    if f.n:
        mask[YES] = 1


def apply_load(s: GameState, lay: ActionLayout, action: int) -> None:
    t = trip(s)
    if action == YES:
        t.stage, t.at, t.crossed = PATH, t.hex, 0
        s.decision = D.BOAT_PATH
        return
    if action >= lay.hero:
        f = action - lay.hero
        code, hx = ~f, int(s.hero_hex[f])
    else:
        c = action - lay.thing
        code, hx = c, int(s.thing_hex[c])
    t.passengers.append(code)
    t.n += 1
    t.hex = hx


def _path_options(s: GameState) -> tuple[list[int], np.ndarray]:
    """(next Sea hexes that still lead somewhere, destinations next to the current Sea hex)."""
    f = trip(s)
    at, k, n = f.at, f.crossed, f.n
    sea = known_sea(s)
    steps = []
    if k < MAX_SEA:
        for y in s.geo.adjacent[at]:
            if sea[y] and y not in f.path and _destinations(s, y, MAX_SEA - k - 1, n, False).size:
                steps.append(int(y))
    dests = _destinations(s, at, 0, n, False) if k >= 1 else np.zeros(0, np.int64)
    return steps, dests


def legal_path(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    steps, dests = _path_options(s)
    mask[lay.hex + np.asarray(steps, np.int64)] = 1
    mask[lay.hex + dests] = 1


def apply_path(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = action - lay.hex
    f = trip(s)
    if known_sea(s)[hx]:
        f.at, f.crossed, f.last = hx, f.crossed + 1, hx
        f.path.append(hx)
        return
    f.dest, f.owner, f.used, f.stage = hx, s.actor, True, WAIT
    s.stats["magic_played"] += 1
    s.thing_place[BOAT], s.thing_hex[BOAT] = BOARD, f.hex
    s.thing_in_play[BOAT] = s.thing_face_up[BOAT] = s.thing_public[BOAT] = True
    s.decision = D.NONE
    reactions.open_round(s, BOAT, s.actor)  # R18.2: Dispel Magic, the Bellows


def run(s: GameState) -> None:
    """Resume after the reactions: cancelled, diverted by the Bellows, or landing."""
    f = trip(s)
    reactions.resume_flight(s, BOAT, f, FANNED, _clear, _land, f.dest)


def fan_hexes(s: GameState) -> np.ndarray:
    """R22.6: the Bellows player picks a land hex next to the last Sea hex crossed."""
    return np.asarray([y for y in s.geo.adjacent[trip(s).last] if known_land(s)[y]], np.int64)


def legal_fan(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + fan_hexes(s)] = 1


def apply_fan(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    s.actor = trip(s).owner
    _land(s, action - lay.hex)


def _land(s: GameState, hx: int) -> None:
    """The passengers are put on the hex: done for the round, they entered it (R11.8.1)."""
    owner = trip(s).owner
    t, h = passengers(s)
    s.thing_hex[t] = hx
    s.thing_status[t] = DONE
    s.thing_moved[t] = True
    s.hero_hex[h] = hx
    s.hero_status[h] = DONE
    s.hero_moved[h] = True
    s.thing_hex[BOAT] = hx
    if s.army_counts(owner)[hx] > STACK_LIMIT and s.hex_fort[hx] != 4:
        allow_overflow(s, owner)  # diverted onto a full hex: the owner trims it (RP-5.9)
    _clear(s, keep_flight=True)


def _clear(s: GameState, keep_flight: bool) -> None:
    f = trip(s)
    f.stage, f.hex, f.at, f.crossed, f.last, f.dest, f.path = SAILED, -1, -1, 0, -1, -1, []
    if not keep_flight:
        f.passengers, f.n, f.owner = [], 0, -1
    s.decision = D.NONE


# ----- battles (battle_sides) -----

@hooks.movement_resume.implement("house_content")
def resume(s: GameState) -> bool:
    """The movement phase resumes while the Boat waits for its reactions: they go on."""
    if not sailing(s):
        return False
    run(s)
    return True


@hooks.vehicle_moves.implement("house_content")
def sail_option(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    if can_sail(s, s.actor):
        mask[lay.thing + BOAT] = 1  # a move of its own


@hooks.move_start.implement("house_content")
def sail_start(s: GameState, lay: ActionLayout, action: int) -> bool:
    if action != lay.thing + BOAT:
        return False
    begin(s)
    return True


@hooks.fan_handlers.implement("house_content")
def fan_handlers(s: GameState):
    """FAN_HEX while the Bellows diverts the Boat: this module's (legal, apply)."""
    f = s.frame(BoatTrip)
    return (legal_fan, apply_fan) if f is not None and f.stage == FANNED else None


def in_battle(s: GameState, side: int) -> bool:
    """The side's Boat is in play, unhit, in the battle hex."""
    b = s.frame(Battle)
    return on(s) and bool(s.thing_in_play[BOAT]) and s.thing_owner[BOAT] == side and not s.thing_damage[BOAT] \
        and s.thing_hex[BOAT] == (b.hex if b is not None else -1)


@hooks.extra_ranged_attacks.implement("house_content")
def boat_attack(s: GameState, side: int) -> list[tuple[int, int, int]]:
    """RD7.1: the Boat fights in the ranged step (value ASSUMED, M7)."""
    return [(BOAT_VALUE, 1, -1)] if in_battle(s, side) else []


@hooks.battle_riders.implement("house_content")
def riders(s: GameState, side: int) -> tuple[set[int], set[int]]:
    """Passengers (Things, hero faces) that attack as Ranged while the Boat is in play."""
    if not in_battle(s, side):
        return set(), set()
    hx = s.frame(Battle).hex
    t, h = passengers(s)
    return ({c for c in t if s.thing_place[c] == BOARD and s.thing_hex[c] == hx},
            {f for f in h if s.hero_owner[f] == side and s.hero_hex[f] == hx})


@hooks.rider_retreat_hexes.implement("house_content")
def retreat_hexes(s: GameState, side: int, hx: int) -> np.ndarray:
    """Hexes reachable by Boat across one Sea hex next to the battle hex (owner filters later)."""
    sea, land = known_sea(s), known_land(s)
    out = {y for x in s.geo.adjacent[hx] if sea[x] for y in s.geo.adjacent[x] if land[y] and y != hx}
    return np.asarray(sorted(out), np.int64)


@hooks.round_ends.implement("house_content")
def end_of_round(s: GameState) -> None:
    """R22.6: the Boat is removed at the end of the round."""
    if on(s) and s.thing_in_play[BOAT]:
        used_up(s, BOAT)
    s.drop(BoatTrip)


DECISIONS = {
    D.BOAT_LOAD: (legal_load, apply_load),
    D.BOAT_PATH: (legal_path, apply_path),
}

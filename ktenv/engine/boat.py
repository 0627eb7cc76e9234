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

Registers: `bt_stage`, `bt_hex` (start), `bt_at` (where the path is), `bt_k` (Sea hexes crossed),
`bt_last`, `bt_dest`; kept for the round: `bt_owner`, `bt_n`, `bt_p<i>` (a Thing id, or ~face for
a hero: negative), `bt_used`. The Boat exists in a game's catalog only with house_content (or
six players, out of play), so everything here checks `on(s)` before touching it.
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CREATURE, SCREEN, STACK_LIMIT
from ..procedures import Battle
from ..state import DONE, UNMOVED, GameState
from . import decisions as D
from . import kadab, reactions
from .actions import YES, ActionLayout
from .common import used_up
from .house import on

BOAT = cat.MAGIC_ID["Boat"]
BOAT_VALUE = int(cat.HOUSE_ITEM_VALUE["Boat"])
MAX_LOAD = 3
MAX_SEA = 3
LOAD, PATH, WAIT, FANNED = range(4)


def passengers(s: GameState) -> tuple[list[int], list[int]]:
    codes = [s.reg[f"bt_p{i}"] for i in range(s.reg.get("bt_n", 0))]
    return [c for c in codes if c >= 0], [~c for c in codes if c < 0]


def _destinations(s: GameState, frm: int, budget: int, n: int, start: bool) -> np.ndarray:
    """Face-up land hexes other than the start hex, with room for n, next to a face-up Sea hex that
    the path can still reach: start=True: `frm` is the (land) start hex and the path has 1..budget
    Sea hexes beginning next to it; start=False: `frm` is the path's current Sea hex and up to
    `budget` more may follow (Sea hexes already crossed are not crossed again)."""
    sea, land, adjacent = kadab.known_sea(s), kadab.known_land(s), s.geo.adjacent
    path = 0 if start else s.reg.get("bt_path", 0)
    frontier = [y for y in adjacent[frm] if sea[y]] if start else [frm]
    seen = set(frontier) | {x for x in range(s.geo.n_hexes) if path >> x & 1}
    region = list(frontier)
    for _ in range(budget - 1 if start else budget):
        frontier = list(dict.fromkeys(y for x in frontier for y in adjacent[x] if sea[y] and y not in seen))
        seen.update(frontier)
        region += frontier
    ok = np.zeros(s.geo.n_hexes, bool)
    for x in region:
        ok[[y for y in adjacent[x] if land[y]]] = True
    ok[frm if start else s.reg["bt_hex"]] = False
    ok &= s.room_for(int(s.actor)) >= n
    return np.flatnonzero(ok)


def _loadable(s: GameState, p: int) -> tuple[np.ndarray, np.ndarray]:
    t = np.flatnonzero((s.thing_place == BOARD) & (s.thing_owner == p) & (s.cat.THING_KIND == CREATURE)
                       & (s.thing_status == UNMOVED) & (s.thing_mp > 0))
    h = np.flatnonzero((s.hero_owner == p) & (s.hero_status == UNMOVED) & (s.hero_mp > 0))
    if s.reg.get("bt_n", 0):
        hx = s.reg["bt_hex"]
        pt, ph = passengers(s)
        t = t[(s.thing_hex[t] == hx) & ~np.isin(t, pt)]
        h = h[(s.hero_hex[h] == hx) & ~np.isin(h, ph)]
        return t, h
    starts = {hx for hx in set(s.thing_hex[t].tolist()) | set(s.hero_hex[h].tolist())
              if _destinations(s, hx, MAX_SEA, 1, True).size}
    return t[np.isin(s.thing_hex[t], list(starts))], h[np.isin(s.hero_hex[h], list(starts))]


def can_sail(s: GameState, p: int) -> bool:
    """R22.6: held, not used this round, something to carry somewhere (house_content only)."""
    if not on(s) or s.thing_place[BOAT] != SCREEN or s.thing_owner[BOAT] != p or "bt_used" in s.reg:
        return False
    t, h = _loadable(s, p)
    return bool(t.size + h.size)


def begin(s: GameState) -> None:
    s.reg.update(bt_stage=LOAD, bt_n=0)
    s.decision = D.BOAT_LOAD


def legal_load(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    if s.reg["bt_n"] < MAX_LOAD:
        t, h = _loadable(s, s.actor)
        mask[lay.thing + t] = 1
        mask[lay.hero + h] = 1
    if s.reg["bt_n"]:
        mask[YES] = 1


def apply_load(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == YES:
        s.reg.update(bt_stage=PATH, bt_at=s.reg["bt_hex"], bt_k=0)
        s.decision = D.BOAT_PATH
        return
    if action >= lay.hero:
        f = action - lay.hero
        code, hx = ~f, int(s.hero_hex[f])
    else:
        c = action - lay.thing
        code, hx = c, int(s.thing_hex[c])
    s.reg[f"bt_p{s.reg['bt_n']}"] = code
    s.reg["bt_n"] += 1
    s.reg["bt_hex"] = hx


def _path_options(s: GameState) -> tuple[list[int], np.ndarray]:
    """(next Sea hexes that still lead somewhere, destinations next to the current Sea hex)."""
    at, k, n = s.reg["bt_at"], s.reg["bt_k"], s.reg["bt_n"]
    sea = kadab.known_sea(s)
    path = s.reg.get("bt_path", 0)
    steps = []
    if k < MAX_SEA:
        for y in s.geo.adjacent[at]:
            if sea[y] and not path >> y & 1 and _destinations(s, y, MAX_SEA - k - 1, n, False).size:
                steps.append(int(y))
    dests = _destinations(s, at, 0, n, False) if k >= 1 else np.zeros(0, np.int64)
    return steps, dests


def legal_path(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    steps, dests = _path_options(s)
    mask[lay.hex + np.asarray(steps, np.int64)] = 1
    mask[lay.hex + dests] = 1


def apply_path(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = action - lay.hex
    if kadab.known_sea(s)[hx]:
        s.reg.update(bt_at=hx, bt_k=s.reg["bt_k"] + 1, bt_last=hx, bt_path=s.reg.get("bt_path", 0) | 1 << hx)
        return
    s.reg.update(bt_dest=hx, bt_owner=s.actor, bt_used=1, bt_stage=WAIT)
    s.stats["magic_played"] += 1
    s.thing_place[BOAT], s.thing_hex[BOAT] = BOARD, s.reg["bt_hex"]
    s.thing_in_play[BOAT] = s.thing_face_up[BOAT] = s.thing_public[BOAT] = True
    s.decision = D.NONE
    reactions.open_round(s, BOAT, s.actor)  # R18.2: Dispel Magic, the Bellows


def run(s: GameState) -> None:
    """Resume after the reactions: cancelled, diverted by the Bellows, or landing."""
    reactions.resume_flight(s, BOAT, "bt_stage", FANNED, _clear, _land, s.reg["bt_dest"])


def fan_hexes(s: GameState) -> np.ndarray:
    """R22.6: the Bellows player picks a land hex next to the last Sea hex crossed."""
    return np.asarray([y for y in s.geo.adjacent[s.reg["bt_last"]] if kadab.known_land(s)[y]], np.int64)


def legal_fan(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + fan_hexes(s)] = 1


def apply_fan(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    s.actor = s.reg["bt_owner"]
    _land(s, action - lay.hex)


def _land(s: GameState, hx: int) -> None:
    """The passengers are put on the hex: done for the round, they entered it (R11.8.1)."""
    owner = s.reg["bt_owner"]
    t, h = passengers(s)
    s.thing_hex[t] = hx
    s.thing_status[t] = DONE
    s.thing_moved[t] = True
    s.hero_hex[h] = hx
    s.hero_status[h] = DONE
    s.hero_moved[h] = True
    s.thing_hex[BOAT] = hx
    if s.army_counts(owner)[hx] > STACK_LIMIT and s.hex_fort[hx] != 4:
        s.reg[f"overflow{owner}"] = 1  # diverted onto a full hex: the owner trims it (RP-5.9)
    _clear(s, keep_flight=True)


def _clear(s: GameState, keep_flight: bool) -> None:
    for key in ("bt_stage", "bt_hex", "bt_at", "bt_k", "bt_last", "bt_dest", "bt_path"):
        s.reg.pop(key, None)
    if not keep_flight:
        for key in [k for k in s.reg if k.startswith("bt_p")] + ["bt_n", "bt_owner"]:
            s.reg.pop(key, None)
    s.decision = D.NONE


# ----- battles (battle_sides) -----

def in_battle(s: GameState, side: int) -> bool:
    """The side's Boat is in play, unhit, in the battle hex."""
    b = s.frame(Battle)
    return on(s) and bool(s.thing_in_play[BOAT]) and s.thing_owner[BOAT] == side and not s.thing_damage[BOAT] \
        and s.thing_hex[BOAT] == (b.hex if b is not None else -1)


def riders(s: GameState, side: int) -> tuple[set[int], set[int]]:
    """Passengers (Things, hero faces) that attack as Ranged while the Boat is in play."""
    if not in_battle(s, side):
        return set(), set()
    hx = s.frame(Battle).hex
    t, h = passengers(s)
    return ({c for c in t if s.thing_place[c] == BOARD and s.thing_hex[c] == hx},
            {f for f in h if s.hero_owner[f] == side and s.hero_hex[f] == hx})


def retreat_hexes(s: GameState, side: int, hx: int) -> np.ndarray:
    """Hexes reachable by Boat across one Sea hex next to the battle hex (owner filters later)."""
    sea, land = kadab.known_sea(s), kadab.known_land(s)
    out = {y for x in s.geo.adjacent[hx] if sea[x] for y in s.geo.adjacent[x] if land[y] and y != hx}
    return np.asarray(sorted(out), np.int64)


def end_of_round(s: GameState) -> None:
    """R22.6: the Boat is removed at the end of the round."""
    if on(s) and s.thing_in_play[BOAT]:
        used_up(s, BOAT)
    for key in [k for k in s.reg if k.startswith("bt_")]:
        del s.reg[key]


DECISIONS = {
    D.BOAT_LOAD: (legal_load, apply_load),
    D.BOAT_PATH: (legal_path, apply_path),
}

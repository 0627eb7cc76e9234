"""R10 phase 4: play events (Appendix B, RP-4).

In turn order each player may play one playable event (RD1.8) from behind the screen; it is
shown, resolved as in Appendix B, then goes to the cup (out once the cup ran dry, R17.2).

The phase is the frame `EventsPhase` (who has played or passed), one player's event the frame
`Event` (ktenv.kings_and_things.procedures). Every event choice is posed with `pose`: the legal actions are kept in
`Event.posed` and the answer lands in `Event.answer`, read by the stage the question named (the
phase's stages are `s.stage`). Dice are rolled only in runner stages (R18.5 roll events, marked)
and read in the next stage. Public registers: ev_c the event (`Event.card`), ev_p its player, ev_q
the other player concerned (victim, hex owner, Plague player), ev_hex its hex, ev_roll / ev_roll2
the dice, ev_hero the Defection hero, ev_dest an escape hex, ev_n losses to take.

C++ twin: native/src/engine/events.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CITY, CREATURE, EVENT, NOBODY, SEA, SPECIAL_INCOME, VILLAGE
from ..procedures import Event, EventsPhase, EventStage
from ..state import EVENTS, MOVEMENT, GameState
from . import balloon, dice, hooks, losses
from .actions import NUMBER, PASS, ActionLayout, layout
from .common import known_land, to_cup, turn_up, used_up
from .conquest import reduce_fort
from .construction import raise_fort, supply_left
from .heroes import pool_faces, room_hexes
from .placement_turn import begin_placement
from .reactions import open_round, take_result
from .support import lose_hero, remove_revealed_bluffs, reveal
from .victory import check_eliminations

_E = cat.EVENT_ID
WILLING_WORKERS, DISASTER, BIG_JUJU = _E["Willing Workers"], _E["Terrain Disaster"], _E["Big Juju"]
PLAGUE, MOTHER_LODE, GOOD_HARVEST = _E["Dark Plague"], _E["Mother Lode"], _E["Good Harvest"]
TEENIE_POX, DEFECTION, VANDALS, WEATHER = _E["Teeniepox"], _E["Defection"], _E["Vandals"], _E["Weather Control"]

_IS_CREATURE = cat.THING_KIND == CREATURE
_IS_MAGIC_CREATURE = _IS_CREATURE & cat.THING_MAGIC
_IS_EVENT = cat.THING_KIND == EVENT
_ORIGINAL = cat.THING_ORIGINAL  # an event of the second box (R20.1) acts as its first-box original
_IS_TOWN = (cat.THING_KIND == CITY) | (cat.THING_KIND == VILLAGE)
_TOWN_VALUE = np.where(_IS_TOWN, cat.THING_COMBAT, 0).astype(np.int64)  # city 2, village 1 (D.2)

# Stages of the phase (s.stage): ktenv.kings_and_things.procedures.EventStage (the Portal's are house.py's).
(BEGIN, CHOOSE, PLAYED, FINISH, WW_HEX, DIS_HEX, DIS_ROLL, DIS_CHECK, DIS_OWNER_ROLL, DIS_LOSS, CASTER,
 TARGET, REACT, JUJU_TERRAIN, JUJU_APPLY, JUJU_ESCAPE, JUJU_ESCAPED, JUJU_MOVE, JUJU_SINK, FAN, PLAGUE_REACT,
 PLAGUE_PLAYER, PLAGUE_NEXT, PLAGUE_HIT, POX_VICTIM, POX_REACT, POX_ROLL, POX_CHECK, POX_HIT, DEF_HERO,
 DEF_ROLL_A, DEF_ROLL_B, DEF_CHECK, DEF_PLACE, DEF_LORD, VAN_VICTIM, VAN_FORT, *_PORTAL) = EventStage


def run(s: GameState) -> None:
    STAGES[s.stage](s, layout(s))


def event(s: GameState) -> Event:
    """The event under way."""
    return s.frame(Event)  # type: ignore[return-value]


# ----- posing a choice -----

def pose(s: GameState, decision: int, actor: int, actions, then: int) -> None:
    """Ask `actor` to pick one of `actions` (never empty); stage `then` reads the answer."""
    bits = np.zeros(layout(s).size, np.uint8)
    bits[np.asarray(actions, np.int64)] = 1
    if not bits.any():
        raise AssertionError(f"decision {D.NAMES[decision]} posed with no legal action")
    event(s).posed = np.flatnonzero(bits).tolist()
    s.stage, s.decision, s.actor = then, decision, actor


def posed(s: GameState) -> bool:
    """Is an event's choice being asked now? (FAN_HEX and ESCAPE_HEX are shared with the balloon.)"""
    ev = s.frame(Event)
    return ev is not None and bool(ev.posed)


def legal_choice(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[event(s).posed] = 1


def apply_choice(s: GameState, lay: ActionLayout, action: int) -> None:
    ev = event(s)
    ev.posed = []
    ev.answer = action
    s.decision = D.NONE


def _answer(s: GameState) -> int:
    ev = event(s)
    a, ev.answer = ev.answer, -1
    return a


def _flags(players) -> list[int]:
    """Per side code: 1 for the players listed."""
    out = [0] * 7
    for q in players:
        out[q] = 1
    return out


def order_from(s: GameState, p: int) -> list[int]:
    """Players still in the game in turn order starting with `p` (R18.6.1)."""
    n = s.n_players
    return [q for q in ((p + i) % n for i in range(n)) if s.alive[q]]


# ----- the phase: one event per player (R10.1) -----

def _begin(s: GameState, lay: ActionLayout) -> None:
    s.push(EventsPhase())
    s.stage = CHOOSE


def _choose(s: GameState, lay: ActionLayout) -> None:
    done = s.frame(EventsPhase).done
    left = [p for p in s.turn_order() if not done[p]]
    if not left:
        s.drop(EventsPhase)
        s.phase, s.stage, s.turn = MOVEMENT, 0, 0
        return
    p = left[0]
    s.turn = sum(done)
    mine = s.screen(p)
    playable = [int(c) for c in mine[_IS_EVENT[mine]] if event_playable(s, p, int(c))]
    if not playable:
        done[p] = 1
        return
    s.push(Event(player=p))
    pose(s, D.EVENT_PLAY, p, [PASS, *(lay.thing + c for c in playable)], PLAYED)


def _played(s: GameState, lay: ActionLayout) -> None:
    a, p = _answer(s), event(s).player
    if a == PASS:
        s.drop(Event)
        s.frame(EventsPhase).done[p] = 1
        s.stage = CHOOSE
        return
    c = a - lay.thing
    event(s).card = c
    s.stats["events_played"] += 1  # R10.2: shown to all
    START[int(_ORIGINAL[c])](s, lay, p)


def _finish(s: GameState, lay: ActionLayout) -> None:
    """R10.2: the event goes to the cup (R17.2); support and eliminations are re-checked."""
    ev = event(s)
    used_up(s, ev.card)
    s.drop(Event)
    s.frame(EventsPhase).done[ev.player] = 1
    s.stage = CHOOSE
    remove_revealed_bluffs(s)
    check_eliminations(s)


# ----- B.1 Willing Workers -----

def ww_hexes(s: GameState, p: int) -> np.ndarray:
    """B.1 / RD10.6: own hexes that can get a Tower or one level more (never a Citadel)."""
    ok = (s.hex_owner == p) & (s.hex_fort < 3)
    if s.cfg.willing_workers_counts_toward_limit:
        ok &= s.hex_fort_round != s.round  # R14.2: one level per hex per round
    for level in (1, 2, 3):
        if not supply_left(s, level):  # R14.5
            ok &= s.hex_fort != level - 1
    return np.flatnonzero(ok)


def _ww_start(s: GameState, lay: ActionLayout, p: int) -> None:
    pose(s, D.EVENT_HEX, p, lay.hex + ww_hexes(s, p), WW_HEX)


def _ww_hex(s: GameState, lay: ActionLayout) -> None:
    hx = _answer(s) - lay.hex
    before = int(s.hex_fort_round[hx])
    raise_fort(s, hx, paid=False)  # B.1: no gold is paid
    if not s.cfg.willing_workers_counts_toward_limit:
        s.hex_fort_round[hx] = before  # R14.2 option: the level does not count for the round
    s.stage = FINISH


# ----- B.2 Terrain Disaster -----

def _dis_start(s: GameState, lay: ActionLayout, p: int) -> None:
    event(s).tried = []
    pose(s, D.EVENT_HEX, p, lay.hex + np.flatnonzero(known_land(s)), DIS_HEX)  # R20.3: not face down


def _dis_hex(s: GameState, lay: ActionLayout) -> None:
    hx = _answer(s) - lay.hex
    ev = event(s)
    ev.hex = hx
    if hx not in ev.tried:
        ev.tried.append(hx)
    s.stage = DIS_ROLL


def _dis_roll(s: GameState, lay: ActionLayout) -> None:
    dice.roll(s, dice.EVENT, 2)  # roll event (R18.5)
    s.stage = DIS_CHECK


def _dis_check(s: GameState, lay: ActionLayout) -> None:
    """B.2: 6-8 strikes; otherwise the next untried hex of the same terrain, until none is left."""
    ev = event(s)
    hx = ev.hex
    ev.roll = sum(dice.take(s, dice.EVENT))
    if 6 <= ev.roll <= 8:
        owner = int(s.hex_owner[hx])
        ev.other = owner
        s.stage = FINISH if owner == NOBODY else DIS_OWNER_ROLL  # RD10.7: unowned, no effect
        return
    same = (s.hex_terrain == s.hex_terrain[hx]) & ~s.hex_down  # R20.3: face-down hexes are never chosen
    left = [h for h in np.flatnonzero(same) if int(h) not in ev.tried]
    if not left:
        s.stage = FINISH
        return
    pose(s, D.EVENT_HEX, ev.player, lay.hex + np.asarray(left, np.int64), DIS_HEX)


def _dis_owner_roll(s: GameState, lay: ActionLayout) -> None:
    dice.roll(s, dice.EVENT, 1)  # roll event (R18.5)
    s.stage = DIS_LOSS


def _dis_loss(s: GameState, lay: ActionLayout) -> None:
    """B.2: 1 or 6 nothing; 2-5 that many losses in the struck hex, by its owner."""
    ev = event(s)
    n = ev.roll = dice.table(dice.take(s, dice.EVENT)[0])  # R18.5.2
    s.stage = FINISH
    if 2 <= n <= 5:
        losses.start(s, ev.hex, ev.other, n, losses.event_flags(s, disaster=True))


# ----- B.3 Big Juju and B.10 Weather Control: caster, target, reactions -----

def _caster_hex_reach(s: GameState, p: int, caster: int, lay: ActionLayout) -> tuple[int, int]:
    """(hex, range) of a caster action: range = effective combat value (cloud -1, B.10; RT.11)."""
    if caster < lay.hero:
        c = caster - lay.thing
        hx, value = int(s.thing_hex[c]), int(cat.THING_COMBAT[c])
    else:
        f = caster - lay.hero
        hx, value = int(s.hero_hex[f]), int(cat.HERO_COMBAT[f])
    if s.cloud_hex == hx and s.hex_owner[hx] == p:
        value -= 1
    return hx, value


def _valid_targets(s: GameState, c: int) -> np.ndarray:
    """B.3: any hex but a Citadel's, if the hex stack has a tile of another terrain; B.10: land."""
    if _ORIGINAL[c] == WEATHER:
        return known_land(s)  # RD10.11; R20.3: not a face-down hex (its terrain is unknown)
    tiles = set(s.hex_stack)
    if not tiles:
        return np.zeros(s.geo.n_hexes, bool)
    ok = s.hex_fort != 4
    if len(tiles) == 1:
        ok &= (s.hex_terrain != next(iter(tiles))) | s.hex_down  # R20.3: unknown until turned up
    return ok


def caster_actions(s: GameState, p: int, c: int, lay: ActionLayout) -> list[int]:
    """Magic creatures and magic heroes of `p` on the board with a valid target in range (RD10.8)."""
    valid = _valid_targets(s, c)
    things = np.flatnonzero(_IS_MAGIC_CREATURE[:s.n_things] & (s.thing_owner == p) & (s.thing_place == BOARD))
    heroes = np.flatnonzero((s.hero_owner == p) & s.cat.HERO_MAGIC)
    out = []
    for a in [*(lay.thing + things), *(lay.hero + heroes)]:
        hx, reach = _caster_hex_reach(s, p, int(a), lay)
        if (valid & (s.geo.distance[hx] <= reach)).any():
            out.append(int(a))
    return out


def _cast_start(s: GameState, lay: ActionLayout, p: int) -> None:
    pose(s, D.EVENT_CASTER, p, caster_actions(s, p, event(s).card, lay), CASTER)


def _caster(s: GameState, lay: ActionLayout) -> None:
    """R9.6 / RD10.8: the caster is shown; a bluff leaves and the event fails."""
    a, p = _answer(s), event(s).player
    hx, reach = _caster_hex_reach(s, p, a, lay)
    if a < lay.hero:
        c = a - lay.thing
        if not reveal(s, c):
            s.stage = FINISH
            return
        s.thing_face_up[c] = False  # back face down; its identity stays known (RI.4)
    targets = _valid_targets(s, event(s).card) & (s.geo.distance[hx] <= reach)
    pose(s, D.EVENT_HEX, p, lay.hex + np.flatnonzero(targets), TARGET)


def _target(s: GameState, lay: ActionLayout) -> None:
    ev = event(s)
    ev.hex = _answer(s) - lay.hex
    open_round(s, ev.card, ev.player)  # R18.2: Dispel Magic (RD8.6), Fan (C.3)
    s.stage = REACT


def _react(s: GameState, lay: ActionLayout) -> None:
    cancelled, fan, _ = take_result(s)
    if cancelled:  # C.8: the event fails
        s.stage = FINISH
    elif _ORIGINAL[event(s).card] == WEATHER:
        _weather(s, lay, fan)
    else:
        _juju_tile(s, lay)


# ----- B.3 Big Juju: the new tile -----

def _juju_tile(s: GameState, lay: ActionLayout) -> None:
    """The owner of the target picks a terrain from the hex stack; otherwise draw from the top."""
    hx, p = event(s).hex, event(s).player
    if s.hex_down[hx]:
        turn_up(s, hx)  # RD10.15: Big Juju turns its target up first (nobody stands there now)
    old = int(s.hex_terrain[hx])
    if s.hex_owner[hx] == p:
        terrains = sorted(set(s.hex_stack) - {old})
        if not terrains:
            s.stage = FINISH
            return
        pose(s, D.EVENT_TERRAIN, p, [NUMBER + t for t in terrains], JUJU_TERRAIN)
        return
    stack = s.hex_stack
    s.rng.shuffle(stack)
    top = [i for i in range(len(stack) - 1, -1, -1) if stack[i] != old]  # same terrain: shuffled back
    if not top:
        s.stage = FINISH
        return
    _swap_tile(s, top[0])


def _juju_terrain(s: GameState, lay: ActionLayout) -> None:
    _swap_tile(s, s.hex_stack.index(_answer(s) - NUMBER))


def _swap_tile(s: GameState, i: int) -> None:
    """The new tile leaves the hex stack, the old one joins it; the stack is reshuffled."""
    ev = event(s)
    hx = ev.hex
    ev.terrain = s.hex_stack.pop(i)
    s.hex_stack.append(int(s.hex_terrain[hx]))
    s.rng.shuffle(s.hex_stack)
    s.stage = JUJU_APPLY


def _juju_apply(s: GameState, lay: ActionLayout) -> None:
    """Land: special income counters go, the owner may place on the hex. Sea: escape, then sink."""
    ev = event(s)
    hx, new = ev.hex, ev.terrain
    if new == SEA:
        ev.todo = _flags(q for q in range(s.n_players) if s.army_counts(q)[hx])
        s.stage = JUJU_ESCAPE
        return
    s.hex_terrain[hx] = new
    c = int(s.hex_income[hx])
    if c >= 0 and cat.THING_KIND[c] == SPECIAL_INCOME:
        to_cup(s, c)  # tied to the old terrain (R8.3.4)
    remove_revealed_bluffs(s)  # R9.3
    s.stage = FINISH
    owner = int(s.hex_owner[hx])
    if owner != NOBODY:
        begin_placement(s, owner, only_hex=hx)  # B.3 / R8.3


def _army(s: GameState, q: int, hx: int) -> tuple[np.ndarray, np.ndarray]:
    things = np.flatnonzero((s.thing_hex == hx) & (s.thing_owner == q) & (s.thing_place == BOARD)
                            & _IS_CREATURE[:s.n_things])
    return things, np.flatnonzero((s.hero_owner == q) & (s.hero_hex == hx))


def _eliminate(s: GameState, q: int, hx: int) -> None:
    things, heroes = _army(s, q, hx)
    for c in things:
        hooks.eliminate(s, int(c))  # to the cup (R21.4 Brute)
    for f in heroes:
        lose_hero(s, int(f))


def _juju_escape(s: GameState, lay: ActionLayout) -> None:
    """B.3 / RD10.8: each owner in turn order picks one own adjacent hex, or loses the army."""
    ev = event(s)
    hx = ev.hex
    for q in order_from(s, ev.player):
        if not ev.todo[q]:
            continue
        ev.todo[q] = 0
        dests = [h for h in s.geo.adjacent[hx] if s.hex_owner[h] == q]
        if not dests:
            _eliminate(s, q, hx)
            return
        ev.other = q
        pose(s, D.ESCAPE_HEX, q, [PASS, *(lay.hex + h for h in dests)], JUJU_ESCAPED)
        return
    s.stage = JUJU_SINK


def _juju_escaped(s: GameState, lay: ActionLayout) -> None:
    a, q, hx = _answer(s), event(s).other, event(s).hex
    s.stage = JUJU_ESCAPE
    if a == PASS:
        _eliminate(s, q, hx)
        return
    dest = a - lay.hex
    event(s).dest = dest
    s.stage = JUJU_MOVE
    excess = int(s.army_counts(q)[hx]) - int(s.room_for(q)[dest])
    if excess > 0:  # stack limit: the owner eliminates the excess
        losses.start(s, hx, q, excess, losses.HEROES | losses.ARMY)


def _juju_move(s: GameState, lay: ActionLayout) -> None:
    ev = event(s)
    q, hx, dest = ev.other, ev.hex, ev.dest
    ev.dest = -1
    things, heroes = _army(s, q, hx)
    s.thing_hex[things] = dest
    s.hero_hex[heroes] = dest
    s.stage = JUJU_ESCAPE


def _juju_sink(s: GameState, lay: ActionLayout) -> None:
    """B.3 Sea: forts to the bank; income counters, neutrals and guarded counters to the cup."""
    hx = event(s).hex
    for c in np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx)):
        to_cup(s, int(c))
    s.hex_fort[hx] = 0
    s.hex_owner[hx] = NOBODY
    if s.cloud_hex == hx:
        s.cloud_hex = -1
    s.hex_terrain[hx] = SEA
    s.stage = FINISH


# ----- B.10 Weather Control -----

def _weather(s: GameState, lay: ActionLayout, fan: int) -> None:
    """B.10: the black cloud goes to the hex; C.3: a Fan moves it next door or removes it."""
    hx = event(s).hex
    s.cloud_hex = hx
    s.stage = FINISH
    if fan >= 0:
        land = [h for h in s.geo.adjacent[hx] if s.hex_terrain[h] != SEA and not s.hex_down[h]]
        pose(s, D.FAN_HEX, fan, [PASS, *(lay.hex + h for h in land)], FAN)


def _fan(s: GameState, lay: ActionLayout) -> None:
    a = _answer(s)
    s.cloud_hex = -1 if a == PASS else a - lay.hex
    s.stage = FINISH


# ----- B.4 Plague -----

def _plague_start(s: GameState, lay: ActionLayout, p: int) -> None:
    open_round(s, PLAGUE, p)  # R18.2: the Elixir; the player is asked last
    s.stage = PLAGUE_REACT


def _plague_react(s: GameState, lay: ActionLayout) -> None:
    _, _, safe = take_result(s)
    event(s).todo = _flags(q for q in range(s.n_players) if s.alive[q] and not safe >> q & 1)
    s.stage = PLAGUE_PLAYER


def plague_values(s: GameState, q: int) -> np.ndarray:
    """B.4 per hex of q with a creature of q: forts (Citadel 4) + city/village values; else 0."""
    mine = (s.thing_owner == q) & (s.thing_place == BOARD) & _IS_CREATURE[:s.n_things]
    has = np.bincount(s.thing_hex[mine], minlength=s.geo.n_hexes) > 0
    town = np.where(s.hex_income >= 0, _TOWN_VALUE[np.maximum(s.hex_income, 0)], 0)
    return np.where(has & (s.hex_owner == q), s.hex_fort + town, 0)


def _plague_player(s: GameState, lay: ActionLayout) -> None:
    """RD10.9: players in turn order from the event player."""
    ev = event(s)
    for q in order_from(s, ev.player):
        if ev.todo[q]:
            ev.todo[q] = 0
            ev.other = q
            ev.hexes = np.flatnonzero(plague_values(s, q)).tolist()
            s.stage = PLAGUE_NEXT
            return
    s.stage = FINISH


def _plague_next(s: GameState, lay: ActionLayout) -> None:
    """RD10.9: the player picks the order of the hexes."""
    ev = event(s)
    if not ev.hexes:
        s.stage = PLAGUE_PLAYER
        return
    pose(s, D.PLAGUE_HEX, ev.other, [lay.hex + h for h in ev.hexes], PLAGUE_HIT)


def _plague_hit(s: GameState, lay: ActionLayout) -> None:
    hx, q = _answer(s) - lay.hex, event(s).other
    event(s).hexes.remove(hx)
    s.stage = PLAGUE_NEXT
    losses.start(s, hx, q, int(plague_values(s, q)[hx]), losses.UNTIL_NO_CREATURE)


# ----- B.5 Mother Lode, B.6 Good Harvest -----

def mother_lode(s: GameState, p: int) -> int:
    """B.5: twice the income counters' values (cities and villages too); mines four times with
    the Dwarf King (A.9)."""
    counters = s.hex_income[s.hex_owner == p]
    counters = counters[counters >= 0]
    values = cat.THING_INCOME[counters].astype(np.int64)
    if s.hero_owner[cat.hero_id("Dwarf King")] == p:
        values[cat.THING_IS_MINE[counters]] *= 2
    return 2 * int(values.sum())


def good_harvest(s: GameState, p: int) -> int:
    """B.6: land hexes + fort levels (+ heroes, option good_harvest_counts_heroes)."""
    owned = s.hex_owner == p
    gold = int(np.count_nonzero(owned)) + int(s.hex_fort[owned].sum())
    if s.cfg.good_harvest_counts_heroes:
        gold += int(np.count_nonzero(s.hero_owner == p))
    return gold


def _lode_start(s: GameState, lay: ActionLayout, p: int) -> None:
    s.gold[p] += mother_lode(s, p)
    s.stage = FINISH


def _harvest_start(s: GameState, lay: ActionLayout, p: int) -> None:
    s.gold[p] += good_harvest(s, p)
    s.stage = FINISH


# ----- B.7 Teenie Pox -----

def _others(s: GameState, p: int) -> list[int]:
    return [q for q in order_from(s, p) if q != p]


def _pox_start(s: GameState, lay: ActionLayout, p: int) -> None:
    n = s.n_players
    victims = [lay.player + (q - p) % n for q in _others(s, p)]
    if not victims:  # R10.1: nobody to infect, no effect
        s.stage = FINISH
        return
    pose(s, D.EVENT_PLAYER, p, victims, POX_VICTIM)


def _pox_victim(s: GameState, lay: ActionLayout) -> None:
    p = event(s).player
    q = (p + _answer(s) - lay.player) % s.n_players
    event(s).other = q
    open_round(s, TEENIE_POX, p, victims=1 << q)  # R18.2: the victim's Elixir
    s.stage = POX_REACT


def _pox_react(s: GameState, lay: ActionLayout) -> None:
    _, _, safe = take_result(s)
    s.stage = FINISH if safe >> event(s).other & 1 else POX_ROLL


def _pox_roll(s: GameState, lay: ActionLayout) -> None:
    dice.roll(s, dice.EVENT, 1)  # roll event (R18.5)
    s.stage = POX_CHECK


def stack_sizes(s: GameState, q: int) -> np.ndarray:
    """B.7 per hex: q's creatures and heroes + q's fort (Citadel 4) and city/village values."""
    town = np.where(s.hex_income >= 0, _TOWN_VALUE[np.maximum(s.hex_income, 0)], 0)
    return s.army_counts(q) + np.where(s.hex_owner == q, s.hex_fort + town, 0)


def _pox_check(s: GameState, lay: ActionLayout) -> None:
    """B.7: 1 or 6 nothing; 2-5 losses on the largest stack (ties: the victim chooses)."""
    ev = event(s)
    n = ev.roll = dice.table(dice.take(s, dice.EVENT)[0])  # R18.5.2
    sizes = stack_sizes(s, ev.other)
    if not 2 <= n <= 5 or sizes.max() == 0:
        s.stage = FINISH
        return
    ev.n = n
    pose(s, D.EVENT_HEX, ev.other, lay.hex + np.flatnonzero(sizes == sizes.max()), POX_HIT)


def _pox_hit(s: GameState, lay: ActionLayout) -> None:
    hx = _answer(s) - lay.hex
    ev = event(s)
    ev.hex = hx
    s.stage = FINISH
    losses.start(s, hx, ev.other, ev.n, losses.event_flags(s, disaster=False))


# ----- B.8 Defection -----

def defection_heroes(s: GameState, p: int) -> np.ndarray:
    """B.8 / RD5.3: pool heroes (face-up side) and other players' heroes, if p has room for one."""
    if room_hexes(s, p).size == 0:
        return np.zeros(0, np.int64)
    owned = np.flatnonzero((s.hero_owner != NOBODY) & (s.hero_owner != p))
    return np.concatenate([pool_faces(s), owned])


def _def_start(s: GameState, lay: ActionLayout, p: int) -> None:
    heroes = defection_heroes(s, p)
    if heroes.size == 0:  # R10.1: no hero can be chosen (RD5.3), no effect
        s.stage = FINISH
        return
    pose(s, D.DEFECT_HERO, p, lay.hero + heroes, DEF_HERO)


def _def_hero(s: GameState, lay: ActionLayout) -> None:
    event(s).hero = _answer(s) - lay.hero
    s.stage = DEF_ROLL_A


def _def_roll_a(s: GameState, lay: ActionLayout) -> None:
    dice.roll(s, dice.EVENT, 2)  # roll event (R18.5): the player's 2d6
    s.stage = DEF_ROLL_B


def _def_roll_b(s: GameState, lay: ActionLayout) -> None:
    dice.roll(s, dice.EVENT_B, 2)  # roll event (R18.5): the owner's 2d6 (pool: RD10.10)
    s.stage = DEF_CHECK


def _def_check(s: GameState, lay: ActionLayout) -> None:
    """B.8: strictly higher wins; the hero is placed on an own land hex with room."""
    ev = event(s)
    hexes = room_hexes(s, ev.player)
    ev.roll = sum(dice.take(s, dice.EVENT))
    ev.roll2 = sum(dice.take(s, dice.EVENT_B))
    if ev.roll <= ev.roll2 or hexes.size == 0:
        s.stage = FINISH
        return
    pose(s, D.EVENT_HEX, ev.player, lay.hex + hexes, DEF_PLACE)


def _def_place(s: GameState, lay: ActionLayout) -> None:
    f, p = event(s).hero, event(s).player
    s.hero_owner[f], s.hero_hex[f] = p, _answer(s) - lay.hex
    s.hero_mp[f] = s.hero_status[f] = s.hero_damage[f] = 0
    s.hero_pinned[f] = s.hero_moved[f] = False
    s.stage = FINISH
    lords = np.flatnonzero((s.hero_owner == p) & (s.cat.HERO_LORD_TERRAIN >= 0))
    if lords.size > 1:  # R7.10 / RD5.4: the player to the right picks the lord kept
        event(s).lord_player = p
        pose(s, D.LORD_KEEP, s.right_of(p), lay.hero + lords, DEF_LORD)


def _def_lord(s: GameState, lay: ActionLayout) -> None:
    keep, p = _answer(s) - lay.hero, event(s).lord_player
    event(s).lord_player = -1
    for f in np.flatnonzero((s.hero_owner == p) & (s.cat.HERO_LORD_TERRAIN >= 0)):
        if f != keep:  # back to the pool, turned over
            s.hero_owner[f], s.hero_hex[f] = NOBODY, -1
            s.hero_up[f // 2] ^= 1
    s.stage = FINISH


# ----- B.9 Vandals -----

def vandal_victims(s: GameState, p: int) -> list[int]:
    return [q for q in _others(s, p) if ((s.hex_owner == q) & (s.hex_fort > 0) & (s.hex_fort < 4)).any()]


def _van_start(s: GameState, lay: ActionLayout, p: int) -> None:
    n = s.n_players
    victims = [lay.player + (q - p) % n for q in vandal_victims(s, p)]
    if not victims:  # R10.1: nobody has a fort to lose, no effect
        s.stage = FINISH
        return
    pose(s, D.EVENT_PLAYER, p, victims, VAN_VICTIM)


def _van_victim(s: GameState, lay: ActionLayout) -> None:
    """B.9: the victim picks the fort (option vandals_chooser=event_player: the player)."""
    p = event(s).player
    q = (p + _answer(s) - lay.player) % s.n_players
    event(s).other = q
    chooser = q if s.cfg.vandals_chooser == "victim" else p
    forts = np.flatnonzero((s.hex_owner == q) & (s.hex_fort > 0) & (s.hex_fort < 4))
    pose(s, D.EVENT_HEX, chooser, lay.hex + forts, VAN_FORT)


def _van_fort(s: GameState, lay: ActionLayout) -> None:
    reduce_fort(s, _answer(s) - lay.hex)  # a Tower goes back to the bank
    s.stage = FINISH


# ----- playability (RD1.8) and tables -----

def _always(s: GameState, p: int) -> bool:
    return True


def event_playable(s: GameState, p: int, c: int) -> bool:
    """May player p play event c now? R10.1 / RD1.8: any event may be played (one with nothing to act
    on goes to the cup without effect), except where Appendix B states a condition: Willing Workers'
    legal option (B.1, RD10.6) and the caster that Big Juju and Weather Control need (B.3, B.10).
    Option events_playable=with_effect: only with a legal target or effect (PLAYABLE). A second-box
    event acts as its original (R20.1). An optional rule's event is never played with its rule off."""
    original = int(_ORIGINAL[c])
    if not IN_GAME.get(original, _always)(s, p):
        return False
    if s.cfg.events_playable == "any" and original not in STATED_CONDITION:
        return True
    return PLAYABLE[original](s, p)


PLAYABLE = {
    WILLING_WORKERS: lambda s, p: ww_hexes(s, p).size > 0,
    DISASTER: _always,
    BIG_JUJU: lambda s, p: bool(caster_actions(s, p, BIG_JUJU, layout(s))),
    PLAGUE: _always,
    MOTHER_LODE: lambda s, p: mother_lode(s, p) > 0,
    GOOD_HARVEST: lambda s, p: good_harvest(s, p) > 0,
    TEENIE_POX: lambda s, p: bool(_others(s, p)),
    DEFECTION: lambda s, p: defection_heroes(s, p).size > 0,
    VANDALS: lambda s, p: bool(vandal_victims(s, p)),
    WEATHER: lambda s, p: bool(caster_actions(s, p, WEATHER, layout(s))),
}

STATED_CONDITION = frozenset((WILLING_WORKERS, BIG_JUJU, WEATHER))
IN_GAME: dict = {}  # an optional rule's event: is its rule on (add_event)

START = {
    WILLING_WORKERS: _ww_start, DISASTER: _dis_start, BIG_JUJU: _cast_start, PLAGUE: _plague_start,
    MOTHER_LODE: _lode_start, GOOD_HARVEST: _harvest_start, TEENIE_POX: _pox_start,
    DEFECTION: _def_start, VANDALS: _van_start, WEATHER: _cast_start,
}

STAGES = {
    BEGIN: _begin, CHOOSE: _choose, PLAYED: _played, FINISH: _finish, WW_HEX: _ww_hex, DIS_HEX: _dis_hex,
    DIS_ROLL: _dis_roll, DIS_CHECK: _dis_check, DIS_OWNER_ROLL: _dis_owner_roll, DIS_LOSS: _dis_loss,
    CASTER: _caster, TARGET: _target, REACT: _react, JUJU_TERRAIN: _juju_terrain, JUJU_APPLY: _juju_apply,
    JUJU_ESCAPE: _juju_escape, JUJU_ESCAPED: _juju_escaped, JUJU_MOVE: _juju_move, JUJU_SINK: _juju_sink,
    FAN: _fan, PLAGUE_REACT: _plague_react, PLAGUE_PLAYER: _plague_player, PLAGUE_NEXT: _plague_next,
    PLAGUE_HIT: _plague_hit, POX_VICTIM: _pox_victim, POX_REACT: _pox_react, POX_ROLL: _pox_roll,
    POX_CHECK: _pox_check, POX_HIT: _pox_hit, DEF_HERO: _def_hero, DEF_ROLL_A: _def_roll_a,
    DEF_ROLL_B: _def_roll_b, DEF_CHECK: _def_check, DEF_PLACE: _def_place, DEF_LORD: _def_lord,
    VAN_VICTIM: _van_victim, VAN_FORT: _van_fort,
}

_CHOICES = (D.EVENT_PLAY, D.EVENT_HEX, D.EVENT_PLAYER, D.EVENT_CASTER, D.EVENT_TERRAIN, D.PLAGUE_HEX,
            D.ESCAPE_HEX, D.DEFECT_HERO, D.LORD_KEEP, D.FAN_HEX)


def add_event(card: int, in_game, playable, start, stages: dict) -> None:
    """An optional rule's event joins the phase (R22.5 the Portal, house.py): `in_game(s, p)` whether its
    rule is on, `playable(s, p)` as in PLAYABLE, `start(s, lay, p)` as in START, and its own stages
    (their codes in EventStage)."""
    IN_GAME[card] = in_game
    PLAYABLE[card] = playable
    START[card] = start
    STAGES.update(stages)


def _shared(own_legal, own_apply):
    """FAN_HEX and ESCAPE_HEX are asked by events (Weather Control, Big Juju), which keep their own posed
    choice (`Event.posed`), by the Balloon (C.2) and by an optional rule's move (`hooks.fan_handlers`,
    R22.6 the Bellows diverts the Boat): route each decision to the part that asked it."""
    def pick(s: GameState, own):
        if posed(s):
            return legal_choice if own is own_legal else apply_choice
        other = hooks.fan_handlers(s)
        if other is not None:
            return other[0] if own is own_legal else other[1]
        return own

    def legal(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
        pick(s, own_legal)(s, lay, mask)

    def apply(s: GameState, lay: ActionLayout, action: int) -> None:
        pick(s, own_apply)(s, lay, action)
    return legal, apply


DECISIONS = {**{code: (legal_choice, apply_choice) for code in _CHOICES}, **losses.DECISIONS,
             D.FAN_HEX: _shared(balloon.legal_fan, balloon.apply_fan),
             D.ESCAPE_HEX: _shared(balloon.legal_escape, balloon.apply_escape)}

RUNNERS = {EVENTS: run}

"""R11 phase 5: movement, with the moving-stack model of R11.2 / RD4.1.

In turn order each player moves: MOVE_START picks a hex (PASS ends the turn), MOVE_SELECT adds
unmoved counters there into the stack (YES goes), MOVE_STACK steps (DIRECTION), drops a member,
picks up an unmoved counter, or ends (PASS). Entering an unexplored hex stops everybody (R11.3.1);
entering a hex with enemy combat or face-down counters stops everybody except flyers that get
through under R11.6 (FLY_INTEND, FLY_BLOCK, FLY_LEAVE). Pinned counters (R11.5) leave only as flyers
(R11.6), with the Deerhunter (A.3) or after a won bluff challenge (R11.7: PIN_CHALLENGE,
PIN_REVEAL). At the end of a player's turn empty enemy hexes are conquered (R11.8.1); after all
have moved each player may remove income counters (R11.9, REMOVE_INCOME).

State: the mover's counters carry `*_mp`, `*_status` (UNMOVED/MOVING/DONE), `*_pinned`, `*_moved`
during that player's turn only (zeros otherwise). Members of the moving stack are the MOVING
counters; the stack's position is the `Move` frame's `hex`. Over Sea the members keep their last land
hex in `thing_hex`/`hero_hex` (nothing may lie on Sea, R11.3.4); `Move.hex` says where they fly.
The player's turn is the `MovementTurn` frame (ktenv.kings_and_things.procedures), each move of it a `Move`.

Public helpers for other parts: `enemy_presence` (what stops and pins, R11.3.2 / R11.5.1),
`army_counts_still`, `pin_challengeable` (R11.7.1), `conquer_by_movement` (R11.8.1).

C++ twin: native/src/engine/movement.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CITY, CREATURE, NEUTRAL, NOBODY, SEA, VILLAGE
from ..procedures import Entries, FlyStage, Move, MovementTurn
from ..state import COMBAT, DONE, MOVEMENT, MOVING, UNMOVED, GameState
from . import balloon, creatures, hooks, stacks, support
from . import deerhunter as dh
from .actions import PASS, YES, ActionLayout
from .common import own_income_counters, remove_income_counter
from .conquest import conquer

MP = dh.MP
DEERHUNTER = dh.DEERHUNTER
_CREATURE = cat.THING_KIND == CREATURE
_COMBAT_THING = np.isin(cat.THING_KIND, (CREATURE, CITY, VILLAGE))  # R0.4.10 (forts: per hex)
_T_FLY = cat.THING_FLYING.astype(bool)  # the mover's flyers: creatures.flying(s) (R21.2 Aviator)
_H_FLY = cat.HERO_FLYING.astype(bool)
_COST = cat.MOVE_COST.astype(np.int64)  # R11.1.2, flyers pay 1 (RD4.7)
_FAR = 1_000  # "no ground member": any terrain cost fits

TURNS, WINDOW = 0, 1  # stages: the players' movement turns, then the R11.9 window
ENTRY, LEAVE = FlyStage.ENTRY, FlyStage.LEAVE  # R11.6: flyers entering a stopping hex / leaving a pinned one


def turn(s: GameState) -> MovementTurn:
    """The movement turn under way."""
    return s.frame(MovementTurn)


def move(s: GameState) -> Move:
    """The move under way."""
    return s.frame(Move)


def _add(members: list[int], x: int) -> None:
    """Add `x` to a set kept as a list (hero faces, hexes)."""
    if x not in members:
        members.append(x)


# ----- queries other modules reuse -----

def enemy_presence(s: GameState, player: int) -> np.ndarray:
    """Per hex: enemy face-down counters or enemy face-up combat counters (creatures, heroes, the
    hex owner's fort, city or village) are there (R11.3.2, R11.5.1). Neutral defenders are no enemy."""
    owner = s.thing_owner
    enemy = (s.thing_place == BOARD) & (owner != player) & (owner != NEUTRAL)
    hit = enemy & (~s.thing_face_up | _COMBAT_THING[:s.n_things])
    out = np.zeros(s.geo.n_hexes, bool)
    out[s.thing_hex[hit]] = True
    heroes = (s.hero_owner != NOBODY) & (s.hero_owner != player)
    out[s.hero_hex[heroes]] = True
    out |= (s.hex_fort > 0) & (s.hex_owner != player) & (s.hex_owner != NOBODY)
    return out


def army_counts_still(s: GameState, player: int) -> np.ndarray:
    """Creatures and heroes of `player` per hex, leaving out the moving stack (R11.4)."""
    n = s.geo.n_hexes
    t = (s.thing_owner == player) & _CREATURE[:s.n_things] & (s.thing_place == BOARD) & (s.thing_status != MOVING)
    counts = np.bincount(s.thing_hex[t], minlength=n)
    h = (s.hero_owner == player) & (s.hero_status != MOVING)
    counts += np.bincount(s.hero_hex[h], minlength=n)
    return counts


def pin_challengeable(s: GameState, player: int, hx: int) -> bool:
    """R11.7.1: every pin-causing enemy counter in `hx` is a face-down creature (and one is)."""
    o = s.hex_owner[hx]
    if o != player and o != NOBODY and s.hex_fort[hx] > 0:
        return False
    if ((s.hero_hex == hx) & (s.hero_owner != NOBODY) & (s.hero_owner != player)).any():
        return False
    owner = s.thing_owner
    at = (s.thing_hex == hx) & (s.thing_place == BOARD) & (owner != player) & (owner != NEUTRAL)
    stop = at & (~s.thing_face_up | _COMBAT_THING[:s.n_things])
    return bool(stop.any()) and not (stop & (s.thing_face_up | ~_CREATURE[:s.n_things])).any()


def conquer_by_movement(s: GameState, player: int) -> list[int]:
    """R11.8.1 / RD4.4: enemy hexes where the player's counters ended a move this turn and no enemy
    combat or face-down counter is left change hands (special income counter too; cloud removed)."""
    n = s.geo.n_hexes
    moved = np.zeros(n, bool)
    t = s.thing_moved & (s.thing_owner == player) & (s.thing_place == BOARD)
    moved[s.thing_hex[t]] = True
    moved[s.hero_hex[s.hero_moved & (s.hero_owner == player)]] = True
    o = s.hex_owner
    hexes = (moved & (o != player) & (o != NOBODY) & ~enemy_presence(s, player)).nonzero()[0].tolist()
    for hx in hexes:
        conquer(s, hx, player)  # R13.11.1: marker, income counter, cloud, support, Citadel
        if s.game_over:
            break
    return hexes


# ----- the runner -----

def run(s: GameState) -> None:
    order = s.turn_order()
    if balloon.flying(s):  # a Balloon flight waiting for its reactions (C.2)
        balloon.run(s)
        return
    if hooks.movement_resume(s):  # R22.6: the Boat waiting for its reactions
        return
    current = s.frame(MovementTurn)
    if current is not None and current.ending:  # RP-5.9 first: nobody ends the turn over the limit
        if not stacks.trim(s, _mover(s)):
            _end_turn(s)
        return
    if s.stage == TURNS:
        if s.turn >= len(order):
            s.stage, s.turn = WINDOW, 0
            return
        if current is None:
            _begin_turn(s, order[s.turn])
        if hooks.before_move_start(s):  # R22.3: what follows the Gypsy King
            return
        s.decision, s.actor = D.MOVE_START, order[s.turn]
        return
    while s.turn < len(order) and own_income_counters(s, order[s.turn]).size == 0:
        s.turn += 1
    if s.turn >= len(order):
        s.phase, s.stage, s.turn = COMBAT, 0, 0
        return
    s.decision, s.actor = D.REMOVE_INCOME, order[s.turn]


def _mover(s: GameState) -> int:
    return s.turn_order()[s.turn]


def _begin_turn(s: GameState, p: int) -> None:
    """R11.1.2 4 MP each; R11.5.1 pinned where enemies stand at the start of the turn."""
    pres = enemy_presence(s, p)
    t = (s.thing_owner == p) & _CREATURE[:s.n_things] & (s.thing_place == BOARD)
    s.thing_mp[t] = MP
    s.thing_pinned[t] = pres[s.thing_hex[t]]
    h = s.hero_owner == p
    s.hero_mp[h] = MP
    s.hero_pinned[h] = pres[s.hero_hex[h]]
    s.push(MovementTurn(fort_spent=[0] * s.geo.n_hexes, town_spent=[0] * s.n_things))
    hooks.movement_turn_begins(s, p)  # R22.5: the Portal's counters wait for their exploration; R22.3


def _end_turn(s: GameState) -> None:
    conquer_by_movement(s, _mover(s))
    for a in (s.thing_mp, s.thing_status, s.thing_pinned, s.thing_moved,
              s.hero_mp, s.hero_status, s.hero_pinned, s.hero_moved):
        a[:] = 0
    s.drop(Move)
    s.drop(MovementTurn)
    s.turn += 1
    s.decision = D.NONE


def _members(s: GameState) -> tuple[np.ndarray, np.ndarray]:
    """The moving stack (only the mover's counters are ever MOVING)."""
    return (s.thing_status == MOVING).nonzero()[0], (s.hero_status == MOVING).nonzero()[0]


def _unmoved(s: GameState) -> tuple[np.ndarray, np.ndarray]:
    """The mover's unmoved creatures and heroes: only they are UNMOVED with MP (R11.2.1)."""
    t = ((s.thing_status == UNMOVED) & (s.thing_mp > 0)).nonzero()[0]
    h = ((s.hero_status == UNMOVED) & (s.hero_mp > 0) & (s.hero_owner >= 0)).nonzero()[0]
    return t, h


def _unmoved_at(s: GameState, hx: int) -> tuple[np.ndarray, np.ndarray]:
    t, h = _unmoved(s)
    return t[s.thing_hex[t] == hx], h[s.hero_hex[h] == hx]


def _end_move(s: GameState) -> None:
    """Every member is done where it stands (R11.2.3 end, R11.3 stop)."""
    s.thing_status[s.thing_status == MOVING] = DONE
    s.hero_status[s.hero_status == MOVING] = DONE
    s.drop(Move)  # the Deerhunter's company ends with it (A.3)
    s.decision = D.NONE


def _gone(s: GameState, c: int) -> None:
    """A revealed bluff left the board (R9.5): it no longer moves."""
    s.thing_mp[c] = s.thing_status[c] = 0
    s.thing_pinned[c] = s.thing_moved[c] = False
    dh.separate(s, c=c)


# ----- MOVE_START (RP-5.1) -----

def _start_hexes(s: GameState, p: int) -> np.ndarray:
    """Hexes with an unmoved counter that may leave (R11.5.2), or a pin to challenge (R11.7)."""
    t, h = _unmoved(s)
    free_t = ~s.thing_pinned[t] | creatures.flying(s)[t]
    free_h = ~s.hero_pinned[h] | _H_FLY[h] | (h == DEERHUNTER)
    ok = np.zeros(s.geo.n_hexes, bool)
    ok[s.thing_hex[t[free_t]]] = True
    ok[s.hero_hex[h[free_h]]] = True
    pinned = np.zeros(s.geo.n_hexes, bool)
    pinned[s.thing_hex[t[~free_t]]] = True
    pinned[s.hero_hex[h[~free_h]]] = True
    offered = turn(s).challenged
    for hx in (pinned & ~ok).nonzero()[0].tolist():
        if hx not in offered and pin_challengeable(s, p, hx):
            ok[hx] = True
    ok[hooks.extra_start_hexes(s, p)] = True  # R21.2: a creature there may be declared the Aviator's flyer
    return ok.nonzero()[0]


def legal_start(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    starts = _start_hexes(s, s.actor)
    mask[lay.hex + starts] = 1
    hooks.move_options(s, lay, mask)  # R21.10: THING town / YES fort moves; R22.1: HERO Ahasuerus teleports
    if s.cfg.stack_limit_check == "end_of_movement":  # R11.4.4: no end while a move can fix it
        over = np.flatnonzero(s.room_for(s.actor) < 0)
        if np.isin(over, starts).any():
            return
    mask[PASS] = 1  # anything still over the limit is trimmed by its owner (RP-5.9)
    if balloon.can_fly(s, s.actor):
        mask[lay.thing + balloon.held(s, s.actor)] = 1  # C.2: the Balloon is a move of its own
    hooks.vehicle_moves(s, lay, mask)  # R22.6: THING Boat, a move of its own


def apply_start(s: GameState, lay: ActionLayout, action: int) -> None:
    if hooks.move_start(s, lay, action):  # R21.10, R22.1, R22.6
        return
    if action == PASS:
        turn(s).ending = True  # R11.2.5, R11.8 (after RP-5.9)
        s.decision = D.NONE
        return
    if action >= lay.thing and action - lay.thing == balloon.held(s, s.actor):
        balloon.begin(s, action - lay.thing)
        return
    hx = action - lay.hex
    s.push(Move(start=hx))
    if hooks.move_begins_in(s, hx):  # R21.2: the Aviator's flyer is declared as the move starts
        return
    start_from(s, hx)


def start_from(s: GameState, hx: int) -> None:
    """The move from `hx` begins: a bluff challenge against the pin (R11.7) or the selection."""
    t, h = _unmoved_at(s, hx)
    pinned = s.thing_pinned[t].any() or s.hero_pinned[h].any()
    offered = turn(s).challenged
    if pinned and hx not in offered and pin_challengeable(s, s.actor, hx):
        offered.append(hx)  # one offer per hex and turn
        s.decision = D.PIN_CHALLENGE
        return
    s.decision = D.MOVE_SELECT


# ----- MOVE_SELECT (RP-5.1) -----

def _selectable(s: GameState, hx: int) -> tuple[np.ndarray, np.ndarray]:
    """Unmoved or chosen counters in the hex that may join: unpinned, flyers (R11.6), or any
    when the Deerhunter is there to lead them (A.3)."""
    t, h = _unmoved_at(s, hx)
    mt, mh = _members(s)
    t, h = np.concatenate((t, mt)), np.concatenate((h, mh))
    if (h == DEERHUNTER).any():
        return t, h
    return t[~s.thing_pinned[t] | creatures.flying(s)[t]], h[~s.hero_pinned[h] | _H_FLY[h]]


def _selection_ok(s: GameState) -> bool:
    """YES: at least one chosen; pinned non-flyers only with the Deerhunter (R11.5.2)."""
    mt, mh = _members(s)
    if mt.size + mh.size == 0:
        return False
    if s.hero_status[DEERHUNTER] == MOVING:
        return True
    fly = creatures.flying(s)
    return not (s.thing_pinned[mt] & ~fly[mt]).any() and not (s.hero_pinned[mh] & ~_H_FLY[mh]).any()


def legal_select(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """Counters are only added (no cancel, no removal): every chosen hex moves at least one
    counter, so a player's movement turn always ends, whatever the agent does."""
    t, h = _selectable(s, move(s).start)
    mask[lay.thing + t[s.thing_status[t] == UNMOVED]] = 1
    mask[lay.hero + h[s.hero_status[h] == UNMOVED]] = 1
    if _selection_ok(s):
        mask[YES] = 1


def apply_select(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == YES:
        _go(s)
    elif action < lay.hero:
        s.thing_status[action - lay.thing] = MOVING
    else:
        s.hero_status[action - lay.hero] = MOVING
        hooks.hero_picked(s, action - lay.hero)  # R22.4


def _go(s: GameState) -> None:
    """R11.2.2: the move starts. Pinned flyers without the Deerhunter first pass R11.6 (leaving);
    the selection is the mover's choice of the flyers that intend to continue (step 1)."""
    m = move(s)
    hx = m.hex = m.start
    mt, mh = _members(s)
    dh.start(s, mt, mh)
    if m.deerhunter or not (s.thing_pinned[mt].any() or s.hero_pinned[mh].any()):
        s.decision = D.MOVE_STACK
        return
    m.fly = LEAVE
    m.intending = sorted(set(mh.tolist()))
    _hide(s, hx)
    for c in mt.tolist():
        if not support.reveal(s, c):
            _gone(s, c)
    _start_blocking(s)


# ----- MOVE_STACK (RP-5.2) -----

def _legal_steps(s: GameState, p: int) -> list[int]:
    """Directions the whole stack may step: on board, each member can pay (R11.1.2, RD4.7), no
    member pinned there (R11.5), only flyers over Sea and only toward land they can still reach
    (R11.3.4), the stack limit at the destination (RD4.2, Citadel exempt R11.4.2)."""
    mt, mh = _members(s)
    n = mt.size + mh.size
    if n == 0:
        return []
    qt, qh = dh.qualifying(s, mt, mh)
    if (s.thing_pinned[mt] & ~qt).any() or (s.hero_pinned[mh] & ~qh).any():
        return []
    mps = np.concatenate((s.thing_mp[mt], s.hero_mp[mh]))
    low = int(mps.min())
    if low < 1:
        return []
    fly = creatures.flying(s)
    ground = np.concatenate((~fly[mt] & ~qt, ~_H_FLY[mh] & ~qh & (mh != DEERHUNTER)))
    low_ground = int(mps[ground].min()) if ground.any() else _FAR
    all_fly = bool(fly[mt].all() and _H_FLY[mh].all())
    room = s.room_for(p, army_counts_still(s, p))
    out = []
    terrain, down = s.hex_terrain, s.hex_down
    for d, t in enumerate(s.geo.neighbours[move(s).hex].tolist()):
        if t < 0:
            continue
        if terrain[t] == SEA and not down[t]:
            if all_fly and _land_within(s, t, low - 1, room, n):
                out.append(d)
        elif (1 if down[t] else _COST[terrain[t]]) <= low_ground \
                and (room[t] >= n or _limit_waits(s, room[t], mt, mh)):  # R20.3: face down costs 1
            out.append(d)
    return out


def _limit_waits(s: GameState, room: int, mt: np.ndarray, mh: np.ndarray) -> bool:
    """R11.4.4 option end_of_movement: a step may overfill a hex for now, but flyers may never
    enter a hex that already holds 10 of their owner's counters (R11.4.3)."""
    if s.cfg.stack_limit_check != "end_of_movement":
        return False
    return room > 0 or not (creatures.flying(s)[mt].any() or _H_FLY[mh].any())


def _land_within(s: GameState, sea: int, budget: int, room: np.ndarray, n: int) -> bool:
    """From Sea hex `sea` with `budget` MP: a land hex the stack may enter is in reach (R11.3.4)."""
    frontier, seen = [sea], {sea}
    terrain, adjacent = s.hex_terrain, s.geo.adjacent
    for _ in range(budget):
        nxt = []
        for x in frontier:
            for y in adjacent[x]:
                if y in seen:
                    continue
                seen.add(y)
                if terrain[y] != SEA or s.hex_down[y]:  # R20.3: a face-down tile counts as land
                    if room[y] >= n:
                        return True
                else:
                    nxt.append(y)
        frontier = nxt
    return False


def legal_stack(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    p, hx = s.actor, move(s).hex
    for d in _legal_steps(s, p):
        mask[lay.direction + d] = 1
    if s.hex_terrain[hx] == SEA and not s.hex_down[hx]:
        return  # R11.3.4: no end and no drop over Sea
    mask[PASS] = 1
    mt, mh = _members(s)
    for c in mt.tolist():
        if dh.may_drop_thing(s, c):
            mask[lay.thing + c] = 1
    for f in mh.tolist():
        if dh.may_drop_hero(s, f, mt, mh):
            mask[lay.hero + f] = 1
    t, h = _unmoved_at(s, hx)  # R11.2.3 pick up (pinned counters stay, R11.5.1)
    mask[lay.thing + t[~s.thing_pinned[t]]] = 1
    mask[lay.hero + h[~s.hero_pinned[h]]] = 1


def apply_stack(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        _end_move(s)
    elif action >= lay.direction:
        _step(s, action - lay.direction)
    elif action >= lay.hero:
        f = action - lay.hero
        if s.hero_status[f] == MOVING:
            s.hero_status[f] = DONE
            dh.separate(s, f=f)
            _after_drop(s)
        else:
            s.hero_status[f] = MOVING
            hooks.hero_picked(s, f)  # R22.4
    else:
        c = action - lay.thing
        if s.thing_status[c] == MOVING:
            s.thing_status[c] = DONE
            dh.separate(s, c=c)
            _after_drop(s)
        else:
            s.thing_status[c] = MOVING


def _after_drop(s: GameState) -> None:
    if not (s.thing_status == MOVING).any() and not (s.hero_status == MOVING).any():
        _end_move(s)


def _step(s: GameState, d: int) -> None:
    """The whole stack enters the neighbour; stop rules R11.3 apply on arrival."""
    p = s.actor
    m = move(s)
    t = int(s.geo.neighbours[m.hex, d])
    terrain = int(s.hex_terrain[t])
    down = bool(s.hex_down[t])
    cost = 1 if down else int(_COST[terrain])  # R20.3 / RD10.15: a face-down hex costs 1 MP
    mt, mh = _members(s)
    qt, qh = dh.qualifying(s, mt, mh)
    s.thing_mp[mt] -= np.where(creatures.flying(s)[mt] | qt, 1, cost).astype(np.int8)
    s.hero_mp[mh] -= np.where(_H_FLY[mh] | qh | (mh == DEERHUNTER), 1, cost).astype(np.int8)
    s.thing_pinned[mt] = False  # it has left: the pin no longer concerns it
    s.hero_pinned[mh] = False
    dh.entered(s, cost)
    m.hex = t
    if down:
        if hooks.entered_face_down(s, mt, mh, t):
            _end_move(s)  # [ER]: a Sea tile sends the stack back to the (land) hex it came from
            return
        if not s.hex_down[t]:
            s.thing_from[mt] = -1
            s.hero_from[mh] = -1
    elif terrain == SEA:
        return
    s.thing_hex[mt] = t
    s.hero_hex[mh] = t
    s.thing_moved[mt] = True
    s.hero_moved[mh] = True
    if s.hex_owner[t] == NOBODY:
        _record_entry(s, t, p)
        _end_move(s)  # R11.3.1, R11.6.3: an unexplored hex stops flyers too
    elif enemy_presence(s, p)[t]:
        fly = (creatures.flying(s)[mt] & (s.thing_mp[mt] > 0)).any() or (_H_FLY[mh] & (s.hero_mp[mh] > 0)).any()
        if fly:
            _hide(s, t)
            m.fly = ENTRY  # R11.6.1
            s.decision = D.FLY_INTEND
        else:
            _end_move(s)  # R11.3.2


def _record_entry(s: GameState, hx: int, p: int) -> None:
    """The order in which players entered an unexplored hex (R12.3.2 option second_to_enter)."""
    if p not in entry_order(s, hx):
        e = s.frame(Entries) or s.push(Entries())
        e.hexes.append(hx)
        e.players.append(p)


def entry_order(s: GameState, hx: int) -> list[int]:
    e = s.frame(Entries)
    if e is None:
        return []
    return [p for h, p in zip(e.hexes, e.players) if h == hx]


# ----- R11.6 flyers passing enemy hexes -----

def legal_fly_intend(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """Step 1: flyers with MP left that have not yet declared; PASS when done."""
    mask[PASS] = 1
    mt, mh = _members(s)
    mask[lay.thing + mt[creatures.flying(s)[mt] & ~s.thing_face_up[mt] & (s.thing_mp[mt] > 0)]] = 1
    ih = move(s).intending
    for f in mh[_H_FLY[mh] & (s.hero_mp[mh] > 0)].tolist():
        if f not in ih:
            mask[lay.hero + f] = 1


def apply_fly_intend(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        if _n_intending(s) == 0:
            _end_move(s)  # nobody goes on: all stop (R11.3.2)
        else:
            _start_blocking(s)
    elif action >= lay.hero:
        _add(move(s).intending, action - lay.hero)
    else:
        c = action - lay.thing
        if not support.reveal(s, c):  # revealed bluffs are removed (R9.5)
            _gone(s, c)
            if not (s.thing_status == MOVING).any() and not (s.hero_status == MOVING).any():
                _end_move(s)


def _intending(s: GameState) -> tuple[np.ndarray, np.ndarray]:
    """Members that declared to continue: revealed creatures, heroes in `Move.intending`."""
    mt, mh = _members(s)
    ih = move(s).intending
    return mt[s.thing_face_up[mt]], mh[[f in ih for f in mh.tolist()]] if mh.size else mh


def _n_intending(s: GameState) -> int:
    it, ih = _intending(s)
    return it.size + ih.size


def _blockers(s: GameState, e: int, hx: int) -> tuple[np.ndarray, np.ndarray]:
    """Step 2: face-down flying creatures of enemy `e` in the hex, flying heroes not yet declared."""
    t = np.flatnonzero((s.thing_hex == hx) & (s.thing_owner == e) & (s.thing_place == BOARD)
                       & _T_FLY[:s.n_things] & _CREATURE[:s.n_things] & ~s.thing_face_up)
    decl = move(s).blocking
    h = [f for f in np.flatnonzero((s.hero_hex == hx) & (s.hero_owner == e) & s.cat.HERO_FLYING).tolist()
         if f not in decl]
    return t, np.array(h, np.int64)


def _start_blocking(s: GameState) -> None:
    if _n_intending(s) == 0:
        _end_move(s)  # every intending flyer was a bluff
        return
    m = move(s)
    m.blocks, m.asked = 0, 0
    _next_blocker(s)


def _next_blocker(s: GameState) -> None:
    """Enemies in turn order from the mover's left, while blocking can still matter."""
    order = s.turn_order()
    p = _mover(s)
    m = move(s)
    i0, hx = order.index(p), m.hex
    n_int = _n_intending(s)
    while True:
        m.asked += 1
        k = m.asked
        if k >= len(order) or m.blocks >= n_int:
            _resolve_blocking(s, n_int)
            return
        e = order[(i0 + k) % len(order)]
        t, h = _blockers(s, e, hx)
        if t.size or h.size:
            s.decision, s.actor = D.FLY_BLOCK, e
            return


def legal_fly_block(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[PASS] = 1
    t, h = _blockers(s, s.actor, move(s).hex)
    mask[lay.thing + t] = 1
    mask[lay.hero + h] = 1


def apply_fly_block(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        _next_blocker(s)
        return
    m = move(s)
    if action >= lay.hero:
        _add(m.blocking, action - lay.hero)  # RD4.6
        m.blocks += 1
    elif support.reveal(s, action - lay.thing):  # a revealed bluff leaves and does not count
        m.blocks += 1
    if m.blocks >= _n_intending(s):
        _next_blocker(s)


def _resolve_blocking(s: GameState, n_int: int) -> None:
    """Step 3: as many intending flyers stay as there were blockers; the mover chooses which."""
    s.actor = _mover(s)
    k = min(move(s).blocks, n_int)
    if k == n_int:
        _end_move_fly(s, stop_all=True)
    elif k == 0:
        _end_move_fly(s, stop_all=False)
    else:
        move(s).stay = k
        s.decision = D.FLY_LEAVE


def legal_fly_leave(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    it, ih = _intending(s)
    mask[lay.thing + it] = 1
    mask[lay.hero + ih] = 1


def apply_fly_leave(s: GameState, lay: ActionLayout, action: int) -> None:
    m = move(s)
    if action >= lay.hero:
        f = action - lay.hero
        s.hero_status[f] = DONE
        if f in m.intending:
            m.intending.remove(f)
        dh.separate(s, f=f)
    else:
        c = action - lay.thing
        s.thing_status[c] = DONE
        dh.separate(s, c=c)
    m.stay -= 1
    if m.stay == 0:
        _end_move_fly(s, stop_all=False)


def _hide(s: GameState, hx: int) -> None:
    """Players' creatures in the hex face down; any shown stay known to all (RI.4)."""
    shown = (s.thing_hex == hx) & s.thing_face_up & (s.thing_owner != NEUTRAL) & _CREATURE[:s.n_things] \
        & (s.thing_place == BOARD)
    s.thing_public |= shown
    s.thing_face_up &= ~shown


def _end_move_fly(s: GameState, stop_all: bool) -> None:
    """Step 4: the other members stop (entry) or stay (leaving); intending flyers go on.
    Creatures shown in the procedure are turned face down again, still known to all (RI.4)."""
    m = move(s)
    mode = m.fly
    go_t, go_h = _intending(s)
    _hide(s, m.hex)
    m.fly, m.intending, m.blocking, m.blocks, m.asked, m.stay = FlyStage.NONE, [], [], 0, 0, 0
    if stop_all or go_t.size + go_h.size == 0:
        _end_move(s)
        return
    mt, mh = _members(s)
    s.thing_status[np.setdiff1d(mt, go_t)] = DONE
    s.hero_status[np.setdiff1d(mh, go_h)] = DONE
    if mode == LEAVE:
        s.thing_pinned[go_t] = False
        s.hero_pinned[go_h] = False
    dh.separate(s)  # the Deerhunter may have stopped behind them
    s.decision = D.MOVE_STACK


# ----- R11.7 bluff challenge against a pin -----

def legal_pin_challenge(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[YES] = mask[PASS] = 1


def apply_pin_challenge(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == YES:
        move(s).revealer = 0
        _next_revealer(s)
    else:
        _to_select(s)


def _revealable(s: GameState, e: int, hx: int) -> np.ndarray:
    """Supported face-down creatures of `e` in the hex (a bluff would not count, R11.7.2)."""
    mine = (s.thing_hex == hx) & (s.thing_owner == e) & ~s.thing_face_up
    return np.flatnonzero(mine & support.supported_mask(s, e))


def _next_revealer(s: GameState) -> None:
    order = s.turn_order()
    m = move(s)
    p, hx = _mover(s), m.start
    i0 = order.index(p)
    while True:
        m.revealer += 1
        k = m.revealer
        if k >= len(order):  # nobody showed a supported creature: unpinned (RD4.3)
            t = (s.thing_hex == hx) & (s.thing_owner == p) & (s.thing_place == BOARD)
            s.thing_pinned[t] = False
            s.hero_pinned[s.hero_hex == hx] = False  # only the mover's heroes carry pins now
            _to_select(s)
            return
        e = order[(i0 + k) % len(order)]
        if _revealable(s, e, hx).size:
            s.decision, s.actor = D.PIN_REVEAL, e
            return


def legal_pin_reveal(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[PASS] = 1
    mask[lay.thing + _revealable(s, s.actor, move(s).start)] = 1


def apply_pin_reveal(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        _next_revealer(s)
        return
    s.thing_public[action - lay.thing] = True  # shown to all, turned face down again (RI.4)
    _to_select(s)  # the pin stands


def _to_select(s: GameState) -> None:
    m = move(s)
    m.revealer = 0
    s.actor = _mover(s)
    t, h = _selectable(s, m.start)
    if t.size or h.size:
        s.decision = D.MOVE_SELECT
    else:
        s.drop(Move)
        s.decision = D.NONE


# ----- R11.9 income-counter removal window (RD8.4) -----

def legal_remove_income(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[PASS] = 1
    mask[lay.thing + own_income_counters(s, s.actor)] = 1


def apply_remove_income(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        s.turn += 1
        s.decision = D.NONE
    else:
        remove_income_counter(s, action - lay.thing)


RUNNERS = {MOVEMENT: run}
DECISIONS = {
    D.MOVE_START: (legal_start, apply_start),
    D.MOVE_SELECT: (legal_select, apply_select),
    D.MOVE_STACK: (legal_stack, apply_stack),
    D.FLY_INTEND: (legal_fly_intend, apply_fly_intend),
    D.FLY_BLOCK: (legal_fly_block, apply_fly_block),
    D.FLY_LEAVE: (legal_fly_leave, apply_fly_leave),
    D.PIN_CHALLENGE: (legal_pin_challenge, apply_pin_challenge),
    D.PIN_REVEAL: (legal_pin_reveal, apply_pin_reveal),
    D.REMOVE_INCOME: (legal_remove_income, apply_remove_income),
}

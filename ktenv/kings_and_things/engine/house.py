"""R22 house content (OPTION house_content): the heroes Ahasuerus, Lenin, the Gypsy King and Tycho
Brahe (R22.1-R22.4), the Portal event (R22.5). The Boat (R22.6) is in boat.py.

The counters are the house block of the game's catalog (data/house/house.csv; ids right after the
box's counters): a 2-4 player game has them only with house_content, a six-player game always (out
of play without the option), so every function here checks `on(s)` before touching a house id.
Their combat values and flags are not known [DATA M14]: ASSUMPTION value 4, no flags, recruited
like every hero (target 8, A.0.1), printed in pairs Ahasuerus/Lenin and Gypsy King/Tycho Brahe.
In a six-player game without house_content the house Things are out of play (never drawn)
and the house heroes never enter the pool. Tycho Brahe is used only with Mysterious Kadab (R22.4): without it his
counter stays on the Gypsy King's side (it is never turned over).

Decisions (RD10.17 and the engine's own, documented here):
- Ahasuerus (R22.1): at MOVE_START his owner may pick him (HERO) while he is unmoved; AHASUERUS_DEST
  (HEX) is any own hex or any hex with own creatures, with room under the stack limit; he ignores
  terrain, pins and stopping and is done for the turn.
- Lenin (R22.2): his side in a battle rolls 3n - 1 dice for its n value-1 creatures (as R21.12).
- Gypsy King (R22.3): after his move ends in another own hex, GYPSY_TAKE asks his owner which city
  or village (THING) and which Tower or Keep (HEX of the start hex) of the hex he started from go
  with him (PASS: no more); one fort and one income counter per hex. Only own hexes.
- Tycho Brahe (R22.4): when his owner picks him for a move, the owner looks at the face-down hexes
  next to him (automatic: looking is free and private, declining could never help). The knowledge
  is kadab.seen (player p's observation only).
- Portal (R22.5): EVENT_HEX the stack (a hex holding some player's creatures or heroes), EVENT_HEX
  the unexplored destination (unowned, not a known Sea); the stack's owner sends at least d6 of
  them (all if fewer; the stack limit at the destination caps it) and may send more; on one's own
  stack no roll and any number (none allowed). PORTAL_SEND: THING/HERO the next counter, YES done.
  The sent counters may not move before they explore in the Combat phase.

C++ twin: native/src/engine/house.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CITY, CREATURE, NOBODY, VILLAGE
from ..procedures import Battle, EventStage, MovementTurn
from ..state import DONE, UNMOVED, GameState
from . import dice, events, hooks, kadab
from .actions import PASS, YES, ActionLayout
from .common import known_sea, move_fort, move_town
from .events import FINISH, _answer, apply_choice, event, legal_choice, pose

AHASUERUS, LENIN = cat.hero_id("Ahasuerus"), cat.hero_id("Lenin")
GYPSY_KING, TYCHO = cat.hero_id("Gypsy King"), cat.hero_id("Tycho Brahe")
PORTAL = cat.EVENT_ID["Portal"]
_HOUSE_COUNTERS = cat.HERO_COUNTER[cat.HOUSE_HERO_FACES]
_IS_TOWN = (cat.THING_KIND == CITY) | (cat.THING_KIND == VILLAGE)
_EMPTY = np.zeros(0, np.int64)


def on(s: GameState) -> bool:
    return bool(s.cfg.house_content)


def _is_creature(s: GameState) -> np.ndarray:
    return s.cat.THING_KIND == CREATURE


# ----- setup and the hero pool -----

@hooks.counters_setup.implement("house_content")
def setup(s: GameState) -> None:
    """At the start: the house counters are in play (without house_content a catalog that has them, six
    players, puts the house Things out: `hooks.counters_setup`); without Mysterious Kadab Tycho Brahe's
    counter shows the Gypsy King (R22.4)."""
    if not s.cfg.mysterious_kadab:
        s.hero_up[TYCHO // 2] = GYPSY_KING % 2


@hooks.hero_counters_in_play.implement("house_content")
def counters_in_play(s: GameState) -> np.ndarray:
    """Per hero counter of the game: may it be in the pool (the house counters only with house_content)?"""
    counters = np.arange(len(s.hero_up))
    return np.ones(counters.size, bool) if on(s) else ~np.isin(counters, _HOUSE_COUNTERS)


@hooks.hero_may_turn.implement("house_content")
def may_turn(s: GameState, face: int) -> bool:
    """Can this hero's counter be turned over (R7.2, R7.11)? Not Tycho's without Mysterious Kadab."""
    return not (face // 2 == TYCHO // 2 and not s.cfg.mysterious_kadab)


# ----- R22.2 Lenin -----

@hooks.fights_as_populous.implement("house_content")
def lenin_fights(s: GameState, side: int) -> bool:
    """Lenin is on `side` in the battle under way (RD10.17: his side in a battle)."""
    b = s.frame(Battle)
    return on(s) and s.hero_owner[LENIN] == side and s.hero_hex[LENIN] == (b.hex if b is not None else -1)


# ----- R22.1 Ahasuerus -----

def ahasuerus_dests(s: GameState, p: int) -> np.ndarray:
    """Own hexes and hexes with own creatures, other than his, with room for him (R11.4)."""
    ok = s.hex_owner == p
    mine = (s.thing_place == BOARD) & (s.thing_owner == p) & _is_creature(s)
    ok[s.thing_hex[mine]] = True
    ok[s.hero_hex[AHASUERUS]] = False
    ok &= s.room_for(p) > 0
    return np.flatnonzero(ok)


@hooks.move_options.implement("house_content")
def ahasuerus_options(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    p = s.actor
    if on(s) and s.hero_owner[AHASUERUS] == p and s.hero_status[AHASUERUS] == UNMOVED \
            and s.hero_mp[AHASUERUS] > 0 and ahasuerus_dests(s, p).size:
        mask[lay.hero + AHASUERUS] = 1


@hooks.move_start.implement("house_content")
def ahasuerus_start(s: GameState, lay: ActionLayout, action: int) -> bool:
    if action != lay.hero + AHASUERUS or not on(s):
        return False
    s.decision = D.AHASUERUS_DEST
    return True


def legal_ahasuerus(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + ahasuerus_dests(s, s.actor)] = 1


def apply_ahasuerus(s: GameState, lay: ActionLayout, action: int) -> None:
    """RD10.17: a teleport; he entered the hex (R11.8.1) and is done for the turn."""
    dest = action - lay.hex
    f = np.array([AHASUERUS])
    kadab.record_from(s, _EMPTY, f, dest)
    s.hero_hex[AHASUERUS] = dest
    if not kadab.turn_up_on_entry(s, dest) and not s.hex_down[dest]:  # [ER] a Sea sends him back
        s.hero_from[AHASUERUS] = -1
    s.hero_status[AHASUERUS] = DONE
    s.hero_mp[AHASUERUS] = 0
    s.hero_pinned[AHASUERUS] = False
    s.hero_moved[AHASUERUS] = True
    s.decision = D.NONE


# ----- R22.3 the Gypsy King -----

@hooks.movement_turn_begins.implement("house_content")
def turn_begins(s: GameState, p: int) -> None:
    """R22.5 the Portal's counters wait for their exploration; R22.3 the Gypsy King's starting hex."""
    hold_explorers(s, p)
    gypsy_turn_begins(s, p)


def gypsy_turn_begins(s: GameState, p: int) -> None:
    """Remember the hex he starts the movement turn in (his starting hex, R22.3)."""
    if on(s) and s.hero_owner[GYPSY_KING] == p:
        s.frame(MovementTurn).gypsy_start = int(s.hero_hex[GYPSY_KING])


def _gypsy_options(s: GameState) -> tuple[int, bool]:
    """(town that may follow him or -1, whether the Tower/Keep may follow)."""
    turn = s.frame(MovementTurn)
    src = turn.gypsy_start if turn is not None else -1
    p = int(s.hero_owner[GYPSY_KING])
    if src < 0 or p < 0 or s.hero_status[GYPSY_KING] != DONE or turn.gypsy_done:
        return -1, False
    dest = int(s.hero_hex[GYPSY_KING])
    if dest == src or s.hex_owner[dest] != p or s.hex_owner[src] != p:
        return -1, False
    c = int(s.hex_income[src])
    town = c if c >= 0 and _IS_TOWN[c] and s.hex_income[dest] < 0 else -1
    fort = 1 <= s.hex_fort[src] <= 2 and s.hex_fort[dest] == 0
    return town, bool(fort)


@hooks.before_move_start.implement("house_content")
def gypsy_pending(s: GameState) -> bool:
    """Before the next MOVE_START: the Gypsy King's move has ended; ask what follows him."""
    turn = s.frame(MovementTurn)
    if not on(s) or turn is None or turn.gypsy_start < 0:
        return False
    town, fort = _gypsy_options(s)
    if town < 0 and not fort:
        return False
    s.decision, s.actor = D.GYPSY_TAKE, int(s.hero_owner[GYPSY_KING])
    return True


def legal_gypsy(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    town, fort = _gypsy_options(s)
    mask[PASS] = 1
    if town >= 0:
        mask[lay.thing + town] = 1
    if fort:
        mask[lay.hex + s.frame(MovementTurn).gypsy_start] = 1


def apply_gypsy(s: GameState, lay: ActionLayout, action: int) -> None:
    turn = s.frame(MovementTurn)
    src, dest = turn.gypsy_start, int(s.hero_hex[GYPSY_KING])
    s.decision = D.NONE
    if action == PASS:
        turn.gypsy_done = True
    elif action < lay.thing:
        move_fort(s, src, dest)
    else:
        move_town(s, action - lay.thing, src, dest)


# ----- R22.4 Tycho Brahe -----

@hooks.hero_picked.implement("house_content")
def tycho_looks(s: GameState, face: int) -> None:
    """Picked for a move: his owner sees the face-down hexes next to him (private)."""
    if face == TYCHO and on(s) and s.cfg.mysterious_kadab and s.hero_owner[TYCHO] >= 0:
        kadab.look(s, int(s.hero_owner[TYCHO]), s.geo.adjacent[int(s.hero_hex[TYCHO])])


# ----- R22.5 Portal -----

def _armies(s: GameState) -> np.ndarray:
    """Hexes with some player's creatures or heroes on the board."""
    n = s.n_players
    ok = np.zeros(s.geo.n_hexes, bool)
    t = (s.thing_place == BOARD) & _is_creature(s) & (s.thing_owner >= 0) & (s.thing_owner < n)
    ok[s.thing_hex[t]] = True
    ok[s.hero_hex[s.hero_owner >= 0]] = True
    return ok


def _unexplored(s: GameState) -> np.ndarray:
    """Unowned hexes that are no known Sea and hold no player's army (R22.5 destinations)."""
    return (s.hex_owner == NOBODY) & ~known_sea(s) & ~_armies(s)


def portal_playable(s: GameState, p: int) -> bool:
    return on(s) and bool(_armies(s).any()) and bool(_unexplored(s).any())


def _army(s: GameState, q: int, hx: int) -> tuple[np.ndarray, np.ndarray]:
    t = np.flatnonzero((s.thing_place == BOARD) & _is_creature(s) & (s.thing_owner == q) & (s.thing_hex == hx))
    return t, np.flatnonzero((s.hero_owner == q) & (s.hero_hex == hx))


P_STACK, P_DEST, P_ROLLED, P_SENT = (EventStage.PORTAL_STACK, EventStage.PORTAL_DEST, EventStage.PORTAL_ROLLED,
                                     EventStage.PORTAL_SENT)  # stages of the events phase (events.STAGES)


def _portal_start(s: GameState, lay: ActionLayout, p: int) -> None:
    if not portal_playable(s, p):  # R10.1: no stack or no unexplored hex, no effect
        s.stage = FINISH
        return
    pose(s, D.EVENT_HEX, p, lay.hex + np.flatnonzero(_armies(s)), P_STACK)


def _portal_stack(s: GameState, lay: ActionLayout) -> None:
    ev = event(s)
    hx, p = _answer(s) - lay.hex, ev.player
    order = [q for q in ((p + i) % s.n_players for i in range(s.n_players))]
    ev.hex = hx
    ev.other = next(q for q in order if sum(a.size for a in _army(s, q, hx)))
    pose(s, D.EVENT_HEX, p, lay.hex + np.flatnonzero(_unexplored(s)), P_DEST)


def _portal_dest(s: GameState, lay: ActionLayout) -> None:
    ev = event(s)
    ev.dest = _answer(s) - lay.hex
    ev.n = 0
    if ev.other == ev.player:
        ev.roll = 0  # R22.5: played on oneself, no roll, as many as they like
        _portal_pose(s, lay)
        return
    dice.roll(s, dice.EVENT, 1)  # a roll event (R18.5)
    s.stage = P_ROLLED


def _portal_rolled(s: GameState, lay: ActionLayout) -> None:
    event(s).roll = max(0, min(7, dice.take(s, dice.EVENT)[0]))
    _portal_pose(s, lay)


def _portal_pose(s: GameState, lay: ActionLayout) -> None:
    ev = event(s)
    q, hx, dest = ev.other, ev.hex, ev.dest
    t, h = _army(s, q, hx)
    room = int(s.room_for(q)[dest])
    if t.size + h.size == 0 or room <= 0:
        s.stage = FINISH
        return
    must = ev.n < ev.roll
    acts = [*(lay.thing + t), *(lay.hero + h)] + ([] if must else [YES])
    pose(s, D.PORTAL_SEND, q, acts, P_SENT)


def _portal_sent(s: GameState, lay: ActionLayout) -> None:
    a = _answer(s)
    if a == YES:
        s.stage = FINISH
        return
    dest = event(s).dest
    if a >= lay.hero:
        f = np.array([a - lay.hero])
        kadab.record_from(s, _EMPTY, f, dest)
        s.hero_hex[f] = dest
    else:
        c = np.array([a - lay.thing])
        kadab.record_from(s, c, _EMPTY, dest)
        s.thing_hex[c] = dest
    event(s).n += 1
    _portal_pose(s, lay)


def hold_explorers(s: GameState, p: int) -> None:
    """R22.5: counters a Portal sent into an unexplored hex explore it; they do not move first."""
    if not on(s):
        return
    t = (s.thing_owner == p) & _is_creature(s) & (s.thing_place == BOARD)
    t &= s.hex_owner[np.maximum(s.thing_hex, 0)] == NOBODY
    s.thing_mp[t] = 0
    h = (s.hero_owner == p) & (s.hex_owner[np.maximum(s.hero_hex, 0)] == NOBODY)
    s.hero_mp[h] = 0


# R22.5: the Portal joins the events phase
events.add_event(PORTAL, lambda s, p: on(s), portal_playable, _portal_start,
                 {P_STACK: _portal_stack, P_DEST: _portal_dest, P_ROLLED: _portal_rolled, P_SENT: _portal_sent})


DECISIONS = {
    D.PORTAL_SEND: (legal_choice, apply_choice),
    D.AHASUERUS_DEST: (legal_ahasuerus, apply_ahasuerus),
    D.GYPSY_TAKE: (legal_gypsy, apply_gypsy),
}

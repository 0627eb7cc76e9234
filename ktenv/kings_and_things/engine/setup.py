"""R4 setup: first player, start positions, Sea replacement, starting kingdoms, the Tower,
the initial draw and placement, the one-time 1-for-1 exchange, and the hex stack.

C++ twin: native/src/engine/setup.cpp
"""

from __future__ import annotations

import numpy as np

from .. import decisions as D
from ..board import (
    form_hex_stack,
    lay_board,
    replace_sea_at_start,
    start_hex_needs_replacement,
    start_hex_settled,
    start_position_choices,
)
from ..constants import NOBODY, SEA
from ..procedures import Claims, Setup
from ..state import INCOME, SETUP, GameState
from . import hooks
from .actions import PASS, YES, ActionLayout
from .common import draw, known_sea, to_cup, turn_up
from .placement_turn import begin_placement

# Stages of setup, in order (R4.4-R4.11).
(ROLL, START, SEA_CHECK, CLAIM, TOWER, DRAW, EXCHANGE_EARLY, PLACE, EXCHANGE, PLACE_AGAIN, FINISH) = range(11)

INITIAL_DRAW = 10  # R4.7
WHERE_WILL_THEY_STOP_DRAW = 15  # R20.2
SIX_PLAYER_DRAW = 20  # R20.1
START_GOLD = 10  # R4.6


def run(s: GameState) -> None:
    STAGES[s.stage](s)


def _next_stage(s: GameState, stage: int) -> None:
    s.stage, s.turn = stage, 0
    setup = s.frame(Setup)
    if setup is not None:
        setup.placed = False


def _setup(s: GameState) -> Setup:
    """The draw and placements under way (started on first use)."""
    return s.frame(Setup) or s.push(Setup())


def _current(s: GameState) -> int:
    """The player whose part of this stage is next, or -1 when all have acted."""
    order = s.turn_order()
    return order[s.turn] if s.turn < len(order) else -1


# ----- R4.4 first player and start positions -----

def _roll_first(s: GameState) -> None:
    """R4.4.1: everyone rolls 2d6; ties for the highest re-roll among the tied."""
    contenders = list(range(s.n_players))
    while len(contenders) > 1:
        rolls = [s.rng.two_d6() for _ in contenders]
        best = max(rolls)
        contenders = [p for p, r in zip(contenders, rolls, strict=True) if r == best]
    s.first_player = contenders[0]
    _next_stage(s, START)


def _start(s: GameState) -> None:
    s.decision, s.actor = D.START_POSITION, s.first_player


_CHOICES: dict[int, list[tuple[int, ...]]] = {}


def _choices(n_players: int) -> list[tuple[int, ...]]:
    if n_players not in _CHOICES:
        _CHOICES[n_players] = start_position_choices(n_players)
    return _CHOICES[n_players]


def legal_start(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    for option in _choices(s.n_players):
        mask[lay.hex + option[0]] = 1


def apply_start(s: GameState, lay: ActionLayout, action: int) -> None:
    """RD2.1: the others take the following positions clockwise, in turn order."""
    option = next(o for o in _choices(s.n_players) if lay.hex + o[0] == action)
    for player, hx in zip(s.turn_order(), option, strict=True):
        s.start_hex[player] = hx
    hooks.start_hexes_chosen(s)  # R20.3 / RD10.15: before R3.4
    s.decision = D.NONE
    _next_stage(s, SEA_CHECK)


# ----- R3.4 Sea at or beside a start hex -----

def _sea_check(s: GameState) -> None:
    player = _current(s)
    if player < 0:
        for player in s.turn_order():  # R4.5.1: control markers on the start hexes
            s.hex_owner[s.start_hex[player]] = player
        s.push(Claims())
        _next_stage(s, CLAIM)
        return
    start = int(s.start_hex[player])
    if _needs_replacement(s, start):
        if s.cfg.start_sea_replacement == "optional":
            _replace_start_tile(s, start)
            if _needs_replacement(s, start):
                s.decision, s.actor = D.SEA_REPLACE, player
                return
        else:
            _replace(s, start)
    s.turn += 1


def _needs_replacement(s: GameState, start: int) -> bool:
    return start_hex_needs_replacement(s.hex_terrain, start, s.geo) and bool(s.hex_stack) and \
        not start_hex_settled(s.hex_terrain, start, s.geo, s.cfg.start_land_neighbours)


def _replace(s: GameState, start: int) -> None:
    replace_sea_at_start(s.hex_terrain, start, s.hex_stack, s.hex_aside, s.geo, s.cfg.start_land_neighbours, s.rng)


def _replace_start_tile(s: GameState, start: int) -> None:
    """Even when replacement is optional, a start hex that is itself Sea is replaced: the start hex
    gets a control marker and a Sea hex is never owned (R0.4.2, R4.5.1). Same draw as R3.4.2."""
    while s.hex_terrain[start] == SEA and s.hex_stack:
        s.hex_aside.append(SEA)
        s.hex_terrain[start] = s.hex_stack.pop(s.rng.below(len(s.hex_stack)))


def legal_sea(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[YES] = mask[PASS] = 1


def apply_sea(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == YES:
        _replace(s, int(s.start_hex[s.actor]))
    s.decision = D.NONE
    s.turn += 1


# ----- R4.5 starting kingdoms -----

def claimable(s: GameState, player: int) -> np.ndarray:
    """R4.5.3 with RD2.4: free land adjacent to own hexes and not adjacent to other players' hexes."""
    nb = s.geo.neighbours
    owner = s.hex_owner
    free_land = (owner == NOBODY) & ~known_sea(s)  # R20.3: a face-down tile may be claimed
    padded = np.append(owner, NOBODY)  # index -1 (off board) reads as unowned
    around = padded[nb]
    next_to_own = (around == player).any(axis=1)
    next_to_other = ((around != player) & (around != NOBODY)).any(axis=1)
    strict = free_land & next_to_own & ~next_to_other
    return strict if strict.any() else free_land & next_to_own


def _claim(s: GameState) -> None:
    player = _current(s)
    if player < 0:
        claims = s.frame(Claims)
        if claims.round == 0:
            claims.round = 1
            s.turn = 0
        else:
            s.drop(Claims)
            for p in s.turn_order():
                s.gold[p] += START_GOLD  # R4.6
            _next_stage(s, TOWER)
        return
    if claimable(s, player).any():
        s.decision, s.actor = D.CLAIM, player
    else:
        s.turn += 1  # RD2.4: no legal hex at all, the claim is skipped


def legal_claim(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + np.flatnonzero(claimable(s, s.actor))] = 1


def apply_claim(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = action - lay.hex
    s.decision = D.NONE
    if s.hex_down[hx] and turn_up(s, hx):
        return  # RD10.15: turned up when claimed; a Sea is not claimed, the claim is made again
    s.hex_owner[hx] = s.actor
    s.turn += 1


# ----- R4.6 the Tower -----

def _tower(s: GameState) -> None:
    player = _current(s)
    if player < 0:
        _next_stage(s, DRAW)
        return
    s.decision, s.actor = D.TOWER, player


def legal_tower(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + s.owned_hexes(s.actor)] = 1


def apply_tower(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = action - lay.hex
    s.hex_fort[hx] = 1
    s.decision = D.NONE
    s.turn += 1


# ----- R4.7-R4.10 draw, place, exchange, place again -----

def initial_draw(s: GameState) -> int:
    """R4.7: ten Things each (R20.2 "Where will they stop?": fifteen; R20.1 six players: twenty,
    which the R20.2 variant does not lower [DECISION: the page does not combine the two])."""
    if s.n_players == 6:
        return SIX_PLAYER_DRAW
    return WHERE_WILL_THEY_STOP_DRAW if s.cfg.where_will_they_stop else INITIAL_DRAW


def _draw(s: GameState) -> None:
    _setup(s).screens_open = True  # R17.1.1: no screen limit during setup before placement
    for player in s.turn_order():
        for _ in range(initial_draw(s)):
            if draw(s, player) >= 0:
                s.stats["things_drawn"] += 1
    early = s.cfg.setup_exchange_timing == "before_placement"
    _next_stage(s, EXCHANGE_EARLY if early else PLACE)


def _place(s: GameState) -> None:
    player = _current(s)
    if player < 0:
        _setup(s).screens_open = False  # placement done: the screen limit applies (interrupts)
        _next_stage(s, FINISH if s.cfg.setup_exchange_timing == "before_placement" else EXCHANGE)
        return
    setup = _setup(s)
    if not setup.placed:
        setup.placed = True
        begin_placement(s, player)
    else:
        setup.placed = False
        s.turn += 1


def _exchange(s: GameState) -> None:
    player = _current(s)
    if player < 0:
        _next_stage(s, PLACE if s.stage == EXCHANGE_EARLY else PLACE_AGAIN)
        return
    if s.screen_size(player):
        s.decision, s.actor = D.EXCHANGE, player
    else:
        s.turn += 1


def legal_exchange(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mine = s.screen(s.actor)
    mask[lay.thing + mine[~s.thing_selected[mine]]] = 1
    mask[PASS] = 1


def apply_exchange(s: GameState, lay: ActionLayout, action: int) -> None:
    """R4.9: choose privately, draw as many new Things, then return the chosen ones."""
    if action != PASS:
        s.thing_selected[action - lay.thing] = True
        return
    chosen = np.flatnonzero(s.thing_selected & (s.thing_owner == s.actor))
    got = 0
    for _ in chosen:
        c = draw(s, s.actor)
        if c < 0:
            break
        s.thing_new[c] = True
        s.stats["things_drawn"] += 1
        got += 1
    for c in chosen[:got]:
        to_cup(s, int(c))
    s.thing_selected[chosen[got:]] = False  # the cup ran out: the rest stay (never at a normal setup)
    s.decision = D.NONE
    s.turn += 1


def _place_again(s: GameState) -> None:
    """R4.10: those who drew replacements may place them (or anything, with setup_second_placement=any)."""
    player = _current(s)
    if player < 0:
        _next_stage(s, FINISH)
        return
    setup = _setup(s)
    if not setup.placed:
        setup.placed = True
        drew = bool((s.thing_new & (s.thing_owner == player)).any())
        if drew:
            begin_placement(s, player, only_new=s.cfg.setup_second_placement == "replacements_only")
    else:
        setup.placed = False
        s.turn += 1


def _finish(s: GameState) -> None:
    """R4.11 / R3.5: form the hex stack; the game begins with round 1, phase 1."""
    s.hex_stack = form_hex_stack(s.hex_stack, s.hex_aside, [], s.rng)
    s.hex_aside = []
    s.thing_new[:] = False
    s.drop(Setup)
    s.round, s.phase, s.stage, s.turn = 1, INCOME, 0, 0


def start_game(s: GameState) -> None:
    """R4.1-R4.3: heroes' sides at random, the board laid; setup continues through the decisions."""
    for k in np.flatnonzero(hooks.hero_counters_in_play(s)).tolist():  # box counters first: same draws as ever
        s.hero_up[k] = s.rng.below(2)  # R4.2
    hooks.counters_setup(s)  # R22: house counters in or out of play
    tiles = s.cat.TERRAIN_HEX_COUNT.tolist()  # R3.2; R20.1: the 79 tiles of both boxes
    terrain, provisional, aside = lay_board(s.n_players, tiles, s.rng)
    s.hex_terrain[:] = terrain
    s.hex_stack, s.hex_aside = list(provisional), list(aside)
    s.phase, s.stage, s.turn = 0, ROLL, 0
    hooks.game_setup(s)  # R20.3 tiles face down; R21.0 / RD10.16: Encounter powers, when enabled


STAGES = {
    ROLL: _roll_first, START: _start, SEA_CHECK: _sea_check, CLAIM: _claim, TOWER: _tower, DRAW: _draw,
    EXCHANGE_EARLY: _exchange, PLACE: _place, EXCHANGE: _exchange, PLACE_AGAIN: _place_again, FINISH: _finish,
}

DECISIONS = {
    D.START_POSITION: (legal_start, apply_start),
    D.SEA_REPLACE: (legal_sea, apply_sea),
    D.CLAIM: (legal_claim, apply_claim),
    D.TOWER: (legal_tower, apply_tower),
    D.EXCHANGE: (legal_exchange, apply_exchange),
}

RUNNERS = {SETUP: run}

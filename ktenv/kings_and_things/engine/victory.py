"""R16 victory, R19 alternative victory conditions, R16.6 elimination, R16.7 the round cap,
and phase 9 (R15.2): the change of turn order that closes a round.

C++ twin: native/src/engine/victory.cpp
"""

from __future__ import annotations

import numpy as np

from .. import decisions as D
from ..constants import NOBODY, SCREEN
from ..state import CHANGE_ORDER, GAME_OVER, INCOME, GameState
from . import balloon, hooks
from .common import to_cup


def declare(s: GameState, winners: list[int], reason: str) -> None:
    s.winners = sorted(int(p) for p in winners)
    s.reason = reason
    s.phase, s.decision, s.actor = GAME_OVER, D.NONE, NOBODY


def _holders(s: GameState) -> list[tuple[int, int]]:
    """(owner, hex) of every Citadel on the board."""
    return [(int(s.hex_owner[h]), int(h)) for h in s.citadel_hexes()]


def after_citadel_change(s: GameState) -> None:
    """Run whenever a Citadel is built or changes hands: the at-once victories."""
    holders = _holders(s)
    if s.cfg.victory == "standard":
        counts = np.bincount([p for p, _ in holders], minlength=s.n_players)
        if len(holders) >= 2 and counts.max() >= 2:  # R16.3: two Citadels at once
            declare(s, [int(counts.argmax())], "two_citadels")


def citadel_captured(s: GameState, hx: int) -> None:
    """R13.11.1 / R16.1: the conqueror acquires the Citadel now (called by conquest code)."""
    s.hex_citadel_round[hx] = s.round
    s.hex_citadel_seq[hx] = s.citadel_seq
    s.hex_citadel_built[hx] = False
    s.citadel_seq += 1
    if s.cfg.victory == "unique_a" and s.cfg.unique_a_capture == "immediate":
        declare(s, [int(s.hex_owner[hx])], "unique_citadel")  # X24 option: the capturer wins at once
        return
    after_citadel_change(s)


def check_sole_citadel(s: GameState) -> None:
    """R16.2, end of every Construction phase: the only Citadel, held since an earlier round."""
    if s.cfg.victory != "standard":
        return
    holders = _holders(s)
    if len(holders) == 1:
        owner, hx = holders[0]
        if s.hex_citadel_round[hx] < s.round:
            declare(s, [owner], "sole_citadel")


def ranking_by_income(s: GameState) -> list[int]:
    """R19.3 / RD9.3: highest income, then most land hexes, then most gold; ties share the win."""
    alive = [p for p in range(s.n_players) if s.alive[p]]
    keys = {p: (s.income(p), s.land_hex_count(p), int(s.gold[p])) for p in alive}
    best = max(keys.values())
    return [p for p in alive if keys[p] == best]


def _end_of_round_victory(s: GameState) -> None:
    variant = s.cfg.victory
    holders = _holders(s)
    if variant == "quick":  # R19.1: acquired and still held at the end of the same round
        eligible = [(s.hex_citadel_seq[h], p) for p, h in holders
                    if s.cfg.quick_victory_acquire == "build_or_conquer" or s.hex_citadel_built[h]]
        if eligible:
            declare(s, [min(eligible)[1]], "quick_citadel")
    elif variant == "unique_a":  # R19.2.1: held from an earlier round to the end of this one
        eligible = [(s.hex_citadel_seq[h], p) for p, h in holders if s.hex_citadel_round[h] < s.round]
        if eligible:
            declare(s, [min(eligible)[1]], "unique_citadel")
    elif variant == "unique_b":  # R19.2.2: two Citadels at the end of a round
        counts = np.bincount([p for p, _ in holders], minlength=s.n_players)
        two = [p for p in range(s.n_players) if counts[p] >= 2]
        if two:
            latest = {p: max(s.hex_citadel_seq[h] for q, h in holders if q == p) for p in two}
            declare(s, [min(two, key=lambda p: latest[p])], "two_citadels")
    elif variant == "fixed_rounds" and s.round >= s.cfg.fixed_rounds:
        declare(s, ranking_by_income(s), "fixed_rounds")
    elif variant == "land_conquest":
        check_land_conquest(s)


def check_land_conquest(s: GameState) -> None:
    """R19.4: more than half of the land hexes (19 / 10 / 13); ties: most hexes, then turn order."""
    order = s.turn_order()
    hexes = {p: s.land_hex_count(p) for p in order}
    eligible = [p for p in order if hexes[p] >= s.cfg.land_threshold]
    if eligible:
        declare(s, [max(eligible, key=lambda p: (hexes[p], -order.index(p)))], "land_conquest")


def check_eliminations(s: GameState) -> None:
    """R16.6 / RD9.1: no hex and nothing on the board -> out; the screen empties into the cup."""
    for p in range(s.n_players):
        if not s.alive[p] or (s.hex_owner == p).any() or (s.hero_owner == p).any():
            continue
        if ((s.thing_owner == p) & (s.thing_place != SCREEN)).any():
            continue
        s.alive[p] = False
        for c in s.screen(p):
            to_cup(s, int(c))
        s.gold[p] = 0
    alive = np.flatnonzero(s.alive)
    if alive.size == 1 and not s.game_over:
        declare(s, [int(alive[0])], "last_standing")


def run_change_order(s: GameState) -> None:
    """Phase 9 (R15.2): the marker passes left (never with two players, R5.3); then R15.3 checks.
    A Balloon used this round returns to the cup (C.2)."""
    balloon.end_of_round(s)
    hooks.round_ends(s)  # R22.6
    if s.n_players > 2:
        order = s.turn_order()
        s.first_player = order[1 % len(order)]
    check_eliminations(s)
    if not s.game_over:
        _end_of_round_victory(s)
    if not s.game_over and s.cfg.max_rounds is not None and s.round >= s.cfg.max_rounds:
        declare(s, ranking_by_income(s), "round_limit")  # R16.7 / RD9.2
    if not s.game_over:
        s.round += 1
        s.phase, s.stage, s.turn = INCOME, 0, 0

RUNNERS = {CHANGE_ORDER: run_change_order}

"""R20.2 house variant "Where will they stop?": 15 Things at setup, no cap on paid Things."""

from __future__ import annotations

import numpy as np

from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import SCREEN, SCREEN_LIMIT
from ktenv.kings_and_things.engine import legal_actions, new_game, step
from ktenv.kings_and_things.engine.actions import NUMBER, PASS
from ktenv.kings_and_things.procedures import RecruitTurn
from ktenv.kings_and_things.state import RECRUIT, SETUP

from ..builders import board, own, start_phase


def test_r20_2_fifteen_things_at_setup_then_the_screen_limit():
    s = new_game(GameConfig(n_players=2, where_will_they_stop=True), 3)
    rng = np.random.default_rng(0)
    seen_fifteen = False
    while s.phase == SETUP:
        held = [int(np.count_nonzero((s.thing_place == SCREEN) & (s.thing_owner == p))) for p in range(2)]
        seen_fifteen |= max(held) == 15
        s.check_invariants()
        if s.decision == D.PLACE:
            step(s, PASS)  # place nothing: everything stays behind the screen
            continue
        legal = legal_actions(s)
        step(s, int(legal[rng.integers(legal.size)]))
    assert seen_fifteen
    for p in range(2):
        assert np.count_nonzero((s.thing_place == SCREEN) & (s.thing_owner == p)) <= SCREEN_LIMIT


def test_r20_2_paid_things_are_not_capped():
    s = board(2, 4, where_will_they_stop=True, gold=None)
    own(s, 0, 0)
    own(s, 1, 3)
    s.gold[0] = 200
    start_phase(s, RECRUIT)
    assert s.decision == D.RECRUIT_PAID and NUMBER + 15 in legal_actions(s)
    step(s, NUMBER + 15)
    assert s.decision == D.RECRUIT_PAID  # the largest amount declared: more may follow
    step(s, NUMBER + 5)
    assert getattr(s.frame(RecruitTurn), "paid", 0) == 20 or s.stats["things_drawn"] >= 20


def test_default_rules_cap_paid_things_at_five():
    s = board(2, 4, gold=None)
    own(s, 0, 0)
    own(s, 1, 3)
    s.gold[0] = 200
    start_phase(s, RECRUIT)
    assert max(int(a) for a in legal_actions(s)) == NUMBER + 5

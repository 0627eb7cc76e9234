"""R6 phase 1: every player takes their current income (R6.2) from the bank, in turn order.

C++ twin: native/src/engine/income.cpp
"""

from __future__ import annotations

from ..state import HEROES, INCOME, GameState
from . import hooks


def run(s: GameState) -> None:
    if s.stage == 0:
        for player in s.turn_order():
            s.gold[player] += s.income(player)
        s.stage = 1
        if hooks.phase_end_question(s):  # R21.7: the Tax Farmer marks a hex at the end of the phase
            return
    s.phase, s.stage, s.turn = HEROES, 0, 0

RUNNERS = {INCOME: run}

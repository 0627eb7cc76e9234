"""R6 phase 1: every player takes their current income (R6.2) from the bank, in turn order."""

from __future__ import annotations

from ..state import HEROES, INCOME, GameState


def run(s: GameState) -> None:
    for player in s.turn_order():
        s.gold[player] += s.income(player)
    s.phase, s.stage, s.turn = HEROES, 0, 0

RUNNERS = {INCOME: run}

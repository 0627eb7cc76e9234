"""R12-R13 phase 6: exploration and battles (being written: passes through until it lands)."""

from ..state import COMBAT, CONSTRUCTION, GameState


def run(s: GameState) -> None:
    s.phase, s.stage, s.turn = CONSTRUCTION, 0, 0


RUNNERS = {COMBAT: run}
DECISIONS: dict = {}

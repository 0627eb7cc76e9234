"""R11 phase 5: movement (being written: passes through until it lands)."""

from ..state import COMBAT, MOVEMENT, GameState


def run(s: GameState) -> None:
    s.phase, s.stage, s.turn = COMBAT, 0, 0


RUNNERS = {MOVEMENT: run}
DECISIONS: dict = {}

"""Kingsburg for the dataset tables (`ktenv.datasets`): figures, names, English and events of a state.

A round is a year. Events come from consecutive states: an advisor influenced, a building built, soldiers
recruited, the winter battle's outcome.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..datasets.game import Event
from . import actions as A
from . import catalog as cat
from .battle import DEFEAT, DRAW, VICTORY
from .config import KingsburgConfig
from .machine import describe_action
from .state import PHASE_NAMES

FIGURES = ("vp", "buildings", "gold", "wood", "stone", "tokens", "soldiers")
_BLOCKS = ((A.PASS, "PASS"), (A.TARGET, "TARGET"), (A.DICE, "DICE"), (A.MOD_MARKET, "MODIFIER"),
           (A.PICK_GOOD, "PICK_GOOD"), (A.BUILD, "BUILD"), (A.STATUE_COLOURED, "STATUE"), (A.CHAPEL, "CHAPEL"),
           (A.TOWN_HALL, "TOWN_HALL"), (A.RECRUIT, "RECRUIT"), (A.N_ACTIONS, ""))
_OUTCOMES = {VICTORY: "victory", DRAW: "draw", DEFEAT: "defeat"}


class Reader:
    """One config's reader (`ktenv.datasets.game.GameReader`)."""

    figures = FIGURES
    store_figures = {"vp": "income", "buildings": "hexes", "soldiers": "forts"}

    def __init__(self, cfg: KingsburgConfig) -> None:
        self.cfg = cfg
        self._blocks = [name for (start, name), (end, _) in zip(_BLOCKS, _BLOCKS[1:]) for _ in range(start, end)]
        self._encoder = None

    def round_of(self, s: Any) -> int:
        return int(s.year)

    def figures_of(self, s: Any) -> list[list[int]]:
        table = np.column_stack([s.vp, s.built.reshape(s.n_players, -1).sum(axis=1), s.goods, s.tokens, s.soldiers])
        return table.astype(np.int64).tolist()

    def phase(self, s: Any) -> str:
        return PHASE_NAMES[s.phase]

    def decision(self, s: Any) -> str:
        return A.DECISION_NAMES.get(s.decision, "?")

    def block(self, action: int) -> str:
        return self._blocks[action] if 0 <= action < len(self._blocks) else "?"

    def describe(self, s: Any, action: int) -> str:
        return describe_action(s, action)

    def observe(self, s: Any, player: int) -> np.ndarray:
        if self._encoder is None:
            from .observation import ObservationEncoder

            self._encoder = ObservationEncoder(self.cfg.n_players)
        return self._encoder.encode(s, player)

    def watch(self, s: Any) -> Watch:
        return Watch(s)


class Watch:
    """Events of one game, from what changed between consecutive states."""

    def __init__(self, s: Any) -> None:
        self._keep(s)

    def _keep(self, s: Any) -> None:
        self.groups, self.built = s.advisor_group.copy(), s.built.copy()
        self.soldiers, self.result = s.soldiers.copy(), s.result.copy()

    def after(self, s: Any, actor: int, action: int) -> list[Event]:
        out: list[Event] = []
        for a in np.flatnonzero((s.advisor_group != self.groups) & (s.advisor_group >= 0)).tolist():
            out.append(Event("influence", int(s.advisor_group[a]), place=cat.ADVISOR_NAMES[a], amount=a))
        for p, row, column in zip(*np.nonzero(s.built & ~self.built)):
            out.append(Event("construction", int(p), place=cat.BUILDING_NAMES[row * cat.COLUMNS + column],
                             amount=int(row) + 1))
        for p in np.flatnonzero(s.soldiers > self.soldiers).tolist():
            out.append(Event("soldiers", p, amount=int(s.soldiers[p] - self.soldiers[p])))
        for p in np.flatnonzero((s.result != self.result) & (s.result != -2)).tolist():
            out.append(Event("battle", p, amount=int(s.strength[p]), detail=_OUTCOMES.get(int(s.result[p]))))
        self._keep(s)
        return out


def reader(cfg: KingsburgConfig) -> Reader:
    return Reader(cfg)

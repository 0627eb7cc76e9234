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

# the last two: running totals over the game of every change of a player's gold (public, K1.5), up or down
FIGURES = ("vp", "buildings", "gold", "wood", "stone", "tokens", "soldiers", "gold_gained", "gold_spent")
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

    def figures_of(self, s: Any, gold_flow: np.ndarray) -> list[list[int]]:
        """Every player's figures now; `gold_flow` holds the running totals (players x gained, spent)."""
        table = np.column_stack([s.vp, s.built.reshape(s.n_players, -1).sum(axis=1), s.goods, s.tokens, s.soldiers,
                                 gold_flow])
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
        return Watch(self, s)


class Watch:
    """Events and the gold flow of one game, from what changed between consecutive states."""

    def __init__(self, reader: Reader, s: Any) -> None:
        self.reader = reader
        self.gold_flow = np.zeros((s.n_players, 2), np.int64)  # gained, spent
        self._keep(s)

    def _keep(self, s: Any) -> None:
        self.groups, self.built = s.advisor_group.copy(), s.built.copy()
        self.soldiers, self.result = s.soldiers.copy(), s.result.copy()
        self.gold = s.goods[:, cat.GOLD].astype(np.int64)

    def figures(self, s: Any) -> list[list[int]]:
        return self.reader.figures_of(s, self.gold_flow)

    def after(self, s: Any, actor: int, action: int) -> list[Event]:
        out: list[Event] = []
        change = s.goods[:, cat.GOLD].astype(np.int64) - self.gold
        self.gold_flow[:, 0] += np.maximum(change, 0)
        self.gold_flow[:, 1] += np.maximum(-change, 0)
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

"""What a game supplies to the dataset tables: a `GameReader` per config (the spec's ``dataset`` part).

The shared export replays records and asks the reader for everything game-specific: the round a state is
in, the phase and decision names, the action's block and English text, the actor's observation; and asks the
game's watch for the events one action set off and the public figures of every player (a watch follows the
whole game, so a figure may be a running total, such as the gold spent so far). Kept light (no pyarrow) so a game's
module can name these types without loading the writer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np


@dataclass(frozen=True)
class Event:
    """One row of the `events` table, as the game tells it (the export adds game, decision, round, phase)."""

    kind: str  # battle, exploration, bribe, hero_recruited, construction, ...
    player: int = -1  # the player it happened to or who did it (-1: none)
    other: int = -1  # the other side (-1: none; -2: the neutral side)
    place: str | None = None  # where, in the game's words (a hex, an advisor)
    amount: int | None = None  # how many (battle rounds, fort level, soldiers ...)
    detail: str | None = None  # the rest, in English


class EventWatch(Protocol):
    """Follows one game: `after` is called once after every applied action."""

    def after(self, s: Any, actor: int, action: int) -> list[Event]: ...

    def figures(self, s: Any) -> list[list[int]]: ...  # [player][figure], the game so far included


class GameReader(Protocol):
    """One config's view of its states for the tables (see docs/datasets.md)."""

    figures: tuple[str, ...]  # the per-player public figures of `rounds` and `seats`, all whole numbers
    store_figures: dict[str, str]  # figure -> the tournament store's column that holds it at the end

    def round_of(self, s: Any) -> int: ...

    def phase(self, s: Any) -> str: ...

    def decision(self, s: Any) -> str: ...

    def block(self, action: int) -> str: ...

    def describe(self, s: Any, action: int) -> str: ...

    def observe(self, s: Any, player: int) -> np.ndarray: ...

    def watch(self, s: Any) -> EventWatch: ...


__all__ = ["Event", "EventWatch", "GameReader"]

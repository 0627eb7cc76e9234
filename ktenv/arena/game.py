"""What every game's arena shares: one decision asked of an agent (`take_turn`), the result of one game in
the shape the tournament store and the game records keep (`GameResult`), and each seat's own seed.

Each game plays its games in its own `play_game` (the registry's part of that name); the tournament,
the records and the ratings read only `GameResult`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import IllegalActionError

ENGINE_ERROR = "engine_error"  # the engine offered no legal action in a running game (a rules-engine bug)


class AgentError(RuntimeError):
    """An agent failed or answered with an illegal action (the game is not counted)."""


def take_turn(agent, name: str, seat: int, observation, mask, take: Callable[[int], None]) -> int:
    """Ask `agent` (`name`, in `seat`) for its action and `take` it; a failure of the agent or an illegal
    action is an AgentError naming it. Both games' arenas play every decision through here."""
    try:
        a = agent.act(observation, mask)
    except Exception as exc:
        raise AgentError(f"agent {name!r} (seat {seat}) failed: {exc!r}") from exc
    try:
        take(a)
    except IllegalActionError as exc:
        raise AgentError(f"agent {name!r} (seat {seat}) played an illegal action: {exc}") from None
    return int(a)


@dataclass
class GameResult:
    seed: int
    agents: list[str]  # agent name per seat
    winners: list[int]  # seats
    reason: str
    rounds: int
    decisions: int
    seconds: float
    income: list[int]  # the game's first standings figure (GameSpec.stat_labels)
    hexes: list[int]  # and its second
    gold: list[int]
    forts: list[int]  # sum of fort levels
    heroes: list[int]
    note: str = ""  # what went wrong when reason is engine_error
    actions: list[int] = field(default_factory=list)  # every action taken, when recorded
    record: dict | None = None  # the game record (ktenv.arena.records) when recorded

    def ranks(self) -> list[int]:
        """Rank per seat for rating (0 = best): winners first, the others by income then hexes."""
        n = len(self.agents)
        key = [(0 if p in self.winners else 1, -self.income[p], -self.hexes[p]) for p in range(n)]
        order = sorted(set(key))
        return [order.index(k) for k in key]

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's own generator seed (never the game's dice)."""
    return (int(game_seed) * 1_000_003 + 7919 * seat) % (2**63)

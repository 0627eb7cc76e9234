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


FORFEIT = "forfeit_"  # the end reason of a forfeited game: forfeit_timeout, forfeit_crash, ...
FAULTS = ("timeout", "crash", "garbage", "illegal")


class ForfeitError(AgentError):
    """A seat loses the game by its agent's fault: an agent outside ktenv's process (a bot speaking the stdio
    protocol) that timed out, crashed, printed garbage or answered an illegal action. Unlike an AgentError
    (a bug: the game is not counted), the game ends there and counts: the other seats share the win."""

    def __init__(self, fault: str, detail: str, seat: int = -1) -> None:
        if fault not in FAULTS:
            raise ValueError(f"fault {fault!r} is not one of {FAULTS}")
        super().__init__(f"seat {seat} forfeits ({fault}): {detail}")
        self.fault, self.detail, self.seat = fault, detail, seat

    def __reduce__(self):  # a worker process may send it back whole
        return type(self), (self.fault, self.detail, self.seat), {"args": self.args}


def forfeit_outcome(fault: ForfeitError, players: int) -> tuple[list[int], str, str]:
    """(winners, reason, note) of a game its seat `fault.seat` forfeited: every other seat wins."""
    return [p for p in range(players) if p != fault.seat], FORFEIT + fault.fault, str(fault)


def forfeited_result(result: dict, fault: ForfeitError, players: int) -> dict:
    """A record's result (the game's `result_of` of the state where it stopped) as the forfeit ended it; the
    record keeps who forfeited and why, so `ktenv replay` can check the stopped game and this ending."""
    winners, reason, _ = forfeit_outcome(fault, players)
    return {**result, "winners": winners, "reason": reason,
            "forfeit": {"seat": fault.seat, "fault": fault.fault, "detail": fault.detail}}


def close_agents(agents: list) -> None:
    """End what the agents hold outside this process (a bot's process) when their game ends, however it ends."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


def take_turn(agent, name: str, seat: int, observation, mask, take: Callable[[int], None]) -> int:
    """Ask `agent` (`name`, in `seat`) for its action and `take` it; a failure of the agent or an illegal
    action is an AgentError naming it, a bot's fault a `ForfeitError`. Both games' arenas play every decision
    through here. An agent with ``needs_seat`` gets its seat as ``observation["seat"]``."""
    if getattr(agent, "needs_seat", False) and isinstance(observation, dict):
        observation = {**observation, "seat": seat}
    try:
        a = agent.act(observation, mask)
    except ForfeitError as exc:
        exc.seat = seat
        exc.args = (f"agent {name!r} (seat {seat}) forfeits ({exc.fault}): {exc.detail}",)
        raise
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

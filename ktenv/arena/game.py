"""One game between agents, straight on the engine (the arena's inner loop).

The engine runs the rules; each agent gets only its observation (`ktenv.env.ObservationEncoder`,
the same vector and mask the AEC env gives) and answers with an action. Observations are encoded
only for agents that read them (``needs_observation``; the random agent needs only the mask),
since encoding costs about as much as the engine's own step. Agents that search (``needs_worlds``)
also get ``observation["worlds"]``, a `ktenv.worlds.WorldSampler` for their seat (agents.base).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..board import board_radius, geometry
from ..config import GameConfig
from ..engine import legal_mask, new_game, step
from ..engine.common import IllegalActionError
from ..env.observation import ObservationEncoder
from ..env.stats import FORT_LEVELS, GOLD, HEROES, HEXES, INCOME, player_stats
from ..worlds import WorldSampler
from .config import DEFAULT_MAX_DECISIONS

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
    income: list[int]
    hexes: list[int]
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


def encoder_for(cfg: GameConfig) -> ObservationEncoder:
    return ObservationEncoder(cfg, geometry(board_radius(cfg.n_players)).n_hexes)


def make_agents(names: list[str], seed: int) -> list:
    from ktenv import agents

    return [agents.make(name, seed=agent_seed(seed, seat)) for seat, name in enumerate(names)]


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's own generator seed (never the game's dice)."""
    return (int(game_seed) * 1_000_003 + 7919 * seat) % (2**63)


def play_game(cfg: GameConfig, seed: int, names: list[str], record: bool = False,
              max_decisions: int = DEFAULT_MAX_DECISIONS, backend: str = "auto") -> GameResult:
    """Play one game; seat i is played by agent `names[i]`; `backend`: the engine (ktenv.engine.new_game)."""
    if len(names) != cfg.n_players:
        raise ValueError(f"{len(names)} agents for {cfg.n_players} players")
    seats = make_agents(names, seed)
    readers = [bool(getattr(a, "needs_observation", False)) for a in seats]
    searchers = [bool(getattr(a, "needs_worlds", False)) for a in seats]
    encoder = encoder_for(cfg) if any(readers) else None
    t0 = time.perf_counter()
    s = new_game(cfg, seed, backend=backend)
    actions: list[int] = []
    decisions = 0
    dead_end = ""
    while not s.game_over and decisions < max_decisions:
        p = s.actor
        mask = legal_mask(s)
        if not mask.any():  # never in a correct engine: stop and report it instead of crashing
            from ..engine import decisions as D

            dead_end = f"no legal action for player {p} at '{D.NAMES.get(s.decision, s.decision)}', round {s.round}"
            break
        observation = {"observation": encoder.encode(s, p), "action_mask": mask} if readers[p] else None
        if searchers[p]:  # worlds its seat cannot tell apart, never the true state (agents.base)
            observation = {**(observation or {"action_mask": mask}), "worlds": WorldSampler(s, p)}
        a = take_turn(seats[p], names[p], p, observation, mask, lambda action: step(s, action))
        decisions += 1
        if record:
            actions.append(int(a))
    stats = player_stats(s)
    saved = None
    if record:
        from .records import record_of

        saved = record_of(cfg, seed, names, actions, s).to_dict()
    if s.game_over:
        winners, reason = list(s.winners), s.reason
    elif dead_end:
        winners, reason = [], ENGINE_ERROR
    else:
        winners, reason = [], "step_limit"
    return GameResult(
        seed=int(seed), agents=list(names), winners=[int(w) for w in winners], reason=reason,
        rounds=int(s.round), decisions=decisions, seconds=time.perf_counter() - t0,
        income=[int(x) for x in stats[:, INCOME]], hexes=[int(x) for x in stats[:, HEXES]],
        gold=[int(x) for x in stats[:, GOLD]], forts=[int(x) for x in stats[:, FORT_LEVELS]],
        heroes=[int(x) for x in stats[:, HEROES]], note=dead_end, actions=actions, record=saved)

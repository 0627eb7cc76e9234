"""One learning seat per game over a game's batched native games: the engine of the SB3 and Gymnasium adapters
(each game's ``learner_vec_env``, `ktenv.registry`). It names no game: a game's subclass hands over its
`VectorEnv` and the facts of an ended game.

`LearnerGames` runs the N games of a `VectorEnv`; in each, one seat is the learner's (a random seat every game
by default, as ``SingleAgentEnv(seat="random")``) and the other seats are opponents, the k-th opponent
playing the k-th seat after the learner's, in seat order (SingleAgentEnv's rule). Every call hands back
the learner's observation and mask in every game, as SingleAgentEnv would: the learner's action, then
the opponents' turns until the learner must decide again. The opponents never cost one Python call per
decision unless they are Python agents:

- the game's native seat kinds (``"random"``, ``"greedy"``, ``"expert"``) and the policy snapshots
  ``"ppo:PATH"`` and ``"ppo-sample:PATH"`` play inside native code (the VectorEnv's seats);
- an agent with ``act_batch(observations, masks) -> actions`` decides for all the games that wait on it in
  one call;
- any other agent (a registered name, or an object with ``act(observation, mask)``) is called once per
  decision: allowed, but slow.

``opponents``: one such spec for every opponent seat, a list of one per opponent seat, or a callable
``opponents(game, k, rng) -> spec`` drawn anew for every episode (the training league). Each game's next
episode is drawn when its current one starts (the batch starts a game in the very call that ends the
previous one), from a generator of its own: ``numpy.random.default_rng([seed, game])``, restarted by
``reset(seed=...)``. A game that ends before the learner has decided in it (only a tiny ``max_steps``
with Python opponents opening) is passed over, as VectorEnv passes over such games.

Rewards are SingleAgentEnv's: the learner's reward from its action up to its next decision or the end;
what it earns before its first decision of a game (the opponents' opening) is in that game's reset info,
``reward_before_first_step``, never in a step's reward. An illegal learner action raises
`IllegalActionError` naming the game and changes no game (SingleAgentEnv's ``illegal_action="raise"``).

The VectorEnv a subclass hands over offers ``num_envs``, ``num_players``, ``observation_size``, ``n_actions``,
``reset(seed)``, ``step(actions)`` (``SKIP`` = -1 leaves a game as it is), ``set_next_seats(game, kinds,
observer=)`` and ``close()``, and rows ``observation``, ``action_mask``, ``actor``, ``rewards``,
``opening_rewards``, ``terminated``, ``truncated``, ``seed``, ``final_winners`` and ``final_observation``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError
from .single import agent_maker

NATIVE = ("random", "greedy", "expert")  # the seat kinds a game's VectorEnv plays natively
POLICY_PREFIXES = ("ppo:", "ppo-sample:")  # a policy seat's kind: one of these and a model path
SKIP = -1  # VectorEnv.step's action for a game left as it is
MAX_PASSED_OVER = 64  # games in a row in one slot that end before the learner decides


class LearnerGames:
    """N games with one learning seat each (see the module docstring); a game's subclass makes its VectorEnv and
    names the game (`game_name`: its agent table makes the Python opponents) and adds the facts of an ended game
    (`end_facts`).

    Args:
        games: the game's VectorEnv. seed: its first game seeds.
        seat: the learner's seat, 0..num_players-1, or "random" (drawn every game).
        opponents: see the module docstring (default: "random" at every opponent seat).
    """

    game_name = ""

    def __init__(self, games: Any, seed: int = 0, seat: int | str = "random", opponents: Any = None) -> None:
        self.games = games
        self.num_envs, self.num_players = self.games.num_envs, self.games.num_players
        self.observation_size, self.n_actions = self.games.observation_size, self.games.n_actions
        n, players = self.num_envs, self.num_players
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                                 or not 0 <= seat < players):
            raise ConfigError(f"seat: expected 0-{players - 1} or 'random', got {seat!r}")
        self.seat_rule = seat
        self._draw_opponent = _opponent_drawer(opponents, players - 1, self.game_name)
        self._seed = int(seed)
        self._agents: list = []  # the Python opponents, indexed by the `_slot_agent` tables
        self._agent_index: dict[Any, int] = {}
        self._own: set[int] = set()
        self._rngs: list[np.random.Generator] = []
        self.learner = np.zeros(n, np.int64)  # the learner's seat in each game's episode under way
        self._slot_agent = np.full((n, players), -1, np.int64)  # Python opponent per seat (index), -1: none
        self._names: list[list[str]] = [[] for _ in range(n)]
        self._next: list[tuple] = [None] * n  # (learner seat, agent indices, names) of each game's next episode
        self._decided = np.zeros(n, bool)
        self._before = np.zeros(n)  # earned before the learner's first decision
        self._return = np.zeros(n)  # the learner's step rewards of the episode
        self._length = np.zeros(n, np.int64)  # its decisions
        self._started = np.zeros(n)  # time.time() at the episode's start
        self._passed_over = np.zeros(n, np.int64)
        self._out: dict[str, np.ndarray] | None = None
        self._row = np.arange(n)

    # ----- the calls

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, list[dict]]:
        """Every game anew (with `seed`, the seed streams and the draws restart from it); the learner's
        observations [N, obs] (a copy) and one info per game (``seat``, ``opponents`` and, when the opponents
        earned the learner something before its first decision, ``reward_before_first_step``)."""
        if seed is not None or not self._rngs:
            self._seed = self._seed if seed is None else int(seed)
            self._rngs = [np.random.default_rng([self._seed, i]) for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self._plan_next(i)
        out = self._out = self.games.reset(seed)
        for i in range(self.num_envs):
            self._begin(i)
        self._before += out["opening_rewards"][self._row, self.learner]
        self._advance(np.zeros(self.num_envs), [None] * self.num_envs)
        return out["observation"].copy(), [self._reset_info(i) for i in range(self.num_envs)]

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                                  list[dict | None], list[dict | None]]:
        """The learner's action in every game, then the opponents until the learner decides again.

        Returns (observations [N, obs] copy, rewards float64[N], terminated bool[N], truncated bool[N],
        ends, resets): ``ends[i]`` is the info of the episode that ended in game i (else None),
        ``resets[i]`` the reset info of the game that followed it."""
        if self._out is None:
            raise RuntimeError("step() before reset(): call reset() first")
        rewards = np.zeros(self.num_envs)
        ends: list[dict | None] = [None] * self.num_envs
        out = self.games.step(actions)
        self._decided[:] = True
        self._length += 1
        self._collect(out, np.ones(self.num_envs, bool), rewards, ends)
        self._advance(rewards, ends)
        terminated = np.array([e is not None and e.pop("terminated") for e in ends])
        truncated = np.array([e is not None and not terminated[i] for i, e in enumerate(ends)])
        resets = [None if e is None else self._reset_info(i) for i, e in enumerate(ends)]
        return self._out["observation"].copy(), rewards, terminated, truncated, ends, resets

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, bool[N, actions]."""
        if self._out is None:
            raise RuntimeError("action_masks() before reset(): call reset() first")
        return self._out["action_mask"].astype(bool)

    def seeds(self) -> np.ndarray:
        """The seed of the game under way in every row (uint64[N], a copy)."""
        if self._out is None:
            raise RuntimeError("seeds() before reset(): call reset() first")
        return self._out["seed"].copy()

    def close(self) -> None:
        self.games.close()

    # ----- opponents' turns

    def _advance(self, rewards: np.ndarray, ends: list) -> None:
        """Opponents decide (the Python ones in batches) until every game waits on its learner."""
        while True:
            out = self._out
            waiting = np.flatnonzero(out["actor"] != self.learner)
            if waiting.size == 0:
                return
            actions = np.full(self.num_envs, SKIP, np.int64)
            owners = self._slot_agent[waiting, out["actor"][waiting]]
            if (owners < 0).any():  # a native seat or the learner: the batch would have played or asked it
                raise RuntimeError(f"game {waiting[owners < 0][0]} waits on a seat with no Python opponent")
            for a in np.unique(owners):
                rows = waiting[owners == a]
                actions[rows] = self._decide(self._agents[a], rows)
            touched = actions != SKIP
            out = self._out = self.games.step(actions)
            self._collect(out, touched, rewards, ends)

    def _decide(self, agent, rows: np.ndarray) -> np.ndarray:
        out = self._out
        if hasattr(agent, "act_batch"):
            return np.asarray(agent.act_batch(out["observation"][rows], out["action_mask"][rows]), np.int64)
        return np.array([agent.act(out["observation"][i].copy(), out["action_mask"][i].copy()) for i in rows],
                        np.int64)

    def _collect(self, out: dict, touched: np.ndarray, rewards: np.ndarray, ends: list) -> None:
        """The learner's share of a call's rewards, and the games that ended in it."""
        earned = out["rewards"][self._row, self.learner]
        mine = touched & self._decided
        rewards[mine] += earned[mine]
        self._return[mine] += earned[mine]
        self._before[touched & ~self._decided] += earned[touched & ~self._decided]
        for i in np.flatnonzero(out["terminated"] | out["truncated"]):
            if self._decided[i]:
                ends[i] = self._end_info(i)
                self._passed_over[i] = 0
            else:
                self._passed_over[i] += 1
                if self._passed_over[i] >= MAX_PASSED_OVER:
                    raise RuntimeError(f"game {i}: {MAX_PASSED_OVER} games in a row ended before the learner "
                                       "decided (is max_steps too small?)")
            self._begin(i)
            self._before[i] += out["opening_rewards"][i, self.learner[i]]

    # ----- episodes

    def _plan_next(self, i: int) -> None:
        """Draw game i's next episode (learner seat and opponents) and tell the batch its seats."""
        rng, players = self._rngs[i], self.num_players
        seat = int(rng.integers(players)) if self.seat_rule == "random" else int(self.seat_rule)
        kinds, indices, names = ["external"] * players, [-1] * players, []
        for k in range(players - 1):
            spec = self._draw_opponent(i, k, rng)
            p = (seat + 1 + k) % players
            if isinstance(spec, str) and (spec in NATIVE or spec.startswith(POLICY_PREFIXES)):
                kinds[p] = spec
                names.append(_name_of(spec, None))
            else:
                agent = self._resolve(spec, i, k)
                indices[p] = self._agent_index[id(agent)]
                names.append(_name_of(spec, agent))
        self._next[i] = (seat, indices, names)
        self.games.set_next_seats(i, kinds, observer=seat)

    def _begin(self, i: int) -> None:
        """Game i's planned episode has started: make it current and plan the one after."""
        seat, indices, names = self._next[i]
        self.learner[i], self._slot_agent[i], self._names[i] = seat, indices, names
        for a in indices:
            if a in self._own:
                self._agents[a].reset(seed=int(self._rngs[i].integers(2**31)))
        self._decided[i] = False
        self._before[i] = self._return[i] = 0.0
        self._length[i] = 0
        self._started[i] = time.time()
        self._plan_next(i)

    def _resolve(self, spec: Any, game: int, k: int):
        """The Python agent of a spec: one per named agent and seat of each game (its own state), the object
        itself otherwise."""
        if isinstance(spec, str):
            key = (spec, game, k)
            agent = self._agent_index.get(key)
            if agent is not None:
                return self._agents[agent]
            agent = _make_agent(spec, self.game_name)
            self._own.add(len(self._agents))  # this seat's own: reset every episode, as SingleAgentEnv does
            self._register(agent, key)
            return agent
        if not (callable(getattr(spec, "act", None)) or callable(getattr(spec, "act_batch", None))):
            raise ConfigError(f"opponents: {spec!r} is neither a seat kind, an agent name nor an agent")
        if id(spec) not in self._agent_index:
            self._register(spec, None)
        return spec

    def _register(self, agent, key) -> None:
        index = len(self._agents)
        self._agents.append(agent)
        self._agent_index[id(agent)] = index
        if key is not None:
            self._agent_index[key] = index

    # ----- infos

    def _reset_info(self, i: int) -> dict:
        info = {"seat": int(self.learner[i]), "opponents": list(self._names[i])}
        if self._before[i]:
            info["reward_before_first_step"] = float(self._before[i])
        return info

    def _end_info(self, i: int) -> dict:
        """SingleAgentEnv's last info of the episode that ended in row i, with what SB3 expects."""
        out, seat = self._out, int(self.learner[i])
        winners = [f"player_{p}" for p in np.flatnonzero(out["final_winners"][i])]
        info: dict[str, Any] = self.end_facts(i, seat)
        info.update(winner=winners[0] if len(winners) == 1 else None, winners=winners, seat=seat,
                    opponents=list(self._names[i]), terminated=bool(out["terminated"][i]),
                    terminal_observation=out["final_observation"][i].copy(),
                    episode={"r": float(self._return[i]), "l": int(self._length[i]),
                             "t": round(time.time() - self._started[i], 6)})
        return info

    def end_facts(self, i: int, seat: int) -> dict[str, Any]:
        """The game's own facts of the episode that ended in row i, for the learner at `seat` (its
        SingleAgentEnv's last info: ``reason`` and the like); the rows of the last call are in ``self._out``."""
        return {}


def _opponent_drawer(opponents: Any, count: int, game: str) -> Callable[[int, int, np.random.Generator], Any]:
    """opponents (a spec, a list of one per opponent seat, or a callable) as a callable (game, k, rng)."""
    if callable(opponents) and not hasattr(opponents, "act") and not hasattr(opponents, "act_batch"):
        return opponents
    if opponents is None:
        opponents = "random"
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        opponents = [opponents] * count
    specs = list(opponents)
    if len(specs) != count:
        raise ConfigError(f"opponents: expected {count} (one per other seat), got {len(specs)}")
    for spec in specs:
        if isinstance(spec, str) and spec not in NATIVE and not spec.startswith(POLICY_PREFIXES):
            _make_agent(spec, game)  # an unknown name is an error now, not at the first game that draws it
    return lambda game, k, rng: specs[k]


def _make_agent(name: str, game: str):
    try:
        agent = agent_maker(game)(name)
    except ValueError as exc:
        raise ConfigError(f"opponents: {name!r} is not {' or '.join(NATIVE)}, ppo:PATH, ppo-sample:PATH nor an agent "
                          f"name ({exc})") from None
    if getattr(agent, "needs_worlds", False):
        raise ConfigError(f"opponents: {name!r} searches the game state (needs_worlds): play it with "
                          "ktenv.SingleAgentEnv, not over the batched games")
    return agent


def _name_of(spec: Any, agent: Any) -> str:
    if isinstance(spec, str):
        return "snapshot" if spec.startswith(POLICY_PREFIXES) else spec
    return str(getattr(agent, "name", type(agent).__name__))



__all__ = ["NATIVE", "POLICY_PREFIXES", "SKIP", "LearnerGames"]

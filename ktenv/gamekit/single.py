"""The Gymnasium single-agent layer every ktenv game shares: `LearnerSeatEnv`, one seat learns, agents
play the other seats.

A game subclasses it with its AEC env class (``aec_class``, a `SeatedGameEnv`) and its way of turning
an agent name into an agent (`_named_agent`). The base keeps the rest the same for every game: the
learner's seat (fixed or drawn at every reset from the env's generator), the opponents (``act(observation,
action_mask) -> int``; one for every other seat, or one for all; opponent ``k`` plays the ``k``-th seat
after the learner's), their reset seeds, the loop that lets them act until the learner must decide,
illegal actions (``"terminate"``: reward -1 and ``info["illegal_action"]``; ``"raise"``), the mask
(``action_masks()``, ``info["action_mask"]``) and rendering. Agents with ``needs_observation = False``
get None instead of an observation (read at every reset, after the agents' own ``reset``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from ..errors import ConfigError, IllegalActionError
from .aec import ILLEGAL_ACTION_MODES, ILLEGAL_REWARD, RENDER_MODES, SeatedGameEnv, checked_action
from .random_agent import RandomAgent


def make_opponents(opponents: Any, count: int, named_agent: Callable[[str], Any]) -> list:
    """`count` agents from `opponents`: None (a RandomAgent each), one agent or name (for every seat), or
    `count` of them; `named_agent` turns a name into an agent."""
    if opponents is None:
        return [RandomAgent() for _ in range(count)]
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        opponents = [opponents]
    opponents = list(opponents)
    if len(opponents) == 1 and count > 1:
        opponents = opponents * count
    if len(opponents) != count:
        raise ConfigError(f"opponents: expected {count} (one per other seat), got {len(opponents)}")
    out = []
    for o in opponents:
        if isinstance(o, str):
            o = named_agent(o)
        if not callable(getattr(o, "act", None)):
            raise ConfigError(f"opponents: {o!r} has no act(observation, action_mask) method")
        out.append(o)
    return out


def needs_observation(agent: Any) -> bool:
    """Whether `agent` reads the observation vector (else it gets None, and encoding is skipped)."""
    return bool(getattr(agent, "needs_observation", True))


class LearnerSeatEnv(gymnasium.Env):
    """One learning seat against fixed agents (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}
    aec_class: ClassVar[type[SeatedGameEnv]]

    def __init__(self, seat: int | str = 0, opponents: Any = None, render_mode: str | None = None,
                 reward: str = "win", illegal_action: str = "terminate", **config: Any) -> None:
        self.aec = self.aec_class(render_mode=render_mode, reward=reward, **config)
        self.render_mode = render_mode
        n = self.aec.cfg.n_players
        if seat == "random":
            self._random_seat = True
            self.seat = 0
        elif isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < n:
            self._random_seat = False
            self.seat = int(seat)
        else:
            raise ConfigError(f"seat: expected 0-{n - 1} or 'random', got {seat!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action: {illegal_action!r} is not one of {list(ILLEGAL_ACTION_MODES)}")
        self.illegal_action = illegal_action
        self.opponents = make_opponents(opponents, n - 1, self._named_agent)
        self._feeds = [needs_observation(o) for o in self.opponents]
        space = self.aec.observation_space(self.aec.possible_agents[0])["observation"]
        self.observation_space = spaces.Box(space.low, space.high, space.shape, np.float32)
        self.action_space = spaces.Discrete(self.aec.n_actions)
        self._seat_of_opponent: dict[int, int] = {}
        self._done = True

    @staticmethod
    def _named_agent(name: str) -> Any:
        """The agent called `name` (an opponent given by name); a game sets it with `agent_maker`."""
        raise NotImplementedError


    # ----- gymnasium API

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        n = self.aec.cfg.n_players
        rng = self.np_random
        if self._random_seat:
            self.seat = int(rng.integers(n))
        game_seed = int(seed) if seed is not None else int(rng.integers(2**62))
        for k, agent in enumerate(self.opponents):
            if hasattr(agent, "reset"):
                agent.reset(seed=int(rng.integers(2**31)) + k)
        self._feeds = [needs_observation(o) for o in self.opponents]  # may change at reset (a league seat)
        self._seat_of_opponent = {(self.seat + 1 + k) % n: k for k in range(n - 1)}
        self.aec.reset(seed=game_seed, options=options)
        self._done = False
        reward = self._play_opponents()  # the learner may not be first to decide
        me = self.aec.possible_agents[self.seat]
        self._done = self.aec.terminations[me] or self.aec.truncations[me]
        info = self._info()
        if reward:
            info["reward_before_first_step"] = reward
        return self._observation(), info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() before step()")
        # outside the space: raises whatever illegal_action says (no move was made, nothing to score)
        a = checked_action(action, self.action_space.n, "the learner")
        if not self.aec.engine.legal_mask(self.aec.game_state)[a]:
            if self.illegal_action == "raise":
                self._refuse(a)
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), ILLEGAL_REWARD, True, False, info
        me = self.aec.possible_agents[self.seat]
        self.aec.step(a)
        reward = self.aec.rewards[me]
        reward += self._play_opponents()
        terminated, truncated = self.aec.terminations[me], self.aec.truncations[me]
        self._done = terminated or truncated
        return self._observation(), float(reward), terminated, truncated, self._info()

    def _refuse(self, action: int) -> None:
        """Raise IllegalActionError for the learner's masked-out `action` (``illegal_action="raise"``)."""
        self.aec.step(action)  # raises IllegalActionError with the engine's explanation
        raise IllegalActionError(f"action {action} is not legal now")  # unreachable guard

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool); all True once the game is over (nothing to mask)."""
        s = self.aec.game_state
        if s is None or s.game_over or s.actor != self.seat or self._done:
            return np.ones(self.action_space.n, bool)
        return self.aec.engine.legal_mask(s).astype(bool)

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # ----- helpers

    @property
    def game_state(self):
        return self.aec.game_state

    def describe_action(self, action: int) -> str:
        return self.aec.describe_action(action)

    def observation_layout(self):
        return self.aec.observation_layout()

    def _play_opponents(self) -> float:
        """Opponents act until the learner must decide or the game ends; the learner's reward."""
        aec, seat = self.aec, self.seat
        legal_mask = aec.engine.legal_mask
        s = aec.game_state
        me = aec.possible_agents[seat]
        reward = 0.0
        while not s.game_over and s.actor != seat and not aec.truncations[me]:
            k = self._seat_of_opponent[s.actor]
            agent, mask = self.opponents[k], legal_mask(s)
            aec.step(agent.act(self._opponent_observation(k, mask), mask))
            reward += aec.rewards[me]
        return reward

    def _opponent_observation(self, k: int, mask: np.ndarray) -> Any:
        """What opponent `k`, to act now, gets as its observation (None when it does not read one); a searching
        opponent (agents.base: ``needs_worlds``) also the game's world sampler for its seat."""
        obs = self.aec._observation_of(self.aec.game_state.actor) if self._feeds[k] else None
        if getattr(self.opponents[k], "needs_worlds", False):
            s = self.aec.game_state
            obs = {"observation": obs, "action_mask": mask, "worlds": self._world_sampler()(s, s.actor)}
        return obs

    def _world_sampler(self) -> Any:
        """The game's world sampler class (``WorldSampler(state, seat)``), for searching opponents."""
        raise NotImplementedError(f"{type(self).__name__}: this game has no world sampler for searching opponents")

    def _observation(self) -> np.ndarray:
        return self.aec._observation_of(self.seat)

    def _info(self) -> dict:
        me = self.aec.possible_agents[self.seat]
        info = dict(self.aec.infos.get(me, {}))
        if "winners" in info:
            info["winners"] = list(info["winners"])
        info["seat"] = self.seat
        info.update(self._table_info())
        s = self.aec.game_state
        if not s.game_over and s.actor == self.seat:
            info["action_mask"] = self.aec.engine.legal_mask(s).copy()
        return info

    def _table_info(self) -> dict:
        """What a game adds to the learner's info after its seat (before the mask)."""
        return {}


def agent_maker(game: str):
    """`name -> agent` by `game`'s agent table (`ktenv.registry`), loaded on first use (an env never imports the
    agents); ``random`` needs no look-up."""

    def make(name: str, **kwargs: Any) -> Any:
        if name == RandomAgent.name:
            return RandomAgent(**kwargs)
        from ..registry import game as lookup

        return lookup(game).agents.AGENTS.make(name, **kwargs)

    return make

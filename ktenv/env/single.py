"""Gymnasium single-agent view: one seat learns, the other seats are played by agents.

    import gymnasium, ktenv
    env = gymnasium.make("ktenv/KingsAndThings-v0", n_players=2, max_rounds=30)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().argmax())

Spaces: observation = the flat ``Box(float32)`` of the AEC env (docs/observation.md), action =
``Discrete(N)`` (docs/actions.md). The mask is not in the observation but behind
``action_masks()`` (bool), which is what sb3-contrib's MaskablePPO asks for; a plain Box keeps
the MlpPolicy simple. ``info["action_mask"]`` holds the same mask (int8) for other libraries.

Each ``step`` applies the learner's action, then lets the opponents act until it is the learner's
turn again or the game ends; the reward is the learner's reward summed over those steps
(``reward="win"`` or ``"shaped"``, as in the AEC env). ``terminated`` at a victory, ``truncated``
at the round limit or after ``max_steps`` decisions (all seats; default 100 000).

Opponents: any objects with ``act(observation, action_mask) -> int`` (the ``agents`` protocol),
or registered agent names (resolved by `ktenv.agent_names`, which ``ktenv.agents`` fills); default one
RandomAgent per other seat. Opponent ``k`` plays the
``k``-th seat after the learner's, in seat order. They receive the flat observation of their
own seat, except agents with ``needs_observation = False`` (RandomAgent, `ktenv.random_agent`), which get
None and cost nothing to feed; the flag is read at every reset, after the opponents' own
``reset`` (a training-league seat changes who it is between games), and ``info["opponents"]``
names them. ``seat="random"`` draws the learner's seat at every reset from the
env's generator (seeded by ``reset(seed=...)``).

Illegal actions: ``illegal_action="terminate"`` (default; the env checkers and unmasked
algorithms send random actions): the episode ends with reward -1 and ``info["illegal_action"]``,
the game state unchanged. ``"raise"``: ``IllegalActionError``. An action outside the action space
(``step(10**6)``, ``step(24.7)``, ``step("3")``) is no move at all: it raises ValueError or TypeError
naming the action and the space, in both modes, and changes nothing.

Keyword arguments: ``seat``, ``opponents``, ``render_mode`` (None, "human", "ansi", "rgb_array"),
``reward``, ``illegal_action``, ``max_steps`` and every GameConfig key (``num_players`` is read
as ``n_players``). The env pickles and deep-copies (Ray, multiprocessing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import agent_names
from ..config import ConfigError
from ..engine import IllegalActionError
from ..engine.machine import legal_mask
from ..random_agent import RandomAgent
from ..state import GameState
from .aec import ILLEGAL_ACTION_MODES, ILLEGAL_REWARD, RENDER_MODES, checked_action, raw_env


def _make_opponents(opponents: Any, count: int) -> list:
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
            o = agent_names.make(o)  # the names ktenv.agents registers (ktenv/agent_names.py)
        if not callable(getattr(o, "act", None)):
            raise ConfigError(f"opponents: {o!r} has no act(observation, action_mask) method")
        out.append(o)
    return out


def _needs_observation(agent: Any) -> bool:
    return bool(getattr(agent, "needs_observation", True))


class SingleAgentEnv(gymnasium.Env):
    """One learning seat against fixed agents (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, seat: int | str = 0, opponents: Any = None, render_mode: str | None = None,
                 reward: str = "win", illegal_action: str = "terminate", **config: Any) -> None:
        self.aec = raw_env(render_mode=render_mode, reward=reward, **config)
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
        self.opponents = _make_opponents(opponents, n - 1)
        self._feeds = [_needs_observation(o) for o in self.opponents]
        space = self.aec.observation_space(self.aec.possible_agents[0])["observation"]
        self.observation_space = spaces.Box(space.low, space.high, space.shape, np.float32)
        self.action_space = spaces.Discrete(self.aec.action_layout.size)
        self._seat_of_opponent: dict[int, int] = {}
        self._done = True

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
        self._feeds = [_needs_observation(o) for o in self.opponents]  # may change at reset (a league seat)
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
        s = self.aec.game_state
        mask = legal_mask(s)
        if not mask[a]:
            if self.illegal_action == "raise":
                self.aec.step(a)  # raises IllegalActionError with the engine's explanation
                raise IllegalActionError(f"action {a} is not legal now")  # unreachable guard
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

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool); all True once the game is over (nothing to mask)."""
        s = self.aec.game_state
        if s is None or s.game_over or s.actor != self.seat or self._done:
            return np.ones(self.action_space.n, bool)
        return legal_mask(s).astype(bool)

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # ----- helpers

    @property
    def game_state(self) -> GameState:
        return self.aec.game_state

    def describe_action(self, action: int) -> str:
        return self.aec.describe_action(action)

    def observation_layout(self):
        return self.aec.observation_layout()

    def _play_opponents(self) -> float:
        """Opponents act until the learner must decide or the game ends; the learner's reward."""
        aec, seat = self.aec, self.seat
        s = aec.game_state
        me = aec.possible_agents[seat]
        reward = 0.0
        while not s.game_over and s.actor != seat and not aec.truncations[me]:
            k = self._seat_of_opponent[s.actor]
            obs = aec.encoder.encode(s, s.actor, aec._current_stats()) if self._feeds[k] else None
            agent, mask = self.opponents[k], legal_mask(s)
            if getattr(agent, "needs_worlds", False):  # a searching opponent (agents.base)
                from ktenv.worlds import WorldSampler

                obs = {"observation": obs, "action_mask": mask, "worlds": WorldSampler(s, s.actor)}
            aec.step(agent.act(obs, mask))
            reward += aec.rewards[me]
        return reward

    def _observation(self) -> np.ndarray:
        return self.aec.encoder.encode(self.aec.game_state, self.seat, self.aec._current_stats())

    def _info(self) -> dict:
        me = self.aec.possible_agents[self.seat]
        info = dict(self.aec.infos.get(me, {}))
        if "winners" in info:
            info["winners"] = list(info["winners"])
        info["seat"] = self.seat
        info["opponents"] = [str(getattr(o, "name", type(o).__name__)) for o in self.opponents]
        s = self.aec.game_state
        if not s.game_over and s.actor == self.seat:
            info["action_mask"] = legal_mask(s).copy()
        return info

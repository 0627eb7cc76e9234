"""Gymnasium single-agent Kingsburg (``gymnasium.make("ktenv/Kingsburg-v0", num_players=4)``): one seat
learns, the other seats are agents.

Observation: the flat ``Box(float32)`` of the AEC env; action ``Discrete(65)``; the mask behind
``action_masks()`` (MaskablePPO) and in ``info["action_mask"]``. Each ``step`` applies the learner's
action, then the opponents act until the learner must decide again or the game ends; the reward is the
learner's reward summed over those steps. Opponents: objects with ``act(observation, action_mask)`` or
Kingsburg agent names (``random``, ``greedy``, ``expert``: `ktenv.agents.kingsburg`); default random.
``seat="random"`` draws the learner's seat at every reset. ``illegal_action="terminate"`` (default) ends
the episode with -1 on a masked action (the env checkers send random actions); ``"raise"`` raises.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..config import ConfigError
from ..env.aec import ILLEGAL_ACTION_MODES, ILLEGAL_REWARD, checked_action
from ..random_agent import RandomAgent
from . import actions as A
from .aec import RENDER_MODES, raw_env
from .common import IllegalActionError
from .machine import legal_mask
from .state import KingsburgState

AGENTS_PACKAGE = "ktenv.agents.kingsburg"  # resolves opponent names (a plug-in look-up, no import dependency)


def make_agent(name: str, **kwargs: Any) -> Any:
    if name == "random":
        return RandomAgent(**kwargs)
    return importlib.import_module(AGENTS_PACKAGE).make(name, **kwargs)


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
            o = make_agent(o)
        if not callable(getattr(o, "act", None)):
            raise ConfigError(f"opponents: {o!r} has no act(observation, action_mask) method")
        out.append(o)
    return out


class KingsburgSingleEnv(gymnasium.Env):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, seat: int | str = 0, opponents: Any = None, render_mode: str | None = None,
                 reward: str = "win", illegal_action: str = "terminate", **config: Any) -> None:
        self.aec = raw_env(render_mode=render_mode, reward=reward, **config)
        self.render_mode = render_mode
        n = self.aec.cfg.n_players
        if seat == "random":
            self._random_seat, self.seat = True, 0
        elif isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < n:
            self._random_seat, self.seat = False, int(seat)
        else:
            raise ConfigError(f"seat: expected 0-{n - 1} or 'random', got {seat!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action: {illegal_action!r} is not one of {list(ILLEGAL_ACTION_MODES)}")
        self.illegal_action = illegal_action
        self.opponents = _make_opponents(opponents, n - 1)
        space = self.aec.observation_space(self.aec.possible_agents[0])["observation"]
        self.observation_space = spaces.Box(space.low, space.high, space.shape, np.float32)
        self.action_space = spaces.Discrete(A.N_ACTIONS)
        self._done = True

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
        self._seat_of_opponent = {(self.seat + 1 + k) % n: k for k in range(n - 1)}
        self.aec.reset(seed=game_seed, options=options)
        self._done = False
        reward = self._play_opponents()
        me = self.aec.possible_agents[self.seat]
        self._done = self.aec.terminations[me] or self.aec.truncations[me]
        info = self._info()
        if reward:
            info["reward_before_first_step"] = reward
        return self._observation(), info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() before step()")
        a = checked_action(action, A.N_ACTIONS, "the learner")
        if not legal_mask(self.aec.game_state)[a]:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"action {a} ({self.describe_action(a)}) is not legal now")
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), ILLEGAL_REWARD, True, False, info
        me = self.aec.possible_agents[self.seat]
        self.aec.step(a)
        reward = self.aec.rewards[me] + self._play_opponents()
        terminated, truncated = self.aec.terminations[me], self.aec.truncations[me]
        self._done = terminated or truncated
        return self._observation(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        s = self.aec.game_state
        if s is None or s.game_over or s.actor != self.seat or self._done:
            return np.ones(A.N_ACTIONS, bool)
        return legal_mask(s).astype(bool)

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    @property
    def game_state(self) -> KingsburgState:
        return self.aec.game_state

    def describe_action(self, action: int) -> str:
        return self.aec.describe_action(action)

    def observation_layout(self):
        return self.aec.observation_layout()

    def _play_opponents(self) -> float:
        aec, seat = self.aec, self.seat
        s = aec.game_state
        me = aec.possible_agents[seat]
        reward = 0.0
        while not s.game_over and s.actor != seat and not aec.truncations[me]:
            agent = self.opponents[self._seat_of_opponent[s.actor]]
            mask = legal_mask(s)
            obs = aec.encoder.encode(s, s.actor) if getattr(agent, "needs_observation", True) else None
            aec.step(agent.act(obs, mask))
            reward += aec.rewards[me]
        return reward

    def _observation(self) -> np.ndarray:
        return self.aec.encoder.encode(self.aec.game_state, self.seat)

    def _info(self) -> dict:
        me = self.aec.possible_agents[self.seat]
        info = dict(self.aec.infos.get(me, {}))
        info["seat"] = self.seat
        s = self.aec.game_state
        if not s.game_over and s.actor == self.seat:
            info["action_mask"] = legal_mask(s).copy()
        return info

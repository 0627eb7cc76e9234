"""Gymnasium's `VectorEnv` over a game's batched games: one learning seat per game (`ktenv.gamekit.learner`;
a game's subclass names its `LearnerGames`).

Autoreset mode SAME_STEP (``metadata["autoreset_mode"]``): a game that ends starts the next one in the
same step; its row's observation is the new game's first, and ``infos["final_obs"]`` /
``infos["final_info"]`` (with their ``_final_obs`` / ``_final_info`` masks) hold the ended game's last
observation (the learner's own view of the final state, whoever decided last) and SingleAgentEnv's last
info (``winners``, ``reason``, ``seat``, ``opponents``, ``income``, ``episode`` ...). Reset infos
(``seat``, ``opponents``, ``reward_before_first_step``) go into ``infos`` as Gymnasium vector infos (a
key's values per game, with its ``_key`` mask). ``action_masks()`` gives the learner's legal actions.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .learner import LearnerGames


class LearnerVectorEnv(gymnasium.vector.VectorEnv):
    """N games, one learning seat each, as a Gymnasium `VectorEnv` (arguments: those of `games_class`, a game's
    `ktenv.gamekit.learner.LearnerGames`)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
    games_class: type = LearnerGames

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        self.games = self.games_class(num_envs, **kwargs)
        self.num_envs = self.games.num_envs
        self.single_observation_space = spaces.Box(-np.inf, np.inf, (self.games.observation_size,), np.float32)
        self.single_action_space = spaces.Discrete(self.games.n_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if options:
            raise ValueError(f"reset: options are not supported, got {options!r}")
        obs, resets = self.games.reset(seed)
        infos: dict = {}
        for i, info in enumerate(resets):
            infos = self._add_info(infos, info, i)
        return obs, infos

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        obs, rewards, terminated, truncated, ends, resets = self.games.step(np.asarray(actions))
        infos: dict = {}
        for i in np.flatnonzero(terminated | truncated):
            end = dict(ends[i])
            final_obs = end.pop("terminal_observation")
            infos = self._add_info(infos, {"final_obs": final_obs, "final_info": end}, i)
            infos = self._add_info(infos, resets[i], i)
        return obs, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (bool [N, actions])."""
        return self.games.action_masks()

    def close_extras(self, **kwargs: Any) -> None:
        self.games.close()

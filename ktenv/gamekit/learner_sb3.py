"""Stable-Baselines3's `VecEnv` over a game's batched games: one learning seat per game (`ktenv.gamekit.learner`;
each game's ``learner_vec_env`` subclasses `LearnerVecEnv` with its `LearnerGames`).

``action_masks()`` (and ``env_method("action_masks")``, what sb3-contrib's `get_action_masks` calls) gives the
learner's masks. Infos follow SB3's vector envs: where a game ended, ``terminal_observation`` (the learner's
own view of the final state, whoever decided last: what SingleAgentEnv returns at the end),
``TimeLimit.truncated`` (a round or step limit), ``episode`` ({"r": return, "l": learner decisions, "t":
seconds}: what SB3's Monitor writes, read by the model's ``ep_info_buffer``) and SingleAgentEnv's last info
(``winners``, ``reason``, ``seat``, ``opponents``, the game's own facts); ``reset_infos`` hold each new game's
reset info. Other steps' infos are empty: the games run natively and build no dicts per step. ``seed(s)``
makes the next ``reset()`` play game seeds s, s + 1, ... (SB3's rule, VectorEnv's streams).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .learner import LearnerGames


class LearnerVecEnv(VecEnv):
    """N games, one learning seat each, as an SB3 `VecEnv` (arguments: those of `games_class`, a game's
    `ktenv.gamekit.learner.LearnerGames`)."""

    render_mode = None
    games_class: type = LearnerGames

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        self.games = self.games_class(num_envs, **kwargs)
        obs = spaces.Box(-np.inf, np.inf, (self.games.observation_size,), np.float32)
        super().__init__(self.games.num_envs, obs, spaces.Discrete(self.games.n_actions))
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        obs, self.reset_infos = self.games.reset(seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        obs, rewards, terminated, truncated, ends, resets = self.games.step(self._actions)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(terminated | truncated):
            infos[i] = ends[i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i])
            self.reset_infos[i] = resets[i]
        return obs, rewards.astype(np.float32), terminated | truncated, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (bool [N, actions])."""
        return self.games.action_masks()

    def close(self) -> None:
        self.games.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        rows = list(self._indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices) -> range | list[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)

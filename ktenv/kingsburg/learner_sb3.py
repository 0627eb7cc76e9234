"""Stable-Baselines3's `VecEnv` over Kingsburg's batched games, one learning seat per game (`learner.LearnerGames`;
the adapter is `ktenv.gamekit.learner_sb3`): the registry's ``learner_vec_env``."""

from __future__ import annotations

from typing import Any

from ..gamekit import learner_sb3
from .learner import LearnerGames


class LearnerVecEnv(learner_sb3.LearnerVecEnv):
    """N Kingsburg games, one learning seat each, as an SB3 `VecEnv` (arguments: `LearnerGames`)."""

    games_class = LearnerGames


def learner_vec_env(num_envs: int, **kwargs: Any) -> LearnerVecEnv:
    """The training games as one batch of native games (the registry's ``learner_vec_env``); a clear error where
    the native engine is not built."""
    return LearnerVecEnv(num_envs, **kwargs)

"""Stable-Baselines3's `VecEnv` over the batched games: one learning seat per game
(`ktenv.kings_and_things.vector.learner`; the adapter is `ktenv.gamekit.learner_sb3`, whose docstring says what
its infos hold).

    from sb3_contrib import MaskablePPO
    from ktenv.kings_and_things.vector.sb3 import LearnerVecEnv
    venv = LearnerVecEnv(64, num_players=2, reward="shaped", max_rounds=30, opponents="greedy")
    model = MaskablePPO("MlpPolicy", venv).learn(100_000)
"""

from __future__ import annotations

from typing import Any

from ...gamekit import learner_sb3
from .learner import LearnerGames


class LearnerVecEnv(learner_sb3.LearnerVecEnv):
    """N Kings & Things games, one learning seat each, as an SB3 `VecEnv` (arguments: `LearnerGames`)."""

    games_class = LearnerGames


def learner_vec_env(num_envs: int, **kwargs: Any) -> LearnerVecEnv:
    """The training games as one batch of native games (the registry's ``learner_vec_env``); a clear error
    where the native core is not built."""
    from ...errors import ConfigError
    from ..native import available

    if not available():
        raise ConfigError("vec_env 'vector' needs the native core, which is not built here (pip install -e .); "
                          "--set vec_env=subproc runs the Python engine's games")
    return LearnerVecEnv(num_envs, **kwargs)

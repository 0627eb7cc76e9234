"""Gymnasium's `VectorEnv` over the batched games: one learning seat per game (`ktenv.kings_and_things.vector.learner`;
the adapter is `ktenv.gamekit.learner_gym`, whose docstring says what its infos hold).

    from ktenv.kings_and_things.vector.gym import LearnerVectorEnv
    envs = LearnerVectorEnv(64, num_players=2, opponents="random", max_rounds=30)
    obs, infos = envs.reset(seed=0)
    obs, rewards, terminations, truncations, infos = envs.step(random_legal(envs.action_masks()))
"""

from __future__ import annotations

from ...gamekit import learner_gym
from .learner import LearnerGames


class LearnerVectorEnv(learner_gym.LearnerVectorEnv):
    """N Kings & Things games, one learning seat each, as a Gymnasium `VectorEnv` (arguments: `LearnerGames`)."""

    games_class = LearnerGames

"""One learning seat per Kingsburg game over the batched native games (`native.vector.VectorEnv`): the engine of
the SB3 `VecEnv` (`learner_sb3.learner_vec_env`, the registry's ``learner_vec_env``: ``ktenv train`` with
``vec_env: vector``) and of the Gymnasium vector env (`LearnerVectorEnv`). `ktenv.gamekit.learner` says how the
learner, the opponents (the native ``random``, ``greedy``, ``expert`` and ``ppo:PATH`` / ``ppo-sample:PATH``
snapshots, or Python agents), the rewards and the episodes go; an ended episode's info adds the learner's
``vp`` and ``reason``.

    from ktenv.kingsburg.learner_sb3 import learner_vec_env
    venv = learner_vec_env(64, num_players=4, reward="shaped", opponents=["expert", "greedy", "random"])
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from ..gamekit import learner, learner_gym
from . import native


class LearnerGames(learner.LearnerGames):
    """N Kingsburg games with one learning seat each.

    Args:
        num_envs: games. num_players: players per game. seed: the first game seeds (as VectorEnv).
        num_threads, reward, **game_options: as VectorEnv.
        seat: the learner's seat, 0..num_players-1, or "random" (drawn every game).
        opponents: see `ktenv.gamekit.learner` (default: "random" at every opponent seat).
    """

    game_name = "kingsburg"

    def __init__(self, num_envs: int, num_players: int | None = None, seed: int = 0, num_threads: int | None = None,
                 reward: str = "win", seat: int | str = "random", opponents: Any = None, **game_options: Any) -> None:
        if not native.available():
            raise ConfigError("Kingsburg's batched games need its native engine, which is not built here "
                              f"({native.BUILD_HINT}); --set vec_env=subproc runs the Python engine's games")
        from .native.vector import VectorEnv

        players = 4 if num_players is None else num_players
        games = VectorEnv(num_envs, num_players=players, seed=seed, reward=reward, num_threads=num_threads,
                          **game_options)
        super().__init__(games, seed=seed, seat=seat, opponents=opponents)

    def end_facts(self, i: int, seat: int) -> dict[str, Any]:
        return {"vp": int(self._out["final_vp"][i, seat]), "reason": "game_end"}  # five years, always (K3.1)


class LearnerVectorEnv(learner_gym.LearnerVectorEnv):
    """N Kingsburg games, one learning seat each, as a Gymnasium `VectorEnv` (arguments: `LearnerGames`)."""

    games_class = LearnerGames

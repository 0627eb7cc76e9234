"""One learning seat per game over the batched games: the engine of the SB3 and Gymnasium adapters
(`ktenv.gamekit.learner.LearnerGames` over Kings & Things' `VectorEnv`; its module docstring says how the learner,
the opponents, the rewards and the episodes go).

Kings & Things' native opponents: ``"random"`` (its own generator per game), ``"greedy"`` and ``"expert"`` (the
native ports of agents/kings_and_things/greedy.py and agents/kings_and_things/expert.py) and the policy snapshots
``"ppo:PATH"`` and ``"ppo-sample:PATH"`` (a network evaluated natively, choosing as the arena's agent of that name
with a generator seeded as a greedy seat's). An ended episode's info adds SingleAgentEnv's facts of this game:
``income``, ``hexes``, ``gold``, ``forts``, ``citadels``, ``heroes``, ``alive``, ``round`` and ``reason``.
"""

from __future__ import annotations

from typing import Any

from ...gamekit import learner
from ..env.aec import DEFAULT_MAX_STEPS
from ..env.stats import STAT_COLUMNS
from . import SEAT_KINDS, VectorEnv

NATIVE = learner.NATIVE
INFO_STATS = ("income", "hexes", "gold", "forts", "citadels", "heroes", "alive")  # SingleAgentEnv's infos


class LearnerGames(learner.LearnerGames):
    """N Kings & Things games with one learning seat each.

    Args:
        num_envs: games. num_players: players per game. seed: the first game seeds (as VectorEnv).
        num_threads, reward, max_steps, **game_options: as VectorEnv.
        seat: the learner's seat, 0..num_players-1, or "random" (drawn every game).
        opponents: see `ktenv.gamekit.learner` (default: "random" at every opponent seat).
    """

    game_name = "kings_and_things"

    def __init__(self, num_envs: int, num_players: int | None = None, seed: int = 0, num_threads: int | None = None,
                 reward: str = "win", max_steps: int | None = DEFAULT_MAX_STEPS, seat: int | str = "random",
                 opponents: Any = None, **game_options: Any) -> None:
        games = VectorEnv(num_envs, num_players, seed=seed, num_threads=num_threads, reward=reward,
                          max_steps=max_steps, **game_options)
        super().__init__(games, seed=seed, seat=seat, opponents=opponents)

    def end_facts(self, i: int, seat: int) -> dict[str, Any]:
        out = self._out
        stats = out["final_stats"][i, seat]
        info: dict[str, Any] = {name: int(stats[STAT_COLUMNS.index(name)]) for name in INFO_STATS}
        info["alive"] = bool(info["alive"])
        info.update(round=int(out["final_rounds"][i]), reason=self.games.reasons[out["final_reason"][i]])
        return info


__all__ = ["LearnerGames", "SEAT_KINDS"]

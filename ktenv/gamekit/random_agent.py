"""The uniform random policy: uniform over the legal actions; its own generator, never the game's dice.

It lives below the environments so that a game's env can seat it as the default opponent without
depending on ``ktenv.agents`` (which re-exports it as ``agents.RandomAgent``). It reads only the mask
(``needs_observation = False``: the envs and the arena never encode an observation for it).
"""

from __future__ import annotations

import numpy as np


class RandomAgent:
    name = "random"
    needs_observation = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("random agent: the action mask allows no action")
        return int(legal[self.rng.integers(legal.size)])

"""Uniform over the legal actions; its own generator, never the game's dice."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("random agent: the action mask allows no action")
        return int(legal[self.rng.integers(legal.size)])

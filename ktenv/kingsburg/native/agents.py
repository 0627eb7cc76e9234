"""Kingsburg's native agents: ``random``, ``greedy`` and ``expert`` in C++ (src/agents/), bit-exact with the Python
ones (`ktenv.gamekit.random_agent.RandomAgent`, agents/kingsburg/heuristic.py).

`NativeRandomAgent`, `NativeGreedyAgent` and `NativeExpertAgent` have the Python agents' interface
(``act(observation, action_mask)``, ``reset(seed)``, ``name``, ``needs_observation``) and make the same choices on
the same observations: the random agent draws what ``numpy.random.default_rng(seed).integers`` draws (numpy's
generator reimplemented natively), the heuristics price and score in float64 in the Python order. They read only
the observation vector and the mask (tests/kingsburg/test_kingsburg_native_agents.py compares every decision).
"""

from __future__ import annotations

import numpy as np

from ...gamekit.native import seed_words
from . import core

KINDS = {"random": 1, "greedy": 2, "expert": 3}  # the native codes (also the batched games' seat codes)


class NativeAgent:
    """One native agent of kind `name` (see the module's docstring)."""

    name = ""
    needs_observation = True

    def __init__(self, seed: int | None = None) -> None:
        self._native = core().Agent(KINDS[self.name], seed_words(seed))

    def reset(self, seed: int | None = None) -> None:
        self._native.reset(seed_words(seed))

    def act(self, observation, action_mask: np.ndarray) -> int:
        if isinstance(observation, dict):
            observation = observation["observation"]
        mask = np.ascontiguousarray(np.asarray(action_mask) != 0).view(np.int8).ravel()
        if observation is None:
            if self.needs_observation and np.count_nonzero(mask) > 1:
                raise ValueError(f"{self.name} needs the observation")
            obs = np.zeros(0, np.float32)
        else:
            obs = np.ascontiguousarray(observation, dtype=np.float32).ravel()
        return int(self._native.act(obs, mask))


class NativeRandomAgent(NativeAgent):
    name = "random"
    needs_observation = False


class NativeGreedyAgent(NativeAgent):
    name = "greedy"


class NativeExpertAgent(NativeAgent):
    name = "expert"


AGENT_CLASSES = {cls.name: cls for cls in (NativeRandomAgent, NativeGreedyAgent, NativeExpertAgent)}

"""The agent protocol."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation, action_mask: np.ndarray) -> int: ...

"""Agents behind one protocol: `act(observation, action_mask) -> int` and `reset(seed)`.

`agents.make("random")` builds a registered agent by name.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent
from .random_agent import RandomAgent

_REGISTRY: dict[str, Callable[..., Agent]] = {"random": RandomAgent}


def register(name: str, factory: Callable[..., Agent]) -> None:
    _REGISTRY[name] = factory


def names() -> list[str]:
    return sorted(_REGISTRY)


def make(name: str, **kwargs) -> Agent:
    if name not in _REGISTRY:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(names())})")
    return _REGISTRY[name](**kwargs)


__all__ = ["Agent", "RandomAgent", "make", "names", "register"]

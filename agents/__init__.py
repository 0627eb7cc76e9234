"""Agents behind one protocol: `act(observation, action_mask) -> int` and `reset(seed)`.

`agents.make("random")` builds a registered agent by name (`agents.names()` lists them,
`agents.register(name, factory)` adds one):

- ``random``: uniform over the legal actions (reads only the mask).
- ``greedy``: scores every legal action one step ahead by a simple evaluation of its own facts
  (income, hexes, army strength, forts, gold), read from the observation (`agents.greedy`).
- ``expert``: a rule-based player with a plan: Citadel on one home hex, exploration with real
  stacks, bribes, garrisons, assaults on enemy Citadels, events and items used with sense
  (`agents.expert`).

``observation`` is what the PettingZoo env gives (the dict with ``observation`` and
``action_mask``) or the vector alone; the rule-based agents decode it by name with
`agents.view.View` and never see the engine's state. Agents with ``needs_observation = True``
need the vector; the arena encodes it only for them.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent
from .expert import ExpertAgent
from .greedy import GreedyAgent
from .random_agent import RandomAgent

_REGISTRY: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "greedy": GreedyAgent, "expert": ExpertAgent}


def register(name: str, factory: Callable[..., Agent]) -> None:
    _REGISTRY[name] = factory


def names() -> list[str]:
    return sorted(_REGISTRY)


def make(name: str, **kwargs) -> Agent:
    if name not in _REGISTRY:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(names())})")
    return _REGISTRY[name](**kwargs)


__all__ = ["Agent", "ExpertAgent", "GreedyAgent", "RandomAgent", "make", "names", "register"]

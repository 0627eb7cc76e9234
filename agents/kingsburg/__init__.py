"""Kingsburg agents behind the same protocol as the Kings & Things ones (`act(observation, action_mask)`,
`reset(seed)`), by name:

- ``random``: uniform over the legal actions.
- ``greedy``: each decision by its immediate worth (`heuristic.GreedyAgent`).
- ``expert``: prices from a building plan and the coming battle, a look-ahead over its own dice,
  soldiers by expected battle value (`heuristic.ExpertAgent`).
- ``FILE.py:NAME``: your own class or factory, as for Kings & Things.
- ``ppo:PATH`` / ``ppo-sample:PATH``: a model trained by ``ktenv train`` on a Kingsburg config.

They read only the observation (`view.View`) and the mask.
"""

from __future__ import annotations

from collections.abc import Callable

from ktenv.random_agent import RandomAgent

from .heuristic import ExpertAgent, GreedyAgent

_REGISTRY: dict[str, Callable] = {"random": RandomAgent, "greedy": GreedyAgent, "expert": ExpertAgent}


def names() -> list[str]:
    return sorted(_REGISTRY)


def register(name: str, factory: Callable) -> None:
    _REGISTRY[name] = factory


def known(name: str) -> bool:
    from .. import _is_file_spec

    prefix, sep, arg = name.partition(":")
    return name in _REGISTRY or _is_file_spec(name) or bool(sep and arg and prefix in ("ppo", "ppo-sample"))


def make(name: str, **kwargs):
    """The Kingsburg agent called `name`."""
    from .. import _PREFIXES, _from_file, _is_file_spec

    if name in _REGISTRY:
        return _REGISTRY[name](**kwargs)
    prefix, sep, arg = name.partition(":")
    if sep and arg and prefix in ("ppo", "ppo-sample"):
        return _PREFIXES[prefix](arg, **kwargs)
    if _is_file_spec(name):
        return _from_file(name, **kwargs)
    raise ValueError(f"unknown Kingsburg agent '{name}' (known: {', '.join(names())}, ppo:PATH, FILE.py:CLASS)")


__all__ = ["ExpertAgent", "GreedyAgent", "RandomAgent", "known", "make", "names", "register"]

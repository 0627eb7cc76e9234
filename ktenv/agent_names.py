"""Agent names for the environments: a small registry below ``ktenv.env`` that ``ktenv.agents`` fills.

``SingleAgentEnv(opponents="greedy")`` resolves the name here (`make`), so the environments never
import ``ktenv.agents`` (nor ``ktenv.training``). ``ktenv.agents`` registers its own resolver when it
is imported (``agents.make``: every registered name, ``prefix:argument`` and ``FILE.py:CLASS``).
Without it only ``random`` (`ktenv.random_agent`) is known; a name not known then makes the registry
load the package that fills it, ``ktenv.agents``, once by its name (``importlib``: a plug-in look-up,
no import dependency of the env on the agents), and ask again.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .random_agent import RandomAgent

PROVIDER = "ktenv.agents"  # the package that registers the full resolver when imported
_resolver: Callable[..., Any] | None = None


def register_resolver(resolve: Callable[..., Any]) -> None:
    """``resolve(name, **kwargs)`` -> an agent, or ValueError for an unknown name."""
    global _resolver
    _resolver = resolve


def make(name: str, **kwargs: Any) -> Any:
    """The agent called `name` (ValueError when no resolver knows it)."""
    if _resolver is None:
        if name == RandomAgent.name:
            return RandomAgent(**kwargs)
        importlib.import_module(PROVIDER)  # registers its resolver
        if _resolver is None:
            raise ValueError(f"unknown agent '{name}' ({PROVIDER} registered no resolver)")
    return _resolver(name, **kwargs)

"""Uniform over the legal actions; its own generator, never the game's dice (`ktenv.random_agent`,
below the environments, which seat it as their default opponent)."""

from __future__ import annotations

from ..random_agent import RandomAgent

__all__ = ["RandomAgent"]

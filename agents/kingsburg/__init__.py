"""Kingsburg agents behind the same protocol as the Kings & Things ones (`act(observation, action_mask)`,
`reset(seed)`), by name (`AGENTS`; ``ktenv.agents.make(name, game="kingsburg")``):

- ``random``: uniform over the legal actions.
- ``greedy``: each decision by its immediate worth (`heuristic.GreedyAgent`).
- ``expert``: prices from a building plan and the coming battle, a look-ahead over its own dice,
  soldiers by expected battle value (`heuristic.ExpertAgent`).

These three play in native code where the Kingsburg engine is built (`ktenv.kingsburg.native.agents`: the same
choices, bit for bit), else in Python.
- ``human``: a person at the terminal (`ktenv.agents.human`; the seat's view in `human_view`).
- the shared names: ``ppo:PATH``, ``ppo-sample:PATH``, ``rllib:PATH``, ``FILE.py:CLASS`` (`ktenv.agents`).

They read only the observation (`view.View`) and the mask.
"""

from __future__ import annotations

from ...gamekit.random_agent import RandomAgent
from .. import AgentTable
from ..base import Agent
from .heuristic import ExpertAgent, GreedyAgent
from .human_view import make as _human

_PYTHON = {"random": RandomAgent, "greedy": GreedyAgent, "expert": ExpertAgent}


def _native_or_python(name: str):
    def make(**kwargs) -> Agent:
        from ktenv.kingsburg import native

        if native.available() and hasattr(native.core(), "Agent"):
            from ktenv.kingsburg.native.agents import AGENT_CLASSES

            return AGENT_CLASSES[name](**kwargs)
        return _PYTHON[name](**kwargs)

    make.__doc__ = f"``{name}``: in native code where the Kingsburg engine is built (the same choices), else Python."
    return make


AGENTS = AgentTable("Kingsburg", {**{name: _native_or_python(name) for name in _PYTHON}, "human": _human})

__all__ = ["AGENTS", "ExpertAgent", "GreedyAgent"]

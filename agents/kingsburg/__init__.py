"""Kingsburg agents behind the same protocol as the Kings & Things ones (`act(observation, action_mask)`,
`reset(seed)`), by name (`AGENTS`; ``ktenv.agents.make(name, game="kingsburg")``):

- ``random``: uniform over the legal actions.
- ``greedy``: each decision by its immediate worth (`heuristic.GreedyAgent`).
- ``expert``: prices from a building plan and the coming battle, a look-ahead over its own dice,
  soldiers by expected battle value (`heuristic.ExpertAgent`).
- ``human``: a person at the terminal (`ktenv.agents.human`; the seat's view in `human_view`).
- the shared names: ``ppo:PATH``, ``ppo-sample:PATH``, ``rllib:PATH``, ``FILE.py:CLASS`` (`ktenv.agents`).

They read only the observation (`view.View`) and the mask.
"""

from __future__ import annotations

from .. import AgentTable
from .heuristic import ExpertAgent, GreedyAgent
from .human_view import make as _human

AGENTS = AgentTable("Kingsburg", {"greedy": GreedyAgent, "expert": ExpertAgent, "human": _human})

__all__ = ["AGENTS", "ExpertAgent", "GreedyAgent"]

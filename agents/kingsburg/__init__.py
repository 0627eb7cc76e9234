"""Kingsburg agents behind the same protocol as the Kings & Things ones (`act(observation, action_mask)`,
`reset(seed)`), by name (`AGENTS`; ``ktenv.agents.make(name, game="kingsburg")``):

- ``random``: uniform over the legal actions.
- ``greedy``: each decision by its immediate worth (`heuristic.GreedyAgent`).
- ``expert``: prices from a building plan and the coming battle, a look-ahead over its own dice,
  soldiers by expected battle value (`heuristic.ExpertAgent`).
- ``search``: the expert's move checked by paired evaluation over worlds its seat cannot tell apart, in native
  code (`search.SearchAgent`); ``search:OPTIONS`` sets its budget and options.
- ``human``: a person at the terminal (`ktenv.agents.human`; the seat's view in `human_view`).
- the shared names: ``ppo:PATH``, ``ppo-sample:PATH``, ``rllib:PATH``, ``FILE.py:CLASS`` (`ktenv.agents`).

They read only the observation (`view.View`) and the mask; ``search`` also samples worlds its seat cannot
tell apart (`ktenv.kingsburg.worlds`).
"""

from __future__ import annotations

from .. import AgentTable
from .heuristic import ExpertAgent, GreedyAgent
from .human_view import make as _human
from .search import SearchAgent, make_with_options

AGENTS = AgentTable("Kingsburg", {"greedy": GreedyAgent, "expert": ExpertAgent, "search": SearchAgent,
                                  "human": _human}, {"search": make_with_options})

__all__ = ["AGENTS", "ExpertAgent", "GreedyAgent", "SearchAgent"]

"""Kings & Things agents, by name (`AGENTS`; `ktenv.agents.make(name)` reaches them, this being the
default game):

- ``random``: uniform over the legal actions (reads only the mask).
- ``greedy``: scores every legal action one step ahead by a simple evaluation of its own facts
  (income, hexes, army strength, forts, gold), read from the observation (`greedy`; played by its
  native port, `ktenv.kings_and_things.native.agents`, where the native core is built: the same choices).
- ``expert``: a rule-based player with a plan: Citadel on one home hex, exploration with real
  stacks, bribes, garrisons, assaults on enemy Citadels, events and items used with sense
  (`expert`; played by its native port, `ktenv.kings_and_things.native.expert`: the same choices).
- ``ismcts`` / ``ismcts:OPTIONS``: information-set Monte Carlo search over worlds its seat cannot tell
  apart (`ismcts`). The bare name plays the strongest setting measured (paired root evaluation,
  `ismcts.STRONGEST`); options start from the first version's tree, e.g.
  ``ismcts:playouts=200,c=0.05,rollout=greedy,cutoff=50`` or ``ismcts:seconds=0.5``. It sets
  ``needs_worlds`` (see `ktenv.agents.base`).
- ``human``: a person at the terminal (`ktenv.agents.human`; the seat's view in `human_view`).
- the shared names: ``ppo:PATH``, ``ppo-sample:PATH``, ``rllib:PATH``, ``FILE.py:CLASS`` (`ktenv.agents`).

The rule-based agents decode the observation by name with `view.View` and never see the engine's state.
"""

from __future__ import annotations

from .. import AgentTable
from ..base import Agent
from .expert import ExpertAgent
from .greedy import GreedyAgent
from .human_view import make as _human
from .ismcts import ISMCTSAgent
from .ismcts import make_strongest as _ismcts
from .ismcts import make_with_options as _ismcts_with_options


def _greedy(**kwargs) -> Agent:
    """``greedy``: in native code where the core is built (the same scores and choices as `GreedyAgent`, bit
    for bit, about 100x faster), else the Python agent."""
    from ktenv.kings_and_things import native

    if native.available() and hasattr(native.core(), "Greedy"):
        from ktenv.kings_and_things.native.agents import NativeGreedyAgent

        return NativeGreedyAgent(**kwargs)
    return GreedyAgent(**kwargs)


def _expert(**kwargs) -> Agent:
    """``expert``: in native code where the core is built (the same scores and choices as `ExpertAgent`, bit
    for bit), else the Python agent."""
    from ktenv.kings_and_things import native

    if native.available() and hasattr(native.core(), "Expert"):
        from ktenv.kings_and_things.native.expert import NativeExpertAgent

        return NativeExpertAgent(**kwargs)
    return ExpertAgent(**kwargs)


AGENTS = AgentTable("Kings & Things", {"greedy": _greedy, "expert": _expert, "ismcts": _ismcts,
                                       "human": _human},
                    {"ismcts": _ismcts_with_options})

__all__ = ["AGENTS", "ExpertAgent", "GreedyAgent", "ISMCTSAgent"]

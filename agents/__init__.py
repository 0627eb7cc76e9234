"""Agents behind one protocol: `act(observation, action_mask) -> int` and `reset(seed)`.

`agents.make("random")` builds a registered agent by name (`agents.names()` lists them,
`agents.register(name, factory)` adds one):

- ``random``: uniform over the legal actions (reads only the mask).
- ``greedy``: scores every legal action one step ahead by a simple evaluation of its own facts
  (income, hexes, army strength, forts, gold), read from the observation (`agents.greedy`; played
  by its native port, `ktenv.native.agents`, where the native core is built: the same choices).
- ``expert``: a rule-based player with a plan: Citadel on one home hex, exploration with real
  stacks, bribes, garrisons, assaults on enemy Citadels, events and items used with sense
  (`agents.expert`; played by its native port, `ktenv.native.expert`, where the native core is built:
  the same choices).
- ``ismcts`` / ``ismcts:OPTIONS``: information-set Monte Carlo tree search over worlds its seat
  cannot tell apart (`agents.ismcts`), e.g. ``ismcts:playouts=200,c=0.05,rollout=greedy,cutoff=50``
  or ``ismcts:seconds=0.5``. It sets ``needs_worlds`` (see `agents.base`).
- ``ppo:PATH`` / ``ppo-sample:PATH``: a model trained by ``ktenv train`` (`agents.ppo`; needs the
  ``train`` extra), playing its best legal action or sampling from its policy.
- ``rllib:PATH``: a model trained on RLlib (``ktenv train`` with ``trainer: rllib``; `agents.rllib_agent`,
  needs torch only), playing its best legal action.

A name ``prefix:argument`` goes to the factory registered for that prefix
(`agents.register_prefix`), called with the argument and the keyword arguments. Your own bot
needs no registration: ``FILE.py:NAME`` loads class (or factory) ``NAME`` from that file and
calls it with ``seed=`` (``ktenv tournament --agents bots/mine.py:MyAgent,random``).

``observation`` is what the PettingZoo env gives (the dict with ``observation`` and
``action_mask``) or the vector alone; the rule-based agents decode it by name with
`agents.view.View` and never see the engine's state. Agents with ``needs_observation = True``
need the vector; the arena encodes it only for them. Agents with ``needs_worlds = True`` also get
``observation["worlds"]``, a `ktenv.worlds.WorldSampler` for their seat (`agents.base`).

In a comma-separated list of agents (``--agents``), an item ``KEY=VALUE`` with no ``:`` before
its ``=`` continues the options of the agent before it: ``ismcts:playouts=50,c=1,expert`` is
two agents (`split_names`).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import agent_names
from .base import Agent
from .expert import ExpertAgent
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent
from .ismcts import make_with_options as _ismcts_with_options
from .random_agent import RandomAgent


def _greedy(**kwargs) -> Agent:
    """``greedy``: in native code where the core is built (ktenv.native.agents: the same scores and choices
    as `GreedyAgent`, bit for bit, about 100x faster), else the Python agent."""
    from .. import native

    if native.available() and hasattr(native.core(), "Greedy"):
        from ..native.agents import NativeGreedyAgent

        return NativeGreedyAgent(**kwargs)
    return GreedyAgent(**kwargs)


def _expert(**kwargs) -> Agent:
    """``expert``: in native code where the core is built (ktenv.native.expert: the same scores and choices
    as `ExpertAgent`, bit for bit), else the Python agent."""
    from .. import native

    if native.available() and hasattr(native.core(), "Expert"):
        from ..native.expert import NativeExpertAgent

        return NativeExpertAgent(**kwargs)
    return ExpertAgent(**kwargs)


_REGISTRY: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "greedy": _greedy, "expert": _expert,
                                              "ismcts": ISMCTSAgent}


def _ppo(kind: str) -> Callable[..., Agent]:
    def factory(path: str, **kwargs) -> Agent:
        from . import ppo

        return (ppo.make_deterministic if kind == "ppo" else ppo.make_sampled)(path, **kwargs)

    return factory


def _rllib(path: str, **kwargs) -> Agent:
    from . import rllib_agent

    return rllib_agent.make(path, **kwargs)


_PREFIXES: dict[str, Callable[..., Agent]] = {"ppo": _ppo("ppo"), "ppo-sample": _ppo("ppo-sample"),
                                              "ismcts": _ismcts_with_options, "rllib": _rllib}


def register(name: str, factory: Callable[..., Agent]) -> None:
    _REGISTRY[name] = factory


def register_prefix(prefix: str, factory: Callable[..., Agent]) -> None:
    """Names ``prefix:argument`` make ``factory(argument, **kwargs)``."""
    _PREFIXES[prefix] = factory


def names() -> list[str]:
    return sorted(_REGISTRY)


def known(name: str) -> bool:
    """A registered name, ``prefix:argument`` with a registered prefix, or ``FILE.py:NAME``."""
    prefix, sep, arg = name.partition(":")
    return name in _REGISTRY or bool(sep and arg and prefix in _PREFIXES) or _is_file_spec(name)


def split_names(text: str) -> list[str]:
    """Agent names from a comma-separated list; an item ``KEY=VALUE`` (no ``:`` before the ``=``)
    belongs to the agent before it: ``ismcts:playouts=50,c=1,expert`` -> ["ismcts:playouts=50,c=1", "expert"]."""
    out: list[str] = []
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        key, sep, _ = item.partition("=")
        if sep and ":" not in key and out and ":" in out[-1]:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def _is_file_spec(name: str) -> bool:
    path, sep, attr = name.rpartition(":")
    return bool(sep and attr.isidentifier() and path.endswith(".py"))


def _from_file(name: str, **kwargs) -> Agent:
    """``FILE.py:NAME``: the class or factory NAME of a Python file, called with the keyword arguments."""
    import importlib.util
    import inspect
    import sys
    from pathlib import Path

    path, _, attr = name.rpartition(":")
    file = Path(path).expanduser().resolve()
    if not file.is_file():
        raise ValueError(f"agent '{name}': no such file {path}")
    module_name = f"_ktenv_agent_{abs(hash(str(file)))}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[module_name] = module
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise ValueError(f"agent '{name}': {path} defines no class or function '{attr}'")
    accepted = inspect.signature(factory).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
        kwargs = {k: v for k, v in kwargs.items() if k in accepted}
    agent = factory(**kwargs)
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"agent '{name}': {attr}() made an object without act(observation, action_mask)")
    return agent


def make(name: str, **kwargs) -> Agent:
    """The agent called `name` (also what the environments resolve opponent names with: `ktenv.agent_names`)."""
    if name in _REGISTRY:
        return _REGISTRY[name](**kwargs)
    prefix, sep, arg = name.partition(":")
    if sep and arg and prefix in _PREFIXES:
        return _PREFIXES[prefix](arg, **kwargs)
    if _is_file_spec(name):
        return _from_file(name, **kwargs)
    raise ValueError(f"unknown agent '{name}' (known: {', '.join(names())}, "
                     f"{', '.join(p + ':PATH' for p in sorted(_PREFIXES))}, or FILE.py:CLASS)")


agent_names.register_resolver(make)  # SingleAgentEnv(opponents="greedy") and the like

__all__ = ["Agent", "ExpertAgent", "GreedyAgent", "ISMCTSAgent", "RandomAgent", "known", "make", "names",
           "register", "register_prefix", "split_names"]

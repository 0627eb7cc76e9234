"""Agents behind one protocol: `act(observation, action_mask) -> int` and `reset(seed)` (`agents.base`).

Each game has its agents in its own folder (``agents/<game>/``) and names them in an `AgentTable`;
`make(name, game=None)` builds one by name for a game (the default game when None), `names(game)` lists
them and `register(name, factory, game=)` adds one. Names every game shares:

- ``random``: uniform over the legal actions (reads only the mask).
- ``ppo:PATH`` / ``ppo-sample:PATH``: a model trained by ``ktenv train`` (`agents.ppo`; needs the
  ``train`` extra), playing its best legal action or sampling from its policy.
- ``rllib:PATH``: a model trained on RLlib (``ktenv train`` with ``trainer: rllib``; `agents.rllib_agent`,
  needs torch only), playing its best legal action.
- ``FILE.py:NAME``: your own bot, with no registration: the class (or factory) ``NAME`` of that file,
  called with ``seed=`` (``ktenv tournament --agents bots/mine.py:MyAgent,random``).
- ``cmd:COMMAND``: a bot in any language, a process per seat and game speaking JSON lines on its stdin and
  stdout (`agents.stdio`, docs/bots.md); ``cmd:timeout=2 python bot.py`` sets its time per decision.
- ``llm:OPTIONS``: a language model behind an OpenAI-compatible endpoint, reading the seat's view as text
  (`agents.llm`): ``llm:url=http://localhost:8000/v1,model=NAME``.
- ``handoff:to=AGENT;kinds=A+B;model=SPEC``: the agent SPEC, except at the decisions of the kinds named, which
  AGENT makes (`agents.handoff`; the decision ablation of `ktenv.analysis.ablation`).

A name ``prefix:argument`` goes to the factory registered for that prefix (`register_prefix`). The
game's own names (``greedy``, ``expert``, a search, ...) are listed in the docstring of its folder.

``observation`` is what the PettingZoo env gives (the dict with ``observation`` and ``action_mask``) or
the vector alone; agents with ``needs_observation = True`` need the vector (the arena encodes it only
for them), agents with ``needs_worlds = True`` also get ``observation["worlds"]`` (`agents.base`).

In a comma-separated list of agents (``--agents``), an item ``KEY=VALUE`` with no ``:`` before
its ``=`` continues the options of the agent before it: ``ismcts:playouts=50,c=1,expert`` is
two agents (`ktenv.gamekit.cli.split_names`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ConfigError, did_you_mean
from ..gamekit.random_agent import RandomAgent
from .base import Agent


def _ppo(kind: str) -> Callable[..., Agent]:
    def factory(path: str, **kwargs) -> Agent:
        from . import ppo

        return (ppo.make_deterministic if kind == "ppo" else ppo.make_sampled)(path, **kwargs)

    return factory


def _rllib(path: str, **kwargs) -> Agent:
    from . import rllib_agent

    return rllib_agent.make(path, **kwargs)


def _stdio(argument: str, **kwargs) -> Agent:
    from . import stdio

    return stdio.make(argument, **kwargs)


def _llm(argument: str, **kwargs) -> Agent:
    from . import llm

    return llm.make(argument, **kwargs)


def _handoff(argument: str, **kwargs) -> Agent:
    from . import handoff

    return handoff.make(argument, make, **kwargs)  # its two agents by name, of the same game


def _stdio_source(argument: str):
    from . import stdio

    return stdio.source_file(argument)


# AgentTable.make names the game they play (their messages say it; a hand-over makes its two agents of it)
_stdio.needs_game = _llm.needs_game = _handoff.needs_game = True
_stdio.source_file = _stdio_source  # the file a bot runs from: its digest identifies it (arena.config.agent_file)

# prefixes every game's table knows (a trained model of that game, a bot speaking the stdio protocol, a language model)
SHARED_PREFIXES: dict[str, Callable[..., Agent]] = {"ppo": _ppo("ppo"), "ppo-sample": _ppo("ppo-sample"),
                                                    "rllib": _rllib, "cmd": _stdio, "llm": _llm,
                                                    "handoff": _handoff}
PREFIX_FORMS = {"cmd": "cmd:COMMAND", "llm": "llm:OPTIONS", "handoff": "handoff:OPTIONS"}


class AgentTable:
    """One game's agents by name: its own names and prefixes beside the shared ones."""

    def __init__(self, title: str, named: dict[str, Callable[..., Agent]],
                 prefixes: dict[str, Callable[..., Agent]] | None = None) -> None:
        self.title = title
        self.named = {"random": RandomAgent, **named}
        self.prefixes = {**SHARED_PREFIXES, **(prefixes or {})}

    def names(self) -> list[str]:
        return sorted(self.named)

    def game(self) -> str:
        """The registered game whose table this is."""
        from ..registry import game, names

        for name in names():
            if game(name).agents.AGENTS is self:
                return name
        raise ValueError(f"the agents of {self.title} belong to no registered game")

    def register(self, name: str, factory: Callable[..., Agent]) -> None:
        self.named[name] = factory

    def register_prefix(self, prefix: str, factory: Callable[..., Agent]) -> None:
        """Names ``prefix:argument`` make ``factory(argument, **kwargs)``."""
        self.prefixes[prefix] = factory

    def known(self, name: str) -> bool:
        """A registered name, ``prefix:argument`` with a registered prefix, or ``FILE.py:NAME``."""
        prefix, sep, arg = name.partition(":")
        return name in self.named or bool(sep and arg and prefix in self.prefixes) or is_file_spec(name)

    def make(self, name: str, **kwargs) -> Agent:
        if name in self.named:
            return self.named[name](**kwargs)
        prefix, sep, arg = name.partition(":")
        if sep and arg and prefix in self.prefixes:
            factory = self.prefixes[prefix]
            if getattr(factory, "needs_game", False):
                kwargs.setdefault("game", self.game())
            return factory(arg, **kwargs)
        if is_file_spec(name):
            return from_file(name, **kwargs)
        forms = [PREFIX_FORMS.get(p, p + (":PATH" if p in SHARED_PREFIXES else ":OPTIONS"))
                 for p in sorted(self.prefixes)]
        raise ValueError(f"unknown agent '{name}' for {self.title}{did_you_mean(name, self.names())} "
                         f"(known: {', '.join(self.names())}, {', '.join(forms)}, or FILE.py:CLASS)")


def table(game: str | None = None) -> AgentTable:
    """The agent table of `game` (the default game when None)."""
    from ..registry import game as lookup

    return lookup(game).agents.AGENTS


def make(name: str, game: str | None = None, **kwargs) -> Agent:
    """The agent called `name` for `game` (the default game when None)."""
    return table(game).make(name, **kwargs)


def known(name: str, game: str | None = None) -> bool:
    return table(game).known(name)


def names(game: str | None = None) -> list[str]:
    return table(game).names()


def register(name: str, factory: Callable[..., Agent], game: str | None = None) -> None:
    table(game).register(name, factory)


def register_prefix(prefix: str, factory: Callable[..., Agent], game: str | None = None) -> None:
    table(game).register_prefix(prefix, factory)


MODEL_PREFIXES = tuple(SHARED_PREFIXES)  # agents played from a model file that records its game


def model_game(name: str) -> tuple[str, int] | None:
    """(game, players) that the model behind `name` (``ppo:PATH``, ``ppo-sample:PATH``, ``rllib:PATH``) was trained
    for, read from the file's ``ktenv.json`` without loading the network; None for any other agent or a file that
    cannot be read (loading it then says why). A model that names no game is of the default game (older files)."""
    import json
    import zipfile
    from pathlib import Path

    from ..registry import default

    prefix, sep, path = name.partition(":")
    if not sep or prefix not in MODEL_PREFIXES:
        return None
    try:
        with zipfile.ZipFile(Path(path).expanduser()) as archive:
            game = json.loads(archive.read("ktenv.json").decode()).get("game")
        return str(game.get("game") or default().name), int(game["n_players"])
    except (OSError, KeyError, TypeError, ValueError, AttributeError, zipfile.BadZipFile):
        return None


def check_models(names: list[str], game: str, players: int, key: str) -> None:
    """A model trained for another game or player count is refused before any game, naming both."""
    for name in names:
        made_for = model_game(name)
        if made_for is not None and made_for != (game, players):
            raise ConfigError(f"{key}: {name} is a model of {made_for[0]} for {made_for[1]} players; this plays "
                              f"{game} with {players} players")


def is_file_spec(name: str) -> bool:
    path, sep, attr = name.rpartition(":")
    return bool(sep and attr.isidentifier() and path.endswith(".py"))


def from_file(name: str, **kwargs) -> Agent:
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


__all__ = ["Agent", "AgentTable", "RandomAgent", "check_models", "is_file_spec", "known", "make", "model_game",
           "names", "register", "register_prefix", "table"]

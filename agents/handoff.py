"""``handoff:OPTIONS``: a player that makes the decisions of chosen kinds with another agent.

    handoff:to=expert;kinds=build+move_select;model=ppo:models/ppo_2p.zip
    handoff:to=expert;only=build;model=ppo:models/ppo_2p.zip

``model`` (last: the rest of the name is its spec) plays every decision except those of the kinds named,
which ``to`` makes; with ``only=`` instead of ``kinds=``, ``model`` makes the decisions of those kinds and
``to`` all the others. The kinds are the pending decision's one-hot columns of the observation's ``game``
section, named without their ``decision_`` prefix (`decision_kinds` lists them); ``kinds=all`` hands
every decision over, ``kinds=none`` none. The decision ablation (`ktenv.analysis.ablation`) plays these
against a fixed opponent to find the kinds of decisions where a policy loses its games.

``to`` is asked at every decision, and told the action played where its own was not (`tell_played`): an
agent that keeps a plan (``expert``'s moving stack) then follows the game as it went, so its handed-over
decisions never carry out a plan the game left behind. Both agents see only the seat's observation.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from ..errors import ConfigError
from .base import tell_played

DECISION_GROUPS = ("decision", "decision_*")  # the group of the pending decision's one-hot columns
PREFIX = "decision_"


def parse(argument: str) -> tuple[str, str, tuple[str, ...], bool]:
    """``to=REF;kinds=A+B;model=SPEC`` -> (model, reference, kinds, False); ``only=A+B`` instead of ``kinds=``:
    (..., True). ``model`` must come last."""
    head, sep, model = argument.partition("model=")
    if not sep or not model:
        raise ConfigError(f"handoff:{argument}: name the policy last, as model=SPEC")
    options: dict[str, str] = {}
    for item in filter(None, (t.strip() for t in head.split(";"))):
        key, eq, value = item.partition("=")
        if not eq or key not in ("to", "kinds", "only") or key in options:
            raise ConfigError(f"handoff:{argument}: unknown or repeated option {item!r} "
                              "(to=AGENT;kinds=A+B;model=SPEC)")
        options[key] = value
    if ("kinds" in options) == ("only" in options):
        raise ConfigError(f"handoff:{argument}: name the kinds handed over (kinds=A+B, kinds=all, kinds=none) "
                          f"or those the model keeps (only=A+B)")
    only = "only" in options
    kinds = tuple(k for k in options["only" if only else "kinds"].split("+") if k)
    return model, options.get("to", "expert"), kinds or ("none",), only


@cache
def _decision_columns(game: str, size: int) -> tuple[int, tuple[str, ...]]:
    """(first index, kind names) of the decision one-hot in an observation of `size` of `game`."""
    from ..registry import game as lookup

    spec = lookup(game)
    if not spec.has("bot_view"):
        raise ConfigError(f"handoff: {spec.title} has no layout to read a decision's kind from (its 'bot_view' part)")
    layout = spec.bot_view.layout(np.zeros(size, np.float32))
    section = layout.sections["game"]
    names = [c.name for c in section.columns if c.group in DECISION_GROUPS]
    if not names:
        raise ConfigError(f"handoff: {spec.title}'s observation has no decision columns")
    first = section.offset(names[0])
    if [section.offset(n) for n in names] != list(range(first, first + len(names) * section.rows, section.rows)):
        raise ConfigError(f"handoff: {spec.title}'s decision columns are not one block")
    return first, tuple(n[len(PREFIX):] if n.startswith(PREFIX) else n for n in names)


def decision_kinds(game: str, observation: np.ndarray) -> tuple[str, ...]:
    """The names of the decision kinds of `game`'s observations like this one, in code order."""
    return _decision_columns(game, int(np.asarray(observation).size))[1]


class HandOff:
    """`model` everywhere but at the `kinds` handed to `reference`; with `only`, `model` at those kinds alone
    (see the module's docstring)."""

    needs_observation = True

    def __init__(self, model, reference, kinds: tuple[str, ...], game: str, only: bool = False) -> None:
        self.model, self.reference, self.game = model, reference, game
        self.kinds, self.only = frozenset(kinds), only
        self.needs_worlds = any(getattr(a, "needs_worlds", False) for a in (model, reference))
        self.needs_seat = any(getattr(a, "needs_seat", False) for a in (model, reference))
        self._checked = False

    def reset(self, seed: int | None = None) -> None:
        self.model.reset(seed)
        self.reference.reset(seed)

    def kind(self, vector: np.ndarray) -> str:
        first, names = _decision_columns(self.game, int(vector.size))
        if not self._checked:
            unknown = self.kinds - set(names) - {"all", "none"}
            if unknown:
                raise ConfigError(f"handoff: no decision kind {', '.join(sorted(unknown))} in this game "
                                  f"(known: {', '.join(names)})")
            self._checked = True
        return names[int(np.argmax(vector[first:first + len(names)]))]

    def act(self, observation, action_mask: np.ndarray) -> int:
        vector = np.asarray(observation["observation"] if isinstance(observation, dict) else observation)
        named = "all" in self.kinds or ("none" not in self.kinds and self.kind(vector) in self.kinds)
        handed = named != self.only
        theirs = int(self.reference.act(observation, action_mask.copy()))
        if handed:
            return theirs
        mine = int(self.model.act(observation, action_mask.copy()))
        if mine != theirs:
            tell_played(self.reference, mine)
        return mine

    def close(self) -> None:
        for agent in (self.model, self.reference):
            closing = getattr(agent, "close", None)
            if closing is not None:
                closing()


def make(argument: str, make_agent: Callable[..., Any], game: str, seed: int | None = None, **kwargs) -> HandOff:
    """The hand-over named by `argument`, its two agents made by `make_agent(name, game=, seed=)`."""
    model, reference, kinds, only = parse(argument)
    return HandOff(make_agent(model, game=game, seed=seed, **kwargs),
                   make_agent(reference, game=game, seed=seed, **kwargs), kinds, game, only)

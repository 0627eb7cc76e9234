"""The agent protocol.

``act(observation, action_mask) -> int`` and ``reset(seed)``. ``observation`` is what the env or
the arena gives: the dict ``{"observation": vector, "action_mask": mask}``, the vector alone, or
None for agents that read only the mask.

Flags an agent class may set:

- ``needs_observation = True``: it reads the observation vector (the arena encodes it only then).
- ``needs_seat = True``: it is told its seat, as ``observation["seat"]`` (a bot in another process names it in
  its hello: `agents.stdio`).
- ``close()``, where an agent has it: called when its game ends, however it ends (a bot's process is killed).
- ``needs_worlds = True``: it searches. At each of its decisions the game's arena,
  `ktenv play` and the single-agent env add ``observation["worlds"]``: the game's world sampler
  for the deciding seat. The handle holds the true state privately and exposes only ``seat`` and
  ``sample(rng) -> GameState``, a full game state that seat cannot tell from the true one (hidden
  counters, the cup, unseen tiles and future dice drawn afresh). The
  agent may step such worlds as it likes; it never gets the true state. (An agent that searches but
  needs no vector gets ``{"action_mask": mask, "worlds": handle}``.)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation, action_mask: np.ndarray) -> int: ...


def tell_played(agent, action: int) -> None:
    """An agent watching another player's game (a teacher labelling a learner's, a reference shadowing a record)
    hears the action played where it was last asked, when that was not its own choice: an agent that keeps a plan
    has ``played(action)`` (the expert: the move under way is now the stack chosen); others are left as they are."""
    told = getattr(agent, "played", None)
    if told is not None:
        told(int(action))


class ModelCache:
    """The model files a process has loaded, keyed by path and modification time: a tournament that makes
    a fresh agent every game loads a file once, and a file rewritten since is loaded again.

    `load(path)` reads one file; `missing` is the error class a missing file raises."""

    def __init__(self, load: Callable[[Path], tuple], missing: type[Exception], most: int = 32) -> None:
        self.load, self.missing, self.most = load, missing, most
        self.loaded: dict[tuple[str, float], tuple] = {}

    def get(self, path: str | Path) -> tuple:
        p = Path(path).expanduser().resolve()
        if not p.is_file():
            raise self.missing(f"{path}: no such model file")
        key = (str(p), os.path.getmtime(p))
        if key not in self.loaded:
            if len(self.loaded) >= self.most:
                self.loaded.clear()
            self.loaded[key] = self.load(p)
        return self.loaded[key]


def parse_options(text: str, types: dict[str, Callable[[str], object]], name: str) -> dict:
    """An agent spec's options, ``key=value,key=value`` (``;`` too) -> keyword arguments, each value converted by
    its type in `types`; a clear ValueError naming the agent `name` for an unknown key or a bad value."""
    out = {}
    for item in filter(None, (t.strip() for t in text.replace(";", ",").split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in types:
            raise ValueError(f"{name} option {item!r}: expected KEY=VALUE with KEY one of {', '.join(types)}")
        try:
            out[key] = types[key](value.strip())
        except ValueError:
            raise ValueError(f"{name} option {key}: {value!r} is not a valid {types[key].__name__}") from None
    return out

"""Kings & Things (R-numbers: docs/rules.md), ktenv's main game.

- Rules data and state: `catalog` (every counter), `board` (hex geometry), `config` (`GameConfig`: the
  options of the rules), `state` (`GameState`: numpy arrays, JSON saves), `procedures` (the typed frames
  of moves, battles and events in progress), `saves_v2` (version 2 saves read into frames), `decisions`
  (the decision codes).
- `engine`: pure rules, one module per part of the turn, each with its C++ twin in `native/src/engine/`.
- `native`: the same rules in C++ (bit-exact), the native agents and the search; `vector`: many games per call.
- `env`: PettingZoo AEC (`env`, `raw_env`), Gymnasium (`SingleAgentEnv`), the observation encoder.
- `arena`, `render`, `summary`, `worlds`: one game between agents, pictures, summaries, the worlds a seat
  cannot tell apart. `dev/`: developer tools (differential runner, header generator, fuzz, playthroughs).
- Its agents live in `ktenv.agents.kings_and_things`; `spec` registers the game (`ktenv.registry`).

The common names are here, loaded on first use: ``from ktenv.kings_and_things import GameConfig, new_game,
step, legal_mask, describe_action, GameState``.
"""

from __future__ import annotations

import importlib

_EXPORTS = {"GameConfig": "config", "GameState": "state", "new_game": "engine", "step": "engine",
            "legal_mask": "engine", "legal_actions": "engine", "describe_action": "engine",
            "IllegalActionError": "engine", "env": "env.aec", "raw_env": "env.aec", "SingleAgentEnv": "env.single"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ktenv.kings_and_things' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value

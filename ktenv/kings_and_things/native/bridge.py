"""What the native core needs from the Python side, in the shape it reads.

`config_numbers(cfg)`: every option of a `GameConfig` as an integer (a choice as its index in
`OPTION_CHOICES`, `max_rounds=None` as 0, the Encounter powers by code), the input of
`_core.Config.from_numbers`. `tables(n_players, house)`: the game's catalog, board and action layout
in native memory, built once per kind of game and shared by every game of a batch.
"""

from __future__ import annotations

import dataclasses
from functools import cache

from .. import catalog as cat
from ..board import board_radius, geometry
from ..config import OPTION_CHOICES, OPTION_FLAGS, GameConfig, power_code
from ..engine.actions import action_layout
from . import core


def config_numbers(cfg: GameConfig) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in dataclasses.fields(GameConfig):
        value = getattr(cfg, f.name)
        if f.name == "powers":
            out["powers"] = [power_code(p) for p in value or ()]  # any spelling power_code reads
        elif f.name in OPTION_CHOICES:
            out[f.name] = OPTION_CHOICES[f.name].index(value)
        elif f.name in OPTION_FLAGS:
            out[f.name] = int(bool(value))
        else:
            out[f.name] = 0 if value is None else int(value)
    return out


@cache
def tables(n_players: int, house: bool = False):
    """The native Tables of a kind of game (catalog, board, action layout), built once."""
    layout = action_layout(n_players, house)
    return core().Tables.from_python(cat.catalog_for(n_players, house), geometry(board_radius(n_players)),
                                     n_players, layout.n_seats)


def rules_for(cfg: GameConfig):
    """The native Rules (options and tables) of a config, cached by its options."""
    key = repr(sorted(config_numbers(cfg).items()))
    if key not in _RULES:
        c = core()
        _RULES[key] = c.Rules.make(c.Config.from_numbers(config_numbers(cfg)),
                                   tables(cfg.n_players, cfg.house_content))
    return _RULES[key]


_RULES: dict = {}


def to_native(s):
    """A Python GameState copied into native memory, bound to its rules."""
    return core().State.from_python_with(s, rules_for(s.cfg))

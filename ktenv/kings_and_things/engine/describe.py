"""What an action means now, in English (`describe_action`): for messages, logs, replays and agents.

C++ twin: none (a native game is described through its Python state: NativeGame.describe_action)
"""

from __future__ import annotations

from .. import catalog as cat
from .. import decisions as D
from ..board import hex_label
from ..constants import TERRAIN_NAMES
from ..state import GameState
from .actions import layout


def describe_action(s: GameState, action: int) -> str:
    """A short English description of `action` in the current decision's context."""
    if type(s) is not GameState:
        s = s.to_python()  # a native game
    lay = layout(s)
    try:
        block, i = lay.split(int(action))
    except ValueError as exc:
        return str(exc)
    context = D.NAMES.get(s.decision, "?")
    if block == "PASS":
        return f"{context}: done / pass"
    if block == "YES":
        if s.decision == D.ASSASSIN_TARGET:  # A.7: the counter is the game's draw among them
            return f"{context}: one of the face-down counters"
        return f"{context}: yes"
    if block == "NUMBER":
        return f"{context}: {i}"
    if block == "HEX":
        terrain = "face down" if s.hex_down[i] else TERRAIN_NAMES[s.hex_terrain[i]]  # R20.3
        return f"{context}: hex {hex_label(s.geo, i)} {terrain}"
    if block == "THING":
        return f"{context}: {cat.THING_NAME[i]} (thing {i})"
    if block == "HERO":
        return f"{context}: {cat.HERO_NAME[i]} (hero {i})"
    if block == "CASH":
        c = lay.treasure_ids[i]
        return f"cash {cat.THING_NAME[c]} for {cat.THING_GOLD[c]} gold"
    if block == "PLAYER":
        return f"{context}: player {i}"
    return f"{context}: direction {('E', 'SE', 'SW', 'W', 'NW', 'NE')[i]}"

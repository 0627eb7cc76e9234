"""R20.3 Mysterious Kadab (house variant, OPTION mysterious_kadab): the tiles are laid face down.

Decisions of RD10.15 built here:
- at setup each start hex and its neighbours are turned up before R3.4 (`turn_up_starts`); a
  second or third hex is turned up when claimed, and a Sea is not claimed (the claim is made again);
- a face-down hex costs 1 MP to enter whatever its terrain, for flyers and walkers alike (the
  terrain is unknown, so nothing about it may decide a legal move: movement's `_step`);
- mysterious_flip=on_exploration: the tile is turned up when the hex is chosen for its exploration
  or contest in the Combat phase (`turn_up_for_combat`); a Sea sends every counter there back to
  the hex it came from (`thing_from` / `hero_from`: the land hex it stood on before its last step);
- mysterious_flip=on_entry ([ER]): the tile is turned up when a moving stack (or a teleporting
  Ahasuerus, R22) enters it; a Sea sends the stack back to the hex it entered from (for flyers over
  Sea: the last land hex they stood on) and ends its move, and sends every counter already there
  (a Portal's, R22.5) back to the hex it came from (`turn_up_on_entry`). The setup is the same in
  both modes;
- Terrain Disaster and Weather Control cannot choose face-down hexes, the Balloon cannot land on one
  (its target must be land, and the terrain is unknown); Big Juju turns its target up first; a Fan
  that blows a Balloon onto a face-down hex turns it up.
Returning counters may overfill their hex; the owner trims it at their next move (RD10.2, RP-5.9).

The hooks (`hooks`): game_setup (lay face down), start_hexes_chosen, combat_hex_chosen,
entered_face_down. What a face-down tile hides for everybody (`known_sea`, `known_land`, `turn_up`)
is in common.py, since every part of the turn asks it (without the option no tile is face down).

Tycho Brahe (R22.4) lets his owner look at face-down hexes: the private knowledge is the state array
``seen[p]`` (per hex; shown only in player p's observation).

C++ twin: native/src/engine/kadab.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CREATURE, NOBODY, SEA
from ..state import GameState
from . import hooks
from .common import to_cup, turn_up
from .heroes import dismiss
from .stacks import allow_overflow

_CREATURE = cat.THING_KIND == CREATURE


def on(s: GameState) -> bool:
    return bool(s.cfg.mysterious_kadab)


@hooks.game_setup.implement("mysterious_kadab")
def lay_face_down(s: GameState) -> None:
    """R20.3: every tile goes on the board face down."""
    if on(s):
        s.hex_down[:] = True


@hooks.start_hexes_chosen.implement("mysterious_kadab")
def turn_up_starts(s: GameState) -> None:
    """RD10.15: start hexes and their neighbours are turned up before R3.4 applies."""
    if not on(s):
        return
    for p in range(s.n_players):
        hx = int(s.start_hex[p])
        if hx >= 0:
            s.hex_down[hx] = False
            s.hex_down[list(s.geo.adjacent[hx])] = False


def record_from(s: GameState, things: np.ndarray, heroes: np.ndarray, dest: int) -> None:
    """RD10.15: counters entering face-down `dest` remember the land hex they stood on."""
    if s.hex_down[dest]:
        s.thing_from[things] = s.thing_hex[things]
        s.hero_from[heroes] = s.hero_hex[heroes]


def send_back(s: GameState, hx: int) -> None:
    """R20.3: the tile of `hx` turned out Sea: every player's creature and hero there returns at once
    to the hex it came from, which it then no longer needs to remember. (A counter without a recorded
    origin cannot occur in play; it would be eliminated rather than left on Sea.)"""
    things = np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx))
    heroes = np.flatnonzero((s.hero_owner != NOBODY) & (s.hero_hex == hx))
    for c in things.tolist():
        back = int(s.thing_from[c])
        if back >= 0 and s.hex_terrain[back] != SEA:
            s.thing_hex[c] = back
        else:
            to_cup(s, c)
    for f in heroes.tolist():
        back = int(s.hero_from[f])
        if back >= 0 and s.hex_terrain[back] != SEA:
            s.hero_hex[f] = back
        else:
            dismiss(s, f)
    for p in range(s.n_players):
        if (s.room_for(p) < 0).any():
            allow_overflow(s, p)  # RD10.2: trimmed by the owner at their next move (RP-5.9)
    s.thing_from[things] = -1
    s.hero_from[heroes] = -1
    clear_from(s, hx)


def turn_up_on_entry(s: GameState, hx: int) -> bool:
    """[ER] mysterious_flip=on_entry: counters entering a face-down tile turn it up. A Sea sends back
    every counter already standing there (sent by a Portal, R22.5); the caller sends back the ones
    entering. True when the tile was Sea."""
    if s.cfg.mysterious_flip != "on_entry" or not s.hex_down[hx]:
        return False
    if turn_up(s, hx):
        send_back(s, hx)
        return True
    return False


@hooks.entered_face_down.implement("mysterious_kadab")
def entered(s: GameState, things: np.ndarray, heroes: np.ndarray, hx: int) -> bool:
    """A moving stack entered face-down `hx`: it remembers where it came from; [ER] the tile may turn
    up (a Sea sends it back: the caller ends the move)."""
    record_from(s, things, heroes, hx)
    return turn_up_on_entry(s, hx)


def clear_from(s: GameState, hx: int | None = None) -> None:
    if hx is None:
        s.thing_from[:] = -1
        s.hero_from[:] = -1
    else:
        s.thing_from[(s.thing_hex == hx) | (s.thing_from == hx)] = -1
        s.hero_from[(s.hero_hex == hx) | (s.hero_from == hx)] = -1


@hooks.combat_hex_chosen.implement("mysterious_kadab")
def turn_up_for_combat(s: GameState, hx: int) -> bool:
    """RD10.15: an exploration or contest hex is turned up before the roll / the contest battle.
    True when it was Sea (the counters went back and the segment is over)."""
    if not s.hex_down[hx]:
        return False
    if turn_up(s, hx):
        send_back(s, hx)
        return True
    s.thing_from[s.thing_hex == hx] = -1
    s.hero_from[s.hero_hex == hx] = -1
    return False


def look(s: GameState, p: int, hexes) -> None:
    """R22.4 Tycho Brahe: player p now knows the terrain of these face-down hexes (private)."""
    for hx in hexes:
        if hx >= 0 and s.hex_down[hx]:
            s.seen[p, hx] = True


def seen(s: GameState, p: int) -> np.ndarray:
    """Per hex: face-down hexes whose terrain player p has seen (R22.4)."""
    return s.seen[p] & s.hex_down

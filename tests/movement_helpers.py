"""Builders for the movement tests: an empty board in the Movement phase, counters placed by hand.

`empty_board` plays a seeded game through setup, then clears it: every Thing back to the cup,
every hero to the pool, no owners, forts, gold or black cloud, every hex the same land terrain.
Tests then lay terrain, owners and counters with the small placers below and call
`start_movement`, which hands the state to the phase machine (`machine._advance`).
"""

from __future__ import annotations

import numpy as np

from ktenv import catalog as cat
from ktenv.board import DIRECTION_NAMES
from ktenv.config import GameConfig
from ktenv.constants import CITY, CREATURE, CUP, NOBODY, OUT, PLAINS, SPECIAL_INCOME, VILLAGE
from ktenv.engine import decisions as D
from ktenv.engine import machine
from ktenv.engine.actions import PASS
from ktenv.engine.common import put_on_board
from ktenv.engine.machine import layout, legal_mask, new_game, step
from ktenv.state import MOVEMENT, SETUP, UNMOVED, GameState

# A straight west-east line through the centre of the 19-hex board (2-3 players).
W2, W1, C, E1, E2 = 17, 6, 0, 3, 11


def empty_board(n_players: int = 2, seed: int = 0, terrain: int = PLAINS, **options) -> GameState:
    s = new_game(GameConfig(n_players=n_players, **options), seed)
    while s.phase == SETUP:
        mask = legal_mask(s)
        step(s, PASS if mask[PASS] else int(np.flatnonzero(mask)[0]))
    s.thing_place[:] = CUP
    if not s.cfg.house_content:
        s.thing_place[s.cat.HOUSE_THING_IDS] = OUT  # R22: six players' house Things stay out of play
    s.thing_owner[:] = NOBODY
    s.thing_hex[:] = -1
    for name in ("thing_face_up", "thing_public", "thing_selected", "thing_new", "thing_mp", "thing_status",
                 "thing_pinned", "thing_moved", "thing_damage", "thing_fought", "hero_mp", "hero_status",
                 "hero_pinned", "hero_moved", "hex_fort", "hex_fort_damage", "hex_citadel_built", "hex_down"):
        getattr(s, name)[:] = 0
    s.hero_owner[:] = NOBODY
    s.hero_hex[:] = -1
    s.hex_owner[:] = NOBODY
    s.hex_income[:] = -1
    for name in ("hex_fort_round", "hex_citadel_round", "hex_citadel_seq"):
        getattr(s, name)[:] = -1
    s.hex_terrain[:] = terrain
    s.gold[:] = 0
    s.cloud_hex = -1
    s.reg.clear()
    s.frames.clear()
    s.check_invariants()
    return s


def own(s: GameState, player: int, *hexes: int) -> None:
    for h in hexes:
        s.hex_owner[h] = player


def free_copy(s: GameState, name: str) -> int:
    for c in cat.thing_ids(name):
        if s.thing_place[c] == CUP:
            return int(c)
    raise AssertionError(f"no {name} left in the cup")


def put(s: GameState, name: str, player: int, hx: int, face_up: bool = False) -> int:
    """A creature (or income counter) of `player` on hex `hx`; returns its id."""
    c = free_copy(s, name)
    assert cat.THING_KIND[c] in (CREATURE, SPECIAL_INCOME, CITY, VILLAGE)
    put_on_board(s, c, player, hx)  # income counters face up, creatures face down (R8.3)
    if face_up:
        s.thing_face_up[c] = s.thing_public[c] = True
    return c


def hero(s: GameState, name: str, player: int, hx: int) -> int:
    f = cat.hero_id(name)
    s.hero_up[f // 2] = f % 2
    s.hero_owner[f] = player
    s.hero_hex[f] = hx
    return f


def start_movement(s: GameState, first: int = 0) -> GameState:
    s.first_player = first
    s.phase, s.stage, s.turn = MOVEMENT, 0, 0
    s.decision = D.NONE
    s._mask = None
    s.check_invariants()
    machine._advance(s)
    return s


def act(s: GameState, action: int) -> None:
    step(s, action)
    s.check_invariants()


def legal(s: GameState) -> set[int]:
    return {int(a) for a in np.flatnonzero(legal_mask(s))}


def a_hex(s: GameState, h: int) -> int:
    return layout(s).hex + h


def a_thing(s: GameState, c: int) -> int:
    return layout(s).thing + c


def a_hero(s: GameState, f: int) -> int:
    return layout(s).hero + f


def a_dir(s: GameState, frm: int, to: int) -> int:
    """The DIRECTION action from hex `frm` to its neighbour `to`."""
    d = list(s.geo.neighbours[frm]).index(to)
    return layout(s).direction + d


def dir_name(d: int) -> str:
    return DIRECTION_NAMES[d]


def legal_directions(s: GameState) -> set[int]:
    """Neighbour hexes the moving stack may step to now."""
    lay = layout(s)
    here = s.reg["mv_hex"]
    return {int(s.geo.neighbours[here, a - lay.direction]) for a in legal(s) if a >= lay.direction}


def move(s: GameState, start: int, counters: list[tuple[str, int]], path: list[int]) -> None:
    """Start a move from `start` with the given ("thing"|"hero", id) members and walk `path`."""
    if s.decision == D.MOVE_START:
        act(s, a_hex(s, start))
    for kind, i in counters:
        chosen = s.thing_status[i] if kind == "thing" else s.hero_status[i]
        if s.decision == D.MOVE_SELECT and chosen == UNMOVED:  # a lone choice is made by the engine
            act(s, a_thing(s, i) if kind == "thing" else a_hero(s, i))
    if s.decision == D.MOVE_SELECT:
        act(s, 1)  # YES
    here = start
    for h in path:
        act(s, a_dir(s, here, h))
        here = h

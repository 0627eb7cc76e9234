"""Builders for rules tests: a game past setup, then an arranged board (every arranged state
passes check_invariants), and a way to start any phase from it."""

from __future__ import annotations

import numpy as np

from ktenv import catalog as cat
from ktenv.config import GameConfig
from ktenv.constants import BOARD, CUP, NEUTRAL, NOBODY, OUT, SCREEN
from ktenv.engine import decisions as D
from ktenv.engine import legal_actions, new_game, step
from ktenv.engine.machine import _advance
from ktenv.state import SETUP, GameState


def past_setup(n_players: int = 2, seed: int = 0, **options) -> GameState:
    """A game whose setup was played by a seeded random policy."""
    s = new_game(GameConfig(n_players=n_players, **options), seed)
    rng = np.random.default_rng(seed)
    while s.phase == SETUP:
        legal = legal_actions(s)
        step(s, int(legal[rng.integers(legal.size)]))
    return s


def empty_board(s: GameState) -> GameState:
    """Everything back to the cup and the pool; no hex owned; gold kept."""
    for c in range(s.n_things):
        if s.thing_place[c] != CUP:
            s.thing_place[c], s.thing_owner[c], s.thing_hex[c] = CUP, NOBODY, -1
    if not s.cfg.house_content:
        s.thing_place[s.cat.HOUSE_THING_IDS] = OUT  # R22: six players' house Things stay out of play
    s.thing_face_up[:] = s.thing_public[:] = s.thing_selected[:] = False
    s.hex_income[:] = -1
    s.hero_owner[:] = NOBODY
    s.hero_hex[:] = -1
    s.hex_owner[:] = NOBODY
    s.hex_fort[:] = 0
    s.reg.clear()
    s.frames.clear()
    return s


def land_hexes(s: GameState) -> np.ndarray:
    return np.flatnonzero(s.hex_terrain != 7)


def set_terrain(s: GameState, hx: int, terrain: int) -> None:
    s.hex_terrain[hx] = terrain


def own(s: GameState, player: int, hx: int, fort: int = 0) -> None:
    s.hex_owner[hx] = player
    s.hex_fort[hx] = fort


def thing(name: str, k: int = 0) -> int:
    """The k-th physical copy of a Thing by name."""
    return cat.thing_ids(name)[k]


def put(s: GameState, c: int, owner: int, hx: int, face_up: bool = False) -> int:
    """Put Thing `c` on hex `hx` for `owner` (a player or NEUTRAL); income counters become the hex's."""
    s.thing_place[c], s.thing_owner[c], s.thing_hex[c] = BOARD, owner, hx
    s.thing_face_up[c] = face_up or owner == NEUTRAL
    s.thing_public[c] = s.thing_face_up[c]
    if cat.THING_KIND[c] in (1, 2, 3):
        s.hex_income[hx] = c
    return c


def to_screen(s: GameState, c: int, player: int) -> int:
    s.thing_place[c], s.thing_owner[c], s.thing_hex[c] = SCREEN, player, -1
    return c


def hero(s: GameState, name: str, player: int, hx: int) -> int:
    f = cat.hero_id(name)
    s.hero_up[f // 2] = f % 2
    s.hero_owner[f], s.hero_hex[f] = player, hx
    return f


def start_phase(s: GameState, phase: int, first_player: int = 0) -> GameState:
    """Begin `phase` from its start, running the automatic rules up to the first decision."""
    s.phase, s.stage, s.turn = phase, 0, 0
    s.first_player = first_player
    s.decision, s.actor = D.NONE, NOBODY
    s.reg.clear()
    s.frames.clear()
    s._mask = None
    s.check_invariants()
    _advance(s)
    return s

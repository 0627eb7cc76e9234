"""Shared builders for the engine tests: seeded games, policies and small state arrangers.

Every arranger leaves the state consistent (`check_invariants()` passes) and clears the cached
mask, so a test can arrange a scenario, start a phase with `start_phase` and then drive the
engine only through `step` with scripted dice (`s.rng.script`).
"""

from __future__ import annotations

import numpy as np

from ktenv import catalog as cat
from ktenv.config import GameConfig
from ktenv.constants import (
    BOARD,
    CITY,
    CREATURE,
    CUP,
    NOBODY,
    OUT,
    PLAINS,
    SCREEN,
    SEA,
    SPECIAL_INCOME,
    VILLAGE,
)
from ktenv.engine import decisions as D
from ktenv.engine import machine
from ktenv.engine.actions import NUMBER, PASS
from ktenv.engine.common import to_cup
from ktenv.engine.machine import layout, legal_mask, new_game, step
from ktenv.state import SETUP, GameState

# ----------------------------------------------------------------- games and policies


def config(n_players: int = 2, **options) -> GameConfig:
    return GameConfig(n_players=n_players, **options)


def legal(s: GameState) -> np.ndarray:
    return np.flatnonzero(legal_mask(s))


def random_action(s: GameState, rng: np.random.Generator) -> int:
    return int(rng.choice(legal(s)))


def passive_action(s: GameState) -> int:
    """Decline whenever possible: PASS, else the number 0, else the lowest legal action."""
    mask = legal_mask(s)
    if mask[PASS]:
        return PASS
    if mask[NUMBER]:
        return NUMBER
    return int(np.flatnonzero(mask)[0])


def run_until(s: GameState, done, policy=None, limit: int = 100_000, check: bool = True) -> None:
    """Step with `policy(s)` (default: passive) until `done(s)` or the game ends."""
    policy = policy or passive_action
    for _ in range(limit):
        if s.game_over or done(s):
            return
        step(s, policy(s))
        if check:
            s.check_invariants()
    raise AssertionError("run_until: limit reached")


def random_setup(n_players: int = 2, seed: int = 0, policy_seed: int | None = None, **options) -> GameState:
    """A new game advanced through setup (R4) by a seeded random policy: stops at round 1's first decision."""
    s = new_game(config(n_players, **options), seed)
    rng = np.random.default_rng(seed if policy_seed is None else policy_seed)
    run_until(s, lambda g: g.phase != SETUP, lambda g: random_action(g, rng))
    return s


def scripted_new_game(cfg: GameConfig, seed: int, dice: list[int]) -> GameState:
    """`new_game` with the first d6 results scripted (the first-player roll comes before any decision)."""
    from ktenv.engine import setup

    s = GameState(cfg, seed)
    s.rng.script = list(dice)
    setup.start_game(s)
    machine._advance(s)
    return s


def resume(s: GameState) -> None:
    """Run the automatic rules from an arranged state up to the next real decision."""
    s._mask = None
    machine._advance(s)


def start_phase(s: GameState, phase: int, round_no: int | None = None, first_player: int | None = None) -> None:
    """Begin `phase` afresh (turn 0, no pending decision) and run to its first decision."""
    if round_no is not None:
        s.round = round_no
    if first_player is not None:
        s.first_player = first_player
    s.phase, s.stage, s.turn = phase, 0, 0
    s.decision, s.actor = D.NONE, NOBODY
    s.reg.clear()
    s.frames.clear()
    s.thing_selected[:] = False
    s.check_invariants()
    resume(s)


def hex_action(s: GameState, hx: int) -> int:
    return layout(s).hex + int(hx)


def thing_action(s: GameState, c: int) -> int:
    return layout(s).thing + int(c)


def hero_action(s: GameState, face: int) -> int:
    return layout(s).hero + int(face)


def cash_action(s: GameState, c: int) -> int:
    return layout(s).cash + list(cat.TREASURE_IDS).index(int(c))


def masked_in(s: GameState, block: str) -> list[int]:
    """Indices inside one action block (HEX, THING, HERO, NUMBER, ...) that the mask allows."""
    for name, start, size in layout(s).blocks():
        if name == block:
            return [int(i) for i in np.flatnonzero(legal_mask(s)[start:start + size])]
    raise KeyError(block)


# ----------------------------------------------------------------- arranging state


def _touch(s: GameState) -> None:
    s._mask = None


def clear_kingdoms(s: GameState) -> GameState:
    """Every Thing to the cup, every hex unowned and unfortified, heroes in the pool, gold 0."""
    s.thing_place[:] = CUP
    if not s.cfg.house_content:
        s.thing_place[s.cat.HOUSE_THING_IDS] = OUT  # R22: six players' house Things stay out of play
    s.thing_owner[:] = NOBODY
    s.thing_hex[:] = -1
    s.thing_face_up[:] = False
    s.thing_public[:] = False
    s.thing_selected[:] = False
    s.thing_new[:] = False
    s.hex_owner[:] = NOBODY
    s.hex_fort[:] = 0
    s.hex_income[:] = -1
    s.hex_fort_round[:] = -1
    s.hex_citadel_round[:] = -1
    s.hex_citadel_seq[:] = -1
    s.hex_citadel_built[:] = False
    s.hero_owner[:] = NOBODY
    s.hero_hex[:] = -1
    s.gold[:] = 0
    s.alive[:] = True
    s.drawn[:] = 0
    s.cloud_hex = -1
    s.citadel_seq = 0
    s.cup_ran_dry = 0
    s.reg.clear()
    s.frames.clear()
    _touch(s)
    return s


_SCENARIOS: dict[tuple, GameState] = {}


def scenario(n_players: int = 2, seed: int = 0, **options) -> GameState:
    """A game just past setup, then emptied (`clear_kingdoms`): a blank round-1 board to arrange.

    Built once per (players, seed, options) and handed out as copies (setup takes a while)."""
    key = (n_players, seed, tuple(sorted(options.items())))
    if key not in _SCENARIOS:
        s = random_setup(n_players, seed, **options)
        clear_kingdoms(s)
        s.round, s.first_player = 1, 0
        _SCENARIOS[key] = s
    return _SCENARIOS[key].copy()


def land_hexes(s: GameState) -> np.ndarray:
    return np.flatnonzero(s.hex_terrain != SEA)


def set_terrain(s: GameState, hx: int, terrain: int) -> None:
    assert terrain == SEA or not ((s.thing_place == BOARD) & (s.thing_hex == hx)).any()
    s.hex_terrain[hx] = terrain
    _touch(s)


def give_hex(s: GameState, player: int, hx: int, terrain: int | None = None, fort: int = 0) -> int:
    """`player` owns hex `hx` (made land: `terrain`, or Plains if it was Sea) with a fort of level `fort`."""
    if terrain is not None:
        s.hex_terrain[hx] = terrain
    elif s.hex_terrain[hx] == SEA:
        s.hex_terrain[hx] = PLAINS
    s.hex_owner[hx] = player
    s.hex_fort[hx] = fort
    for c in np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx)):
        s.thing_owner[c] = player
    _touch(s)
    return hx


def give_hexes(s: GameState, player: int, hexes, terrain: int | None = None) -> list[int]:
    return [give_hex(s, player, int(h), terrain) for h in hexes]


def free_land(s: GameState, count: int, avoid=()) -> list[int]:
    """`count` unowned hexes (made land if needed), lowest indices first, none in `avoid`."""
    out = []
    for h in range(s.geo.n_hexes):
        if s.hex_owner[h] == NOBODY and h not in avoid:
            if s.hex_terrain[h] == SEA:
                s.hex_terrain[h] = PLAINS
            out.append(h)
            if len(out) == count:
                _touch(s)
                return out
    raise AssertionError("not enough hexes")


def set_gold(s: GameState, player: int, gold: int) -> None:
    s.gold[player] = gold
    _touch(s)


def lift(s: GameState, c: int) -> None:
    """Take Thing `c` from wherever it is back to the cup."""
    to_cup(s, c)
    _touch(s)


def in_cup(s: GameState, name: str | None = None, kind: int | None = None, count: int = 1) -> list[int]:
    """`count` Things now in the cup, by name or by kind (lowest ids first)."""
    ids = np.flatnonzero(s.thing_place == CUP)
    if name is not None:
        ids = ids[np.isin(ids, cat.thing_ids(name))]
    if kind is not None:
        ids = ids[cat.THING_KIND[ids] == kind]
    assert ids.size >= count, f"only {ids.size} {name or kind} in the cup"
    return [int(c) for c in ids[:count]]


def to_screen(s: GameState, c: int, player: int) -> int:
    lift(s, c)
    s.thing_place[c] = SCREEN
    s.thing_owner[c] = player
    _touch(s)
    return c


def screen_things(s: GameState, player: int, count: int, kind: int = CREATURE) -> list[int]:
    """Put `count` Things of `kind` from the cup behind `player`'s screen."""
    return [to_screen(s, c, player) for c in in_cup(s, kind=kind, count=count)]


def put(s: GameState, c: int, player: int, hx: int) -> int:
    """Thing `c` on hex `hx` for `player` (income counters face up and registered in hex_income)."""
    lift(s, c)
    s.thing_place[c] = BOARD
    s.thing_owner[c] = player
    s.thing_hex[c] = hx
    if cat.THING_KIND[c] in (SPECIAL_INCOME, CITY, VILLAGE):
        assert s.hex_income[hx] < 0, "hex already has an income counter"
        s.hex_income[hx] = c
        s.thing_face_up[c] = s.thing_public[c] = True
    _touch(s)
    return c


def fill_hex(s: GameState, player: int, hx: int, count: int) -> list[int]:
    """`count` creatures from the cup on `hx` for `player`."""
    return [put(s, c, player, hx) for c in in_cup(s, kind=CREATURE, count=count)]


def give_hero(s: GameState, name: str, player: int, hx: int) -> int:
    face = cat.hero_id(name)
    s.hero_up[face // 2] = face % 2
    s.hero_owner[face] = player
    s.hero_hex[face] = hx
    _touch(s)
    return face


def show_hero(s: GameState, name: str) -> int:
    """Turn the pool counter so that `name` is the face up (available, R7.3)."""
    face = cat.hero_id(name)
    assert s.hero_owner[face ^ 1] == NOBODY
    s.hero_up[face // 2] = face % 2
    _touch(s)
    return face


def hide_hero(s: GameState, name: str) -> int:
    """Turn the pool counter so that `name` is face down (unavailable)."""
    face = cat.hero_id(name)
    assert s.hero_owner[face] == NOBODY
    s.hero_up[face // 2] = 1 - face % 2
    _touch(s)
    return face


def empty_cup_to(s: GameState, keep: int) -> None:
    """Move Things out of the game until only `keep` remain in the cup (for R8.1.5 scenarios)."""
    cup = np.flatnonzero(s.thing_place == CUP)
    s.thing_place[cup[keep:]] = OUT
    _touch(s)


def state_snapshot(s: GameState) -> str:
    return s.to_json()

"""Worlds a player cannot tell apart (ktenv.kings_and_things.worlds.sample_world), RI.1-RI.6."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kings_and_things.board import board_radius, geometry
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import BOARD, CREATURE, CUP, SCREEN
from ktenv.kings_and_things.engine.machine import legal_mask, step
from ktenv.kings_and_things.env.observation import ObservationEncoder
from ktenv.kings_and_things.env.testing import python_state, random_states
from ktenv.kings_and_things.procedures import Battle
from ktenv.kings_and_things.worlds import WorldSampler, referenced_things, sample_world, unknown_slots

CONFIGS = [
    {"n_players": 2, "max_rounds": 6},
    {"n_players": 3, "max_rounds": 6},
    {"n_players": 4, "max_rounds": 6},
    {"n_players": 2, "max_rounds": 6, "mysterious_kadab": True},
    {"n_players": 4, "max_rounds": 6, "encounter_powers": True, "house_content": True, "mysterious_kadab": True},
]


def encoder(cfg: GameConfig) -> ObservationEncoder:
    return ObservationEncoder(cfg, geometry(board_radius(cfg.n_players)).n_hexes)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_worlds_keep_what_the_player_knows(config):
    """Every world passes the invariants, gives the player the same observation, the same mask
    when the player is to act, and plays on (a few random steps)."""
    cfg = GameConfig(**config)
    enc = encoder(cfg)
    rng = np.random.default_rng(1)
    redrawn = 0
    for s in random_states(cfg, 12, seed=3, gap=(20, 120)):
        for p in range(cfg.n_players):
            before = s.to_json()
            w = sample_world(s, p, rng)
            assert s.to_json() == before  # the true state is left alone
            w.check_invariants()
            assert np.array_equal(enc.encode(w, p), enc.encode(s, p))
            if s.actor == p and not s.game_over:
                assert np.array_equal(legal_mask(w), legal_mask(s))
            redrawn += int((w.thing_place != s.thing_place).any() or (w.thing_owner != s.thing_owner).any())
            for _ in range(5):  # the world is a game that goes on
                if w.game_over:
                    break
                legal = np.flatnonzero(legal_mask(w))
                step(w, int(legal[rng.integers(legal.size)]))
                w.check_invariants()
    assert redrawn > 0


def test_what_is_redrawn_and_what_is_kept():
    cfg = GameConfig(n_players=3, max_rounds=6)
    s = next(random_states(cfg, 1, seed=5, gap=(150, 151)))
    p = 0
    board, loose = unknown_slots(s, p)
    assert board.size and loose.size
    fixed = np.ones(s.n_things, bool)
    fixed[board] = fixed[loose] = False
    assert not (fixed & (s.thing_place == CUP) & ~referenced_things(s)).any()  # the whole cup is unknown
    mine = s.thing_owner == p
    assert not (mine & ~fixed).any()  # own counters are never redrawn
    a, b = sample_world(s, p, 7), sample_world(s, p, 8)
    for w in (a, b):
        for name in ("thing_place", "thing_owner", "thing_hex", "thing_face_up", "thing_public"):
            assert np.array_equal(getattr(w, name)[fixed], getattr(s, name)[fixed]), name
        # counts per slot are conserved: per (place, owner, hex)
        key = lambda t: sorted(zip(t.thing_place.tolist(), t.thing_owner.tolist(), t.thing_hex.tolist()))  # noqa: E731
        assert key(w) == key(s)
        # board slots hold creatures only
        on_board = (w.thing_place == BOARD)
        assert (s.cat.THING_KIND[:s.n_things][on_board & ~fixed] == CREATURE).all()
    assert a.rng.state != s.rng.state and a.rng.state != b.rng.state  # future dice redrawn
    assert not np.array_equal(a.thing_place, b.thing_place)
    assert np.array_equal(sample_world(s, p, 7).thing_place, a.thing_place)  # a seed fixes the world


def test_each_hidden_counter_lands_where_the_player_cannot_exclude_it():
    """Statistical (fixed seed): an unknown counter is dealt to each unknown slot area in
    proportion to its size (creatures also to the opponents' face-down board slots); known
    counters never move."""
    cfg = GameConfig(n_players=2, max_rounds=8)
    s = next(random_states(cfg, 1, seed=12, gap=(200, 201)))
    p = 0
    board, loose = unknown_slots(s, p)
    assert board.size >= 2 and loose.size >= 20
    creature = s.cat.THING_KIND[:s.n_things] == CREATURE
    n_creatures = int(creature[np.concatenate([board, loose])].sum())
    # areas: the opponent's board slots, the opponent's screen, the cup
    screen_slots = int(np.count_nonzero(s.thing_place[loose] == SCREEN))
    cup_slots = int(np.count_nonzero(s.thing_place[loose] == CUP))
    non_creature = next(int(c) for c in loose if not creature[c])
    a_creature = next(int(c) for c in loose if creature[c])
    rng = np.random.default_rng(2026)
    trials = 1500
    hits = {"nc_screen": 0, "c_board": 0, "c_screen": 0}
    for _ in range(trials):
        w = sample_world(s, p, rng)
        hits["nc_screen"] += int(w.thing_place[non_creature] == SCREEN)
        hits["c_board"] += int(w.thing_place[a_creature] == BOARD)
        hits["c_screen"] += int(w.thing_place[a_creature] == SCREEN)
        assert np.array_equal(w.thing_owner == p, s.thing_owner == p)  # own counters stay where they are
    loose_size = loose.size
    # a non-creature: uniform over screen and cup slots
    expect = screen_slots / loose_size
    assert abs(hits["nc_screen"] / trials - expect) < 4 * np.sqrt(expect * (1 - expect) / trials) + 1e-9
    # a creature: board with probability |board| / creatures, else uniform over the other slots
    pb = board.size / n_creatures
    assert abs(hits["c_board"] / trials - pb) < 4 * np.sqrt(pb * (1 - pb) / trials)
    ps = (1 - pb) * screen_slots / loose_size
    assert abs(hits["c_screen"] / trials - ps) < 4 * np.sqrt(ps * (1 - ps) / trials) + 0.01
    assert cup_slots > 0


def test_face_down_tiles_are_redrawn_unless_seen():
    cfg = GameConfig(n_players=2, max_rounds=6, mysterious_kadab=True)
    s = next(random_states(cfg, 1, seed=4, gap=(60, 61)))
    down = np.flatnonzero(s.hex_down)
    assert down.size > 2
    rng = np.random.default_rng(0)
    moved = False
    for _ in range(20):
        w = sample_world(s, 0, rng)
        assert sorted(w.hex_terrain[down]) == sorted(s.hex_terrain[down])
        assert np.array_equal(w.hex_terrain[~s.hex_down], s.hex_terrain[~s.hex_down])
        assert sorted(w.hex_stack) == sorted(s.hex_stack)
        moved |= not np.array_equal(w.hex_terrain, s.hex_terrain)
    assert moved
    s.seen[0, down] = True  # Tycho Brahe looked at all of them (R22.4)
    s.edited()  # changed by hand (a native game's cached Python twin is dropped)
    assert np.array_equal(sample_world(s, 0, rng).hex_terrain, s.hex_terrain)


def test_world_sampler_handle():
    cfg = GameConfig(n_players=2, max_rounds=4)
    s = python_state(next(random_states(cfg, 1, seed=1, gap=(40, 41))))
    handle = WorldSampler(s, s.actor)
    assert handle.seat == s.actor and not hasattr(handle, "state") and "seat" in repr(handle)
    with pytest.raises(TypeError, match="pickle"):
        __import__("pickle").dumps(handle)
    before = s.to_json()
    step(s, int(np.flatnonzero(legal_mask(s))[0]))  # the game goes on; the handle keeps its decision's state
    w = handle.sample(3)
    assert w.to_json() != s.to_json() and s.to_json() != before
    assert np.array_equal(w.hex_owner, GameStateLoad(before).hex_owner)


def GameStateLoad(text):  # noqa: N802
    from ktenv.kings_and_things.state import GameState

    return GameState.from_json(text)


@pytest.mark.parametrize("config", CONFIGS[:2] + CONFIGS[3:4], ids=lambda c: f"{c['n_players']}p-{len(c)}")
def test_hidden_changes_give_the_same_worlds(config):
    """The sampler reads only what the player knows: a state changed in hidden facts only
    (`hidden_variants`) gives the very same world for the same seed."""
    from ktenv.kings_and_things.env.testing import hidden_variants

    cfg = GameConfig(**config)
    rng = np.random.default_rng(9)
    checked = 0
    for s in random_states(cfg, 10, seed=21, gap=(20, 150)):
        for p in range(cfg.n_players):
            want = sample_world(s, p, 77).to_json()
            for what, t in hidden_variants(s, p, rng):
                assert sample_world(t, p, 77).to_json() == want, what
                checked += 1
    assert checked > 20


def _live_sides(t) -> list[int]:
    from ktenv.kings_and_things.constants import NEUTRAL
    from ktenv.kings_and_things.engine.battle_sides import active_sides

    if t.frame(Battle) is None:  # no battle under way
        return []
    return [x for x in active_sides(t) if x != NEUTRAL]


def _target(t, side: int, value: int | None = None) -> int:
    """Read (or set) a side's secret target (RI.6), kept by the battle under way."""
    targets = t.frame(Battle).targets
    if value is not None:
        targets[side] = value
    return targets[side]


def test_another_sides_secret_target_is_redrawn():
    """RI.6: a target another side named (still secret) is redrawn among the sides it could name;
    the player's own stays."""
    cfg = GameConfig(n_players=3, max_rounds=8)
    s = next(t for t in random_states(cfg, 2000, seed=6, gap=(1, 8)) if len(_live_sides(t)) >= 2)
    s = python_state(s)  # the targets are edited below
    live = _live_sides(s)
    p, q = live[0], live[1]
    _target(s, q, p)
    _target(s, p, q)
    seen = {_target(sample_world(s, p, seed), q) for seed in range(30)}
    assert seen <= set(live) - {q} and p in seen
    assert {_target(sample_world(s, p, seed), p) for seed in range(5)} == {q}


def _undeclared_counter_numbers(s, p: int) -> list[tuple[str, int]]:
    """(frame.field, value) of frame numbers not declared to name counters (`THING_REFS`) whose value
    is the id of a counter `p` cannot see behind an opponent's screen or in the cup."""
    from ktenv.kings_and_things.procedures import THING_REFS

    out = []
    for f in s.frames:
        declared = {name for name, _ in THING_REFS[type(f)]}
        for name, value in f.to_dict().items():
            for v in value if isinstance(value, list) else [value]:
                if name in declared or name == "procedure" or not 0 <= v < s.n_things:
                    continue
                hidden = s.thing_place[v] == CUP or (s.thing_place[v] == SCREEN and s.thing_owner[v] not in (p, -1))
                if hidden and not s.thing_in_play[v] and s.thing_bearer[v] < 0 and not (s.thing_bearer == v).any():
                    out.append((f"{type(f).__name__}.{name}", int(v)))
    return out


def test_a_frame_number_that_is_no_counter_pins_no_counter():
    """The hidden-information leak of the first sampler: it took ANY integer of a procedure frame (a hex,
    a round, a count) for a counter id and left that counter where it truly is, so a searching agent
    could read hidden identities off the worlds. Only the declared counter fields (`THING_REFS`) count:
    such a counter is dealt again like any other."""
    cfg = GameConfig(n_players=2, max_rounds=6)
    found = None
    for s in random_states(cfg, 300, seed=11, gap=(1, 6)):
        s = python_state(s)
        p = (s.actor + 1) % 2
        numbers = [(name, v) for name, v in _undeclared_counter_numbers(s, p)
                   if not referenced_things(s)[v] and s.thing_place[v] == SCREEN]
        if numbers:
            found = s, p, numbers[0]
            break
    assert found is not None, "no frame number naming a hidden screen counter met"
    s, p, (name, v) = found
    board, loose = unknown_slots(s, p)
    assert v in loose, f"{name} = {v} kept counter {v} in place"
    places = {(int(w.thing_place[v]), int(w.thing_owner[v])) for w in (sample_world(s, p, k) for k in range(40))}
    assert len(places) > 1  # the counter lands in the cup or the screen, wherever the player cannot exclude it


def test_declared_counter_fields_keep_their_counters():
    """A counter a procedure names (a declared field) stays in its slot in every world, so that the
    procedure goes on: here the Battle's item in play is planted on a hidden screen counter."""
    cfg = GameConfig(n_players=2, max_rounds=6)
    s = python_state(next(t for t in random_states(cfg, 400, seed=6, gap=(1, 8)) if t.frame(Battle) is not None))
    p = (s.actor + 1) % 2
    hidden = np.flatnonzero((s.thing_place == SCREEN) & (s.thing_owner == 1 - p))
    assert hidden.size
    c = int(hidden[0])
    s.frame(Battle).item = c
    assert referenced_things(s)[c] and c not in np.concatenate(unknown_slots(s, p))
    for k in range(10):
        w = sample_world(s, p, k)
        assert (w.thing_place[c], w.thing_owner[c]) == (s.thing_place[c], s.thing_owner[c])


# ----- native games: the same worlds from the C++ sampler

native = pytest.importorskip("ktenv.kings_and_things.native")
NATIVE_CONFIGS = [{"n_players": n, "max_rounds": 6} for n in (2, 3, 4)]


def _native(s):
    from ktenv.kings_and_things.native.game import NativeGame

    return NativeGame.from_python(s)


@pytest.mark.skipif(not native.available(), reason="native core not built")
@pytest.mark.parametrize("config", NATIVE_CONFIGS, ids=lambda c: f"{c['n_players']}p")
def test_native_worlds_are_the_python_worlds(config):
    """For the same seed the native sampler draws the very world the Python one draws (the same slots,
    the same shuffles in the same order, the same hex stack, targets and dice), for every seat."""
    from ktenv.kings_and_things.native import core

    cfg = GameConfig(**config)
    checked = 0
    for i, s in enumerate(random_states(cfg, 8, seed=40 + cfg.n_players, gap=(20, 200))):
        s = python_state(s)
        g = _native(s)
        for p in range(cfg.n_players):
            board, loose = unknown_slots(s, p)
            nb, nl = core().unknown_slots(g.native, p)
            assert list(board) == list(nb) and list(loose) == list(nl)
            for seed in (i, 1000 + p):
                want, got = sample_world(s, p, seed), sample_world(g, p, seed)
                assert type(got).__name__ == "NativeGame"
                assert got.to_json() == want.to_json()
                checked += 1
    assert checked >= 8 * cfg.n_players * 2


@pytest.mark.skipif(not native.available(), reason="native core not built")
def test_native_worlds_keep_what_the_player_knows_and_play_on():
    cfg = GameConfig(n_players=3, max_rounds=6)
    enc = encoder(cfg)
    rng = np.random.default_rng(4)
    for s in random_states(cfg, 6, seed=8, gap=(30, 150)):
        s = python_state(s)
        g = _native(s)
        for p in range(cfg.n_players):
            handle = WorldSampler(g, p)
            w = handle.sample(int(rng.integers(2**63)))
            w.to_python().check_invariants()
            assert np.array_equal(enc.encode(w, p), enc.encode(s, p))
            if s.actor == p and not s.game_over:
                assert np.array_equal(w.legal_mask(), legal_mask(s))
            for _ in range(5):
                if w.game_over:
                    break
                legal = np.flatnonzero(w.legal_mask())
                w.step(int(legal[rng.integers(legal.size)]))
            w.to_python().check_invariants()


@pytest.mark.skipif(not native.available(), reason="native core not built")
def test_native_sampler_handle_hides_the_true_game():
    import pickle

    from ktenv.kings_and_things.worlds import NativeWorldSampler

    cfg = GameConfig(n_players=2, max_rounds=4)
    g = _native(python_state(next(random_states(cfg, 1, seed=1, gap=(40, 41)))))
    handle = WorldSampler(g, g.actor)
    assert isinstance(handle, NativeWorldSampler) and handle.seat == g.actor
    public = {name for name in dir(handle.handle) if not name.startswith("_")}
    assert public == {"seat", "sample"}  # nothing else reaches the native copy of the true game
    for obj in (handle, handle.handle):
        with pytest.raises(TypeError, match="pickle"):
            pickle.dumps(obj)
    with pytest.raises(ValueError, match="seat"):
        WorldSampler(g, 5)
    with pytest.raises(ValueError, match="generator state"):
        handle.handle.sample("x")
    before = g.to_json()
    g.step(int(np.flatnonzero(g.legal_mask())[0]))  # the game goes on; the handle keeps its decision's state
    w = handle.sample(3)
    assert np.array_equal(w.hex_owner, GameStateLoad(before).hex_owner)


@pytest.mark.skipif(not native.available(), reason="native core not built")
def test_native_hidden_changes_give_the_same_worlds():
    from ktenv.kings_and_things.env.testing import hidden_variants

    cfg = GameConfig(n_players=2, max_rounds=6)
    rng = np.random.default_rng(9)
    checked = 0
    for s in random_states(cfg, 8, seed=23, gap=(20, 150)):
        s = python_state(s)
        for p in range(cfg.n_players):
            want = sample_world(_native(s), p, 77).to_json()
            for what, t in hidden_variants(s, p, rng):
                assert sample_world(_native(t), p, 77).to_json() == want, what
                checked += 1
    assert checked > 10

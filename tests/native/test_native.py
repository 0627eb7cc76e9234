"""The native core (ktenv.kings_and_things.native, C++20): bit-exact with the Python engine, piece by piece.

The native core is part of every install (`pip install -e .` builds it). Set KTENV_NO_NATIVE=1 to
run the suite from a source checkout that was never built; then these tests are skipped, loudly.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from ktenv.kings_and_things import native
from ktenv.rng import Dice

if os.environ.get("KTENV_NO_NATIVE") == "1":
    pytest.skip("KTENV_NO_NATIVE=1: the native core is not tested", allow_module_level=True)

MASK = (1 << 64) - 1


def test_the_native_core_is_built():
    assert native.core().Dice  # raises NativeUnavailableError with the reason and the build command


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, 2**63 + 5, MASK, -3])
def test_dice_match_the_python_generator_bit_for_bit(seed):
    """RD1.1: every die, draw and shuffle from one seeded generator, the same in both engines."""
    py = Dice(seed)
    nat = native.core().Dice.seeded(seed & MASK)
    assert nat.state == str(py.state)
    assert [nat.next64() for _ in range(50)] == [py.next64() for _ in range(50)]
    assert nat.draws(500) == [py.d6() for _ in range(500)]
    for bound in (1, 2, 6, 37, 392, 2**40 + 3):
        assert nat.draws(200, bound) == [py.below(bound) for _ in range(200)]
    shuffled_natively = nat.shuffle(list(range(61)))
    items = list(range(61))
    py.shuffle(items)
    assert shuffled_natively == items
    assert nat.state == str(py.state)


def test_scripted_dice_come_first_in_both():
    py, nat = Dice(5), native.core().Dice.seeded(5)
    py.script, nat.script = [6, 1, 3], [6, 1, 3]
    assert [nat.d6() for _ in range(10)] == [py.d6() for _ in range(10)]
    assert nat.script == py.script == []


def test_a_state_restored_from_json_continues_the_same_sequence():
    py = Dice(99)
    py.below(10)
    nat = native.core().Dice()
    nat.state = py.to_json()["state"]
    assert nat.draws(100, 1000) == [py.below(1000) for _ in range(100)]


def test_bad_bounds_are_refused_as_in_python():
    nat = native.core().Dice.seeded(1)
    with pytest.raises(ValueError, match="positive bound"):
        nat.below(0)
    with pytest.raises(ValueError):
        Dice(1).below(0)


def test_unbuilt_core_says_how_to_build_it(monkeypatch):
    monkeypatch.setattr(native, "_core", None)
    monkeypatch.setattr(native, "_REASON", "No module named 'ktenv.kings_and_things.native._core'")
    with pytest.raises(native.NativeUnavailableError, match="pip install -e"):
        native.core()


def _saved_facts(data: dict) -> dict:
    """What both engines must hold alike: the save, less the Python-side wrapper's fields."""
    return {k: v for k, v in data.items() if k not in ("schema", "version", "config", "reg")}


def test_the_generated_declarations_are_current():
    """The native structs follow the Python state and frames (python -m ktenv.kings_and_things.dev.gen)."""
    from ktenv.kings_and_things.dev.gen import main

    assert main(["--check"]) == 0


def test_reading_a_state_keeps_what_it_reads_alive():
    """`State.from_python` once held the `stats` and `rng` it read by a borrowed handle, which dangled
    once the attribute's temporary was gone: a crash in `to_dict` under the system allocator (seen in a
    full test run with Ray loaded). Run where freed memory is reused at once, a new process each time."""
    import subprocess
    import sys

    code = ("import numpy as np; from ktenv.kings_and_things import native; "
            "from ktenv.kings_and_things.engine import legal_mask, new_game, step; "
            "from ktenv.kings_and_things.dev.fuzz import plan\n"
            "for index in range(3):\n"
            "    game = plan(index, base_seed=4242, max_rounds=(2, 6)); s = new_game(game.config(), game.seed)\n"
            "    rng = np.random.default_rng(index)\n"
            "    for _ in range(6):\n"
            "        for _ in range(int(rng.integers(1, 60))):\n"
            "            if s.game_over: break\n"
            "            legal = np.flatnonzero(legal_mask(s)); step(s, int(legal[rng.integers(legal.size)]))\n"
            "        state = native.core().State.from_python(s); state.to_dict(); state.copy().to_dict()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONMALLOC": "malloc"})
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("index", range(6))
def test_a_state_crosses_into_native_memory_and_back_exactly(index):
    from ktenv.kings_and_things.dev.fuzz import plan
    from ktenv.kings_and_things.engine import legal_mask, new_game, step
    from ktenv.kings_and_things.procedures import SpecialPower, SpecialStage

    game = plan(index, base_seed=4242, max_rounds=(2, 6))
    s = new_game(game.config(), game.seed)
    policy = np.random.default_rng(index)
    checked = 0
    while not s.game_over and checked < 12:
        for _ in range(int(policy.integers(1, 60))):
            if s.game_over:
                break
            legal = np.flatnonzero(legal_mask(s))
            step(s, int(legal[policy.integers(legal.size)]))
        state = native.core().State.from_python(s)
        expected = _saved_facts(s.to_dict())
        got = state.to_dict()
        assert {k: got[k] for k in expected} == expected
        assert state.copy().to_dict() == got
        checked += 1
    if s.frame(SpecialPower) is None:
        s.push(SpecialPower(stage=SpecialStage.TAKE, hero=5, victim=1, used_assassin=True))
    assert native.core().State.from_python(s).to_dict()["frames"] == [f.to_dict() for f in s.frames]


@pytest.mark.parametrize("n_players", [2, 3, 4, 6])
@pytest.mark.parametrize("house", [False, True])
def test_the_native_tables_are_the_catalog_board_and_layout(n_players, house):
    """Catalog (R0.4.5, the manifest), board geometry (R3.1) and action layout, as Python has them."""
    from ktenv.kings_and_things import catalog as cat
    from ktenv.kings_and_things.board import board_radius, geometry
    from ktenv.kings_and_things.dev.gen import _catalog_tables
    from ktenv.kings_and_things.engine.actions import action_layout
    from ktenv.kings_and_things.native import bridge

    tables = bridge.tables(n_players, house)
    layout, expected = tables.layout, action_layout(n_players, house)
    for block in ("hex", "thing", "hero", "cash", "player", "direction", "size", "n_seats", "n_treasures"):
        assert getattr(layout, block) == getattr(expected, block), block
    catalog, geo = cat.catalog_for(n_players, house), geometry(board_radius(n_players))
    names = [line.split("(")[1].split(",")[0] for line in _catalog_tables() if line.startswith("  X(")]
    assert len(names) > 15
    for name in names:
        assert tables.table(name) == [int(v) for v in getattr(catalog, name)], name
    for name in ("neighbours", "distance", "ring"):
        assert tables.table(name) == getattr(geo, name).tolist(), name


def test_options_cross_as_numbers_and_back():
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.native import bridge

    for cfg in (GameConfig(), GameConfig(n_players=3, victory="quick", max_rounds=None, assassin_dice=2,
                                         house_content=True, hero_attempts_per_round="unlimited"),
                GameConfig(n_players=2, encounter_powers=True, powers=("Lucky", "Nomad"))):
        numbers = bridge.config_numbers(cfg)
        assert native.core().Config.from_numbers(numbers).to_numbers() == numbers
    assert bridge.config_numbers(GameConfig(victory="land_conquest"))["victory"] == 5


def test_native_arrays_are_numpy_views_with_the_python_names_and_types():
    """Python code that reads a GameState's arrays (render, summary, observation) can read a native one."""
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.engine import new_game
    from ktenv.kings_and_things.state import _ARRAYS

    s = new_game(GameConfig(n_players=3), 5)
    state = native.core().State.from_python(s)
    for name in _ARRAYS:
        view, expected = getattr(state, name), getattr(s, name)
        assert view.dtype == expected.dtype and view.shape == expected.shape, name
        assert (view == expected).all(), name
    owners = state.hex_owner
    owners[0] = 2  # a write goes to the native game
    assert state.to_dict()["hex_owner"][0] == 2
    del state
    assert owners[0] == 2  # the view keeps its game alive


def test_native_frames_start_with_the_python_defaults():
    """Every procedure frame (ktenv.kings_and_things.procedures) has the same fields and defaults in both engines."""
    from ktenv.kings_and_things.procedures import FRAMES

    assert native.core().default_frames() == [cls().to_dict() for cls in FRAMES.values()]

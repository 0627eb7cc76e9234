"""Kingsburg's native engine against the Python one, its oracle: the same game bit for bit (state and mask at
every decision), the same errors, the same saved text; `backend="auto"` plays it."""

from __future__ import annotations

import copy
import os
import pickle

import numpy as np
import pytest

from ktenv.errors import ConfigError, IllegalActionError
from ktenv.kingsburg import machine, native
from ktenv.kingsburg.config import KingsburgConfig
from ktenv.kingsburg.state import KingsburgState

pytestmark = [pytest.mark.skipif(not native.available(), reason="the native Kingsburg engine is not built"),
              pytest.mark.usefixtures("python_steps_alone")]

FAST_GAMES = 200  # the normal run; the slow form plays KTENV_KINGSBURG_NATIVE_GAMES more (default 300: CI's
# smaller form; 10,000 is the full check, about 16 minutes here: python -m ktenv.kingsburg.native.diff --games 10000)


def test_the_generated_declarations_are_current():
    """The native constants follow the Python engine's (python -m ktenv.kingsburg.native.gen)."""
    from ktenv.kingsburg.native.gen import main

    assert main(["--check"]) == 0


def test_the_engines_agree_at_every_decision_of_a_few_hundred_games():
    from ktenv.kingsburg.native.diff import check

    decisions, problems = check(FAST_GAMES)
    assert not problems, "\n".join(problems[:5])
    assert decisions > 100 * FAST_GAMES  # whole games were compared, not just their starts


@pytest.mark.slow
def test_the_engines_agree_at_every_decision_of_many_more_games():
    from ktenv.kingsburg.native.diff import check

    count = int(os.environ.get("KTENV_KINGSBURG_NATIVE_GAMES", "300"))
    decisions, problems = check(count, first=FAST_GAMES)
    assert not problems, f"{len(problems)} games differ:\n" + "\n".join(problems[:5])
    assert decisions > 100 * count


def test_auto_plays_the_native_engine_and_python_the_reference():
    from ktenv.kingsburg.native.game import NativeKingsburg

    assert isinstance(machine.new_game(KingsburgConfig(), 3), NativeKingsburg)
    assert isinstance(machine.new_game(KingsburgConfig(), 3, backend="python"), KingsburgState)
    with pytest.raises(ConfigError, match="one of auto, python, native"):
        machine.new_game(KingsburgConfig(), 3, backend="cuda")


def test_a_native_game_saves_the_python_state_text_and_round_trips():
    s = machine.new_game(KingsburgConfig(n_players=3), 5, backend="native")
    py = machine.new_game(KingsburgConfig(n_players=3), 5, backend="python")
    for _ in range(40):
        a = int(np.flatnonzero(machine.legal_mask(py))[0])
        machine.step(py, a)
        machine.step(s, a)
    assert s.to_json() == py.to_json() and s == py
    assert s.to_python() == py
    again = pickle.loads(pickle.dumps(s))
    assert again.to_json() == s.to_json() and type(again) is type(s)
    twin = copy.deepcopy(s)
    machine.step(twin, int(np.flatnonzero(machine.legal_mask(twin))[0]))
    assert s.to_json() == py.to_json() and twin.to_json() != s.to_json()  # a copy is its own game
    assert s.check_invariants() is None and s.goods_count(0) == py.goods_count(0)
    assert np.array_equal(s.built, py.built) and s.season == py.season


def test_an_illegal_action_is_refused_alike_and_changes_nothing():
    s = machine.new_game(KingsburgConfig(), 9, backend="native")
    py = machine.new_game(KingsburgConfig(), 9, backend="python")
    illegal = int(np.flatnonzero(machine.legal_mask(py) == 0)[0])
    before = s.to_json()
    with pytest.raises(IllegalActionError) as native_error:
        machine.step(s, illegal)
    with pytest.raises(IllegalActionError) as python_error:
        machine.step(py, illegal)
    assert str(native_error.value) == str(python_error.value)
    assert s.to_json() == before
    with pytest.raises(native.core().IllegalAction):
        s.native.step(illegal)
    assert s.to_json() == before


def test_scripted_dice_carry_over_to_the_native_engine():
    """A rules test's stated rolls (Dice.script) come first in both engines."""
    from ktenv.kingsburg.native.game import NativeKingsburg

    py = machine.new_game(KingsburgConfig(n_players=2), 1, backend="python")
    py.rng.script = [6, 6, 6]
    nat = NativeKingsburg.from_python(py)
    assert nat.rng.script == [6, 6, 6] and nat.to_json() == py.to_json()
    while py.rng.script:
        a = int(np.flatnonzero(machine.legal_mask(py))[-1])
        machine.step(py, a)
        machine.step(nat, a)
        assert nat.to_json() == py.to_json()


@pytest.mark.parametrize("backend", ["python", "native"])
def test_the_golden_playthroughs_replay_on_both_engines(backend):
    from ktenv.kingsburg.dev.playthrough import check

    problems = check(backend=backend)
    assert not problems, "\n\n".join(problems)


def test_the_environment_plays_either_engine_alike():
    from ktenv.kingsburg.aec import raw_env
    from ktenv.kingsburg.native.game import NativeKingsburg

    envs = {backend: raw_env(backend=backend, num_players=3) for backend in ("python", "native")}
    for env in envs.values():
        env.reset(seed=4)
    assert type(envs["python"].game_state) is KingsburgState and type(envs["native"].game_state) is NativeKingsburg
    for _ in range(60):
        seen = [env.observe(env.agent_selection) for env in envs.values()]
        assert all(np.array_equal(seen[0][key], seen[1][key]) for key in ("observation", "action_mask"))
        action = int(np.flatnonzero(seen[0]["action_mask"])[0])
        for env in envs.values():
            env.step(action)
    with pytest.raises(ConfigError):
        raw_env(backend="cuda")


def test_the_check_names_the_first_differing_field():
    """What the differential test and the shadow steps (tests/kingsburg/conftest.py) report."""
    from ktenv.kingsburg.native.diff import mismatch
    from ktenv.kingsburg.native.game import NativeKingsburg

    py = machine.new_game(KingsburgConfig(n_players=3), 2, backend="python")
    nat = NativeKingsburg.from_python(py)
    assert mismatch(py, nat) is None
    nat.vp[1] += 1  # the arrays are views of the native game
    assert mismatch(py, nat).startswith("vp: python")
    nat.vp[1] -= 1
    py.rng.script = [3]
    assert "generator" in mismatch(py, nat)
    nat = NativeKingsburg.from_python(py)
    py.cursor += 1
    assert mismatch(py, nat).startswith("cursor")

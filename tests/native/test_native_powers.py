"""The Encounter powers (R21, encounter_powers) on the native engine, bit for bit.

Seeded games with encounter_powers, alone and mixed with the base game's option mixes, 2-4 players,
random and greedy policies, are played on both engines side by side (`ktenv.kings_and_things.dev.diff.play_whole`):
at every decision the whole state and the legal mask must agree. Every one of the fifteen powers must
have changed those games somewhere (`ktenv.kings_and_things.dev.power_use` counts it on the Python engine), so a
power the native engine got wrong cannot hide in a power that was never played. Some games also
compare every seat's observation of the native state (native encoder) with the Python one, and some
are checked step by step (each runner pass, mask and action). CI plays short games; the `slow` test
plays KTENV_NATIVE_POWERS_GAMES longer games (default 20 in CI; the issue's figure is 2,000). The
golden playthrough with powers replays natively; `backend="auto"`, the vector env and its greedy seats
take the option.
"""

from __future__ import annotations

import os
import random
import warnings

import numpy as np
import pytest

from ktenv.kings_and_things import native
from ktenv.kings_and_things.config import ENCOUNTER_POWERS, GameConfig

if not native.available() or os.environ.get("KTENV_NO_NATIVE") == "1":
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.kings_and_things.dev.diff import BASE_MIXES, Report, differences, play_stepwise, play_whole, python_dict  # noqa: E402
from ktenv.kings_and_things.dev.power_use import counting, table  # noqa: E402
from ktenv.kings_and_things.engine import machine  # noqa: E402
from ktenv.kings_and_things.engine.machine import legal_mask  # noqa: E402
from ktenv.kings_and_things.native.game import NativeGame  # noqa: E402
from ktenv.kings_and_things.state import GAME_OVER  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the engines themselves


def _config(g: int, max_rounds) -> GameConfig:
    """Game g: powers alone (even g) or with a base mix (odd g), 2-4 players."""
    mix = {} if g % 2 == 0 else BASE_MIXES[(g // 2) % len(BASE_MIXES)]
    return GameConfig(n_players=2 + g % 3, max_rounds=max_rounds, encounter_powers=True, **mix)


def _play(count: int, first_seed: int, max_rounds) -> tuple[int, list[str], dict]:
    """(decisions, first differences, power use) of `count` games played on both engines."""
    report = Report(show=3)
    decisions = 0
    with counting() as use:
        for g in range(count):
            rounds = max_rounds(g) if callable(max_rounds) else max_rounds
            cfg = _config(g, rounds)
            policy = "greedy" if g % 25 == 7 else "random"
            decisions += play_whole(cfg, first_seed + g, report, max_decisions=100_000, policy=policy)
    tally = report.tallies["whole game"]
    assert tally.matched + tally.differed == count
    for text in report.dead_ends:
        warnings.warn(f"dead end: {text}", stacklevel=2)
    return decisions, report.firsts, dict(use)


def test_games_with_powers_match_at_every_decision_and_use_every_power():
    decisions, firsts, use = _play(120, 30_000, lambda g: 2 + g % 5)
    assert not firsts, "\n\n".join(firsts)
    assert decisions > 15_000
    unused = [name for name in ENCOUNTER_POWERS if not use.get(name)]
    assert not unused, f"powers never used in these games: {unused}\n{table(use)}"
    for part in ("Aviator: flyer declared", "Aviator: flyer retreats alone", "Lucky: re-roll",
                 "Nomad: fort moves", "Nomad: town moves", "Gambler: stake", "Tax Farmer: hex marked"):
        assert use.get(part), f"{part} never happened\n{table(use)}"


@pytest.mark.slow
def test_many_games_with_powers_match():
    count = int(os.environ.get("KTENV_NATIVE_POWERS_GAMES", "20"))  # the figure: 2,000
    decisions, firsts, use = _play(count, 40_000, lambda g: None if g % 10 == 9 else 3 + g % 8)
    assert not firsts, "\n\n".join(firsts)
    print(f"\n{count} games, {decisions} decisions; power use:\n{table(use)}")


def test_step_by_step_with_powers():
    """The differential tool's step mode: each runner pass, mask and action from the same state."""
    report = Report(show=3)
    for g in range(6):
        play_stepwise(_config(g, 4), 50_000 + g, report, None, max_decisions=400)
    bad = {k: (t.differed, t.errors) for k, t in report.tallies.items() if t.differed or t.errors}
    assert not bad and not report.firsts, "\n\n".join(report.firsts) or bad
    for key in ("apply tax farmer's hex", "apply nomad's destination", "apply aviator's flyer"):
        assert report.tallies[key].matched, f"{key}: never reached"


def _observations_match(cfg: GameConfig, seed: int) -> int:
    """Both engines side by side; at every decision state, mask and every seat's observation of the
    native state (native encoder) against the Python state's (Python encoder). Decisions played."""
    from ktenv.kings_and_things.arena import encoder_for
    from ktenv.kings_and_things.native.observation import NativeObservationEncoder

    s = machine.new_game(cfg, seed, backend="python")
    game = machine.new_game(cfg, seed, backend="native")
    py, nat = encoder_for(cfg), NativeObservationEncoder(cfg, encoder=encoder_for(cfg))
    rnd = random.Random(seed)
    n = 0
    while True:
        diffs = differences(python_dict(s), game.native.to_dict())
        assert not diffs, f"seed {seed}, decision {n}: " + "\n".join(diffs)
        mask = legal_mask(s)
        assert np.array_equal(game.legal_mask(), mask), f"seed {seed}, decision {n}: mask differs"
        for p in range(cfg.n_players):
            want, got = py.encode(s, p), nat.encode(game.native, p)
            if not np.array_equal(want, got):
                names = py.layout.names()
                wrong = np.flatnonzero(want != got)[:8]
                bad = ", ".join(f"{names[i]}: python {want[i]} native {got[i]}" for i in wrong)
                raise AssertionError(f"seed {seed}, decision {n}, observer {p}: {bad}")
        if s.phase == GAME_OVER:
            return n
        action = int(rnd.choice(np.flatnonzero(mask)))
        machine.step(s, action)
        game.step(action)
        n += 1


def test_observations_of_native_games_with_powers():
    decisions = sum(_observations_match(_config(g, 3), 60_000 + g) for g in range(9))
    assert decisions > 1_000


def test_the_powers_playthrough_replays_on_the_native_engine():
    from ktenv.kings_and_things.dev.playthrough import FOLDER, GAMES, first_difference, play_lines

    games = [(name, options, seed) for name, options, seed in GAMES if options.get("encounter_powers")]
    assert "4p_powers.txt" in [name for name, _, _ in games]
    for name, options, seed in games:
        diff = first_difference((FOLDER / name).read_text().splitlines(), play_lines(options, seed, "native"))
        assert not diff, f"{name} differs at {diff}"


def test_auto_and_native_play_powers_natively():
    cfg = GameConfig(n_players=3, encounter_powers=True, powers=("Lucky", "nomad", "Tax_Farmer"))
    for backend in ("auto", "native"):
        game = machine.new_game(cfg, 4, backend=backend)
        assert isinstance(game, NativeGame)
        assert game.power.tolist() == [ENCOUNTER_POWERS.index(p) for p in ("Lucky", "Nomad", "Tax Farmer")]
    dealt = machine.new_game(GameConfig(n_players=4, encounter_powers=True), 9, backend="native")
    assert dealt.power.tolist() == machine.new_game(GameConfig(n_players=4, encounter_powers=True), 9,
                                                    backend="python").power.tolist()


def test_vector_env_with_powers_same_as_the_aec_env():
    from ktenv.kings_and_things.vector import VectorEnv

    from .test_vector import Twin, drive

    options = {"max_rounds": 2, "encounter_powers": True}
    n, seed, seats = 3, 17, ("external", "external", "random")
    env = VectorEnv(n, seed=seed, num_threads=2, reward="shaped", seats=seats, n_players=3, **options)
    twins = [Twin("native", seats, "shaped", None, options) for _ in range(n)]
    assert drive(env, twins, seed, 300, np.random.default_rng(3)) >= n


def test_vector_env_greedy_seats_with_powers_same_as_the_python_agent():
    from ktenv.kings_and_things.native.agents import plan_for
    from ktenv.kings_and_things.vector import VectorEnv

    from .test_vector import Twin, drive

    options = {"max_rounds": 1, "encounter_powers": True}
    assert plan_for(GameConfig(n_players=3, **options)) is not None
    n, seed, seats = 2, 23, ("greedy", "external", "random")
    env = VectorEnv(n, seed=seed, num_threads=2, reward="shaped", seats=seats, n_players=3, **options)
    twins = [Twin("native", seats, "shaped", None, options) for _ in range(n)]
    assert drive(env, twins, seed, 150, np.random.default_rng(4)) >= n


def _from_here(s, seed: int, max_decisions: int = 300) -> int:
    """From an arranged Python state at a phase's start: both engines resume it and play on side by side
    (random actions), compared at every decision. Decisions played."""
    from ktenv.kings_and_things.engine import resume
    from ktenv.kings_and_things.native.bridge import to_native
    from ktenv.rng import Dice

    s.rng = Dice(seed)
    ns = to_native(s)
    resume(s)
    ns.advance()
    rnd = random.Random(seed)
    buf = np.zeros(machine.layout(s).size, np.int8)
    for n in range(max_decisions):
        diffs = differences(python_dict(s), ns.to_dict())
        assert not diffs, f"seed {seed}, decision {n}: " + "\n".join(diffs)
        ns.legal_mask(buf)
        mask = legal_mask(s)
        assert np.array_equal(buf, mask), f"seed {seed}, decision {n}: mask differs"
        if s.phase == GAME_OVER:
            return n
        action = int(rnd.choice(np.flatnonzero(mask)))
        machine.step(s, action)
        ns.step(action)
    return max_decisions


def test_brute_full_screen_scenario():
    """R21.4 / R17.1: a Brute's Charge creature comes back to a full screen (BruteScreens, then the
    discard), a path random play hardly reaches: arranged as tests/rules/test_powers.py does, then played
    on both engines from there with the game's own dice."""
    from ktenv.kings_and_things import decisions as D
    from ktenv.kings_and_things.constants import CUP
    from ktenv.kings_and_things.state import COMBAT
    from tests.rules.test_powers import battle, powers_board

    from ..builders import put, screen, thing

    with counting() as use:
        for seed in range(12):
            s = powers_board(p1="Brute", p0="Amoeba")
            a, _ = battle(s)
            put(s, thing("Wolf Pack"), 0, a)
            put(s, thing("White Knight"), 1, a)
            for c in np.flatnonzero(s.thing_place == CUP)[:10]:
                screen(s, int(c), 1)
            s.frames.clear()
            s.phase, s.stage, s.turn, s.decision = COMBAT, 0, 0, D.NONE
            s.check_invariants()
            _from_here(s, seed, max_decisions=60)
    assert use.get("Brute: screen over 10"), table(use)


def test_a_battle_where_the_amoeba_ignores_every_hit_still_ends():
    """R21.1 / RD7.4: in this game (4 players, random play) a battle once went on for ever: the Amoeba's
    side took one hit a round and ignored it, nobody could retreat, and the ignored hit counted as a hit,
    so the 50-rounds-without-a-hit rule never ended it. An ignored hit is no hit now, in both engines (the
    differential tests above compare them on games where the Amoeba ignores hits)."""
    import subprocess
    import sys

    code = ("from ktenv.kings_and_things.native import core; "
            "from ktenv.kings_and_things.native.bridge import rules_for; "
            "from ktenv.kings_and_things.config import GameConfig; "
            "cfg = GameConfig(n_players=4, max_rounds=100, encounter_powers=True); "
            "print(core().play_random_games(rules_for(cfg), 274, 1))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

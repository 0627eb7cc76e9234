"""The native engine plays R20 bit for bit: six players with two boxes (R20.1), "Where will
they stop?" (R20.2) and Mysterious Kadab in both flip modes (R20.3), alone, with each other and with
the base game's option mixes.

- Seeded games on both engines side by side (`ktenv.kings_and_things.dev.diff.play_whole`): the whole state and the
  legal mask agree at every decision. CI: 250 short games, at least 100 per option (counted below);
  behind `slow`, KTENV_R20_GAMES games of 4-12 rounds (default 16 in CI; the issue's figure is 2,000:
  KTENV_R20_GAMES=2000, about 20 minutes here).
- The observations of every seat: the native encoder equals the Python one on the same states.
- The golden playthroughs of these options replay on the native engine.
- `backend="auto"` picks the native engine; the vector env (options passed through, random and greedy
  seats) equals the AEC env on the Python engine; the native greedy agent on native games chooses what
  the Python agent chooses on Python games.
"""

from __future__ import annotations

import os
import pickle
import random
import warnings
from collections import Counter

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available() or os.environ.get("KTENV_NO_NATIVE") == "1":
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.agents.kings_and_things.greedy import GreedyAgent  # noqa: E402

from ktenv.kings_and_things.arena import encoder_for  # noqa: E402
from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.dev.diff import (  # noqa: E402
    BASE_MIXES,
    Report,
    differences,
    play_whole,
    python_dict,
    same_state,
    to_native,
)
from ktenv.kings_and_things.engine import machine, new_game  # noqa: E402
from ktenv.kings_and_things.engine.machine import legal_mask  # noqa: E402
from ktenv.kings_and_things.env.observation import PRIVATE_DECISIONS  # noqa: E402
from ktenv.kings_and_things.native.agents import NativeGreedyAgent  # noqa: E402
from ktenv.kings_and_things.native.game import NativeGame  # noqa: E402
from ktenv.kings_and_things.native.observation import NativeObservationEncoder  # noqa: E402
from ktenv.kings_and_things.state import GAME_OVER  # noqa: E402
from ktenv.kings_and_things.vector import VectorEnv  # noqa: E402

from .test_vector import Twin, drive  # noqa: E402  (the vector env against its AEC twin)

pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the engines themselves

FLIPS = (None, "on_exploration", "on_entry")  # Mysterious Kadab off, or its flip mode


def r20_config(g: int, max_rounds: int | None) -> GameConfig:
    """Game g of the sequence: six players every other game, Kadab off / on_exploration / on_entry by
    g % 5, "Where will they stop?" in 3 of 7, over the base mixes (6, 5, 7 and 16 cycle together, so
    each option meets the others, alone and in mixes)."""
    n = (6, 2, 6, 3, 6, 4)[g % 6]
    options = dict(BASE_MIXES[g % len(BASE_MIXES)])
    flip = FLIPS[(0, 1, 1, 2, 2)[g % 5]]
    if flip is not None:
        options.update(mysterious_kadab=True, mysterious_flip=flip)
    if g % 7 in (0, 2, 4):
        options["where_will_they_stop"] = True
    return GameConfig(n_players=n, max_rounds=max_rounds, **options)


def coverage(configs) -> Counter:
    """Games per R20 option (a game counts for each option it has)."""
    out: Counter = Counter()
    for cfg in configs:
        out["six players"] += cfg.n_players == 6
        out["where_will_they_stop"] += cfg.where_will_they_stop
        out["kadab on_exploration"] += cfg.mysterious_kadab and cfg.mysterious_flip == "on_exploration"
        out["kadab on_entry"] += cfg.mysterious_kadab and cfg.mysterious_flip == "on_entry"
        out["none of them"] += cfg.n_players < 6 and not cfg.where_will_they_stop and not cfg.mysterious_kadab
    return out


def _play(games, max_decisions: int) -> int:
    report = Report(show=3)
    decisions = 0
    for cfg, seed, policy in games:
        decisions += play_whole(cfg, seed, report, max_decisions=max_decisions, policy=policy)
    for text in report.dead_ends:  # both engines agree; the rules engine itself has a bug to look at
        warnings.warn(f"dead end: {text}", stacklevel=2)
    assert not report.firsts, "\n\n".join(report.firsts)
    assert report.tallies["whole game"].matched == len(games)
    return decisions


def test_the_ci_games_cover_every_option_alone_and_mixed():
    configs = [r20_config(g, 2) for g in range(250)]
    got = coverage(configs)
    assert min(got[k] for k in ("six players", "where_will_they_stop", "kadab on_exploration",
                                "kadab on_entry")) >= 100, got
    alone = Counter()
    for cfg in configs:
        on = (cfg.n_players == 6, cfg.where_will_they_stop, cfg.mysterious_kadab)
        if sum(on) == 1:
            alone[on] += 1
    assert len(alone) == 3 and min(alone.values()) >= 10, alone  # each option alone, as well as in mixes


def test_250_games_match_at_every_decision():
    games = [(r20_config(g, 1 + g % 3), 30_000 + g, "greedy" if g % 25 == 11 else "random") for g in range(250)]
    decisions = _play(games, max_decisions=220)
    assert decisions > 30_000


@pytest.mark.slow
def test_long_games_match():
    count = int(os.environ.get("KTENV_R20_GAMES", "16"))  # the figure: 2,000
    games = [(r20_config(g, 4 + g % 9), 40_000 + g, "greedy" if g % 50 == 17 else "random") for g in range(count)]
    _play(games, max_decisions=1_000_000)


# ----- observations


def _compare_observations(s, py, nat, tally: Counter) -> None:
    ns = to_native(s)
    every = nat.encode_all(ns)
    for p in range(s.cfg.n_players):
        want = py.encode(s, p)
        if not np.array_equal(every[p], want):
            names = py.layout.names()
            bad = np.flatnonzero(every[p] != want)[:12]
            detail = ", ".join(f"{names[i]}: python {want[i]} native {every[p][i]}" for i in bad)
            raise AssertionError(f"{s.cfg.n_players} players, observer {p}, round {s.round}, "
                                 f"decision {s.decision}: {detail}")
        tally["observations"] += 1
    tally["states"] += 1
    tally["face down"] += int(s.hex_down.any())
    tally["private"] += s.decision in PRIVATE_DECISIONS


def test_observations_match_python():
    tally: Counter = Counter()
    for g in range(14):
        cfg = r20_config(g, 3)
        py = encoder_for(cfg)
        nat = NativeObservationEncoder(cfg, encoder=encoder_for(cfg))
        s = machine.new_game(cfg, 500 + g, backend="python")
        rnd = random.Random(g)
        previous = None
        for k in range(240):
            key = (s.decision, len(s.frames))
            if s.phase == GAME_OVER or k % 5 == 0 or key != previous or s.decision in PRIVATE_DECISIONS:
                _compare_observations(s, py, nat, tally)
            if s.phase == GAME_OVER:
                break
            previous = key
            legal = np.flatnonzero(legal_mask(s))
            machine.step(s, int(legal[rnd.randrange(legal.size)]))
    assert tally["states"] > 700 and tally["face down"] > 200 and tally["private"] > 0, tally


# ----- playthroughs, backend choice


def test_the_r20_playthroughs_replay_on_the_native_engine():
    from ktenv.kings_and_things.dev.playthrough import GAMES, check

    r20 = [name for name, options, _ in GAMES
           if options["n_players"] == 6 or options.get("mysterious_kadab") or options.get("where_will_they_stop")]
    assert {"6p_standard.txt", "3p_kadab_on_entry.txt", "2p_kadab_on_exploration.txt"} <= set(r20)
    problems = check(backend="native")
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("options", [
    {"n_players": 6}, {"n_players": 3, "where_will_they_stop": True},
    {"n_players": 2, "mysterious_kadab": True},
    {"n_players": 6, "mysterious_kadab": True, "mysterious_flip": "on_entry", "where_will_they_stop": True},
])
def test_auto_picks_the_native_engine(options):
    cfg = GameConfig(**options)
    assert machine.resolve_backend() == "native"
    game = new_game(cfg, 3)
    assert isinstance(game, NativeGame)
    s = new_game(cfg, 3, backend="python")
    rnd = random.Random(3)
    for _ in range(300):  # into the game: the saves, copies and pickles are the Python state's
        assert same_state(s, game.native), differences(python_dict(s), game.native.to_dict())
        legal = np.flatnonzero(legal_mask(s))
        a = int(legal[rnd.randrange(legal.size)])
        machine.step(s, a)
        game.step(a)
    assert game.to_json() == s.to_json()
    again = pickle.loads(pickle.dumps(game.copy()))
    assert again.to_json() == s.to_json() and NativeGame.from_python(s).to_json() == s.to_json()


# ----- the vector env and the native greedy agent


VECTOR_CASES = [  # seats, options, steps
    (("external",) * 6, {"max_rounds": 1}, 500),
    (("external", "random", "greedy"), {"n_players": 3, "max_rounds": 2, "mysterious_kadab": True,
                                        "mysterious_flip": "on_entry", "where_will_they_stop": True}, 150),
    (("random", "external"), {"max_rounds": 2, "mysterious_kadab": True}, 150),
    (("greedy", "external", "random", "random", "greedy", "random"),
     {"max_rounds": 1, "mysterious_kadab": True, "where_will_they_stop": True}, 250),
]


@pytest.mark.parametrize("seats, options, steps", VECTOR_CASES)
def test_vector_env_same_as_the_python_aec_env(seats, options, steps):
    options = {"n_players": len(seats), **options}
    n, seed = 2, 41
    env = VectorEnv(n, seed=seed, num_threads=2, reward="shaped", seats=seats, **options)
    assert env.config.mysterious_kadab == options.get("mysterious_kadab", False)
    twins = [Twin("python", seats, "shaped", None, options) for _ in range(n)]
    assert drive(env, twins, seed, steps, np.random.default_rng(9)) >= n


@pytest.mark.parametrize("options", [
    {"n_players": 6, "max_rounds": 1}, {"n_players": 2, "max_rounds": 3, "mysterious_kadab": True},
    {"n_players": 3, "max_rounds": 2, "mysterious_kadab": True, "mysterious_flip": "on_entry",
     "where_will_they_stop": True},
])
def test_native_greedy_on_native_games_chooses_as_python(options):
    cfg = GameConfig(**options)
    seed = 8
    s = machine.new_game(cfg, seed, backend="python")
    game = machine.new_game(cfg, seed, backend="native")
    py_enc = encoder_for(cfg)
    nat_enc = NativeObservationEncoder(cfg, encoder=encoder_for(cfg))
    py = [GreedyAgent(seed=seed * 10 + p) for p in range(cfg.n_players)]
    nat = [NativeGreedyAgent(seed=seed * 10 + p) for p in range(cfg.n_players)]
    decisions = 0
    while not s.game_over and decisions < 400:
        p = s.actor
        mask = legal_mask(s)
        assert np.array_equal(game.legal_mask(), mask)
        a = py[p].act(py_enc.encode(s, p), mask)
        assert nat[p].act(nat_enc.encode(game, p), game.legal_mask()) == a, f"decision {decisions}"
        machine.step(s, a)
        game.step(a)
        decisions += 1
    assert same_state(s, game.native)
    assert decisions > 100


@pytest.mark.parametrize("players, opponents, options, steps", [
    (6, "random", {"max_rounds": 1, "mysterious_kadab": True}, 120),
    (3, ["greedy", "random"], {"max_rounds": 2, "mysterious_kadab": True, "mysterious_flip": "on_entry",
                               "where_will_they_stop": True}, 300),
])
def test_training_games_same_as_single_agent_env(players, opponents, options, steps):
    """The training path (`ktenv train`, vec_env vector: one learning seat per batched game) takes the
    options through, with the observation size of that kind of game."""
    from ktenv.kings_and_things.vector.learner import LearnerGames

    from .test_vector_learner import compare

    games = LearnerGames(2, num_players=players, seed=5, num_threads=2, reward="shaped", opponents=opponents,
                         **options)
    assert games.observation_size == encoder_for(GameConfig(n_players=players, **options)).size
    kinds = [opponents] * (players - 1) if isinstance(opponents, str) else opponents
    assert compare(games, lambda info: kinds, "shaped", options, steps, np.random.default_rng(3)) >= 2

"""The native observation encoder is bit-exact with the Python one (ktenv.kings_and_things.native.observation).

Seeded games are played on the Python engine (2, 3 and 4 players, the base game's option mixes);
at many decisions every player's observation from the Python encoder on the Python state must equal
the native encoder's on the same state converted (`State.from_python_with`), float32 for float32. The `slow`
test plays KTENV_NATIVE_OBS_GAMES more games (default 20).
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available():
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.kings_and_things.arena import encoder_for  # noqa: E402
from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.dev.diff import BASE_MIXES, to_native  # noqa: E402
from ktenv.kings_and_things.engine import machine  # noqa: E402
from ktenv.kings_and_things.engine.machine import legal_mask  # noqa: E402
from ktenv.kings_and_things.env.observation import PRIVATE_DECISIONS  # noqa: E402
from ktenv.kings_and_things.env.stats import player_stats  # noqa: E402
from ktenv.kings_and_things.native.game import NativeGame  # noqa: E402
from ktenv.kings_and_things.native.observation import NativeObservationEncoder  # noqa: E402
from ktenv.kings_and_things.state import GAME_OVER  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the engines themselves


_ENCODERS: dict = {}


def _encoders(cfg: GameConfig):
    key = repr(sorted(cfg.to_dict().items()))
    if key not in _ENCODERS:
        py = encoder_for(cfg)
        _ENCODERS[key] = (py, NativeObservationEncoder(cfg, encoder=encoder_for(cfg)))
    return _ENCODERS[key]


def _config(g: int, max_rounds: int | None = None) -> GameConfig:
    players = (2, 3, 4)[g % 3]
    mix = BASE_MIXES[g % len(BASE_MIXES)]
    cfg = GameConfig(n_players=players, **mix)
    if max_rounds is not None:
        cfg = GameConfig.from_dict({**cfg.to_dict(), "max_rounds": max_rounds})
    return cfg


def _compare(s, py, nat, tally: dict) -> None:
    ns = to_native(s)
    n = s.cfg.n_players
    stats = player_stats(s)
    assert np.array_equal(nat.plan.player_stats(ns), stats), "player_stats differ"
    every = nat.encode_all(ns)
    row = np.full(nat.size, 7.0, np.float32)
    for p in range(n):
        want = py.encode(s, p)
        got = nat.encode(ns, p)
        if not np.array_equal(want, got):
            names = py.layout.names()
            bad = np.flatnonzero(want != got)[:12]
            detail = ", ".join(f"{names[i]}: python {want[i]} native {got[i]}" for i in bad)
            raise AssertionError(f"observer {p}, round {s.round}, phase {s.phase}, decision {s.decision}: {detail}")
        assert np.array_equal(every[p], want), f"encode_all differs for observer {p}"
        nat.encode_into(ns, p, row)
        assert np.array_equal(row, want)
        tally["observations"] += 1
    tally["states"] += 1
    if s.decision in PRIVATE_DECISIONS:
        tally["private"] += 1


def _play(g: int, max_decisions: int, every: int, tally: dict, max_rounds: int | None = None) -> None:
    cfg = _config(g, max_rounds)
    py, nat = _encoders(cfg)
    s = machine.new_game(cfg, 1000 + g, backend="python")
    rnd = random.Random(g)
    previous = None
    for k in range(max_decisions):
        if s.phase == GAME_OVER:
            _compare(s, py, nat, tally)
            break
        # every `every`-th decision, and whenever the pending decision or frames change kind
        key = (s.decision, len(s.frames))
        if k % every == 0 or key != previous or s.decision in PRIVATE_DECISIONS:
            _compare(s, py, nat, tally)
        previous = key
        legal = np.flatnonzero(legal_mask(s))
        machine.step(s, int(legal[rnd.randrange(legal.size)]))
    tally["games"] += 1


def test_native_observation_matches_python():
    tally = {"games": 0, "states": 0, "observations": 0, "private": 0}
    for g in range(30):
        _play(g, max_decisions=260, every=4, tally=tally)
    assert tally["games"] == 30 and tally["states"] > 1000, tally


def test_native_game_through_the_python_encoder():
    """ObservationEncoder.encode / encode_into hand a NativeGame to the native encoder."""
    cfg = _config(2)
    py, _ = _encoders(cfg)
    s = machine.new_game(cfg, 7, backend="python")
    rnd = random.Random(7)
    for _ in range(150):
        legal = np.flatnonzero(legal_mask(s))
        machine.step(s, int(legal[rnd.randrange(legal.size)]))
    game = NativeGame.from_python(s)
    for p in range(cfg.n_players):
        want = py.encode(s, p)
        assert np.array_equal(py.encode(game, p), want)
        row = np.zeros((2, py.size), np.float32)
        py.encode_into(game, p, row[1])
        assert np.array_equal(row[1], want) and not row[0].any()


def test_native_encoder_is_fast():
    cfg = _config(2)  # 4 players
    _, nat = _encoders(cfg)
    s = machine.new_game(cfg, 3, backend="python")
    rnd = random.Random(3)
    for _ in range(200):
        legal = np.flatnonzero(legal_mask(s))
        machine.step(s, int(legal[rnd.randrange(legal.size)]))
    seconds = nat.time_encode(s, 0, 2000)
    assert seconds < 1e-3  # a loose bound (development builds are unoptimised); see docs/native.md


@pytest.mark.slow
def test_native_observation_matches_python_long():
    tally = {"games": 0, "states": 0, "observations": 0, "private": 0}
    count = int(os.environ.get("KTENV_NATIVE_OBS_GAMES", "20"))
    for g in range(30, 30 + count):
        _play(g, max_decisions=3000, every=3, tally=tally, max_rounds=12)
    assert tally["games"] == count, tally

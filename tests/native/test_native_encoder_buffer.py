"""The native encoder writes every value of its buffer, whatever the buffer held before.

It zeroes only the sparse parts of the layout (one-hot columns, counts, registers, the flags of Things
out of the cup) and writes the other rows whole (observation.cpp: whole_rows), so a stale or garbage
buffer must never show through: rows filled with NaN or with another seat's observation are encoded
into and compared with the Python encoder, float32 for float32, in native games of 2-4 players.
"""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available():
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.kings_and_things.arena import encoder_for  # noqa: E402
from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.engine import legal_mask, new_game, step  # noqa: E402
from ktenv.kings_and_things.native.observation import NativeObservationEncoder  # noqa: E402


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_value_is_written(players: int) -> None:
    cfg = GameConfig(n_players=players, max_rounds=30)
    py = encoder_for(cfg)
    nat = NativeObservationEncoder(cfg, encoder=encoder_for(cfg))
    rng = np.random.default_rng(players)
    garbage = rng.normal(size=nat.size).astype(np.float32) * 100
    compared = 0
    game = new_game(cfg, 40 + players, backend="native")
    for k in range(450):
        if game.game_over:
            break
        if k % 40 == 0 or (game.native.n_frames > 1 and k % 8 == 0):  # nested procedures: registers of several frames
            compared += _compare(game, py, nat, garbage)
        legal = np.flatnonzero(legal_mask(game))
        step(game, int(legal[rng.integers(legal.size)]))
    assert compared > 10 * players, compared


def _compare(game, py, nat, garbage: np.ndarray) -> int:
    state = game.to_python()
    wants = [py.encode(state, p) for p in range(game.cfg.n_players)]
    row = np.empty(nat.size, np.float32)
    for p, want in enumerate(wants):
        for before in (np.nan, garbage, wants[(p + 1) % len(wants)]):
            row[:] = before
            nat.encode_into(game, p, row)
            bad = np.flatnonzero(~(row == want))[:8]
            names = py.layout.names()
            assert bad.size == 0, f"observer {p}: " + ", ".join(f"{names[i]} {row[i]} != {want[i]}" for i in bad)
    return len(wants)

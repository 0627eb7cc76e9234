"""Kingsburg's batched games: `VectorEnv` steps N native games in one call (the GIL released), each call
writing every game's row of a few numpy arrays (the EnvPool / PufferLib shape, as Kings & Things'
`ktenv.VectorEnv`, docs/vector.md). Each row is the view of whoever must decide in that game now.

    env = VectorEnv(256, num_players=4, seed=0, seats=("external", "random", "random", "random"))
    out = env.reset()
    out = env.step(actions)            # actions: [N] integers, one legal action per game for its actor

`reset(seed=None)` and `step(actions)` return a dict of arrays owned by the env (overwritten by the next
call; copy what you keep): ``observation`` [N, observation_size] float32 (the actor's view, as
`ObservationEncoder.encode(state, actor)`), ``action_mask`` [N, 65] int8, ``actor`` [N] int32, ``rewards``
[N, n] float64 (what each seat earned in the call, in the game that was in the row when it began),
``opening_rewards`` [N, n] (the opening of a game started in the call: its native seats' turns),
``terminated`` and ``truncated`` [N] bool (a Kingsburg game always ends after year V: never truncated),
``seed`` [N] uint64, and for a game that ended in the call ``final_winners`` [N, n] bool, ``final_length``
[N] int64 (its decisions, every seat's), ``final_seed`` [N] uint64, ``final_return`` [N, n] float64 and
``final_vp`` [N, n] int32 (zero in the other rows), and ``final_observation`` [N, observation_size] float32:
its final state seen by its first external seat (not cleared: read it only where a game ended).

A game that ends starts its next game in the same call. Game i of `VectorEnv(seed=S)` plays the seeds
S + i, S + i + N, S + i + 2N, ...: its k-th game is `machine.new_game(config, S + i + k * N)`; `reset(T)`
restarts every row from T + i, `reset()` from the last seed given. Seats: ``"external"`` (the caller) or
``"random"`` (a native uniform random player), one kind per seat for every game or one row per game; every
game needs an external seat. Rewards: ``"win"`` (winners share +1, the others -1, at the end) or
``"shaped"`` (plus the change of 0.01 * VP every decision), as the AEC env.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...errors import ConfigError
from .. import actions as A
from ..config import KingsburgConfig
from . import core
from .game import NativeKingsburg

SEAT_KINDS = ("external", "random")
_OUTPUTS = ("observation", "action_mask", "actor", "rewards", "opening_rewards", "terminated", "seed",
            "final_winners", "final_length", "final_seed", "final_return", "final_vp", "final_observation")


def _seat_rows(seats, num_envs: int, n: int) -> list[list[int]]:
    if seats is None:
        seats = ("external",) * n
    rows = [list(seats)] * num_envs if seats and isinstance(seats[0], str) else [list(r) for r in seats]
    if len(rows) != num_envs or any(len(r) != n for r in rows):
        raise ConfigError(f"seats: one kind per seat ({n}), for every game or one row per game ({num_envs})")
    unknown = sorted({k for r in rows for k in r} - set(SEAT_KINDS))
    if unknown:
        raise ConfigError(f"seats: unknown kind(s) {unknown}; Kingsburg's batched seats are {SEAT_KINDS}")
    if any("external" not in r for r in rows):
        raise ConfigError("seats: every game needs an external seat")
    return [[SEAT_KINDS.index(k) for k in r] for r in rows]


class VectorEnv:
    """N Kingsburg games on the native engine (see the module's docstring)."""

    reasons = ("game_end",)

    def __init__(self, num_envs: int, num_players: int = 4, seed: int = 0, reward: str = "win",
                 seats: Sequence | None = None, **game_options) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs: a positive whole number, got {num_envs!r}")
        if reward not in ("win", "shaped"):
            raise ConfigError(f"reward: 'win' or 'shaped', got {reward!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ConfigError(f"seed: a whole number >= 0, got {seed!r}")
        self.config = KingsburgConfig.from_dict({**game_options, "n_players": num_players})
        self.num_envs, self.num_players, self.n_actions = num_envs, num_players, A.N_ACTIONS
        self.observation_size = core().observation_size(num_players)
        self._batch = core().Batch(self.config, num_envs, _seat_rows(seats, num_envs, num_players),
                                   reward == "shaped")
        self._seed = seed
        self._out = {name: getattr(self._batch, name) for name in _OUTPUTS}
        self._out["truncated"] = np.zeros(num_envs, bool)

    def reset(self, seed: int | None = None) -> dict[str, np.ndarray]:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise ConfigError(f"seed: a whole number >= 0, got {seed!r}")
            self._seed = seed
        self._batch.reset(self._seed)
        return self._out

    def step(self, actions) -> dict[str, np.ndarray]:
        """One action per game for its actor; an illegal one raises IllegalActionError and changes nothing."""
        from ...errors import IllegalActionError

        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions: one per game, shape ({self.num_envs},), got {actions.shape}")
        try:
            self._batch.step(actions)
        except core().IllegalAction as exc:
            raise IllegalActionError(str(exc)) from None
        return self._out

    def game(self, i: int) -> NativeKingsburg:
        """A copy of the game in row i."""
        return NativeKingsburg(self.config, self._batch.game(int(i)))

    def close(self) -> None:
        """Nothing to stop: the games run on the calling thread, with the GIL released."""

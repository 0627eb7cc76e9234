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

A game that ends starts its next game in the same call; `set_next_seats(game, seats, observer)` changes the
seats of a row's next game (the league's draw), and an action `SKIP` leaves a row as it is in a call. Game i of
`VectorEnv(seed=S)` plays the seeds S + i, S + i + N, S + i + 2N, ...: its k-th game is
`machine.new_game(config, S + i + k * N)`; `reset(T)` restarts every row from T + i, `reset()` from the last seed
given. Seats, one kind per seat for every game or
one row per game (every game needs an external seat):

- ``"external"``: the caller;
- ``"random"``: a native uniform random player (a generator of its own per row, never the game's dice);
- ``"greedy"``, ``"expert"``: the native agents (`ktenv.kingsburg.native.agents`: the Python agents' choices);
- ``"ppo:PATH"``, ``"ppo-sample:PATH"``: a trained model's policy network evaluated natively (a league snapshot),
  choosing as the arena's agent of that name: the best legal action, or a draw from the masked softmax with
  ``numpy.random.default_rng(seed * 7919 + 2 + seat)`` for the game of seed ``seed``.

The native seats read only their seat's observation. Rewards: ``"win"`` (winners share +1, the others -1, at
the end) or ``"shaped"`` (plus the change of 0.01 * VP every decision), as the AEC env. ``num_threads``: threads
stepping the games (default: the cores this process may use); the results are the same for any count.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from ...errors import ConfigError
from .. import actions as A
from ..config import KingsburgConfig
from . import core
from .game import NativeKingsburg

SEAT_KINDS = ("external", "random", "greedy", "expert")  # the native seat codes 0-3; a policy seat is code 4
POLICY_PREFIXES = ("ppo:", "ppo-sample:")
POLICY_CODE = 4
SKIP = -1  # step's action for a game left as it is in this call
_OUTPUTS = ("observation", "action_mask", "actor", "rewards", "opening_rewards", "terminated", "seed",
            "final_winners", "final_length", "final_seed", "final_return", "final_vp", "final_observation")


def _seat_rows(seats, num_envs: int, n: int) -> tuple[list[list[int]], list[str]]:
    """Seat codes per game, and the policy seat kinds row by row in seat order."""
    if seats is None:
        seats = ("external",) * n
    rows = [list(seats)] * num_envs if seats and isinstance(seats[0], str) else [list(r) for r in seats]
    if len(rows) != num_envs or any(len(r) != n for r in rows):
        raise ConfigError(f"seats: one kind per seat ({n}), for every game or one row per game ({num_envs})")
    codes, policies = [], []
    for i, row in enumerate(rows):
        codes.append([])
        for p, kind in enumerate(row):
            if isinstance(kind, str) and kind.startswith(POLICY_PREFIXES) and kind.partition(":")[2]:
                codes[-1].append(POLICY_CODE)
                policies.append(kind)
            elif kind in SEAT_KINDS:
                codes[-1].append(SEAT_KINDS.index(kind))
            else:
                raise ConfigError(f"seats: {kind!r} (game {i}, seat {p}) is not one of {list(SEAT_KINDS)}, ppo:PATH "
                                  "nor ppo-sample:PATH")
    if any(0 not in r for r in codes):
        raise ConfigError("seats: every game needs an external seat")
    return codes, policies


def native_policy(spec: str, observation_size: int):
    """The native network of a policy seat kind (``ppo:PATH`` or ``ppo-sample:PATH``) for observations of
    `observation_size` entries; ConfigError for a model that cannot play them."""
    from ...agents.network import ModelFileError
    from ...agents.ppo import load_cached

    try:
        playing, meta = load_cached(spec.partition(":")[2])
    except ModelFileError as exc:
        raise ConfigError(f"seats: {spec!r}: {exc}") from None
    if meta["observation_size"] != observation_size:
        raise ConfigError(f"seats: {spec!r} was trained on observations of {meta['observation_size']} entries, this "
                          f"game's have {observation_size} (another player count or game?)")
    if playing.focus is not None:
        raise ConfigError(f"seats: {spec!r} reads a focus, which native Kingsburg seats do not gather")
    if playing.steer is not None:
        raise ConfigError(f"seats: {spec!r} steers its logits, which native Kingsburg seats do not")
    if playing.rows is not None:
        raise ConfigError(f"seats: {spec!r} scores table rows, which native Kingsburg seats do not")
    codes = ("none", "relu", "tanh", "elu")  # the native Activation codes
    hidden = [(weights, bias, codes.index(activation)) for weights, bias, activation in playing.hidden]
    return core().Policy.make(*playing.first, hidden, *playing.action, spec.startswith("ppo-sample:"), spec)


class VectorEnv:
    """N Kingsburg games on the native engine (see the module's docstring)."""

    reasons = ("game_end",)

    def __init__(self, num_envs: int, num_players: int = 4, seed: int = 0, reward: str = "win",
                 seats: Sequence | None = None, num_threads: int | None = None, **game_options) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs: a positive whole number, got {num_envs!r}")
        if reward not in ("win", "shaped"):
            raise ConfigError(f"reward: 'win' or 'shaped', got {reward!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ConfigError(f"seed: a whole number >= 0, got {seed!r}")
        self.config = KingsburgConfig.from_dict({**game_options, "n_players": num_players})
        self.num_envs, self.num_players, self.n_actions = num_envs, num_players, A.N_ACTIONS
        self.observation_size = core().observation_size(num_players)
        if num_threads is None:
            num_threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
            raise ConfigError(f"num_threads: a positive whole number, got {num_threads!r}")
        codes, policies = _seat_rows(seats, num_envs, num_players)
        self._networks: dict[str, object] = {}  # one native network per policy seat kind
        self._batch = core().Batch(self.config, num_envs, codes, reward == "shaped", num_threads,
                                   [self._network(spec) for spec in policies])
        self.num_threads = num_threads
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

    def set_next_seats(self, game: int, seats: Sequence[str], observer: int | None = None) -> None:
        """The seat kinds of game `game`'s next game (the one its next reset or auto-reset starts), and the seat
        whose view of its final state is ``final_observation`` (default: its first external seat)."""
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < self.num_envs:
            raise IndexError(f"set_next_seats: {game!r} is not a game of this env (0 to {self.num_envs - 1})")
        codes, policies = _seat_rows([list(seats)], 1, self.num_players)
        if observer is None:
            observer = codes[0].index(0)
        if isinstance(observer, bool) or not isinstance(observer, (int, np.integer)) \
                or not 0 <= observer < self.num_players:
            raise ConfigError(f"set_next_seats: observer {observer!r} is not a seat (0 to {self.num_players - 1})")
        self._batch.set_next_seats(int(game), codes[0], int(observer), [self._network(s) for s in policies])

    def seats(self, game: int) -> tuple[str, ...]:
        """Game `game`'s seat kinds in the game under way."""
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < self.num_envs:
            raise IndexError(f"seats: {game!r} is not a game of this env (0 to {self.num_envs - 1})")
        return tuple(self._batch.network_name(int(game), p) if c == POLICY_CODE else SEAT_KINDS[c]
                     for p, c in enumerate(self._batch.seats(int(game))))

    def _network(self, spec: str):
        """The native network of a policy seat kind (loaded once)."""
        if spec not in self._networks:
            self._networks[spec] = native_policy(spec, self.observation_size)
        return self._networks[spec]

    def game(self, i: int) -> NativeKingsburg:
        """A copy of the game in row i."""
        return NativeKingsburg(self.config, self._batch.game(int(i)))

    def close(self) -> None:
        """Nothing to stop: the threads stop when the env is freed."""

"""Batched games on the native engine: `VectorEnv` steps N games in one call (docs/vector.md).

    from ktenv.kings_and_things.vector import VectorEnv
    env = VectorEnv(256, num_players=2, seed=0)      # games 0..255 play seeds 0..255 first
    out = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = (rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1)  # a random legal one
        out = env.step(actions)
        done = out["terminated"] | out["truncated"]  # those games already hold their next game (auto-reset)

The games run in native code over a thread pool, the GIL released. `reset` and `step` return a dict of
numpy arrays that the env owns and overwrites on every call (copy what you keep):

- ``observation`` float32[N, observation_size]: each game's actor's observation (their own seat's view);
- ``action_mask`` int8[N, n_actions]: that actor's legal actions; ``actor`` int32[N]: who decides now;
- ``rewards`` float64[N, num_players]: what every seat earned in the call, in the game that was in the row
  when the call began (the AEC env's rewards, summed over its decisions played in the call);
  ``opening_rewards``: the same for the opening of a game started in the call (its native seats' turns
  before its first external decision); ``terminated``, ``truncated`` bool[N];
- ``seed`` uint64[N]: the seed of the game now in each row;
- where a game ended in this call: ``final_winners`` bool[N, num_players], ``final_reason`` int8[N] (an
  index in `REASONS`), ``final_rounds``, ``final_seed``, ``final_length`` (its decisions, every seat's) and
  ``final_return`` float64[N, num_players] (its rewards summed), ``final_stats`` int64[N, num_players,
  len(STAT_COLUMNS)] (every player's statistics at the end: income, hexes, ...); zeros in the other rows;
  ``final_observation`` float32[N, observation_size]: the final state seen by the game's observer (not
  cleared: read it only where a game ended).

Auto-reset: a game that ends starts the next game of its seed stream in the same call; the row's
observation is the new game's first one and the ended game is described by the ``final_*`` arrays.
Game i of ``VectorEnv(seed=S)`` plays seeds S + i, S + i + N, S + i + 2N, ...; ``reset(seed=T)``
restarts every stream from T, ``reset()`` starts each game's next seed.

Seats: ``seats=("external", "random")`` (one kind per seat, for every game, or one such row per game)
says who decides. "external" seats are the caller's; "random" seats play uniformly random legal actions
inside native code, with a generator of their own (seeded by the game's seed, never the game's dice);
"greedy" seats play the greedy agent ported to native code (native/agents.py), "expert" seats the
expert's (native/expert.py), and ``"ppo:PATH"`` / ``"ppo-sample:PATH"`` seats a trained model (a
``ktenv train`` zip, as the arena's agents of those names: the most likely legal action, or one drawn
from the policy with numpy's ``default_rng`` seeded as a greedy seat's), its network evaluated in native code
(native/src/agents/policy.hpp); all of them read only their own observation and mask.
`step` applies the external actions, then plays the native seats until every game waits on an external
seat again, so the caller sees only external decisions; the rewards of those turns are added to the
row. A native seat's turns before an episode's first external decision are in ``opening_rewards``. Every
game needs an external seat. ``set_next_seats(i, seats, observer)`` changes game i's seats from its next
episode on (the single-learner adapters draw the learner's seat and its opponents anew every game), and
an action of ``SKIP`` (-1) leaves a game as it is in that call (its rows show nothing earned and no end).

Semantics are the AEC env's (ktenv/kings_and_things/env/aec.py): ``reward="win"`` or ``"shaped"``, the config's round
limit (truncated, the winner rewarded), ``max_steps`` decisions per episode (truncated, reason
"step_limit", no winner, no end reward). An illegal action in any game raises `IllegalActionError` naming
the game and the action, and changes no game. Same seeds and actions give the same arrays whatever the
thread count.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import IllegalActionError
from ...gamekit.layout import ObservationLayout
from .. import decisions as D
from ..config import ConfigError, GameConfig
from ..env.aec import DEFAULT_MAX_STEPS, REWARD_MODES, game_config
from ..state import PHASE_NAMES

SEAT_KINDS = ("external", "random", "greedy", "expert")  # the codes of src/vector/vector.hpp's Seat
POLICY_PREFIXES = ("ppo:", "ppo-sample:")  # a policy seat's kind: one of these and a model path (Seat code POLICY)
POLICY_CODE = 4
SKIP = -1  # step's action for a game left as it is in that call
_BOOL_ROWS = ("terminated", "truncated", "final_winners")


def reasons() -> tuple[str, ...]:
    """Why a game ended, indexed by ``final_reason`` ('' for no game ended in that row)."""
    from ..native import core

    return tuple(core().VECTOR_REASONS)


class VectorEnv:
    """N native games stepped together (see the module's docstring).

    Args:
        num_envs: how many games (at least 1).
        num_players: players per game (default 2; ``n_players`` is the same key).
        seed: the first seed of the streams (game i plays seed + i first).
        num_threads: threads stepping the games (default: the cores this process may use).
        reward: "win" or "shaped", as the AEC env.
        max_steps: decisions per episode before truncation (None: no bound), as the AEC env.
        seats: who decides for each seat: "external" (the caller), "random", "greedy", "expert", "ppo:PATH" or
            "ppo-sample:PATH"; one kind per seat, or one such row per game. Default: every seat external.
        **game_options: every GameConfig key.
    """

    def __init__(self, num_envs: int, num_players: int | None = None, seed: int = 0, num_threads: int | None = None,
                 reward: str = "win", max_steps: int | None = DEFAULT_MAX_STEPS,
                 seats: Sequence | np.ndarray | None = None, **game_options: Any) -> None:
        from ..native import core
        from ..native.bridge import rules_for
        from ..native.observation import NativeObservationEncoder

        _check_count("num_envs", num_envs)
        if num_threads is None:
            num_threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        _check_count("num_threads", num_threads)
        _check_seed(seed)
        if reward not in REWARD_MODES:
            raise ConfigError(f"reward: {reward!r} is not one of {list(REWARD_MODES)}")
        if max_steps is not None:
            _check_count("max_steps", max_steps)
        options = dict(game_options)
        if num_players is not None or "n_players" not in options:
            options["num_players"] = 2 if num_players is None else num_players
        self.config: GameConfig = game_config(options)
        self.num_envs = int(num_envs)
        self.num_players = self.config.n_players
        self.reward_mode = reward
        self.max_steps = max_steps
        self.encoder = NativeObservationEncoder(self.config)
        codes, policies = _seat_codes(seats, self.num_envs, self.num_players)
        self._networks: dict[str, Any] = {}  # a policy seat kind's native network, while some game's next seats name it
        self._uses: dict[str, int] = {}  # how many games' next seats name it
        self._next_policies: list[list[str]] = [[] for _ in range(self.num_envs)]
        networks = []
        for i, row in enumerate(policies):
            networks += [self._network(spec) for spec in row]
            self._name_next(i, row)
        greedy = _greedy_plan(self.config) if (codes == SEAT_KINDS.index("greedy")).any() else None
        expert = _expert_plan(self.config) if (codes == SEAT_KINDS.index("expert")).any() else None
        if not hasattr(core(), "VectorBatch"):  # a core built before src/vector/ existed
            from ..native import BUILD_HINT, NativeUnavailableError

            raise NativeUnavailableError(f"the native core was built without the batched games: {BUILD_HINT}")
        self._batch = core().VectorBatch(rules_for(self.config), self.encoder.plan, self.num_envs, int(seed),
                                         int(num_threads), REWARD_MODES.index(reward), max_steps or 0,
                                         codes.ravel().tolist(), greedy, expert, networks)
        self.num_threads = self._batch.num_threads
        self.observation_size = self._batch.observation_size
        self.n_actions = self._batch.n_actions
        self._out = _as_bool(self._batch.buffers())
        self._started = False
        self._greedy_ready = greedy is not None
        self._expert_ready = expert is not None

    # ----- reset / step

    def reset(self, seed: int | None = None) -> dict[str, np.ndarray]:
        """Every game anew: with `seed`, the seed streams restart from it; without, each game plays its
        stream's next seed (the first reset plays the constructor's streams from their start)."""
        if seed is not None:
            _check_seed(seed)
        self._live().reset(None if seed is None else int(seed))
        self._started = True
        return self._out

    def step(self, actions: Sequence[int] | np.ndarray) -> dict[str, np.ndarray]:
        """One action per game for its actor (an int array [num_envs]); returns the rows (see the module)."""
        batch = self._live()
        if not self._started:
            raise RuntimeError("step() before reset(): call reset() first")
        actions = self._checked_actions(actions)
        bad = batch.step(actions)
        if bad >= 0:
            raise IllegalActionError(self._illegal_message(bad, int(actions[bad])))
        return self._out

    def set_next_seats(self, game: int, seats: Sequence[str], observer: int | None = None) -> None:
        """Game `game`'s seats from its next episode on (the one its next reset or auto-reset starts): one kind
        per seat, as the constructor's `seats`; `observer`: the seat whose view of that episode's final state is
        ``final_observation`` (default: its first external seat). Bad input changes nothing."""
        batch = self._live()
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < self.num_envs:
            raise IndexError(f"set_next_seats: {game!r} is not a game of this env (0 to {self.num_envs - 1})")
        codes, policies = _seat_codes([seats], 1, self.num_players, first=int(game))
        codes, policies = codes[0], policies[0]
        if observer is None:
            observer = int(np.flatnonzero(codes == 0)[0])
        elif isinstance(observer, bool) or not isinstance(observer, (int, np.integer)) or \
                not 0 <= observer < self.num_players:
            raise ConfigError(f"observer: expected a seat 0-{self.num_players - 1}, got {observer!r}")
        if not self._greedy_ready and (codes == SEAT_KINDS.index("greedy")).any():
            batch.set_greedy_plan(_greedy_plan(self.config))
            self._greedy_ready = True
        if not self._expert_ready and (codes == SEAT_KINDS.index("expert")).any():
            batch.set_expert_plan(_expert_plan(self.config))
            self._expert_ready = True
        try:
            batch.set_next_seats(int(game), codes.tolist(), int(observer), [self._network(p) for p in policies])
        except ValueError:
            self._name_next(int(game), self._next_policies[int(game)])  # unchanged; drops what was loaded for it
            raise
        self._name_next(int(game), policies)

    def seats(self, game: int) -> tuple[str, ...]:
        """Game `game`'s seat kinds in the episode under way."""
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < self.num_envs:
            raise IndexError(f"seats: {game!r} is not a game of this env (0 to {self.num_envs - 1})")
        batch = self._live()
        return tuple(batch.network(int(game), p).name if c == POLICY_CODE else SEAT_KINDS[c]
                     for p, c in enumerate(batch.seats(int(game))))

    def _network(self, spec: str):
        """The native network of a policy seat kind (loaded once while games name it)."""
        network = self._networks.get(spec)
        if network is None:
            from ...agents.network import ModelFileError
            from ...agents.ppo import load_cached

            try:
                playing, meta = load_cached(spec.partition(":")[2])
            except ModelFileError as exc:
                raise ConfigError(f"seats: {spec!r}: {exc}") from None
            if meta["observation_size"] != self.encoder.size:
                raise ConfigError(f"seats: {spec!r} was trained on observations of {meta['observation_size']} "
                                  f"entries, this game's have {self.encoder.size} (another player count or game "
                                  "options?)")
            network = self._networks[spec] = native_policy(playing, spec.startswith("ppo-sample:"), spec)
        return network

    def _name_next(self, game: int, policies: list[str]) -> None:
        """Game `game`'s next seats name these policy kinds: a network no game's next seats name is dropped (the
        games still playing it hold it until they end), one loaded for seats that were refused too."""
        for spec in policies:
            self._uses[spec] = self._uses.get(spec, 0) + 1
        for spec in self._next_policies[game]:
            self._uses[spec] -= 1
        self._next_policies[game] = list(policies)
        for spec in [spec for spec in self._networks if not self._uses.get(spec)]:
            self._uses.pop(spec, None)
            del self._networks[spec]

    def _checked_actions(self, actions: Any) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: expected one per game, shape ({self.num_envs},), got shape {a.shape}")
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions: expected whole numbers (an integer array), got dtype {a.dtype}")
        if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
            raise IllegalActionError(f"actions: {a.max()} is outside the action space Discrete({self.n_actions})")
        return np.ascontiguousarray(a, dtype=np.int64)

    def _illegal_message(self, i: int, action: int) -> str:
        game = self.game(i)
        if not 0 <= action < self.n_actions:
            return (f"game {i}: action {action} is outside the action space Discrete({self.n_actions}) "
                    f"(0 to {self.n_actions - 1}); no game changed")
        return (f"game {i}: action {action} ({game.describe_action(action)}) is not legal now: player {game.actor} "
                f"must decide '{D.NAMES[game.decision]}' in phase '{PHASE_NAMES[game.phase]}'; no game changed")

    # ----- what else callers use

    def game(self, i: int):
        """A copy of game `i` as it stands (a `ktenv.kings_and_things.native.game.NativeGame`)."""
        from ..native.game import NativeGame

        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise IndexError(f"game: {i!r} is not a game of this env (0 to {self.num_envs - 1})")
        return NativeGame(self.config, self._live().game(int(i)))

    def observation_layout(self) -> ObservationLayout:
        """Named slices of the flat observation (docs/observation.md)."""
        return self.encoder.layout

    @property
    def reasons(self) -> tuple[str, ...]:
        """`final_reason` codes as names."""
        return reasons()

    def close(self) -> None:
        """Stop the threads and free the games (the arrays returned before stay readable)."""
        self._out = {k: v.copy() for k, v in self._out.items()}
        self._batch = None

    def _live(self):
        if self._batch is None:
            raise RuntimeError("the VectorEnv is closed")
        return self._batch

    def __repr__(self) -> str:
        return (f"VectorEnv(num_envs={self.num_envs}, num_players={self.num_players}, "
                f"num_threads={self.num_threads}, reward={self.reward_mode!r}, max_steps={self.max_steps})")


def _check_count(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ConfigError(f"{name}: expected a positive whole number, got {value!r}")


def _check_seed(seed: Any) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ConfigError(f"seed: expected a whole number from 0 to 2**64 - 1, got {seed!r}")


def _greedy_plan(cfg: GameConfig):
    """The native greedy agent's plan of `cfg` (ktenv.kings_and_things.native.agents)."""
    try:
        from ..native.agents import plan_for
    except ImportError as exc:
        raise ConfigError(f"seats: greedy seats need the native plan_for (native/agents.py), not in this build ({exc})"
                          ) from None
    return plan_for(cfg)


def _expert_plan(cfg: GameConfig):
    """The native expert agent's plan of `cfg` (ktenv.kings_and_things.native.expert)."""
    try:
        from ..native.expert import expert_plan_for
    except ImportError as exc:
        raise ConfigError(f"seats: expert seats need the native expert_plan_for (native/expert.py), not in this "
                          f"build ({exc})") from None
    return expert_plan_for(cfg)


def _seat_codes(seats: Any, n: int, players: int, first: int = 0) -> tuple[np.ndarray, list[list[str]]]:
    """int8[n, players] seat codes from one row of kinds (every game) or one row per game, and each row's policy
    seat kinds (``ppo:PATH``, ``ppo-sample:PATH``) in seat order."""
    if seats is None:
        return np.zeros((n, players), np.int8), [[] for _ in range(n)]
    rows = np.asarray(seats, dtype=object)
    if rows.shape == (players,):
        rows = np.broadcast_to(rows, (n, players))
    if rows.shape != (n, players):
        raise ConfigError(f"seats: expected {players} seat kinds, or {n} rows of {players}, got shape {rows.shape}")
    codes = np.zeros((n, players), np.int8)
    policies: list[list[str]] = [[] for _ in range(n)]
    for (i, p), kind in np.ndenumerate(rows):
        if isinstance(kind, str) and kind.startswith(POLICY_PREFIXES) and kind.partition(":")[2]:
            codes[i, p] = POLICY_CODE
            policies[i].append(kind)
        elif kind in SEAT_KINDS:
            codes[i, p] = SEAT_KINDS.index(kind)
        else:
            raise ConfigError(f"seats: {kind!r} (game {first + i}, seat {p}) is not one of {list(SEAT_KINDS)}, "
                              "ppo:PATH nor ppo-sample:PATH")
    if not (codes == 0).any(axis=1).all():
        game = first + int(np.flatnonzero(~(codes == 0).any(axis=1))[0])
        raise ConfigError(f"seats: game {game} has no external seat: the caller would never be asked to decide")
    return codes, policies


def _as_bool(rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The flag rows seen as bool (the same memory)."""
    return {k: v.view(np.bool_) if k in _BOOL_ROWS else v for k, v in rows.items()}


__all__ = ["POLICY_PREFIXES", "SEAT_KINDS", "SKIP", "VectorEnv", "reasons"]


def native_policy(playing, sample: bool, name: str, value: bool = False):
    """A trained network (`ktenv.training.policy.PlayingNetwork`) as a native policy seat's: a copy of the
    weights in native memory; `sample`: draw from the masked softmax (``ppo-sample:``), else the best legal
    action; `value`: with the critic's path too (``playing.critic``; the policy-guided search's cutoff value)."""
    from ..native import core

    codes = ("none", "relu", "tanh", "elu")  # agents/policy.hpp's Activation
    if value and playing.critic is None:
        raise ValueError(f"{name}: the model has no value head after the actor's first layer")
    hidden = [(weights, bias, codes.index(activation)) for weights, bias, activation in playing.hidden]
    critic = [(w, b, codes.index(activation)) for w, b, activation in playing.critic] if value else []
    focus = {}
    if playing.focus is not None:
        anchor, gather = playing.focus.arrays()
        focus = {"focus_anchor": anchor.astype(np.int32), "focus_gather": gather.astype(np.int32)}
    steer = {}
    if playing.steer is not None:
        t = playing.steer
        steer = {"steer_gate": t.gate, **{f"steer_{k}": np.asarray(getattr(t, k), np.int32)
                                          for k in ("anchor", "sources", "targets")},
                 "steer_weights": np.ascontiguousarray(t.weights().ravel()), "steer_extra": t.extra}
    rows, steps = [], []
    if playing.rows is not None:
        rows = [(b.action, b.start, b.rows, (*embed, 0), (*context, 0))
                for b, (embed, context) in zip(playing.rows.blocks, playing.row_weights)]
        contexts = iter(playing.row_step_weights)
        steps = [(b.action, b.block, np.asarray(b.anchor, np.int32), np.asarray(b.rows, np.int32).ravel(), b.actions,
                  [(*next(contexts), 0) for _ in range(b.steps)]) for b in playing.rows.step_blocks]
    return core().PolicyNetwork.make(*playing.first, hidden, *playing.action, sample, name, critic, **focus, **steer,
                                     rows=rows, steps=steps)

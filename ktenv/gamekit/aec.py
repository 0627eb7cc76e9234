"""The PettingZoo AEC layer every ktenv game shares: `SeatedGameEnv` and the wrappers of ``env()``.

A game subclasses `SeatedGameEnv` and supplies what differs: its `Engine` (class attribute ``engine``),
its picture module (``renderer``), its config, observation encoder and action count (``__init__`` ends
with `_seat_players`), ``observe`` / `_observation_of`, the shaping potential (`_potentials`) and the
``infos`` rows (`_refresh_infos`). The base keeps the rest the same for every game:

- agents ``player_0 .. player_{n-1}`` in seat order; ``agent_selection`` is the engine's ``state.actor``;
- ``reset(seed)`` plays the same game as ``new_game(cfg, seed)``; without a seed the game seed comes from
  the env's generator (seeded by the last seed given); ``options={"state": ...}`` resumes a saved game;
- actions outside ``Discrete(n)`` raise TypeError/ValueError naming the action and the space (`checked_action`);
  an illegal one raises the engine's IllegalActionError; both change nothing;
- rewards ``"win"`` (`win_rewards` at the end) or ``"shaped"`` (plus the change of the potential at every step);
- ``terminations`` at the end of the game (``truncations`` where it ended at the round limit), and
  ``truncations`` after ``max_steps`` decisions (reason ``step_limit``, no winner, no end reward);
- ``infos`` computed on demand once per state version; ``snapshot``/``restore`` and pickling through JSON;
- render modes ``human`` (prints the text picture), ``ansi`` (returns it) and ``rgb_array``.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..errors import ConfigError
from . import Engine

RENDER_MODES = ("human", "ansi", "rgb_array")  # human: the text picture printed to stdout
REWARD_MODES = ("win", "shaped")
ILLEGAL_ACTION_MODES = ("raise", "terminate")
SHAPING_SCALE = 0.01
ILLEGAL_REWARD = -1.0
DEFAULT_MAX_STEPS = 100_000  # decisions per episode: a safety bound (decisions could go in circles)
ROUND_LIMIT = "round_limit"  # the end reason that truncates (the game was stopped, not finished)


def checked_action(action: Any, n: int, agent: str = "the agent") -> int:
    """`action` as an int of ``Discrete(n)``; anything outside the space raises (TypeError for a wrong
    type or a float, ValueError out of range) before anything changes. An int in range that the mask
    forbids is the engine's IllegalActionError, not this."""
    if action is None:
        raise ValueError(f"{agent} must act: None is only for agents whose episode ended")
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]  # a 0-d array, as a policy's predict() returns for one observation
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action {action!r} ({type(action).__name__}) is not in the action space Discrete({n}): "
                        "expected a whole number")
    if not 0 <= action < n:
        raise ValueError(f"action {action!r} is outside the action space Discrete({n}) (0 to {n - 1})")
    return int(action)


def win_rewards(n: int, winners: list[int]) -> list[float]:
    """Winners share +1, losers share -1; everybody winning (or nobody) is 0 for all."""
    k = len(winners)
    if k == 0 or k == n:
        return [0.0] * n
    return [1.0 / k if p in winners else -1.0 / (n - k) for p in range(n)]


class SeatedGameEnv(AECEnv):
    """The AEC bookkeeping of a seated, turn-based ktenv game (see the module docstring)."""

    engine: ClassVar[Engine]
    renderer: ClassVar[str]  # the module with ansi(state) and rgb_array(state)

    def __init__(self, render_mode: str | None, reward: str, max_steps: int | None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode: {render_mode!r} is not one of {[None, *RENDER_MODES]}")
        if reward not in REWARD_MODES:
            raise ConfigError(f"reward: {reward!r} is not one of {list(REWARD_MODES)}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int)
                                      or max_steps < 1):
            raise ConfigError(f"max_steps: expected a positive whole number or None, got {max_steps!r}")
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_steps = max_steps

    def _seat_players(self, n: int, n_actions: int) -> None:
        """Agents and spaces for `n` seats (the observation box from ``self.encoder``); no game yet."""
        self.n_actions = n_actions
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        enc = self.encoder
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }) for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._state = None
        self._seed_rng: np.random.Generator | None = None
        self._version = 0  # counts the states the episode went through: the caches' key
        self._infos: dict[str, dict] = {}
        self._infos_version = -1
        self._potential: np.ndarray | None = None
        self._steps = 0  # decisions taken in this episode
        self._step_limit_hit = False

    # ----- spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    # ----- reset / step

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """New game. `seed` seeds the game itself (same seed, same game as `new_game(cfg, seed)`);
        without one the game seed comes from the env's generator (seeded by the last seed given).
        ``options={"state": state or JSON}`` starts from a saved state instead."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            if self._seed_rng is None:
                self._seed_rng = np.random.default_rng()
            game_seed = int(self._seed_rng.integers(2**62))
        start = (options or {}).get("state")
        if start is not None:
            self._load(start)
        else:
            self._state = self._new_game(game_seed)
            self._start_episode()

    def _new_game(self, seed: int):
        return self.engine.new_game(self.cfg, seed)

    def _load(self, saved: Any) -> None:
        self._state = self._state_from(saved)
        self._start_episode()

    def _state_from(self, saved: Any):
        """The state to go on from: a copy of `saved` (a state of this game or its JSON) for this config."""
        state_type = self.engine.state_type
        if isinstance(saved, str):
            state = state_type.from_json(saved)
        elif isinstance(saved, state_type):
            state = saved.copy()
        else:
            raise TypeError(f"expected a {state_type.__name__} or its JSON text, got {type(saved).__name__}")
        if state.cfg != self.cfg:
            raise ConfigError("the saved game's config differs from this environment's config "
                              f"({state.cfg} != {self.cfg})")
        return state

    def _start_episode(self) -> None:
        s = self._state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self._steps = 0
        self._step_limit_hit = False
        self._version += 1
        self._infos = {a: {} for a in self.agents}
        self._infos_version = -1
        self._potential = self._potentials() if self.reward_mode == "shaped" else None
        if s.game_over:  # a finished game restored: no reward is handed out again
            self.agent_selection = self.agents[0]
            self._finish(reward=False)
        else:
            self.agent_selection = self.possible_agents[s.actor]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = checked_action(action, self.n_actions, agent)
        s = self._state
        self.engine.step(s, action)  # an illegal action raises here and changes nothing
        self._version += 1
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = 0.0
        if self._potential is not None:
            before, after = self._potential, self._potentials()
            for i, a in enumerate(self.possible_agents):
                rewards[a] = float(after[i] - before[i])
            self._potential = after
        self._steps += 1
        if s.game_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[s.actor]
            if self.max_steps is not None and self._steps >= self.max_steps:
                self._step_limit_hit = True  # a bound on every episode (decisions can go in circles)
                for a in self.agents:
                    self.truncations[a] = True
        self._accumulate_rewards()

    def _finish(self, reward: bool = True) -> None:
        s = self._state
        truncated = self._end_reason() == ROUND_LIMIT
        final = win_rewards(s.n_players, s.winners)
        for i, a in enumerate(self.possible_agents):
            if reward:
                self.rewards[a] += final[i]
            self.terminations[a] = not truncated
            self.truncations[a] = truncated

    def _end_reason(self) -> str:
        """Why the finished game ended (``infos[agent]["reason"]``)."""
        return "game_end"

    def _potentials(self) -> np.ndarray:
        """Every player's shaping potential now (``reward="shaped"``)."""
        raise NotImplementedError

    # ----- observations and infos

    def _observation_of(self, player: int) -> np.ndarray:
        """A fresh observation vector of `player`'s seat (not cached)."""
        raise NotImplementedError

    @property
    def infos(self) -> dict[str, dict]:
        if self._infos_version != self._version and self._state is not None:
            self._refresh_infos()
            self._infos_version = self._version
        return self._infos

    @infos.setter
    def infos(self, value: dict[str, dict]) -> None:
        self._infos = value
        self._infos_version = self._version

    def _refresh_infos(self) -> None:
        """Fill ``self._infos[agent]`` for every agent in it from the current state."""
        raise NotImplementedError

    def _end_info(self) -> dict:
        """What ``infos`` add once the episode is over: winner (None if shared), winners, reason."""
        s = self._state
        if s.game_over:
            winners = [self.possible_agents[p] for p in s.winners]
            return {"winner": winners[0] if len(winners) == 1 else None, "winners": winners,
                    "reason": self._end_reason()}
        if self._step_limit_hit:
            return {"winner": None, "winners": [], "reason": "step_limit"}
        return {}

    # ----- helpers beyond the PettingZoo API

    @property
    def game_state(self):
        """The live game state (read it; change it only through `step`)."""
        return self._state

    def describe_action(self, action: int) -> str:
        """What `action` means for the agent to act now, in English."""
        return self.engine.describe_action(self._state, action)

    def observation_layout(self):
        """Named slices of the flat observation (a mapping section -> slice)."""
        return self.encoder.layout

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the agent to act now (sb3-contrib naming)."""
        return self.engine.legal_mask(self._state).astype(bool)

    def snapshot(self) -> str:
        """The whole game state as JSON, generator included (restore it with `restore`)."""
        return self._state.to_json()

    def restore(self, snapshot: Any) -> None:
        """Continue from a snapshot; rewards bookkeeping starts afresh (cumulative rewards 0)."""
        self._load(snapshot)

    # ----- render / close

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        pictures = importlib.import_module(self.renderer)  # imported on first use (it is heavy)
        if self.render_mode == "human":
            print(pictures.ansi(self._state), flush=True)
            return None
        if self.render_mode == "ansi":
            return pictures.ansi(self._state)
        return pictures.rgb_array(self._state)

    def close(self) -> None:
        pass

    # ----- pickling: the game state travels as its JSON (exact, generator included)

    def __getstate__(self) -> dict:
        d = self.__dict__.copy()
        d["_state"] = None if self._state is None else self._state.to_json()
        return d

    def __setstate__(self, d: dict) -> None:
        text = d["_state"]
        d["_state"] = None if text is None else self.engine.state_type.from_json(text)
        if "n_actions" not in d:  # pickled before ktenv.gamekit
            d["n_actions"] = int(d["_action_spaces"][d["possible_agents"][0]].n)
            d["_infos"] = d.pop("infos", d.get("_infos", {}))
            d.setdefault("_version", 0)
        self.__dict__.update(d)
        self._infos_version = -1


def _forwarded(name: str, guarded: bool = False) -> property:
    """The wrapped env's attribute `name`, read without BaseWrapper.__getattr__'s detour (which costs
    more than a native step). `guarded`: OrderEnforcingWrapper's error before the first reset."""

    def get(self):
        if guarded and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def put(self, value) -> None:
        setattr(self.env, name, value)

    return property(get, put, doc=f"the wrapped env's {name}")


class _FastForwarding:
    """What every AEC step reads, forwarded directly: `last()` and the per-agent dicts."""

    _guarded = False

    def last(self, observe: bool = True):
        if self._guarded and not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


_PER_STEP = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "num_agents")
for _name in _PER_STEP:
    setattr(_FastForwarding, _name, _forwarded(_name))
_FastForwarding._cumulative_rewards = _forwarded("_cumulative_rewards")


class ActionSpaceCheck(_FastForwarding, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's AssertOutOfBoundsWrapper raising `checked_action`'s TypeError/ValueError (naming the
    action and the space) instead of a bare assertion, which ``python -O`` would drop."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if action is not None or not (self.terminations[agent] or self.truncations[agent]):
            action = checked_action(action, self.action_space(agent).n, agent)
        wrappers.BaseWrapper.step(self, action)


class OrderEnforcing(_FastForwarding, wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, the same checks and errors, with the attributes read at every
    step forwarded directly."""

    _guarded = True

    def __str__(self) -> str:
        return str(self.env)


for _name in _PER_STEP:
    setattr(OrderEnforcing, _name, _forwarded(_name, guarded=True))
OrderEnforcing._cumulative_rewards = _forwarded("_cumulative_rewards")


def wrap(make_raw: Any, config: dict[str, Any]) -> AECEnv:
    """``make_raw(**config)`` with PettingZoo's usual wrappers: the action-space check and OrderEnforcing;
    ``config["illegal_action"]`` ("raise", default, or "terminate": the standard TerminateIllegalWrapper
    with reward -1) is taken out of `config` first."""
    illegal = config.pop("illegal_action", "raise")
    if illegal not in ILLEGAL_ACTION_MODES:
        raise ConfigError(f"illegal_action: {illegal!r} is not one of {list(ILLEGAL_ACTION_MODES)}")
    e: AECEnv = make_raw(**config)
    if illegal == "terminate":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = ActionSpaceCheck(e)
    return OrderEnforcing(e)

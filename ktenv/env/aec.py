"""Kings & Things as a PettingZoo AEC environment (``kings_and_things_v0``).

    import ktenv
    env = ktenv.env(n_players=3, max_rounds=50)      # wrapped: AssertOutOfBounds + OrderEnforcing
                                                     # (num_players=3 is the same: PettingZoo's keyword)
    env.reset(seed=42)                               # seed 42 plays the same game as new_game(cfg, 42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Agents: ``player_0 .. player_{n-1}`` (seat order); ``agent_selection`` is the player who must
decide now (the engine's ``state.actor``); several decisions in a row by one player are normal.
A player knocked out of the game (R16.6) stays in ``agents`` without acting until the end.

Spaces (docs/actions.md, docs/observation.md):
- action: ``Discrete(N)``, one flat space for every agent and phase (N = 289 for 4 players,
  271 for 2-3; with house_content, R22, 6 more; 523 for 6 with two boxes, R20.1);
  ``env.unwrapped.describe_action(a)`` says what ``a`` means now.
- observation: ``Dict(observation=Box(float32, (size,)), action_mask=Box(int8, (N,)))``; the
  observation is from the observing player's seat (index 0 = self) and holds nothing they may
  not know (rules RI); the mask is all zeros for agents that are not to act.
  ``env.unwrapped.observation_layout()`` names its slices.

Actions outside the space (out of range, a float, a wrong type) raise ValueError or TypeError naming
the action and the space, and change nothing, in every mode.
Illegal actions: the raw env raises ``ktenv.engine.IllegalActionError`` (a ValueError) and changes
nothing (state, rewards, agent selection), so a buggy agent is found at once. With
``env(illegal_action="terminate")`` PettingZoo's standard ``TerminateIllegalWrapper`` is applied
instead: the offender gets -1, the episode ends for everybody.

Rewards: ``reward="win"`` (default): 0 during play; at the end the winners share +1 and the losers
share -1 (one winner: +1 and -1/(n-1) each; if everybody shares the win, 0 each), so the total
is always 0. ``reward="shaped"`` adds, at every step and for every player, the change of the
potential ``0.01 * (income + land hexes)`` (potential-based shaping: it sums to 0.01 times the
difference between the end and the start, so it does not change which policies are best).

Ends: ``terminations`` when the game is won (any victory condition of the config);
``truncations`` at the round limit (``max_rounds``, reason ``round_limit``; the winner by the
fixed-rounds rule R19.3 is still reported and rewarded), and after ``max_steps`` decisions in the
episode (default 100 000, None: no bound; reason ``step_limit``, no winner, no end reward), a
safety bound in the spirit of PettingZoo's ``max_cycles``: the round limit ends every game, but
only if each decision makes progress, which a rules change could break (a random 4-player game
takes about 6 000 decisions). ``infos[agent]``: ``round``, ``phase``,
``decision``, ``actor``, ``income``, ``hexes``, ``gold``, ``forts``, ``citadels``, ``heroes``,
``alive``; at the end also ``winner`` (agent name, None if shared), ``winners`` and ``reason``.

Snapshots: ``snapshot()`` is the game state as JSON (incl. the generator); ``restore(json)``
continues from it. The env pickles and deep-copies (through the same JSON), and so does a GameState.

Render modes: ``"human"`` prints the text board to stdout (``render()`` returns None), ``"ansi"``
returns it, ``"rgb_array"`` returns the picture (ktenv/render.py).

Version history: v0 (ktenv 0.1) first release; ktenv 0.2: the observation drops the `reg_b_dest`
column, which no rule wrote (the environment keeps its name while ktenv is below 1.0).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..board import board_radius, geometry
from ..config import ConfigError, GameConfig
from ..engine import decisions as D
from ..engine.actions import action_layout
from ..engine.machine import describe_action as _describe_action
from ..engine.machine import legal_mask, new_game, resolve_backend
from ..engine.machine import step as _engine_step
from ..state import PHASE_NAMES, GameState
from .layout import ObservationLayout
from .observation import ObservationEncoder
from .stats import ALIVE, CITADELS, FORTS, GOLD, HEROES, HEXES, INCOME, player_stats

ENV_NAME = "kings_and_things_v0"
RENDER_MODES = ("human", "ansi", "rgb_array")  # human: the text board printed to stdout
REWARD_MODES = ("win", "shaped")
ILLEGAL_ACTION_MODES = ("raise", "terminate")
SHAPING_SCALE = 0.01
ILLEGAL_REWARD = -1.0
DEFAULT_MAX_STEPS = 100_000  # decisions per episode; a full random 4-player game takes about 6k


def game_config(config: dict[str, Any]) -> GameConfig:
    """A GameConfig from env keyword arguments (every GameConfig key; an unknown key is an error)."""
    try:
        return GameConfig.from_dict(dict(config))
    except TypeError as exc:  # a wrong type that the dataclass itself rejects
        raise ConfigError(f"config: {exc}") from None


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


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming convention)
    """The bare AEC environment; `ktenv.env()` wraps it the usual way."""

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, render_mode: str | None = None, reward: str = "win", max_steps: int | None = DEFAULT_MAX_STEPS,
                 backend: str = "auto", **config: Any) -> None:
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
        self.cfg = game_config(config)
        try:  # "auto": the native engine where it plays this config (ktenv.engine.new_game)
            self.backend = resolve_backend(self.cfg, backend)
        except ValueError as exc:
            raise ConfigError(f"backend: {exc}") from None
        n = self.cfg.n_players
        self.n_hexes = geometry(board_radius(n)).n_hexes
        self.action_layout = action_layout(n, self.cfg.house_content)
        self.encoder = ObservationEncoder(self.cfg, self.n_hexes)
        self._plan = self._native_plan()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size, n_actions = self.encoder.size, self.action_layout.size
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(self.encoder.low, self.encoder.high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }) for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._state: GameState | None = None
        self._seed_rng: np.random.Generator | None = None
        self._version = 0
        self._obs_cache: list = [None] * n
        self._stats_version = -1
        self._stats: np.ndarray | None = None
        self._stats_memo: dict = {}
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
        ``options={"state": GameState or JSON}`` starts from a saved state instead."""
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
            self._state = new_game(self.cfg, game_seed, backend=self.backend)
            self._start_episode()

    def _load(self, state: GameState | str) -> None:
        if isinstance(state, str):
            state = GameState.from_json(state)
        elif isinstance(state, GameState):
            state = state.copy()
        elif hasattr(state, "to_python"):  # a native game (ktenv.native.game.NativeGame)
            state = state.to_python().copy()
        else:
            raise TypeError(f"expected a GameState or its JSON text, got {type(state).__name__}")
        if state.cfg != self.cfg:
            raise ConfigError("the saved game's config differs from this environment's config "
                              f"({state.cfg} != {self.cfg})")
        if self.backend == "native":
            from ..native.game import NativeGame

            state = NativeGame.from_python(state)
        self._state = state
        self._start_episode()

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
        action = checked_action(action, self.action_layout.size, agent)
        s = self._state
        _engine_step(s, action)  # an illegal action raises here and changes nothing
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
        truncated = s.reason == "round_limit"
        final = win_rewards(s.n_players, s.winners)
        for i, a in enumerate(self.possible_agents):
            if reward:
                self.rewards[a] += final[i]
            self.terminations[a] = not truncated
            self.truncations[a] = truncated

    def _native_plan(self):
        """The native encoder's plan on the native backend (observations and statistics straight from the
        native state, no wrapper in between), else None."""
        if self.backend != "native":
            return None
        from ..native.observation import encoder_like

        return encoder_like(self.encoder).plan

    def _potentials(self) -> np.ndarray:
        stats = self._current_stats()
        return SHAPING_SCALE * (stats[:, INCOME] + stats[:, HEXES])

    def _current_stats(self) -> np.ndarray:
        if self._stats_version != self._version:
            if self._plan is not None:
                self._stats = self._plan.player_stats(self._state.native)
            else:
                self._stats = player_stats(self._state, self._stats_memo)
            self._stats_version = self._version
        return self._stats

    # ----- observations and infos

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation; computed on demand once per state version and cached."""
        i = self.agent_name_mapping[agent]
        cached = self._obs_cache[i]
        if cached is not None and cached[0] == self._version:
            return cached[1]
        s = self._state
        if self._plan is not None:
            obs = np.empty(self.encoder.size, np.float32)
            self._plan.encode(s.native, i, obs)
        else:
            obs = self.encoder.encode(s, i, self._current_stats())
        if s.actor == i and not s.game_over:
            mask = legal_mask(s).copy()
        else:
            mask = np.zeros(self.action_layout.size, np.int8)
        result = {"observation": obs, "action_mask": mask}
        self._obs_cache[i] = (self._version, result)
        return result

    @property
    def infos(self) -> dict[str, dict]:
        if self._infos_version != self._version and self._state is not None:
            self._refresh_infos()
        return self._infos

    @infos.setter
    def infos(self, value: dict[str, dict]) -> None:
        self._infos = value
        self._infos_version = self._version

    def _refresh_infos(self) -> None:
        s = self._state
        rows = self._current_stats().tolist()
        phase = PHASE_NAMES[s.phase]
        decision = D.NAMES.get(s.decision, str(s.decision))
        actor = self.possible_agents[s.actor] if 0 <= s.actor < s.n_players else None
        end = {}
        if s.game_over:
            winners = [self.possible_agents[p] for p in s.winners]
            end = {"winner": winners[0] if len(winners) == 1 else None, "winners": winners, "reason": s.reason}
        elif self._step_limit_hit:
            end = {"winner": None, "winners": [], "reason": "step_limit"}
        index = self.agent_name_mapping
        for a in self._infos:
            row = rows[index[a]]
            self._infos[a] = {
                "round": s.round, "phase": phase, "decision": decision, "actor": actor,
                "income": row[INCOME], "hexes": row[HEXES], "gold": row[GOLD], "forts": row[FORTS],
                "citadels": row[CITADELS], "heroes": row[HEROES], "alive": bool(row[ALIVE]), **end,
            }
        self._infos_version = self._version

    # ----- helpers beyond the PettingZoo API

    @property
    def game_state(self) -> GameState:
        """The live game state (read it; change it only through `step`)."""
        return self._state

    def describe_action(self, action: int) -> str:
        """What `action` means for the agent to act now, in English."""
        return _describe_action(self._state, action)

    def observation_layout(self) -> ObservationLayout:
        """Named slices of the flat observation (a mapping section -> slice; docs/observation.md)."""
        return self.encoder.layout

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the agent to act now (sb3-contrib naming)."""
        return legal_mask(self._state).astype(bool)

    def snapshot(self) -> str:
        """The whole game state as JSON, generator included (restore it with `restore`)."""
        return self._state.to_json()

    def restore(self, snapshot: str | GameState) -> None:
        """Continue from a snapshot; rewards bookkeeping starts afresh (cumulative rewards 0)."""
        self._load(snapshot)

    # ----- render / close

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        from .. import render as _render

        if self.render_mode == "human":
            print(_render.ansi(self._state), flush=True)
            return None
        if self.render_mode == "ansi":
            return _render.ansi(self._state)
        return _render.rgb_array(self._state)

    def close(self) -> None:
        pass

    # ----- pickling: the game state travels as its JSON (exact, generator included)

    def __getstate__(self) -> dict:
        d = self.__dict__.copy()
        d["_state"] = None if self._state is None else self._state.to_json()
        d["_obs_cache"] = [None] * len(self.possible_agents)
        d["_stats"], d["_stats_version"], d["_stats_memo"] = None, -1, {}
        d["encoder"] = d["_plan"] = None
        return d

    def __setstate__(self, d: dict) -> None:
        text = d["_state"]
        d["_state"] = None if text is None else GameState.from_json(text)
        d.setdefault("backend", "python")  # pickled before the native engine
        if d["_state"] is not None and d["backend"] == "native":
            from ..native.game import NativeGame

            d["_state"] = NativeGame.from_python(d["_state"])
        self.__dict__.update(d)
        self.encoder = ObservationEncoder(self.cfg, self.n_hexes)
        self._plan = self._native_plan()
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


for _name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "num_agents"):
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


for _name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "num_agents"):
    setattr(OrderEnforcing, _name, _forwarded(_name, guarded=True))
OrderEnforcing._cumulative_rewards = _forwarded("_cumulative_rewards")


def env(**config: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers (AssertOutOfBounds, OrderEnforcing).

    Keyword arguments: every GameConfig key (``num_players`` is read as ``n_players``), plus
    ``render_mode`` (None, "human", "ansi", "rgb_array"),
    ``reward`` ("win" or "shaped"), ``max_steps`` (decisions per episode before truncation,
    default 100 000) and ``illegal_action`` ("raise", default, or "terminate": the standard
    TerminateIllegalWrapper with reward -1).
    """
    illegal = config.pop("illegal_action", "raise")
    if illegal not in ILLEGAL_ACTION_MODES:
        raise ConfigError(f"illegal_action: {illegal!r} is not one of {list(ILLEGAL_ACTION_MODES)}")
    e: AECEnv = raw_env(**config)
    if illegal == "terminate":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = ActionSpaceCheck(e)
    return OrderEnforcing(e)

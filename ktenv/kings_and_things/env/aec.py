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
Illegal actions: the raw env raises ``ktenv.kings_and_things.engine.IllegalActionError`` (a ValueError) and changes
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
returns it, ``"rgb_array"`` returns the picture (ktenv/kings_and_things/render.py).

Version history: v0 (ktenv 0.1) first release; ktenv 0.2: the observation drops the `reg_b_dest`
column, which no rule wrote (the environment keeps its name while ktenv is below 1.0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv

from ...gamekit.aec import (
    DEFAULT_MAX_STEPS,
    ILLEGAL_ACTION_MODES,
    ILLEGAL_REWARD,
    RENDER_MODES,
    REWARD_MODES,
    SHAPING_SCALE,
    ActionSpaceCheck,
    OrderEnforcing,
    SeatedGameEnv,
    checked_action,
    win_rewards,
    wrap,
)
from ...gamekit.layout import ObservationLayout
from .. import decisions as D
from ..board import board_radius, geometry
from ..config import ConfigError, GameConfig
from ..engine import ENGINE
from ..engine.actions import action_layout
from ..engine.machine import legal_mask, new_game, resolve_backend
from ..spec import GAME
from ..state import PHASE_NAMES, GameState
from .observation import ObservationEncoder
from .stats import ALIVE, CITADELS, FORTS, GOLD, HEROES, HEXES, INCOME, player_stats

__all__ = ["DEFAULT_MAX_STEPS", "ENGINE", "ENV_NAME", "ILLEGAL_ACTION_MODES", "ILLEGAL_REWARD", "RENDER_MODES",
           "REWARD_MODES", "SHAPING_SCALE", "ActionSpaceCheck", "OrderEnforcing", "checked_action", "env",
           "game_config", "raw_env", "win_rewards"]

ENV_NAME = GAME.env_name


def game_config(config: dict[str, Any]) -> GameConfig:
    """A GameConfig from env keyword arguments (every GameConfig key; an unknown key is an error)."""
    try:
        return GameConfig.from_dict(dict(config))
    except TypeError as exc:  # a wrong type that the dataclass itself rejects
        raise ConfigError(f"config: {exc}") from None


class raw_env(SeatedGameEnv):  # noqa: N801 (PettingZoo's naming convention)
    """The bare AEC environment; `ktenv.env()` wraps it the usual way."""

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}
    engine = ENGINE
    renderer = "ktenv.kings_and_things.render"

    def __init__(self, render_mode: str | None = None, reward: str = "win", max_steps: int | None = DEFAULT_MAX_STEPS,
                 backend: str = "auto", **config: Any) -> None:
        super().__init__(render_mode, reward, max_steps)
        self.cfg = game_config(config)
        try:  # "auto": the native engine where it is built (ktenv.kings_and_things.engine.new_game)
            self.backend = resolve_backend(backend)
        except ValueError as exc:
            raise ConfigError(f"backend: {exc}") from None
        n = self.cfg.n_players
        self.n_hexes = geometry(board_radius(n)).n_hexes
        self.action_layout = action_layout(n, self.cfg.house_content)
        self.encoder = ObservationEncoder(self.cfg, self.n_hexes)
        self._plan = self._native_plan()
        self._seat_players(n, self.action_layout.size)
        self._obs_cache: list = [None] * n
        self._stats_version = -1
        self._stats: np.ndarray | None = None
        self._stats_memo: dict = {}

    # ----- the game: the backend's state, its statistics and potentials

    def _new_game(self, seed: int) -> GameState:
        return new_game(self.cfg, seed, backend=self.backend)

    def _state_from(self, saved: GameState | str) -> GameState:
        if hasattr(saved, "to_python") and not isinstance(saved, (str, GameState)):
            saved = saved.to_python()  # a native game (ktenv.kings_and_things.native.game.NativeGame)
        state = super()._state_from(saved)
        if self.backend == "native":
            from ..native.game import NativeGame

            state = NativeGame.from_python(state)
        return state

    def _end_reason(self) -> str:
        return self._state.reason

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

    def _observation_of(self, player: int) -> np.ndarray:
        return self.encoder.encode(self._state, player, self._current_stats())

    def _refresh_infos(self) -> None:
        s = self._state
        rows = self._current_stats().tolist()
        phase = PHASE_NAMES[s.phase]
        decision = D.NAMES.get(s.decision, str(s.decision))
        actor = self.possible_agents[s.actor] if 0 <= s.actor < s.n_players else None
        end = self._end_info()
        index = self.agent_name_mapping
        for a in self._infos:
            row = rows[index[a]]
            self._infos[a] = {
                "round": s.round, "phase": phase, "decision": decision, "actor": actor,
                "income": row[INCOME], "hexes": row[HEXES], "gold": row[GOLD], "forts": row[FORTS],
                "citadels": row[CITADELS], "heroes": row[HEROES], "alive": bool(row[ALIVE]), **end,
            }

    # ----- helpers beyond the PettingZoo API

    def observation_layout(self) -> ObservationLayout:
        """Named slices of the flat observation (a mapping section -> slice; docs/observation.md)."""
        return self.encoder.layout

    # ----- pickling: the game state travels as its JSON; caches and the native plan are rebuilt

    def __getstate__(self) -> dict:
        d = super().__getstate__()
        d["_obs_cache"] = [None] * len(self.possible_agents)
        d["_stats"], d["_stats_version"], d["_stats_memo"] = None, -1, {}
        d["encoder"] = d["_plan"] = None
        return d

    def __setstate__(self, d: dict) -> None:
        d.setdefault("backend", "python")  # pickled before the native engine
        super().__setstate__(d)
        if self._state is not None and self.backend == "native":
            from ..native.game import NativeGame

            self._state = NativeGame.from_python(self._state)
        self.encoder = ObservationEncoder(self.cfg, self.n_hexes)
        self._plan = self._native_plan()


def env(**config: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers (AssertOutOfBounds, OrderEnforcing).

    Keyword arguments: every GameConfig key (``num_players`` is read as ``n_players``), plus
    ``render_mode`` (None, "human", "ansi", "rgb_array"),
    ``reward`` ("win" or "shaped"), ``max_steps`` (decisions per episode before truncation,
    default 100 000) and ``illegal_action`` ("raise", default, or "terminate": the standard
    TerminateIllegalWrapper with reward -1).
    """
    return wrap(raw_env, config)

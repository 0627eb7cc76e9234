"""Kingsburg as a PettingZoo AEC environment (``kingsburg_v0``).

    import ktenv.kingsburg
    env = ktenv.kingsburg.env(num_players=4)         # wrapped: action-space check + OrderEnforcing
    env.reset(seed=42)                               # seed 42 plays the same game as new_game(cfg, 42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Agents: ``player_0 .. player_{n-1}`` (seats); ``agent_selection`` is the engine's ``state.actor``; one
player often decides several times in a row.

Spaces: action ``Discrete(65)`` for every agent and decision (K16.2; ``env.unwrapped.describe_action(a)``
says what ``a`` means now); observation ``Dict(observation=Box(float32), action_mask=Box(int8, (65,)))``
from the observer's seat (`ktenv.kingsburg.observation`), holding nothing they may not know (K1.5,
K15.D20): not the enemy deck (only this year's card to a player who peeked), not the dice to come. The
mask is all zeros for agents that are not to act.

Rewards: ``reward="win"`` (default): 0 during play; at the end the winners (K10.3, shared victories
included) share +1 and the others share -1 (sum 0). ``reward="shaped"`` adds every step the change of
``0.01 * VP`` for every player (potential-based). Illegal actions raise IllegalActionError (a ValueError)
and change nothing; ``env(illegal_action="terminate")`` applies PettingZoo's TerminateIllegalWrapper.
The game always ends after year V (about 150-300 decisions); ``max_steps`` (default 100 000) is a
safety bound that truncates. ``infos[agent]``: year, phase, decision, actor, vp, goods, buildings,
soldiers; at the end also winner, winners, reason.

``snapshot()``/``restore()`` carry the whole state as JSON (generator included); the env pickles.
Render modes: ``human`` (prints), ``ansi`` (text), ``rgb_array`` (`ktenv.kingsburg.render`).

Version history: v0 first release (issue 19).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..config import ConfigError
from ..env.aec import (
    ILLEGAL_ACTION_MODES,
    ILLEGAL_REWARD,
    ActionSpaceCheck,
    OrderEnforcing,
    checked_action,
    win_rewards,
)
from . import actions as A
from .config import KingsburgConfig
from .machine import describe_action as _describe_action
from .machine import legal_mask, new_game
from .machine import step as _engine_step
from .observation import ObservationEncoder
from .state import PHASE_NAMES, KingsburgState

ENV_NAME = "kingsburg_v0"
RENDER_MODES = ("human", "ansi", "rgb_array")
REWARD_MODES = ("win", "shaped")
SHAPING_SCALE = 0.01
DEFAULT_MAX_STEPS = 100_000


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming convention)
    """The bare AEC environment; `ktenv.kingsburg.env()` wraps it."""

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, render_mode: str | None = None, reward: str = "win",
                 max_steps: int | None = DEFAULT_MAX_STEPS, **config: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode: {render_mode!r} is not one of {[None, *RENDER_MODES]}")
        if reward not in REWARD_MODES:
            raise ConfigError(f"reward: {reward!r} is not one of {list(REWARD_MODES)}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int)
                                      or max_steps < 1):
            raise ConfigError(f"max_steps: expected a positive whole number or None, got {max_steps!r}")
        self.render_mode, self.reward_mode, self.max_steps = render_mode, reward, max_steps
        self.cfg = KingsburgConfig.from_dict(config)
        n = self.cfg.n_players
        self.encoder = ObservationEncoder(n)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(self.encoder.low, self.encoder.high, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (A.N_ACTIONS,), np.int8),
            }) for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(A.N_ACTIONS) for a in self.possible_agents}
        self._state: KingsburgState | None = None
        self._seed_rng: np.random.Generator | None = None
        self._steps = 0
        self._step_limit_hit = False
        self.infos: dict[str, dict] = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    # ----- reset / step

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """New game; `seed` seeds the game itself. ``options={"state": KingsburgState or JSON}`` resumes one."""
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
            self._state = new_game(self.cfg, game_seed)
            self._start_episode()

    def _load(self, state: KingsburgState | str) -> None:
        if isinstance(state, str):
            state = KingsburgState.from_json(state)
        elif isinstance(state, KingsburgState):
            state = state.copy()
        else:
            raise TypeError(f"expected a KingsburgState or its JSON text, got {type(state).__name__}")
        if state.cfg != self.cfg:
            raise ConfigError(f"the saved game's config differs from this environment's ({state.cfg} != {self.cfg})")
        self._state = state
        self._start_episode()

    def _start_episode(self) -> None:
        s = self._state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._steps = 0
        self._step_limit_hit = False
        self._potential = self._potentials() if self.reward_mode == "shaped" else None
        if s.game_over:  # a finished game restored: no reward again
            self.agent_selection = self.agents[0]
            self._finish(reward=False)
        else:
            self.agent_selection = self.possible_agents[s.actor]
        self._refresh_infos()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = checked_action(action, A.N_ACTIONS, agent)
        s = self._state
        _engine_step(s, action)  # an illegal action raises here and changes nothing
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if self._potential is not None:
            after = self._potentials()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(after[i] - self._potential[i])
            self._potential = after
        self._steps += 1
        if s.game_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[s.actor]
            if self.max_steps is not None and self._steps >= self.max_steps:
                self._step_limit_hit = True
                for a in self.agents:
                    self.truncations[a] = True
        self._refresh_infos()
        self._accumulate_rewards()

    def _finish(self, reward: bool = True) -> None:
        final = win_rewards(self._state.n_players, self._state.winners)
        for i, a in enumerate(self.possible_agents):
            if reward:
                self.rewards[a] += final[i]
            self.terminations[a] = True

    def _potentials(self) -> np.ndarray:
        return SHAPING_SCALE * self._state.vp.astype(np.float64)

    def _refresh_infos(self) -> None:
        s = self._state
        end = {}
        if s.game_over:
            winners = [self.possible_agents[p] for p in s.winners]
            end = {"winner": winners[0] if len(winners) == 1 else None, "winners": winners, "reason": "game_end"}
        elif self._step_limit_hit:
            end = {"winner": None, "winners": [], "reason": "step_limit"}
        actor = self.possible_agents[s.actor] if 0 <= s.actor < s.n_players and not s.game_over else None
        self.infos = {a: {"year": s.year, "phase": PHASE_NAMES[s.phase], "decision": A.DECISION_NAMES[s.decision],
                          "actor": actor, "vp": int(s.vp[i]), "goods": s.goods_count(i),
                          "buildings": s.building_count(i), "soldiers": int(s.soldiers[i]), **end}
                      for i, a in enumerate(self.possible_agents)}

    # ----- observations

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = self.agent_name_mapping[agent]
        s = self._state
        mask = legal_mask(s) if s.actor == i and not s.game_over else np.zeros(A.N_ACTIONS, np.int8)
        return {"observation": self.encoder.encode(s, i), "action_mask": mask}

    # ----- helpers beyond the PettingZoo API

    @property
    def game_state(self) -> KingsburgState:
        return self._state

    def describe_action(self, action: int) -> str:
        return _describe_action(self._state, action)

    def observation_layout(self):
        return self.encoder.layout

    def action_masks(self) -> np.ndarray:
        return legal_mask(self._state).astype(bool)

    def snapshot(self) -> str:
        return self._state.to_json()

    def restore(self, snapshot: str | KingsburgState) -> None:
        self._load(snapshot)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        from . import render as _render

        if self.render_mode == "human":
            print(_render.ansi(self._state), flush=True)
            return None
        if self.render_mode == "ansi":
            return _render.ansi(self._state)
        return _render.rgb_array(self._state)

    def close(self) -> None:
        pass

    def __getstate__(self) -> dict:
        d = self.__dict__.copy()
        d["_state"] = None if self._state is None else self._state.to_json()
        return d

    def __setstate__(self, d: dict) -> None:
        text = d["_state"]
        d["_state"] = None if text is None else KingsburgState.from_json(text)
        self.__dict__.update(d)


def env(**config: Any) -> AECEnv:
    """The AEC environment with the usual wrappers. Keyword arguments: every KingsburgConfig key
    (``num_players`` or ``n_players``), ``render_mode``, ``reward`` ("win", "shaped"), ``max_steps`` and
    ``illegal_action`` ("raise", default, or "terminate")."""
    illegal = config.pop("illegal_action", "raise")
    if illegal not in ILLEGAL_ACTION_MODES:
        raise ConfigError(f"illegal_action: {illegal!r} is not one of {list(ILLEGAL_ACTION_MODES)}")
    e: AECEnv = raw_env(**config)
    if illegal == "terminate":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = ActionSpaceCheck(e)
    return OrderEnforcing(e)

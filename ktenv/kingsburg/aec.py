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
``backend``: ``"auto"`` (default: the native engine when it is built), ``"native"`` or ``"python"`` (the
reference); both play the same game bit for bit.
Render modes: ``human`` (prints), ``ansi`` (text), ``rgb_array`` (`ktenv.kingsburg.render`).

Version history: v0 first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv

from ..gamekit.aec import DEFAULT_MAX_STEPS, RENDER_MODES, REWARD_MODES, SHAPING_SCALE, SeatedGameEnv, wrap
from . import actions as A
from .config import KingsburgConfig
from .machine import ENGINE, legal_mask, new_game, resolve_backend
from .observation import ObservationEncoder
from .spec import GAME
from .state import PHASE_NAMES

__all__ = ["DEFAULT_MAX_STEPS", "ENGINE", "ENV_NAME", "RENDER_MODES", "REWARD_MODES", "SHAPING_SCALE", "env",
           "raw_env"]

ENV_NAME = GAME.env_name


class raw_env(SeatedGameEnv):  # noqa: N801 (PettingZoo's naming convention)
    """The bare AEC environment; `ktenv.kingsburg.env()` wraps it."""

    metadata = {"name": ENV_NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}
    engine = ENGINE
    renderer = "ktenv.kingsburg.render"

    def __init__(self, render_mode: str | None = None, reward: str = "win",
                 max_steps: int | None = DEFAULT_MAX_STEPS, backend: str = "auto", **config: Any) -> None:
        super().__init__(render_mode, reward, max_steps)
        self.backend = resolve_backend(backend)  # the native engine when built; "python": the reference
        self.cfg = KingsburgConfig.from_dict(config)
        self.encoder = ObservationEncoder(self.cfg.n_players)
        self._seat_players(self.cfg.n_players, A.N_ACTIONS)

    def _new_game(self, seed: int):
        return new_game(self.cfg, seed, backend=self.backend)

    def _potentials(self) -> np.ndarray:
        return SHAPING_SCALE * self._state.vp.astype(np.float64)

    def _refresh_infos(self) -> None:
        s = self._state
        end = self._end_info()
        actor = self.possible_agents[s.actor] if 0 <= s.actor < s.n_players and not s.game_over else None
        index = self.agent_name_mapping
        for a in self._infos:
            i = index[a]
            self._infos[a] = {"year": s.year, "phase": PHASE_NAMES[s.phase], "decision": A.DECISION_NAMES[s.decision],
                              "actor": actor, "vp": int(s.vp[i]), "goods": s.goods_count(i),
                              "buildings": s.building_count(i), "soldiers": int(s.soldiers[i]), **end}

    # ----- observations

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = self.agent_name_mapping[agent]
        s = self._state
        mask = legal_mask(s) if s.actor == i and not s.game_over else np.zeros(A.N_ACTIONS, np.int8)
        return {"observation": self.encoder.encode(s, i), "action_mask": mask}

    def _observation_of(self, player: int) -> np.ndarray:
        return self.encoder.encode(self._state, player)


def env(**config: Any) -> AECEnv:
    """The AEC environment with the usual wrappers. Keyword arguments: every KingsburgConfig key
    (``num_players`` or ``n_players``), ``render_mode``, ``reward`` ("win", "shaped"), ``max_steps`` and
    ``illegal_action`` ("raise", default, or "terminate")."""
    return wrap(raw_env, config)

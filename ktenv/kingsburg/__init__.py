"""Kingsburg (K-numbers: rules/kingsburg.md), a second game on ktenv's API.

- Engine (pure rules on numpy arrays, no RL library): `new_game`, `legal_mask`, `step`,
  `describe_action`, `KingsburgState` (`to_json`/`from_json`, `check_invariants`), `KingsburgConfig`.
  One module per part of the year: `aid` (K4), `season` (K5.1, K5.2, K5.6), `influence` (K5.3),
  `advisors` (K5.4, K11), `construction` (K5.5), `year` (K6, K7), `recruiting` (K8), `battle` (K9),
  `scoring` (K10).
- Environments: ``ktenv.kingsburg.env(num_players=4)`` (PettingZoo AEC, wrapped), ``raw_env``, and
  ``gymnasium.make("ktenv/Kingsburg-v0")`` (`ktenv.kingsburg.single`); imported on first use.
- Its agents live in `ktenv.agents.kingsburg`; `spec` registers the game (`ktenv.registry`).
"""

from ..errors import IllegalActionError
from .actions import N_ACTIONS, action_name
from .catalog import ENEMY_CARDS, ENEMY_STATUS
from .config import KingsburgConfig
from .machine import describe_action, describe_state, legal_actions, legal_mask, new_game, step
from .state import KingsburgState

__all__ = ["ENEMY_CARDS", "ENEMY_STATUS", "IllegalActionError", "KingsburgConfig",
           "KingsburgState", "N_ACTIONS", "action_name", "describe_action", "describe_state", "env",
           "legal_actions", "legal_mask", "new_game", "raw_env", "step"]


def __getattr__(name: str):
    if name in ("env", "raw_env"):
        from . import aec

        return getattr(aec, name)
    raise AttributeError(f"module 'ktenv.kingsburg' has no attribute {name!r}")

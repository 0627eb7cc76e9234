"""Environments over the rules engine: PettingZoo AEC (`env`, `raw_env`), the Gymnasium
single-agent wrapper (`SingleAgentEnv`, registered as ``ktenv/KingsAndThings-v0``), the
per-player observation encoder and its layout. See docs/observation.md and docs/actions.md.

This package is itself callable: ``ktenv.env(**config)`` is ``ktenv.env.env(**config)``, so the
PettingZoo-style call works whether or not this package has been imported yet.
"""

import sys
import types

from .aec import ENV_NAME, env, raw_env, win_rewards
from .layout import ObservationLayout
from .observation import REGISTERS, ObservationEncoder, build_layout
from .single import SingleAgentEnv
from .stats import STAT_COLUMNS, player_stats

GYM_ID = "ktenv/KingsAndThings-v0"

__all__ = ["ENV_NAME", "GYM_ID", "REGISTERS", "ObservationEncoder", "ObservationLayout", "SingleAgentEnv",
           "STAT_COLUMNS", "build_layout", "env", "player_stats", "raw_env", "win_rewards"]


class _CallableModule(types.ModuleType):
    def __call__(self, **config):
        """``ktenv.env(**config)``: the AEC environment with PettingZoo's usual wrappers."""
        return env(**config)


sys.modules[__name__].__class__ = _CallableModule

"""Environments over the rules engine: PettingZoo AEC (`env`, `raw_env`), the Gymnasium
single-agent wrapper (`SingleAgentEnv`, registered as ``ktenv/KingsAndThings-v0``), the
per-player observation encoder and its layout. See docs/observation.md and docs/actions.md.
"""

from ...gamekit.layout import ObservationLayout
from .aec import ENV_NAME, env, raw_env, win_rewards
from .observation import REGISTERS, ObservationEncoder, build_layout
from .single import SingleAgentEnv
from .stats import STAT_COLUMNS, player_stats

__all__ = ["ENV_NAME", "REGISTERS", "ObservationEncoder", "ObservationLayout", "SingleAgentEnv", "STAT_COLUMNS",
           "build_layout", "env", "player_stats", "raw_env", "win_rewards"]

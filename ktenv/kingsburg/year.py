"""The phases between the seasons: the King's Reward (K6, K15.D13) and the King's Envoy (K7, D14, D18)."""

from __future__ import annotations

from .aid import fewest
from .common import enter
from .state import ENVOY, KINGS_REWARD, SEASON_START, KingsburgState


def kings_reward(s: KingsburgState) -> None:
    buildings = s.built.sum(axis=(1, 2))
    most = int(buildings.max())
    if most > 0 or not s.cfg.kings_reward_requires_building:
        s.vp[buildings == most] += 1  # K6.1: every tied player
    enter(s, SEASON_START, phase=4)


def envoy_recipient(s: KingsburgState) -> int:
    """K7.2: fewest buildings, then fewest goods; still tied: nobody (-1)."""
    f = fewest(s.built.sum(axis=(1, 2)), list(range(s.n_players)))
    if len(f) > 1:
        f = fewest(s.goods.sum(axis=1), f)
    return f[0] if len(f) == 1 else -1


def kings_envoy(s: KingsburgState) -> None:
    s.envoy_holder = -1  # K7.1 / D18: an unused Envoy returns first
    s.envoy_holder = envoy_recipient(s)
    enter(s, SEASON_START, phase=6)


RUNNERS = {KINGS_REWARD: kings_reward, ENVOY: kings_envoy}

"""End of the game (K10.2, K10.3): the Cathedral's bonus, then the winner with the tie-breaks."""

from __future__ import annotations

from . import actions as A
from . import catalog as cat
from .common import enter
from .state import GAME_END, KingsburgState


def winners(s: KingsburgState) -> list[int]:
    """Most VP; then most goods; then most buildings; still tied: a shared victory (K10.3)."""
    key = [(int(s.vp[p]), s.goods_count(p), s.building_count(p)) for p in range(s.n_players)]
    best = max(key)
    return [p for p in range(s.n_players) if key[p] == best]


def finish(s: KingsburgState) -> None:
    for p in range(s.n_players):
        if s.owns(p, cat.CATHEDRAL):
            s.vp[p] += s.goods_count(p) // 2  # goods are kept
    s.winners = winners(s)
    s.game_over = True
    s.decision, s.actor = A.NONE, -1
    enter(s, GAME_END)

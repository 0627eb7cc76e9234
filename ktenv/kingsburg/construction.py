"""Construction (K5.5, K12, K15.D2, D19; decisions P8 and P9): one build or a pass each in turn order;
the Envoy holder may build a second time right after the first."""

from __future__ import annotations

import numpy as np

from . import actions as A
from . import catalog as cat
from .common import ask, done, enter, turn_order
from .state import BUILD, SEASON_END, KingsburgState


def next_column(s: KingsburgState, p: int, row: int) -> int:
    """The leftmost unbuilt column of `row` (4 when the row is complete)."""
    return int(s.built[p, row].sum())


def cost(s: KingsburgState, p: int, row: int, column: int) -> np.ndarray:
    """K12.2's cost; the Crane takes 1 gold off columns III and IV (never below 0, K12.4)."""
    price = cat.BUILDING_COST[row, column].copy()
    if column >= 2 and s.owns(p, cat.CRANE):
        price[cat.GOLD] = max(0, int(price[cat.GOLD]) - 1)
    return price


def buildable_rows(s: KingsburgState, p: int) -> list[int]:
    limit = s.cfg.building_token_limit
    if limit is not None and s.building_count(p) >= limit:  # K5.5.3
        return []
    out = []
    for row in range(cat.ROWS):
        column = next_column(s, p, row)
        if column < cat.COLUMNS and (s.goods[p] >= cost(s, p, row, column)).all():
            out.append(row)
    return out


def build(s: KingsburgState, p: int, row: int) -> None:
    """K5.5.2: pay, mark built, gain its VP at once; its effect applies from now on."""
    column = next_column(s, p, row)
    s.goods[p] -= cost(s, p, row, column)
    s.built[p, row, column] = True
    s.vp[p] += int(cat.BUILDING_VP[row, column])


def run(s: KingsburgState) -> None:
    order = turn_order(s)
    while s.cursor < s.n_players:
        p = order[s.cursor]
        s.cursor += 1
        if buildable_rows(s, p):
            ask(s, A.BUILD_TURN, p)
            return
    enter(s, SEASON_END)


def build_legal(s: KingsburgState, mask: np.ndarray) -> None:
    mask[A.PASS] = 1
    for row in buildable_rows(s, s.actor):
        mask[A.BUILD + row] = 1


def build_apply(s: KingsburgState, action: int) -> None:
    p = s.actor
    if action == A.PASS:
        done(s)
        return
    build(s, p, action - A.BUILD)
    if s.decision == A.BUILD_TURN and s.envoy_holder == p and buildable_rows(s, p):
        s.decision = A.ENVOY_BUILD  # P9: a second build with the Envoy, or keep it
        return
    if s.decision == A.ENVOY_BUILD:
        s.envoy_holder = -1  # D19: consumed only when the second build is made
    done(s)


RUNNERS = {BUILD: run}

"""Influencing the advisors (K5.3, K15.D6, D8; decisions P4-P6 of K16.1).

A turn is PASS or TARGET(advisor), then DICE(subset), then, only where two modifier readings reach
the target, MOD_MARKET or MOD_TOKEN_MARKET. A group's pips plus its modifiers must equal the target:
difference 0 (no modifier), -1 (Market), +1 (Market, or a "+2" token with Market -1), +2 (token),
+3 (token with Market +1).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import actions as A
from . import catalog as cat
from .common import ask, done, enter, turn_order
from .state import COLOURED, HELP, INFLUENCE, MARKET_USED, TOKEN_USED, KingsburgState


def can_token(s: KingsburgState, p: int) -> bool:
    return s.tokens[p] > 0 and not s.flags[p, TOKEN_USED]  # K5.3.3: one token per season


def can_market(s: KingsburgState, p: int) -> bool:
    return s.owns(p, cat.MARKET) and not s.flags[p, MARKET_USED]  # K5.3.4


def readings(diff: int, token: bool, market: bool) -> list[tuple[int, int]]:
    """(token used, Market shift) pairs that turn a group's pips into pips + `diff` (K15.D6)."""
    options = {0: [(0, 0)], -1: [(0, -1)], 1: [(0, 1), (1, -1)], 2: [(1, 0)], 3: [(1, 1)]}.get(diff, [])
    return [(t, m) for t, m in options if (token or not t) and (market or not m)]


def open_to(s: KingsburgState, p: int, advisor: int) -> bool:
    """K5.3.5 / K5.3.6: a free advisor, or an influenced one without an Envoy group for the Envoy holder."""
    if s.advisor_group[advisor] == -1:
        return True
    return s.envoy_holder == p and s.advisor_envoy[advisor] == -1


def free_subsets(s: KingsburgState, p: int) -> list[int]:
    """Indices of SUBSETS whose slots all hold unplaced dice, one per value multiset (K16.1)."""
    return [i for i, _ in _free_subsets(_free_values(s, p))]


def _free_values(s: KingsburgState, p: int) -> tuple[int, ...]:
    """The dice values by slot, 0 where no unplaced die is."""
    return tuple(v if on == -1 else 0 for v, on in zip(s.dice[p].tolist(), s.die_advisor[p].tolist()))


@lru_cache(maxsize=4096)
def _free_subsets(values: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(subset index, pips) of the canonical free subsets for dice `values` by slot (0: none)."""
    seen, out = set(), []
    for i, slots in enumerate(A.SUBSETS):
        if all(values[j] for j in slots):
            key = (tuple(sorted(values[j] for j in slots if j in COLOURED)),
                   tuple(sorted(values[j] for j in slots if j not in COLOURED)))
            if key not in seen:
                seen.add(key)
                out.append((i, sum(values[j] for j in slots)))
    return tuple(out)


def pips(s: KingsburgState, p: int, subset: int) -> int:
    return int(sum(int(s.dice[p, j]) for j in A.SUBSETS[subset]))


def legal_targets(s: KingsburgState, p: int) -> list[int]:
    token, market = can_token(s, p), can_market(s, p)
    sums = {v for _, v in _free_subsets(_free_values(s, p))}
    diffs = [d for d in range(-1, 4) if readings(d, token, market)]
    reach = {v + d for v in sums for d in diffs}
    return [a for a in range(1, cat.N_ADVISORS + 1) if a in reach and open_to(s, p, a)]


def run(s: KingsburgState) -> None:
    """Turns go round the turn order until everybody has passed (K5.3.1); no legal placement = pass (D8)."""
    order = turn_order(s)
    while not s.passed.all():
        p = order[s.cursor]
        s.cursor = (s.cursor + 1) % s.n_players
        if s.passed[p]:
            continue
        if not legal_targets(s, p):
            s.passed[p] = True
            continue
        ask(s, A.INFLUENCE, p)
        return
    enter(s, HELP)


def influence_legal(s: KingsburgState, mask: np.ndarray) -> None:
    mask[A.PASS] = 1
    for a in legal_targets(s, s.actor):
        mask[A.TARGET + a - 1] = 1


def influence_apply(s: KingsburgState, action: int) -> None:
    if action == A.PASS:
        s.passed[s.actor] = True  # final for the season (D8)
        done(s)
        return
    s.target = action - A.TARGET + 1
    s.decision = A.GROUP_DICE


def dice_legal(s: KingsburgState, mask: np.ndarray) -> None:
    p = s.actor
    token, market = can_token(s, p), can_market(s, p)
    for i, value in _free_subsets(_free_values(s, p)):
        if readings(s.target - value, token, market):
            mask[A.DICE + i] = 1


def dice_apply(s: KingsburgState, action: int) -> None:
    p = s.actor
    s.group = action - A.DICE
    options = readings(s.target - pips(s, p, s.group), can_token(s, p), can_market(s, p))
    if len(options) == 1:
        place(s, *options[0])
    else:
        s.decision = A.MODIFIER  # P6: Market +1 alone, or token with Market -1


def modifier_legal(s: KingsburgState, mask: np.ndarray) -> None:
    mask[A.MOD_MARKET] = mask[A.MOD_TOKEN_MARKET] = 1


def modifier_apply(s: KingsburgState, action: int) -> None:
    place(s, *((0, 1) if action == A.MOD_MARKET else (1, -1)))


def place(s: KingsburgState, token: int, market: int) -> None:
    p, a = s.actor, s.target
    for j in A.SUBSETS[s.group]:
        s.die_advisor[p, j] = a
    if s.advisor_group[a] == -1:
        s.advisor_group[a] = p
    else:  # K5.3.6: the Envoy goes back to the board
        s.advisor_envoy[a] = p
        s.envoy_holder = -1
    if token:
        s.tokens[p] -= 1
        s.flags[p, TOKEN_USED] = True
    if market:
        s.flags[p, MARKET_USED] = True
    s.target = s.group = -1
    done(s)


RUNNERS = {INFLUENCE: run}

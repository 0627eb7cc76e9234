"""The frame of a productive season (K5.1, K5.2, K5.6): start, neutral dice (K14.1), rolling, rerolls
(Statue, Chapel), the new turn order, and the end of the season (Inn, Embassy, Town Hall)."""

from __future__ import annotations

import numpy as np

from . import actions as A
from . import catalog as cat
from .common import ask, done, enter, turn_order
from .state import (
    CHAPEL_USED,
    COLOURED,
    ENVOY,
    INFLUENCE,
    KINGS_REWARD,
    NEUTRAL,
    RECRUIT,
    REROLL,
    SEASON_END,
    SEASON_START,
    STATUE_USED,
    TOWN_HALL_USED,
    WHITE,
    KingsburgState,
)

# ----- K5.1 start of the season


def start(s: KingsburgState) -> None:
    if s.sub == 0:
        s.flags[:] = False  # K5.1.1
        s.passed[:] = False
        s.pending[:] = False
        if s.cfg.merchants_guild_good_of_choice:  # K15.D3 option: a choice, in turn order
            s.pending[:] = [s.owns(p, cat.MERCHANTS_GUILD) for p in range(s.n_players)]
        else:
            for p in range(s.n_players):
                if s.owns(p, cat.MERCHANTS_GUILD):
                    s.goods[p, cat.GOLD] += 1  # K5.1.2
        s.sub, s.cursor = 1, 0
    order = turn_order(s)
    while s.cursor < s.n_players:
        p = order[s.cursor]
        s.cursor += 1
        if s.pending[p]:
            s.pending[p] = False
            ask(s, A.GUILD_GOOD, p, picks=1)
            return
    if s.cfg.neutral_dice:
        place_neutral_dice(s)  # K5.1.3
    for p in order:
        roll_player(s, p)  # K5.2.1
    enter(s, REROLL)


def place_neutral_dice(s: KingsburgState) -> None:
    """K14.1: 3 dice on the advisor of their total, then 2 on theirs, split if that advisor is taken."""
    first = [s.rng.d6() for _ in range(3)]
    second = [s.rng.d6() for _ in range(2)]
    s.neutral_dice[:] = first + second
    a = sum(first)
    s.neutral_advisor[:3] = a
    b = sum(second)
    if b != a:
        s.neutral_advisor[3:] = b
    else:
        s.neutral_advisor[3:] = second
        if second[0] == second[1]:  # both dice show the same number: only one is placed
            s.neutral_dice[4], s.neutral_advisor[4] = 0, -1
    for adv in set(s.neutral_advisor[s.neutral_advisor > 0].tolist()):
        s.advisor_group[adv] = NEUTRAL


def white_dice(s: KingsburgState, player: int) -> int:
    """K5.2.1: the aid die (spring only) and the Farms' die."""
    return int(s.aid_player == player and s.season == 0) + int(s.owns(player, cat.FARMS))


def roll_player(s: KingsburgState, player: int) -> None:
    s.dice[player] = 0
    s.die_advisor[player] = -1
    for slot in COLOURED:
        s.dice[player, slot] = s.rng.d6()
    for slot in WHITE[:white_dice(s, player)]:
        s.dice[player, slot] = s.rng.d6()
    sort_dice(s, player)


def sort_dice(s: KingsburgState, player: int) -> None:
    """K16.1: coloured slots and white slots each sorted by value (absent white dice last)."""
    d = s.dice[player]
    d[:3] = np.sort(d[:3])
    whites = sorted(v for v in d[3:] if v)
    d[3:] = whites + [0] * (2 - len(whites))


# ----- K5.2.2 rerolls (D7, D23)


def statue_ready(s: KingsburgState, p: int) -> bool:
    rolled = s.dice[p][s.dice[p] > 0]
    return s.owns(p, cat.STATUE) and not s.flags[p, STATUE_USED] and bool((rolled == rolled[0]).all())


def chapel_ready(s: KingsburgState, p: int) -> bool:
    return s.owns(p, cat.CHAPEL) and not s.flags[p, CHAPEL_USED] and int(s.dice[p].sum()) <= 7


def rerolls(s: KingsburgState) -> None:
    order = turn_order(s)  # still the previous turn order (D7)
    while s.cursor < s.n_players:
        p = order[s.cursor]
        if s.sub == 0 and (statue_ready(s, p) or chapel_ready(s, p)):
            ask(s, A.REROLL, p)
            return
        s.cursor += 1
        s.sub = 0
    s.order[:] = new_turn_order(order, s.dice.sum(axis=1))
    enter(s, INFLUENCE)


def new_turn_order(previous: list[int], totals: np.ndarray) -> list[int]:
    """K5.2.3: ascending totals; ties keep their previous relative order (a stable sort)."""
    return sorted(previous, key=lambda p: int(totals[p]))


def reroll_legal(s: KingsburgState, mask: np.ndarray) -> None:
    p = s.actor
    mask[A.PASS] = 1
    if statue_ready(s, p):
        mask[A.STATUE_COLOURED] = 1
        if s.dice[p, WHITE[0]]:
            mask[A.STATUE_WHITE] = 1
    if chapel_ready(s, p):
        mask[A.CHAPEL] = 1


def reroll_apply(s: KingsburgState, action: int) -> None:
    p = s.actor
    if action == A.PASS:
        s.sub = 1  # no more rerolls for this player this season
    elif action == A.CHAPEL:
        s.flags[p, CHAPEL_USED] = True
        for slot in np.flatnonzero(s.dice[p]):
            s.dice[p, slot] = s.rng.d6()
    else:
        s.flags[p, STATUE_USED] = True
        slot = COLOURED[0] if action == A.STATUE_COLOURED else WHITE[0]
        s.dice[p, slot] = s.rng.d6()
    sort_dice(s, p)
    done(s)


# ----- K5.6 end of the season (D12)


def end(s: KingsburgState) -> None:
    if s.sub == 0:
        for p in range(s.n_players):
            if s.season == 1 and s.owns(p, cat.INN):
                s.tokens[p] += 1  # K5.6.1
            if s.owns(p, cat.EMBASSY):
                s.vp[p] += 1  # K5.6.2
        s.sub, s.cursor = 1, 0
    order = turn_order(s)
    while s.cursor < s.n_players:  # K5.6.3
        p = order[s.cursor]
        s.cursor += 1
        if s.owns(p, cat.TOWN_HALL) and not s.flags[p, TOWN_HALL_USED] and (s.goods[p].any() or s.tokens[p]):
            ask(s, A.TOWN_HALL_TURN, p)
            return
    s.advisor_group[s.advisor_group == NEUTRAL] = -1  # K14.1: the neutral dice leave
    s.neutral_dice[:] = 0
    s.neutral_advisor[:] = -1
    following = {2: (KINGS_REWARD, 3), 4: (ENVOY, 5), 6: (RECRUIT, 7)}[s.phase]
    enter(s, *following)


def town_hall_legal(s: KingsburgState, mask: np.ndarray) -> None:
    p = s.actor
    mask[A.PASS] = 1
    for k in range(3):
        if s.goods[p, k]:
            mask[A.TOWN_HALL + k] = 1
    if s.tokens[p]:
        mask[A.TOWN_HALL + 3] = 1


def town_hall_apply(s: KingsburgState, action: int) -> None:
    p = s.actor
    if action != A.PASS:
        kind = action - A.TOWN_HALL
        if kind == 3:
            s.tokens[p] -= 1  # not the influence token of K5.3.3 [clar.]
        else:
            s.goods[p, kind] -= 1
        s.vp[p] += 1
        s.flags[p, TOWN_HALL_USED] = True
    done(s)


RUNNERS = {SEASON_START: start, REROLL: rerolls, SEASON_END: end}

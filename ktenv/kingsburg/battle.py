"""Phase 8, winter: the battle against the year's enemy (K9, K12.3, K15.D15-D17; decisions P12, P13)."""

from __future__ import annotations

import numpy as np

from . import actions as A
from . import catalog as cat
from . import scoring
from .common import ask, enter, turn_order
from .state import AID, BATTLE, KingsburgState

DEFEAT, DRAW, VICTORY = -1, 0, 1

_AGAINST = {"Goblins": cat.BARRICADE, "Zombies": cat.PALISADE, "Demons": cat.CHURCH}  # K12.3's +1


def battle_strength(s: KingsburgState, p: int, card: cat.EnemyCard) -> int:
    """K9.3: soldiers (with the King's reinforcements already in them) plus the buildings' modifiers."""
    bonus = int(cat.BUILDING_BATTLE[s.built[p]].sum())
    special = _AGAINST.get(card.enemy)
    if special is not None and s.owns(p, special):
        bonus += 1
    return int(s.soldiers[p]) + bonus


def outcome(s: KingsburgState, p: int, strength: int, card: cat.EnemyCard) -> int:
    """K9.4: a Stone Wall owner wins a draw."""
    if strength > card.strength or (strength == card.strength and s.owns(p, cat.STONE_WALL)):
        return VICTORY
    return DRAW if strength == card.strength else DEFEAT


def lose_building(s: KingsburgState, p: int) -> None:
    """K9.7: the built building in the highest column, uppermost row among equals; its VP go with it."""
    for column in range(cat.COLUMNS - 1, -1, -1):
        for row in range(cat.ROWS):
            if s.built[p, row, column]:
                s.built[p, row, column] = False
                s.vp[p] -= int(cat.BUILDING_VP[row, column])
                return


def reveal(s: KingsburgState) -> None:
    """K9.1-K9.4: reveal the card, the first player rolls the reinforcements, every player's result."""
    s.enemy = int(s.enemy_deck[s.year - 1])
    card = cat.ENEMY_CARDS[s.enemy]
    s.reinforcement = s.rng.d6()
    s.soldiers += s.reinforcement
    for p in range(s.n_players):
        s.strength[p] = battle_strength(s, p, card)
        s.result[p] = outcome(s, p, int(s.strength[p]), card)


def run(s: KingsburgState) -> None:
    """sub 0: reveal; sub 1: the next player's reward or losses; sub 2: a loser's buildings and VP after
    the goods of choice (K9.7's order)."""
    if s.sub == 0:
        reveal(s)
        s.sub, s.cursor = 1, 0
    card = cat.ENEMY_CARDS[s.enemy]
    order = turn_order(s)
    winners = s.result == VICTORY
    best = int(s.strength[winners].max()) if winners.any() else None
    while s.cursor < s.n_players:
        p = order[s.cursor]
        if s.sub == 2:
            for _ in range(card.losses[4]):
                lose_building(s, p)
            s.vp[p] -= card.losses[5]
            s.sub = 1
            s.cursor += 1
            continue
        if s.result[p] == VICTORY:
            s.cursor += 1
            gold, wood, stone, choice, vp = card.reward
            s.goods[p] += (gold, wood, stone)
            s.vp[p] += vp + int(s.owns(p, cat.FORTRESS)) + int(s.strength[p] == best)  # K9.5, K9.6
            if choice:
                ask(s, A.REWARD_GOOD, p, picks=choice)
                return
        elif s.result[p] == DEFEAT:
            s.goods[p] = np.maximum(0, s.goods[p] - card.losses[:3])  # no substitution for a shortfall
            s.sub = 2
            lose = min(card.losses[3], s.goods_count(p))
            if lose:
                ask(s, A.LOSS_GOOD, p, picks=lose)
                return
        else:
            s.cursor += 1  # K9.8: a draw changes nothing
    s.soldiers[:] = 0  # K9.9
    end_of_year(s)


def end_of_year(s: KingsburgState) -> None:
    """K10.1: the next year, or the end of the game after year V."""
    if s.year == cat.YEARS:
        scoring.finish(s)
        return
    s.year += 1
    s.peeked[:] = False  # D20: a peek is about this year's card only
    s.enemy, s.reinforcement = -1, 0  # this year's result and strengths stay on show until the next battle
    enter(s, AID, phase=1)


RUNNERS = {BATTLE: run}

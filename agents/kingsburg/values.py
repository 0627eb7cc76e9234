"""Values the Kingsburg heuristics share: what an advisor's help is worth (K11), a building's worth beyond
its VP (K12), and the expected worth of the coming battle for a number of extra soldiers (K9)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ktenv.kingsburg import catalog as cat

from .view import View, enemy_type

G, W, S = cat.GOLD, cat.WOOD, cat.STONE


@dataclass
class Prices:
    """What one unit of each thing is worth to the agent now, in VP."""

    goods: np.ndarray  # gold, wood, stone
    vp: float = 1.0
    soldier: float = 0.5
    token: float = 0.5
    peek: float = 0.0


def help_value(advisor: int, p: Prices, goods: np.ndarray, stable: bool) -> float:
    """The worth of advisor `advisor`'s help (K11) at prices `p`, given the goods owned (Alchemist)."""
    g = p.goods
    best = float(g.max())
    sold = p.soldier
    extra = sold if stable else 0.0  # K15.D5
    if advisor == 6:
        owned = [k for k in range(3) if goods[k] > 0]
        return max((float(g.sum() - 2 * g[k]) for k in owned), default=0.0)
    return {
        1: p.vp, 2: g[G], 3: g[W], 4: max(g[G], g[W]), 5: sold + extra, 7: best + p.token, 8: 2 * g[G],
        9: g[W] + max(g[G], g[S]), 10: 2 * sold + extra + p.peek, 11: g[S] + max(g[W], g[G]),
        12: 2 * best + p.token, 13: 3 * g[S], 14: -p.vp + 3 * best, 15: g.sum(), 16: 4 * g[G],
        17: 2 * best + p.peek + 3 * p.vp, 18: g.sum() + sold + extra,
    }[advisor]


def effect_value(row: int, column: int, v: View) -> float:
    """A rough worth of a building's effect over the rest of the game, in VP (beyond its printed VP)."""
    seasons, battles = v.seasons_left(), v.battles_left()
    name = cat.BUILDING_NAMES[row * cat.COLUMNS + column]
    battle = float(cat.BUILDING_BATTLE[row, column]) * 0.9 * battles
    bonus = {
        "Statue": 0.2 * seasons / 3, "Chapel": 0.2 * seasons / 3, "Church": 0.3 * battles,
        "Cathedral": 1.5, "Inn": 0.35 * seasons / 3, "Market": 0.12 * seasons, "Farms": 0.45 * seasons,
        "Merchants' Guild": 0.4 * seasons, "Barracks": 0.4 * battles, "Palisade": 0.3 * battles,
        "Stable": 0.15 * seasons, "Stone Wall": 0.3 * battles, "Fortress": 0.5 * battles,
        "Barricade": 0.4 * battles, "Crane": 0.15 * seasons, "Town Hall": 0.35 * seasons,
        "Embassy": 1.0 * seasons,
    }.get(name, 0.0)
    return battle + bonus


def card_outcome_value(v: View, row: np.ndarray, strength: int, p: Prices) -> float:
    """The worth of fighting the card `row` at `strength` (K9.4-K9.7), against a draw = 0."""
    e = int(round(row[1]))
    reward, losses = row[8:13], row[13:19]
    won = strength > e or (strength == e and v.owns(cat.STONE_WALL))
    if won:
        gain = _dot3(reward, p.goods) + reward[3] * float(p.goods.max()) + reward[4] * p.vp
        return gain + p.vp * (int(v.owns(cat.FORTRESS)) + 0.5)  # Fortress, a chance of best defender
    if strength == e:
        return 0.0
    goods = v.goods[0].astype(float)
    lost = np.minimum(goods, losses[:3])
    left = goods - lost
    value = _dot3(lost, p.goods) + min(losses[3], left.sum()) * float(p.goods.min())
    value += losses[4] * (p.vp * last_building_vp(v) + 1.0) + losses[5] * p.vp
    return -value


def _dot3(a: np.ndarray, b: np.ndarray) -> float:
    """a[:3] . b[:3], summed left to right (a fixed order: the native agents sum the same way)."""
    return float(a[0]) * float(b[0]) + float(a[1]) * float(b[1]) + float(a[2]) * float(b[2])


def last_building_vp(v: View) -> int:
    """VP of the building a defeat would take (K9.7: highest column, then uppermost row)."""
    for column in range(cat.COLUMNS - 1, -1, -1):
        for row in range(cat.ROWS):
            if v.built[0, row, column]:
                return int(cat.BUILDING_VP[row, column])
    return 0


def battle_value(v: View, extra: int, p: Prices) -> float:
    """Expected worth of this year's battle with `extra` more soldiers (King's reinforcements 1-6)."""
    rows = v.enemy_rows()
    total = 0.0
    for row in rows:
        base = int(v.soldiers[0]) + extra + v.battle_bonus(enemy_type(row))
        total += sum(card_outcome_value(v, row, base + r, p) for r in range(1, 7)) / 6
    return total / len(rows)

"""Kingsburg observations: one flat float32 vector per player, from that player's seat, holding what they
may know (K1.5, K16.4, K15.D20) and nothing more: the enemy deck (except this year's card to a player who
peeked, and the revealed card in winter), the generator and the other players' future choices are left out.

Sections (`ObservationLayout`, shared with Kings & Things; `layout.markdown()` documents them):

- ``players``: one row per seat relative to the observer (row 0 = self): goods, tokens, VP, soldiers, the
  20 buildings, Envoy, aid die, passed, the per-season flags, turn-order place, dice and their advisors,
  whether they peeked (public, D20), the last battle's strength and result.
- ``advisors``: one row per advisor 1-18: which relative seat's group (or the neutral dice) stands there,
  and whose Envoy group.
- ``game``: year, phase, stage, decision, acting seat, the pending target, group, picks and kinds, the King's
  reinforcements.
- ``enemies``: rows: the revealed card, the card the observer peeked at, then this year's five possible
  cards (public, K1.5): known, strength, type, reward, losses.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..gamekit.layout import Column, ObservationLayout
from . import actions as A
from . import catalog as cat
from .state import DIE_SLOTS, FLAG_NAMES, NEUTRAL, STAGE_NAMES, KingsburgState

MAX_PLAYERS = 5
_BIG = 255.0  # counts are unbounded by the rules (K15.D1, D17); far above any real game


def _player_columns() -> list[Column]:
    cols = [Column(g, 0, _BIG, f"{g} owned") for g in cat.GOODS]
    cols += [Column("tokens", 0, _BIG, '"+2" tokens'), Column("vp", -_BIG, _BIG, "victory points"),
             Column("soldiers", 0, _BIG, "soldiers (this year)")]
    cols += [Column(f"built_{name}", 0, 1, "building built (K12)", "built") for name in cat.BUILDING_NAMES]
    cols += [Column("envoy", 0, 1, "holds the King's Envoy"), Column("aid_die", 0, 1, "holds the aid die"),
             Column("passed", 0, 1, "passed this season (K5.3)")]
    cols += [Column(f"flag_{i}", 0, 1, "per-season flags: " + ", ".join(FLAG_NAMES), "flags")
             for i in range(len(FLAG_NAMES))]
    cols += [Column("turn_place", 0, 1, "place in the turn order / (players - 1)")]
    cols += [Column(f"die_{i}", 0, 6, "die value in slot c1-c3, w1-w2 (0: none)", "dice") for i in range(DIE_SLOTS)]
    cols += [Column(f"die_on_{i}", 0, cat.N_ADVISORS, "advisor the die stands on (0: unplaced)", "die_on")
             for i in range(DIE_SLOTS)]
    cols += [Column("peeked", 0, 1, "looked at this year's enemy card (public fact, D20)"),
             Column("strength", 0, _BIG, "strength in the last battle"),
             Column("result", -2, 1, "last battle: 1 victory, 0 draw, -1 defeat, -2 none")]
    return cols


def _enemy_columns() -> list[Column]:
    cols = [Column("known", 0, 1, "this row holds a card"), Column("strength", 0, 20, "enemy strength")]
    cols += [Column(f"type_{t}", 0, 1, "enemy type", "type") for t in cat.ENEMY_TYPES]
    cols += [Column(f"reward_{k}", 0, 10, "victory reward", "reward") for k in cat.REWARD_KEYS]
    cols += [Column(f"loss_{k}", 0, 10, "defeat losses", "loss") for k in cat.LOSS_KEYS]
    return cols


def build_layout(n_players: int) -> ObservationLayout:
    advisor_cols = [Column(f"group_seat_{k}", 0, 1, "group of relative seat k", "group") for k in range(n_players)]
    advisor_cols += [Column("neutral", 0, 1, "neutral dice (K14.1)")]
    advisor_cols += [Column(f"envoy_seat_{k}", 0, 1, "Envoy group of relative seat k", "envoy")
                     for k in range(n_players)]
    game = [Column(f"year_{y}", 0, 1, "year I-V", "year") for y in range(1, cat.YEARS + 1)]
    game += [Column(f"phase_{p}", 0, 1, "phase 1-8 (K3.1)", "phase") for p in range(1, 9)]
    game += [Column(f"stage_{i}", 0, 1, "stage: " + ", ".join(STAGE_NAMES), "stage") for i in range(len(STAGE_NAMES))]
    game += [Column(f"decision_{i}", 0, 1, "pending decision (K16)", "decision") for i in range(A.N_DECISIONS)]
    game += [Column(f"actor_seat_{k}", 0, 1, "relative seat to act", "actor") for k in range(n_players)]
    game += [Column("target", 0, cat.N_ADVISORS, "advisor chosen for the group under way (0: none)"),
             Column("picks_left", 0, 10, "goods still to pick"),
             Column("reinforcement", 0, 6, "the King's reinforcements this winter")]
    game += [Column(f"pick_{g}", 0, 1, "kinds the pending pick may take", "pick_kinds") for g in cat.GOODS]
    return ObservationLayout([
        ("players", n_players, "seat relative to the observer (0 = self)", _player_columns()),
        ("advisors", cat.N_ADVISORS, "advisor 1-18", advisor_cols),
        ("game", 1, "game", game),
        ("enemies", 7, "card: revealed, peeked, this year's five possible", _enemy_columns()),
    ])


@cache
def _card_row(card: cat.EnemyCard) -> list[float]:
    return ([1.0, card.strength] + [float(card.enemy == t) for t in cat.ENEMY_TYPES] + list(card.reward)
            + list(card.losses))


class ObservationEncoder:
    """`encode(state, observer)` -> the observer's flat vector (fresh array)."""

    def __init__(self, n_players: int) -> None:
        self.n = n_players
        self.layout = build_layout(n_players)
        self.size = self.layout.size
        self.low, self.high = self.layout.low, self.layout.high

    def encode(self, s: KingsburgState, observer: int) -> np.ndarray:
        n, lay = self.n, self.layout
        obs = np.zeros(self.size, np.float32)
        seats = [(observer + k) % n for k in range(n)]
        rel = {p: k for k, p in enumerate(seats)}
        place = {int(p): i for i, p in enumerate(s.order)}
        players = np.column_stack([
            s.goods[seats], s.tokens[seats], s.vp[seats], s.soldiers[seats],
            s.built[seats].reshape(n, -1),
            [s.envoy_holder == p for p in seats], [s.aid_player == p for p in seats], s.passed[seats],
            s.flags[seats], [place[p] / max(1, n - 1) for p in seats], s.dice[seats],
            np.maximum(s.die_advisor[seats], 0), s.peeked[seats], s.strength[seats], s.result[seats],
        ]).astype(np.float32)
        obs[lay["players"]] = players.T.ravel()
        adv = np.zeros((cat.N_ADVISORS, 2 * n + 1), np.float32)
        column = {NEUTRAL: n, **rel}  # original group: relative seat, or the neutral column
        for a, (g, e) in enumerate(zip(s.advisor_group[1:].tolist(), s.advisor_envoy[1:].tolist())):
            if g != -1:
                adv[a, column[g]] = 1
            if e >= 0:
                adv[a, n + 1 + rel[e]] = 1
        obs[lay["advisors"]] = adv.T.ravel()
        game = np.zeros(len(lay.section("game").columns), np.float32)
        game[s.year - 1] = 1
        game[cat.YEARS + s.phase - 1] = 1
        base = cat.YEARS + 8
        game[base + s.stage] = 1
        base += len(STAGE_NAMES)
        game[base + s.decision] = 1
        base += A.N_DECISIONS
        if 0 <= s.actor < n and not s.game_over:
            game[base + rel[s.actor]] = 1
        base += n
        game[base:base + 3] = (max(s.target, 0), s.picks_left, s.reinforcement)
        game[base + 3:base + 6] = [s.pick_kinds >> k & 1 for k in range(3)]
        obs[lay["game"]] = game
        enemies = np.zeros((7, len(lay.section("enemies").columns)), np.float32)
        if s.enemy >= 0:
            enemies[0] = _card_row(cat.ENEMY_CARDS[s.enemy])
        if s.peeked[observer] and not s.game_over:  # D20: private to the peeking player
            enemies[1] = _card_row(cat.ENEMY_CARDS[int(s.enemy_deck[s.year - 1])])
        for i, c in enumerate(cat.CARDS_OF_YEAR[s.year - 1]):
            enemies[2 + i] = _card_row(cat.ENEMY_CARDS[c])
        obs[lay["enemies"]] = enemies.T.ravel()
        return obs

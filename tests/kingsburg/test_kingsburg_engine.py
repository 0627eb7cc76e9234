"""Kingsburg engine properties: random play over many seeds and every player count with the invariants
after every action, JSON round trips at random points, exact masks (K16), replay from seed + actions
(K15.D21). KTENV_KINGSBURG_GAMES sets the number of games per player count (CI: 8)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from ktenv.kingsburg import IllegalActionError, KingsburgConfig, KingsburgState, legal_mask, new_game, step
from ktenv.kingsburg import actions as A

GAMES = int(os.environ.get("KTENV_KINGSBURG_GAMES", "8"))
OPTIONS = ({}, {"merchants_guild_good_of_choice": True, "kings_reward_requires_building": True,
                "neutral_dice_players": [2, 3], "building_token_limit": 6})


def play(cfg: KingsburgConfig, seed: int, every=None) -> tuple[KingsburgState, list[int]]:
    s = new_game(cfg, seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not s.game_over:
        legal = np.flatnonzero(legal_mask(s))
        assert legal.size >= 2, "a forced move must be taken by the engine (K16)"
        a = int(rng.choice(legal))
        step(s, a)
        actions.append(a)
        if every is not None:
            every(s)
    return s, actions


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_the_invariants(n, options):  # K1.3, K5.5.2, K14, K15.D2
    cfg = KingsburgConfig.from_dict({"n_players": n, **options})
    rng = np.random.default_rng(n)

    def check(s):
        s.check_invariants()
        if rng.random() < 0.02:
            t = KingsburgState.from_json(s.to_json())
            assert t == s

    for seed in range(GAMES if not options else max(2, GAMES // 4)):
        s, _ = play(cfg, seed, check)
        assert s.year == 5 and s.winners and s.decision == A.NONE
        limit = cfg.building_token_limit
        assert limit is None or (s.built.sum(axis=(1, 2)) <= limit).all()


def test_seed_and_actions_replay_exactly():  # K15.D21
    cfg = KingsburgConfig(n_players=3)
    s, actions = play(cfg, 11)
    t = new_game(cfg, 11)
    for a in actions:
        step(t, a)
    assert t == s
    assert new_game(cfg, 12).to_json() != new_game(cfg, 11).to_json()


@pytest.mark.parametrize("n", [2, 5])
def test_masks_are_exact(n):  # K16: every allowed action accepted, every other refused, nothing changed
    cfg = KingsburgConfig(n_players=n)
    s = new_game(cfg, 5)
    rng = np.random.default_rng(1)
    checked = 0
    while not s.game_over:
        mask = legal_mask(s)
        if rng.random() < 0.15:
            before = s.to_json()
            for a in range(A.N_ACTIONS):
                t = KingsburgState.from_json(before)
                if mask[a]:
                    step(t, a)
                    t.check_invariants()
                else:
                    with pytest.raises(IllegalActionError):
                        step(t, a)
                    assert t.to_json() == before
            checked += 1
        step(s, int(rng.choice(np.flatnonzero(mask))))
    assert checked > 5

"""The per-player observation: layout, bounds, point of view, and no leak of hidden facts (RI)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.board import board_radius, geometry
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import BOARD, SCREEN
from ktenv.kings_and_things.dev import docs
from ktenv.kings_and_things.engine.machine import legal_mask, new_game, step
from ktenv.kings_and_things.engine.support import supported_mask
from ktenv.kings_and_things.env.observation import REGISTERS, ObservationEncoder, _supported, build_layout
from ktenv.kings_and_things.env.stats import INCOME, STAT_COLUMNS, player_stats
from ktenv.kings_and_things.env.testing import check_no_leak, hidden_variants, random_states
from ktenv.kings_and_things.procedures import Placement
from ktenv.kings_and_things.state import RECRUIT


def encoder(n: int, **cfg) -> ObservationEncoder:
    config = GameConfig(n_players=n, **cfg)
    return ObservationEncoder(config, geometry(board_radius(n)).n_hexes)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_leak_of_hidden_facts_on_random_states(n):
    """RI.2/RI.3: swapping an opponent's face-down creatures with their screen or the cup, an
    opponent's screen with the cup, or the future dice leaves every observer's vector and mask
    unchanged; a public change (gold, a reveal, a screen size, a hex owner) changes it."""
    enc = encoder(n, max_rounds=5)
    rng = np.random.default_rng(100 + n)
    checked = hidden = 0
    for s in random_states(enc.cfg, 30, seed=n):
        for p in range(n):
            checked += check_no_leak(enc.encode, s, p, rng)
            hidden += len(hidden_variants(s, p, rng))
    assert hidden > 30 * n * 3  # the states did have hidden facts to change
    assert checked > hidden


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_leak_many_states(n):
    enc = encoder(n, max_rounds=12)
    rng = np.random.default_rng(7)
    for s in random_states(enc.cfg, 200, seed=50 + n, gap=(1, 120)):
        for p in range(n):
            check_no_leak(enc.encode, s, p, rng)


def test_the_leak_check_catches_a_leaky_encoder():
    enc = encoder(2, max_rounds=3)

    def leaky(s, p):  # also shows every screen's contents
        return np.concatenate([enc.encode(s, p), (s.thing_place == SCREEN).astype(np.float32)])

    rng = np.random.default_rng(0)
    s = next(random_states(enc.cfg, 1, seed=3, gap=(120, 121)))
    with pytest.raises(AssertionError, match="hidden change"):
        for p in range(2):
            check_no_leak(leaky, s, p, rng)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_observations_stay_in_the_box_and_layout_covers_them(n):
    enc = encoder(n, max_rounds=4)
    layout = enc.layout
    assert sum(layout.section(name).size for name in layout) == layout.size == enc.size
    assert [layout[name].start for name in layout] == sorted(layout[name].start for name in layout)
    for s in random_states(enc.cfg, 25, seed=10 + n):
        for p in range(n):
            obs = enc.encode(s, p)
            assert obs.dtype == np.float32 and obs.shape == (enc.size,)
            bad = np.flatnonzero((obs < enc.low) | (obs > enc.high))
            assert bad.size == 0, [layout.names()[i] for i in bad[:5]]


def test_point_of_view_is_relative():
    """Row 0 of the players table is the observer; owners are relative seats."""
    enc = encoder(3, max_rounds=3)
    s = next(random_states(enc.cfg, 1, seed=4, gap=(150, 151)))
    stats = player_stats(s)
    layout = enc.layout
    for p in range(3):
        obs = enc.encode(s, p)
        gold = layout.column(obs, "players", "gold")
        assert gold.tolist() == [float(s.gold[(p + k) % 3]) for k in range(3)]
        income = layout.column(obs, "players", "income")
        assert income[0] == stats[p, INCOME]
        for k in range(3):
            owned = layout.column(obs, "hexes", f"owner_rel{k}")
            assert np.array_equal(owned, (s.hex_owner == (p + k) % 3).astype(np.float32))
        mine = layout.column(obs, "things", "mine_screen")
        assert np.array_equal(np.flatnonzero(mine), s.screen(p))
        assert layout.value(obs, "game", "is_actor") == float(s.actor == p)


def test_own_counters_are_known_and_others_are_counted():
    enc = encoder(2, max_rounds=3)
    s = next(random_states(enc.cfg, 1, seed=8, gap=(200, 201)))
    layout = enc.layout
    obs = enc.encode(s, 0)
    on_board = layout.column(obs, "things", "on_board")
    mine = np.flatnonzero((s.thing_place == BOARD) & (s.thing_owner == 0))
    assert on_board[mine].all()
    hidden_other = np.flatnonzero((s.thing_place == BOARD) & (s.thing_owner == 1) & ~s.thing_public
                                  & ~s.thing_face_up)
    assert hidden_other.size and not on_board[hidden_other].any()
    assert (layout.column(obs, "things", "hex")[hidden_other] == -1).all()
    hidden_count = layout.column(obs, "hexes", "hidden_rel1")
    assert hidden_count.sum() == hidden_other.size
    things_rel0 = layout.column(obs, "hexes", "things_rel0")
    assert things_rel0.sum() == np.count_nonzero(
        (s.thing_place == BOARD) & (s.thing_owner == 0) & ~np.isin(s.cat.THING_KIND, (1, 2, 3)))


def test_stats_agree_with_the_engine():
    for n in (2, 3, 4):
        for s in random_states({"n_players": n, "max_rounds": 6}, 25, seed=20 + n):
            stats = player_stats(s)
            for p in range(n):
                row = dict(zip(STAT_COLUMNS, stats[p].tolist(), strict=True))
                assert row["income"] == s.income(p)
                assert row["hexes"] == s.land_hex_count(p)
                assert row["screen"] == s.screen_size(p)
                assert row["gold"] == s.gold[p]
                assert row["heroes"] == len(s.heroes_of(p))


def test_support_agrees_with_the_engine():
    for s in random_states({"n_players": 4, "max_rounds": 6}, 40, seed=5):
        for p in range(4):
            own = (s.thing_owner == p) & (s.thing_place == BOARD) & (s.cat.THING_KIND == 0)
            assert np.array_equal(_supported(s, p, own), supported_mask(s, p))


def test_encode_into_a_batch_row_and_fresh_arrays():
    enc = encoder(2, max_rounds=3)
    s = next(random_states(enc.cfg, 1, seed=2, gap=(80, 81)))
    batch = np.full((2, enc.size), 7, np.float32)
    enc.encode_into(s, 1, batch[1])
    first, second = enc.encode(s, 1), enc.encode(s, 1)
    assert np.array_equal(batch[1], first) and (batch[0] == 7).all()
    assert first is not second and not np.shares_memory(first, second)


def test_trade_set_is_public_but_the_pick_for_placement_is_not():
    """R8.1.1: the trade set being declared is shown to all; the Thing picked for placement
    (register `thing`) is only the actor's."""
    enc = encoder(2, max_rounds=3)
    layout = enc.layout
    seen_trade = seen_pick = False
    for s in random_states(enc.cfg, 300, seed=11, gap=(1, 4)):
        other = 1 - s.actor if s.actor >= 0 else 0
        if s.phase == RECRUIT and s.decision == D.RECRUIT_TRADE and s.thing_selected.any():
            chosen = np.flatnonzero(s.thing_selected)
            obs = enc.encode(s, other)
            assert layout.column(obs, "things", "selected")[chosen].all()
            assert layout.column(obs, "things", "owner_rel1")[chosen].all()
            seen_trade = True
        if s.decision == D.PLACE_HEX:
            c = s.frame(Placement).thing
            assert layout.column(enc.encode(s, s.actor), "things", "reg_thing")[c] == 1
            assert layout.column(enc.encode(s, other), "things", "reg_thing").sum() == 0
            seen_pick = True
    assert seen_trade and seen_pick


def test_registers_are_known_to_the_encoder():
    kinds = {"scalar", "hex", "thing", "hero", "side", "per_side", "own_side"}
    assert all(r.kind in kinds and r.visible in ("public", "actor", "owner") for r in REGISTERS)
    assert all(r.kind == "thing" for r in REGISTERS if r.visible == "owner")  # owner of the Thing named
    assert len({r.key for r in REGISTERS}) == len(REGISTERS)


def test_layout_names_columns_uniquely_and_sizes_follow_the_config():
    for n, h in ((2, 19), (3, 19), (4, 37)):
        layout = build_layout(n, h)
        assert layout.section("players").rows == n and layout.section("hexes").rows == h
        names = layout.names()
        assert len(set(names)) == len(names) == layout.size
    assert build_layout(2, 19).size < build_layout(4, 37).size


def test_docs_are_generated_from_the_code():
    """docs/observation.md and the block table of docs/actions.md match the code
    (regenerate with `python -m ktenv.kings_and_things.dev.docs`)."""
    text, wanted = docs.expected("observation.md")
    assert text == wanted, "docs/observation.md is stale: run python -m ktenv.kings_and_things.dev.docs"
    text, wanted = docs.expected("actions.md")
    blocks = wanted.split("| code | decision |")[0]
    assert blocks in text, "docs/actions.md block table is stale: run python -m ktenv.kings_and_things.dev.docs"
    if text != wanted:  # the decision list follows ktenv/kings_and_things/decisions.py: only a warning
        warnings.warn("docs/actions.md decision table is behind ktenv/kings_and_things/decisions.py: "
                      "run python -m ktenv.kings_and_things.dev.docs", stacklevel=1)


def test_observation_changes_with_the_decision():
    enc = encoder(2, max_rounds=2)
    s = new_game(enc.cfg, 1)
    before = enc.encode(s, s.actor)
    step(s, int(np.flatnonzero(legal_mask(s))[0]))
    assert not np.array_equal(before, enc.encode(s, s.actor))

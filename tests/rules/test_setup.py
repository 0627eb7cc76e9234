"""Setup (R4, R3.4, RD2): first player, start positions, claims, Tower, gold, the initial draw,
placement (R8.3), the one-time exchange (R4.9), placing replacements (R4.10) and the options
setup_exchange_timing, setup_second_placement and start_sea_replacement."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.board import start_hex_needs_replacement, start_hex_settled
from ktenv.kings_and_things.constants import (
    BOARD,
    CITY,
    CREATURE,
    CUP,
    EVENT,
    FROZEN_WASTE,
    JUNGLE,
    MAGIC,
    MOUNTAIN,
    NOBODY,
    PLAINS,
    SCREEN,
    SEA,
    SPECIAL_INCOME,
    TREASURE,
    VILLAGE,
)
from ktenv.kings_and_things.engine import resume, setup
from ktenv.kings_and_things.engine.actions import PASS, YES
from ktenv.kings_and_things.engine.machine import legal_mask, new_game, step
from ktenv.kings_and_things.engine.placement_turn import begin_placement
from ktenv.kings_and_things.engine.setup import INITIAL_DRAW, START_GOLD
from ktenv.kings_and_things.procedures import Placement
from ktenv.kings_and_things.state import INCOME, SETUP, GameState

from ..builders import board, cup, hero, put, put_some, screen, screen_some
from ..play import a_hex, a_thing, config, masked_in, passive_action, random_action, run_until, scripted_new_game

# ----------------------------------------------------------------- independent rule oracles


def expected_claims(s: GameState, player: int) -> set[int]:
    """R4.5.3 with RD2.4, computed from the geometry by hand."""
    adj = s.geo.adjacent
    free = [h for h in range(s.geo.n_hexes) if s.hex_owner[h] == NOBODY and s.hex_terrain[h] != SEA]
    near_own = [h for h in free if any(s.hex_owner[j] == player for j in adj[h])]
    strict = {h for h in near_own if not any(s.hex_owner[j] not in (NOBODY, player) for j in adj[h])}
    return strict or set(near_own)


def expected_hexes(s: GameState, player: int, c: int, only_hex: int = -1) -> set[int]:
    """R8.3: the hexes where Thing `c` may be placed by `player`."""
    kind = cat.THING_KIND[c]
    own = [h for h in range(s.geo.n_hexes) if s.hex_owner[h] == player and (only_hex < 0 or h == only_hex)]
    if kind == CREATURE:
        out = set()
        for h in own:
            army = int(((s.thing_place == BOARD) & (s.thing_owner == player) & (s.thing_hex == h)
                        & (s.cat.THING_KIND == CREATURE)).sum()) + int(((s.hero_owner == player)
                                                                      & (s.hero_hex == h)).sum())
            if army < 10 or s.hex_fort[h] == 4:  # R8.3.5, R11.4
                out.add(h)
        return out
    if kind in (CITY, VILLAGE):  # R8.3.3
        return {h for h in own if s.hex_income[h] < 0}
    if kind == SPECIAL_INCOME:  # R8.3.4
        return {h for h in own if s.hex_income[h] < 0 and s.hex_terrain[h] == cat.THING_TERRAIN[c]}
    return set()  # R8.3.2


def check_place_mask(s: GameState) -> None:
    """At a PLACE decision: the Things offered are exactly the placeable ones (R8.3)."""
    assert s.decision == D.PLACE
    player = s.actor
    mine = s.screen(player)
    placing = s.frame(Placement)
    if placing.only_new:
        mine = mine[s.thing_new[mine]]
    want = {int(c) for c in mine if expected_hexes(s, player, int(c), placing.hex)}
    offered = set(masked_in(s, "THING"))
    if placing.may_remove:
        removable = {int(c) for c in s.hex_income[s.hex_owner == player] if c >= 0}
        assert removable <= offered
        offered -= removable
    assert offered == want
    assert legal_mask(s)[PASS]


def check_place_hex_mask(s: GameState) -> None:
    assert s.decision == D.PLACE_HEX
    placing = s.frame(Placement)
    assert set(masked_in(s, "HEX")) == expected_hexes(s, s.actor, placing.thing, placing.hex)


def clockwise_angle(geo, hx: int) -> float:
    """Screen angle of a hex centre, growing clockwise (pointy-top, r downward: R3.1.2)."""
    q, r = (int(v) for v in geo.coords[hx])
    x, y = math.sqrt(3) * (q + r / 2), 1.5 * r
    return math.degrees(math.atan2(y, x)) % 360


def setup_decisions(n_players: int, seed: int, **options):
    """Play setup with a random policy, yielding (state before the action, action)."""
    s = new_game(config(n_players, **options), seed)
    rng = np.random.default_rng(seed)
    while s.phase == SETUP:
        a = random_action(s, rng)
        yield s, a
        step(s, a)
        s.check_invariants()


# ----------------------------------------------------------------- R4.4 first player


def test_first_player_highest_2d6_r4_4_1():
    s = scripted_new_game(config(3), 1, [2, 3, 6, 6, 1, 1])
    assert s.first_player == 1
    assert s.decision == D.START_POSITION and s.actor == 1
    assert s.turn_order() == [1, 2, 0]
    assert s.rng.script == []


def test_first_player_tie_is_rerolled_among_the_tied_r4_4_1():
    # p0 11, p1 11, p2 4 -> p0 and p1 roll again: 6 against 8 -> p1
    s = scripted_new_game(config(3), 1, [6, 5, 5, 6, 2, 2, 3, 3, 4, 4])
    assert s.rng.script == []  # exactly two dice per tied player in the re-roll: p2 did not roll
    assert s.first_player == 1 and s.actor == 1
    assert s.turn_order() == [1, 2, 0]


def test_first_player_repeated_ties_r4_4_1():
    # 4 players: all tie at 7; then p2 and p3 tie at 12; then p3 wins with 5 against 4
    dice = [3, 4, 2, 5, 1, 6, 6, 1] + [1, 1, 2, 2, 6, 6, 6, 6] + [2, 2, 4, 1]
    s = scripted_new_game(config(4), 2, dice)
    assert s.rng.script == []
    assert s.first_player == 3
    assert s.turn_order() == [3, 0, 1, 2]


def test_tie_below_the_highest_is_not_rerolled_r4_4_1():
    s = scripted_new_game(config(3), 3, [1, 1, 6, 6, 1, 1, 5, 5])
    assert s.first_player == 1
    assert s.rng.script == [5, 5]  # nobody re-rolled
    s.rng.script = []


# ----------------------------------------------------------------- R4.4.2 / RD2.1 start positions


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_start_positions_follow_clockwise_in_turn_order_rd2_1(n_players):
    for seed in range(4):
        s = new_game(config(n_players), seed)
        assert s.decision == D.START_POSITION and s.actor == s.first_player
        options = masked_in(s, "HEX")
        assert len(options) == {2: 6, 3: 6, 4: 4}[n_players]
        geo = s.geo
        k = geo.radius
        corners = {geo.corner(k, d) for d in ("NE", "E", "SE", "SW", "W", "NW")}
        assert set(options) <= corners
        for hx in options:
            c = s.copy()
            step(c, a_hex(c, hx))
            order = c.turn_order()
            starts = [int(c.start_hex[p]) for p in order]
            assert starts[0] == hx  # the first player's choice
            assert len(set(starts)) == n_players
            base = clockwise_angle(geo, starts[0])
            turns = [(clockwise_angle(geo, h) - base) % 360 for h in starts]
            assert turns == sorted(turns), "later players sit further clockwise"
            if n_players == 2:
                assert geo.distance[starts[0], starts[1]] == 2 * k  # the opposite corner
            elif n_players == 3:
                assert {round(t) for t in turns} == {0, 120, 240}  # set A or set B
            else:
                assert set(starts) == {geo.corner(3, d) for d in ("NE", "SE", "SW", "NW")}


def test_start_hexes_are_owned_and_settled_after_sea_replacement_r3_4():
    for n_players in (2, 3, 4):
        for seed in range(6):
            s = new_game(config(n_players), seed)
            run_until(s, lambda g: g.decision == D.CLAIM or g.phase != SETUP)
            for p in range(n_players):
                hx = int(s.start_hex[p])
                assert s.hex_owner[hx] == p  # R4.5.1
                assert start_hex_settled(s.hex_terrain, hx, s.geo, 2)


@pytest.mark.parametrize("needed", [2, 3])
def test_start_land_neighbours_option_r3_4_1_x1(needed):
    """A triggered start hex (Sea, or >= 2 Sea neighbours) is repaired until it has `needed` land
    neighbours; an untriggered one (at most one Sea neighbour) stays as laid."""
    repaired = 0
    for seed in range(12):
        s = new_game(config(4, start_land_neighbours=needed), seed)
        laid = s.hex_terrain.copy()
        run_until(s, lambda g: g.decision == D.CLAIM)
        for p in range(4):
            hx = int(s.start_hex[p])
            if start_hex_needs_replacement(laid, hx, s.geo):
                repaired += 1
                assert start_hex_settled(s.hex_terrain, hx, s.geo, needed)
            else:
                assert all(s.hex_terrain[j] == laid[j] for j in (hx, *s.geo.adjacent[hx]))
    assert repaired


def _at_start_choice(n_players=2, seed=0, **options):
    s = new_game(config(n_players, **options), seed)
    assert s.decision == D.START_POSITION
    return s


def test_optional_sea_replacement_offers_replace_or_keep_rp_s2():
    s = _at_start_choice(2, 4, start_sea_replacement="optional")
    hx = masked_in(s, "HEX")[0]
    nb = [j for j in s.geo.adjacent[hx]]
    s.hex_terrain[hx] = PLAINS
    s.hex_terrain[nb[0]] = s.hex_terrain[nb[1]] = SEA  # two Sea neighbours: R3.4.1 applies
    s.hex_terrain[nb[2]] = PLAINS
    stack_before = len(s.hex_stack)
    step(s, a_hex(s, hx))
    assert s.decision == D.SEA_REPLACE and s.actor == s.first_player
    assert set(np.flatnonzero(legal_mask(s))) >= {YES, PASS}
    keep = s.copy()
    step(keep, PASS)  # keep the Sea
    assert keep.hex_terrain[nb[0]] == SEA and keep.hex_terrain[nb[1]] == SEA
    assert len(keep.hex_stack) == stack_before
    step(s, YES)  # replace: the first Sea neighbour (direction order) is enough for 2 land neighbours
    assert s.hex_terrain[nb[0]] != SEA
    assert start_hex_settled(s.hex_terrain, hx, s.geo, 2)
    assert len(s.hex_stack) == stack_before - 1 and SEA in s.hex_aside
    s.check_invariants()
    keep.check_invariants()


def test_auto_sea_replacement_is_not_a_decision_r3_4_2():
    s = _at_start_choice(2, 4)
    hx = masked_in(s, "HEX")[0]
    nb = list(s.geo.adjacent[hx])
    s.hex_terrain[hx] = SEA
    s.hex_terrain[nb[0]] = s.hex_terrain[nb[1]] = SEA
    step(s, a_hex(s, hx))
    assert s.decision != D.SEA_REPLACE
    assert s.hex_terrain[hx] != SEA and s.hex_owner[hx] == s.first_player
    assert start_hex_settled(s.hex_terrain, hx, s.geo, 2)
    s.check_invariants()


def test_optional_sea_replacement_never_leaves_a_sea_start_hex_r0_4_2():
    """A start hex that is itself Sea cannot be kept: a Sea hex is never owned (R0.4.2, R4.5.1)."""
    s = _at_start_choice(2, 5, start_sea_replacement="optional")
    hx = masked_in(s, "HEX")[0]
    s.hex_terrain[hx] = SEA
    step(s, a_hex(s, hx))
    while s.phase == SETUP and s.decision == D.SEA_REPLACE:
        assert s.hex_terrain[s.start_hex[s.actor]] != SEA  # only Sea neighbours may be kept
        step(s, PASS)
    assert s.hex_terrain[hx] != SEA
    assert s.hex_owner[hx] == s.first_player
    s.check_invariants()


# ----------------------------------------------------------------- R4.5 claims


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_claims_in_turn_order_twice_and_legal_r4_5(n_players):
    for seed in range(5):
        actors = []
        for s, a in setup_decisions(n_players, seed):
            if s.decision == D.CLAIM:
                assert set(masked_in(s, "HEX")) == expected_claims(s, s.actor)
                actors.append(s.actor)
                assert s.hex_owner[a - a_hex(s, 0)] == NOBODY
            if s.decision == D.TOWER:
                break
        order = s.turn_order()
        # a claim may be auto-applied when it is the only legal hex; every one that was asked is in order
        full = order + order
        it = iter(full)
        assert all(any(p == q for q in it) for p in actors)
        for p in range(n_players):
            assert s.land_hex_count(p) == 3  # start hex + two claims (no skip in a normal setup)
            owned = s.owned_hexes(p)
            assert (s.hex_terrain[owned] != SEA).all()


def _at_claim(n_players=2, seed=0) -> GameState:
    """Setup at its first claim, arrangeable: the decision is withdrawn and re-asked by `resume`."""
    s = new_game(config(n_players), seed, backend="python")  # arranged by hand
    run_until(s, lambda g: g.decision == D.CLAIM)
    s.decision = D.NONE
    s.hex_owner[:] = NOBODY
    s.hex_terrain[s.hex_terrain == SEA] = PLAINS
    return s


def test_claim_not_adjacent_to_another_players_hex_rt_14():
    """RT.14: player 1's third hex may not be X, because X touches player 2's second hex."""
    s = _at_claim(2, 0)
    me = s.turn_order()[0]
    other = 1 - me
    for h in (9, 2):
        s.hex_owner[h] = me
    for h in (13, 4):
        s.hex_owner[h] = other
    resume(s)
    assert s.decision == D.CLAIM and s.actor == me
    offered = set(masked_in(s, "HEX"))
    assert 3 not in offered and 0 not in offered  # X = 3 touches hex 4; hex 0 too
    assert offered == {1, 8, 10}
    with pytest.raises(Exception, match="not legal"):
        step(s, a_hex(s, 3))


def test_claim_must_be_land_and_unowned_r4_5_3():
    s = _at_claim(2, 0)
    me = s.turn_order()[0]
    other = 1 - me
    s.hex_owner[[9, 2]] = me
    s.hex_owner[[15, 7]] = other  # 7 is owned, and it taints its neighbours 8, 1 and 18
    s.hex_terrain[10] = SEA
    resume(s)
    assert s.decision == D.CLAIM and s.actor == me
    offered = set(masked_in(s, "HEX"))
    assert offered == {0, 3} == expected_claims(s, me)  # not 10 (Sea), 7 (owned), 8 and 1 (next to 7)


def test_claim_fallback_drops_non_adjacency_rd2_4():
    s = _at_claim(2, 0)
    me = s.turn_order()[0]
    other = 1 - me
    s.hex_owner[9] = me  # neighbours of 9: 10, 2, 8
    for h in (11, 3, 1, 7):  # every neighbour of 9 now touches the other player
        s.hex_owner[h] = other
    resume(s)
    assert s.decision == D.CLAIM and s.actor == me
    assert set(masked_in(s, "HEX")) == {10, 2, 8}


def test_claim_skipped_without_any_legal_hex_rd2_4():
    s = _at_claim(2, 0)
    order = s.turn_order()
    me, other = order
    s.hex_owner[9] = me
    for h in s.geo.adjacent[9]:
        s.hex_terrain[h] = SEA  # the start hex is an island
    s.hex_owner[15] = other
    resume(s)
    assert s.decision == D.CLAIM and s.actor == other  # the first player was skipped
    run_until(s, lambda g: g.decision == D.TOWER)
    assert s.land_hex_count(me) == 1 and s.land_hex_count(other) == 3
    s.check_invariants()


# ----------------------------------------------------------------- R4.6 Tower and gold


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_tower_on_own_hex_and_ten_gold_r4_6(n_players):
    for seed in range(3):
        towers = {}
        for s, a in setup_decisions(n_players, seed):
            if s.decision == D.TOWER:
                assert set(masked_in(s, "HEX")) == {int(h) for h in s.owned_hexes(s.actor)}
                assert list(s.gold) == [START_GOLD] * n_players
                assert (s.hex_fort == 0).all() or s.actor != s.turn_order()[0]
                towers[s.actor] = a - a_hex(s, 0)
        assert list(towers) == s.turn_order()  # R4.6: in turn order
        for p in range(n_players):
            forts = s.hex_fort[s.owned_hexes(p)]
            assert sorted(forts.tolist()) == [0, 0, 1]  # exactly one Tower, on an own hex
            if p in towers:
                assert s.hex_fort[towers[p]] == 1


# ----------------------------------------------------------------- R4.7 initial draw, R4.8 placement


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_ten_things_drawn_each_r4_7(n_players):
    s = new_game(config(n_players), 7)
    run_until(s, lambda g: g.decision == D.PLACE)
    for p in range(n_players):
        assert s.screen_size(p) == INITIAL_DRAW
    assert int((s.thing_place == CUP).sum()) == cat.N_THINGS - INITIAL_DRAW * n_players
    assert not (s.thing_place == BOARD).any()
    assert s.actor == s.turn_order()[0]


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_setup_placement_masks_follow_r8_3(n_players):
    seen = 0
    for seed in range(4):
        for s, _a in setup_decisions(n_players, seed):
            if s.decision == D.PLACE:
                check_place_mask(s)
                seen += 1
            elif s.decision == D.PLACE_HEX:
                check_place_hex_mask(s)
    assert seen > 10


def _placing(n_players=2, seed=0):
    """A blank kingdom for player 0 and an open placement decision (as in R4.8)."""
    s = board(n_players, seed)
    return s


def _open_placement(s: GameState, player: int, **kw) -> None:
    s.decision = D.NONE
    begin_placement(s, player, **kw)
    s.edited()


def test_special_income_only_on_its_terrain_r8_3_4_rt_13():
    s = _placing()
    mountain, plains, jungle = 0, 1, 2
    s.hex_terrain[[mountain, plains, jungle]] = [MOUNTAIN, PLAINS, JUNGLE]
    for h in (mountain, plains, jungle):
        s.hex_owner[h] = 0
    s.hex_owner[10] = 1
    gold_mine = screen(s, cup(s, "Gold Mine")[0], 0)
    farmland = screen(s, cup(s, "Farmlands")[0], 0)
    oil = screen(s, cup(s, "Oil Field")[0], 0)
    graveyard = screen(s, cup(s, "Elephants' Graveyard")[0], 0)
    hero(s, "Jungle Lord", 0, mountain)  # a terrain lord does not widen R8.3.4 (RT.13)
    _open_placement(s, 0)
    offered = set(masked_in(s, "THING"))
    assert gold_mine in offered and farmland in offered and graveyard in offered
    assert oil not in offered  # no Frozen Waste hex: it stays behind the screen
    step(s, a_thing(s, graveyard))
    assert s.decision == D.PLACE_HEX or s.thing_hex[graveyard] == jungle
    if s.decision == D.PLACE_HEX:
        assert masked_in(s, "HEX") == [jungle]
    s.check_invariants()
    s.hex_terrain[3] = FROZEN_WASTE
    s.hex_owner[3] = 0
    s.edited()
    assert oil in set(masked_in(s, "THING"))


def test_city_and_village_on_any_own_hex_without_income_counter_r8_3_3():
    s = _placing()
    for h in (0, 1, 2):
        s.hex_owner[h] = 0
    s.hex_owner[10] = 1
    city, village = screen(s, cup(s, kind=CITY)[0], 0), screen(s, cup(s, kind=VILLAGE)[0], 0)
    screen_some(s, 1, 0)  # a creature keeps the placement open (otherwise PASS is the only choice)
    put(s, cup(s, kind=VILLAGE)[0], 0, 1)  # hex 1 already has an income counter
    _open_placement(s, 0)
    step(s, a_thing(s, city))
    assert set(masked_in(s, "HEX")) == {0, 2}
    step(s, a_hex(s, 0))
    assert s.thing_place[city] == BOARD and s.thing_face_up[city] and s.hex_income[0] == city
    assert s.decision == D.PLACE
    assert village in masked_in(s, "THING")
    step(s, a_thing(s, village))
    # only hex 2 is left: the single legal hex is taken automatically
    assert s.thing_hex[village] == 2 and s.decision == D.PLACE
    s.check_invariants()
    # no hex left for another village: it is not offered
    v3 = screen(s, cup(s, kind=VILLAGE)[0], 0)
    s.edited()
    assert v3 not in masked_in(s, "THING")
    check_place_mask(s)


def test_treasures_magic_and_events_are_never_placed_r8_3_2():
    s = _placing()
    s.hex_owner[0] = 0
    s.hex_owner[10] = 1
    items = [screen(s, c, 0) for c in (cup(s, kind=TREASURE)[0], cup(s, kind=MAGIC)[0],
                                         cup(s, kind=EVENT)[0])]
    creature = screen(s, cup(s, kind=CREATURE)[0], 0)
    _open_placement(s, 0)
    offered = set(masked_in(s, "THING"))
    assert offered == {creature}
    for c in items:
        with pytest.raises(Exception, match="not legal"):
            step(s, a_thing(s, c))


def test_creatures_face_down_at_most_ten_r8_3_5():
    s = _placing()
    for h in (0, 1):
        s.hex_owner[h] = 0
    s.hex_owner[10] = 1
    put_some(s, 9, 0, 0)
    c1, c2 = (screen(s, c, 0) for c in cup(s, kind=CREATURE, count=2))
    screen(s, int(cat.TREASURE_IDS[0]), 0)  # cashing is a choice: the placement stays open
    _open_placement(s, 0)
    step(s, a_thing(s, c1))
    assert set(masked_in(s, "HEX")) == {0, 1}
    step(s, a_hex(s, 0))
    assert s.thing_place[c1] == BOARD and not s.thing_face_up[c1]
    step(s, a_thing(s, c2))
    assert masked_in(s, "HEX") == [1]  # hex 0 is full (10 creatures)
    step(s, a_hex(s, 1))
    s.check_invariants()
    # every own hex full: creatures stay behind the screen
    put_some(s, 10 - int(s.army_counts(0)[1]), 0, 1)
    c3 = screen(s, cup(s, kind=CREATURE)[0], 0)
    _open_placement(s, 0)
    assert c3 not in masked_in(s, "THING")
    # a Citadel has no stack limit (R11.4)
    s.hex_fort[0] = 4
    s.hex_citadel_round[0] = 1
    _open_placement(s, 0)
    assert c3 in masked_in(s, "THING")
    step(s, a_thing(s, c3))
    assert masked_in(s, "HEX") == [0]
    step(s, a_hex(s, 0))
    assert s.thing_hex[c3] == 0 and s.army_counts(0)[0] == 11
    s.check_invariants()


def test_hero_counts_toward_the_placement_limit_r8_3_5():
    s = _placing()
    s.hex_owner[0] = 0
    s.hex_owner[10] = 1
    put_some(s, 9, 0, 0)
    hero(s, "Dwarf King", 0, 0)
    c = screen(s, cup(s, kind=CREATURE)[0], 0)
    _open_placement(s, 0)
    assert c not in masked_in(s, "THING")


def test_only_own_land_hexes_r8_3_1():
    s = _placing()
    s.hex_owner[0] = 0
    s.hex_owner[[1, 2]] = 1
    c = screen(s, cup(s, kind=CREATURE)[0], 0)
    _open_placement(s, 0)
    step(s, a_thing(s, c))
    assert s.thing_hex[c] == 0  # the one own hex, taken automatically


# ----------------------------------------------------------------- R4.9 exchange, R4.10 replacements


def _run_to(s, decision):
    run_until(s, lambda g: g.decision == decision)


def test_exchange_returns_exactly_the_chosen_and_draws_as_many_r4_9():
    s = new_game(config(3), 11)
    _run_to(s, D.EXCHANGE)
    p = s.actor
    screen = [int(c) for c in s.screen(p)]
    chosen = screen[:3]
    kept = screen[3:]
    cup_before = int((s.thing_place == CUP).sum())
    for c in chosen:
        step(s, a_thing(s, c))
        assert s.thing_selected[c]  # private choice in progress
        assert c not in masked_in(s, "THING")
    step(s, PASS)
    after = {int(c) for c in s.screen(p)}
    new = after - set(kept)
    assert set(kept) <= after
    assert len(new) == len(chosen) and not (new & set(chosen))
    assert all(s.thing_place[c] == CUP for c in chosen)
    assert all(s.thing_new[c] for c in new) and not s.thing_new[kept].any()
    assert int((s.thing_place == CUP).sum()) == cup_before
    assert s.stats["things_drawn"] == 30 + 3
    s.check_invariants()


def test_exchange_nothing_draws_nothing_r4_9():
    s = new_game(config(2), 12)
    _run_to(s, D.EXCHANGE)
    p = s.actor
    before = s.screen(p).tolist()
    step(s, PASS)
    assert s.screen(p).tolist() == before
    assert not s.thing_new.any()


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_one_exchange_per_player_in_turn_order_r4_9(n_players):
    s = new_game(config(n_players), 13)
    finished = []
    placing = []
    while s.phase == SETUP:
        if s.decision == D.PLACE and s.stage == setup.PLACE and (not placing or placing[-1] != s.actor):
            placing.append(s.actor)  # R4.8: placement in turn order, before the exchange
        if s.decision == D.EXCHANGE:
            assert not finished or s.actor != finished[-1]
            mine = s.screen(s.actor)
            if not s.thing_selected[mine].any():
                step(s, a_thing(s, mine[0]))
                continue
            finished.append(s.actor)
        step(s, passive_action(s))
    assert finished == s.turn_order()
    assert placing == [p for p in s.turn_order() if p in placing]


def _exchange_all_creatures_policy(s: GameState) -> int:
    """Place nothing first; exchange two creatures (if any); then place whatever is offered."""
    if s.decision == D.EXCHANGE:
        mine = s.screen(s.actor)
        chosen = mine[s.thing_selected[mine]]
        if chosen.size < 2:
            return a_thing(s, mine[~s.thing_selected[mine]][0])
        return PASS
    return passive_action(s)


def test_only_replacements_may_be_placed_after_the_exchange_r4_10():
    placed_new = 0
    for seed in range(6):
        s = new_game(config(2), seed)
        asked = []
        while s.phase == SETUP:
            if s.decision == D.PLACE and s.stage == setup.PLACE_AGAIN:
                asked.append(s.actor)
                check_place_mask(s)
                offered = masked_in(s, "THING")
                assert all(s.thing_new[c] for c in offered)
                if offered:
                    placed_new += 1
                    step(s, a_thing(s, offered[0]))
                    continue
            step(s, _exchange_all_creatures_policy(s))
            s.check_invariants()
        assert not s.thing_new.any()  # the marks end with setup
        assert s.phase != SETUP
    assert placed_new > 0


def test_second_placement_any_option_r4_10():
    found = False
    for seed in range(10):
        s = new_game(config(2, setup_second_placement="any"), seed)
        while s.phase == SETUP:
            if s.decision == D.PLACE and s.stage == setup.PLACE_AGAIN:
                check_place_mask(s)
                offered = masked_in(s, "THING")
                if any(not s.thing_new[c] for c in offered):
                    found = True
            step(s, _exchange_all_creatures_policy(s))
    assert found, "with setup_second_placement=any old Things are offered too"


def test_no_second_placement_without_replacements_r4_10():
    s = new_game(config(2), 3)
    while s.phase == SETUP:
        assert s.stage != setup.PLACE_AGAIN or s.decision != D.PLACE, "nobody exchanged"
        step(s, passive_action(s))


def test_exchange_before_placement_option_x4():
    s = new_game(config(3, setup_exchange_timing="before_placement"), 5)
    order = []
    while s.phase == SETUP:
        if s.decision in (D.EXCHANGE, D.PLACE):
            if not order or order[-1][1] != s.decision or order[-1][0] != s.actor:
                order.append((s.actor, s.decision, s.stage))
        if s.decision == D.PLACE:
            check_place_mask(s)
        step(s, _exchange_all_creatures_policy(s))
    kinds = [d for _, d, _ in order]
    first_place = kinds.index(D.PLACE)
    assert all(k == D.EXCHANGE for k in kinds[:first_place])
    assert all(k == D.PLACE for k in kinds[first_place:])  # no exchange and no second placement after
    assert [a for a, d, _ in order if d == D.EXCHANGE] == s.turn_order()
    assert all(st != setup.PLACE_AGAIN for _, _, st in order)


def test_exchange_before_placement_lets_anything_be_placed_x4():
    s = new_game(config(2, setup_exchange_timing="before_placement"), 6)
    while s.phase == SETUP:
        if s.decision == D.PLACE:
            check_place_mask(s)
            offered = masked_in(s, "THING")
            assert any(not s.thing_new[c] for c in offered) or not offered or s.thing_new.any()
        step(s, _exchange_all_creatures_policy(s))


# ----------------------------------------------------------------- end of setup


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_setup_ends_in_round_one_with_the_hex_stack_formed_r4_11(n_players):
    s = new_game(config(n_players), 21)
    run_until(s, lambda g: g.phase != SETUP)
    assert s.round == 1 and s.phase != SETUP
    assert s.hex_aside == []
    tiles = cat.TERRAIN_HEX_COUNT.tolist()
    on_board = np.bincount(s.hex_terrain, minlength=8)
    stacked = np.bincount(np.array(s.hex_stack, dtype=np.int64), minlength=8)
    assert (on_board + stacked).tolist() == tiles  # every tile is on the board or in the hex stack
    # income was collected (R6) right after setup: gold = 10 + income
    if s.decision == D.HERO_CHOOSE:
        p = s.actor
        assert s.gold[p] == START_GOLD + s.income(p)


def test_setup_screens_hold_at_most_ten_after_setup_r17_1():
    for seed in range(5):
        s = new_game(config(4), seed)
        run_until(s, lambda g: g.phase != SETUP, check=True)
        for p in range(4):
            assert s.screen_size(p) <= 10


def test_phase_after_setup_is_income_then_heroes():
    s = new_game(config(2), 1)
    run_until(s, lambda g: g.phase != SETUP)
    assert s.phase > INCOME  # income is automatic (R6, RP-1)


def test_things_conserved_through_setup_r0_5():
    for n in (2, 3, 4):
        s = new_game(config(n), 8)
        run_until(s, lambda g: g.phase != SETUP)
        places = np.bincount(s.thing_place, minlength=4)
        assert places.sum() == cat.N_THINGS
        assert places[SCREEN] + places[BOARD] == INITIAL_DRAW * n

"""R22 house content (house_content=true): Ahasuerus, Lenin, the Gypsy King, Tycho Brahe and the
Portal, with scripted dice; each shown working, and inert with the option off (a 2-4 player game
without the option has no house counters at all; a six-player game has them out of play)."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import CUP, FOREST, OUT, PLAINS, SEA
from ktenv.kings_and_things.engine import house as H
from ktenv.kings_and_things.engine.actions import PASS, YES
from ktenv.kings_and_things.engine.battle_sides import MELEE_STEP, attackers
from ktenv.kings_and_things.engine.heroes import dismiss, pool_faces
from ktenv.kings_and_things.engine.machine import layout, legal_mask, new_game, step
from ktenv.kings_and_things.env.observation import ObservationEncoder
from ktenv.kings_and_things.procedures import Battle, Event
from ktenv.kings_and_things.state import EVENTS, MOVEMENT, GameState

from ..builders import E1, E2, W1, C, board, hero, put, screen, start_phase, thing
from ..play import a_dir, a_hero, a_hex, act, legal


def house_board(n_players: int = 2, kadab: bool = False) -> GameState:
    """The movement tests' empty Plains board with house_content on (house Things in the cup)."""
    s = board(n_players, house_content=True, setup="passive", terrain=PLAINS)
    s.cfg = GameConfig(n_players=n_players, house_content=True, mysterious_kadab=kadab)  # no tiles face down yet
    return s


def six_without_house() -> GameState:
    """Six players without house_content: the house counters exist, out of play."""
    return board(6, setup="passive", terrain=PLAINS)


# ----- the counters: in or out of play -----

def test_house_block_is_appended_after_the_box():
    assert cat.HOUSE_THING_IDS.tolist() == [cat.SUMMARY["things"], cat.SUMMARY["things"] + 1]
    assert cat.HOUSE.N_THINGS == cat.SUMMARY["things"] + 2 == cat.N_THINGS + 2
    assert cat.HOUSE_HERO_FACES.tolist() == list(range(cat.SUMMARY["hero_faces"], cat.HOUSE.N_HERO_FACES))
    assert [cat.HERO_NAME[f] for f in cat.HOUSE_HERO_FACES] == ["Ahasuerus", "Lenin", "Gypsy King", "Tycho Brahe"]
    assert all(cat.HERO_COMBAT[f] == 4 for f in cat.HOUSE_HERO_FACES)  # ASSUMPTION (M14)
    assert cat.HOUSE_ITEM_VALUE == {"Boat": 3}  # ASSUMPTION (M7)


def test_flag_off_house_counters_never_enter_play():
    s = new_game(GameConfig(n_players=2), 1)  # no house counters in the game at all
    assert (s.n_things, len(s.hero_owner), layout(s).size) == (cat.N_THINGS, cat.N_HERO_FACES, 271)
    s = new_game(GameConfig(n_players=6), 1)
    assert (s.thing_place[cat.HOUSE_THING_IDS] == OUT).all()
    assert not np.isin(pool_faces(s), cat.HOUSE_HERO_FACES).any()
    s = new_game(GameConfig(n_players=2, house_content=True, mysterious_kadab=True), 1)
    assert (s.thing_place[cat.HOUSE_THING_IDS] != OUT).all()
    assert np.isin(pool_faces(s), cat.HOUSE_HERO_FACES).sum() == 2  # one face of each house counter


def test_r22_4_tycho_only_with_kadab_his_counter_shows_the_gypsy_king():
    for seed in range(6):
        s = new_game(GameConfig(n_players=2, house_content=True), seed)
        assert H.GYPSY_KING in pool_faces(s) and H.TYCHO not in pool_faces(s)
    s = house_board()
    hero(s, "Gypsy King", 0, C)
    dismiss(s, H.GYPSY_KING)  # R7.2 would turn the counter over: not this one
    assert H.GYPSY_KING in pool_faces(s)
    s.cfg = GameConfig(n_players=2, house_content=True, mysterious_kadab=True)
    hero(s, "Gypsy King", 0, C)
    dismiss(s, H.GYPSY_KING)
    assert H.TYCHO in pool_faces(s)


# ----- R22.1 Ahasuerus -----

def test_r22_1_ahasuerus_teleports_to_an_own_hex_or_onto_own_creatures():
    s = house_board()
    s.hex_owner[[C, E2]] = 0
    s.hex_owner[W1] = 1
    far = s.geo.n_hexes - 1
    f = hero(s, "Ahasuerus", 0, C)
    put(s, "Ogre", 1, C)  # an enemy here: he is pinned (RD10.17: the teleport ignores it)
    put(s, "Giant", 0, far)  # own creatures on a hex nobody owns
    put(s, "Farmers", 1, W1)
    put(s, "Wolf Pack", 0, E2)  # another unmoved counter: the turn goes on
    start_phase(s, MOVEMENT)
    assert a_hero(s, f) in legal(s)
    act(s, a_hero(s, f))
    assert s.decision == D.AHASUERUS_DEST
    offered = {a - a_hex(s, 0) for a in legal(s)}
    assert offered == {E2, far}  # own hexes and own creatures; not his own hex, not the enemy's
    act(s, a_hex(s, far))
    assert s.hero_hex[f] == far and s.hero_moved[f] and s.decision == D.MOVE_START
    assert a_hero(s, f) not in legal(s)  # done for the turn


def test_r22_1_ahasuerus_needs_house_content_and_room():
    s = house_board()
    s.hex_owner[[C, E2]] = 0
    f = hero(s, "Ahasuerus", 0, C)
    plains = [c for c in cat.CREATURE_IDS if cat.THING_TERRAIN[c] == PLAINS and s.thing_place[c] == CUP]
    for c in plains[:10]:
        put(s, int(c), 0, E2)
    start_phase(s, MOVEMENT)
    assert s.decision != D.AHASUERUS_DEST and a_hero(s, f) not in legal(s)  # E2 full, no other hex
    s = six_without_house()
    s.hex_owner[[C, E2]] = 0
    f = hero(s, "Ahasuerus", 0, C)
    start_phase(s, MOVEMENT)
    assert a_hero(s, f) not in legal(s)  # flag off: inert


# ----- R22.2 Lenin -----

@pytest.mark.parametrize("n", [1, 3])
def test_r22_2_lenin_side_rolls_3n_minus_1_for_value_one_creatures(n):
    for with_lenin in (True, False):
        s = house_board()
        s.hex_owner[C], s.hex_owner[E1] = 0, 1
        for _ in range(n):
            put(s, "Farmers", 0, C)
        put(s, "Wolf Pack", 0, C)
        hero(s, "Lenin" if with_lenin else "Ahasuerus", 0, C)
        s.push(Battle(hex=C, order=[1, 0], defender=0))
        by_value = {}
        for value, k, _ in attackers(s, 0, MELEE_STEP):
            by_value[value] = by_value.get(value, 0) + k
        assert by_value == {1: 3 * n - 1 if with_lenin else n, 3: 1, 4: 1}


def test_r22_2_lenin_elsewhere_or_flag_off_changes_nothing():
    s = house_board()
    s.hex_owner[C], s.hex_owner[E1] = 0, 1
    put(s, "Farmers", 0, C)
    hero(s, "Lenin", 0, E2)  # not in this battle
    s.push(Battle(hex=C, order=[1, 0], defender=0))
    assert sum(k for v, k, _ in attackers(s, 0, MELEE_STEP) if v == 1) == 1
    s = six_without_house()
    s.hex_owner[C], s.hex_owner[E1] = 0, 1
    put(s, "Farmers", 0, C)
    hero(s, "Lenin", 0, C)
    s.push(Battle(hex=C, order=[1, 0], defender=0))
    assert sum(k for v, k, _ in attackers(s, 0, MELEE_STEP) if v == 1) == 1


# ----- R22.3 Gypsy King -----

def _gypsy_setup(dest_owner: int = 0) -> tuple[GameState, int]:
    s = house_board()
    s.hex_owner[[C, E2]] = 0
    s.hex_owner[E1] = dest_owner
    s.hex_fort[C] = 1
    village = put(s, "Village", 0, C)
    f = hero(s, "Gypsy King", 0, C)
    put(s, "Giant", 0, E2)  # another unmoved counter: the turn goes on
    start_phase(s, MOVEMENT)
    act(s, a_hex(s, C))
    if s.decision == D.MOVE_SELECT:
        act(s, a_hero(s, f))
        act(s, YES)
    act(s, a_dir(s, C, E1))
    if s.decision == D.MOVE_STACK:
        act(s, PASS)
    return s, village


def test_r22_3_village_and_tower_follow_the_gypsy_king_into_an_own_hex():
    s, village = _gypsy_setup()
    assert s.decision == D.GYPSY_TAKE and s.actor == 0
    lay = layout(s)
    assert legal(s) == {PASS, lay.thing + village, lay.hex + C}
    act(s, lay.thing + village)
    assert s.thing_hex[village] == E1 and s.hex_income[E1] == village and s.hex_income[C] == -1
    act(s, lay.hex + C)  # the Tower: the last option, then the turn goes on
    assert s.hex_fort[E1] == 1 and s.hex_fort[C] == 0
    assert s.decision == D.MOVE_START


def test_r22_3_nothing_follows_into_a_hex_the_owner_does_not_own():
    s, village = _gypsy_setup(dest_owner=-1)
    assert s.decision != D.GYPSY_TAKE and s.thing_hex[village] == C and s.hex_fort[C] == 1


# ----- R22.4 Tycho Brahe -----

def test_r22_4_tycho_shows_his_owner_the_face_down_hexes_next_to_him():
    s = house_board(kadab=True)
    s.hex_down[:] = True
    s.hex_down[[C, W1]] = False
    s.hex_owner[C] = 0
    s.hex_terrain[E1] = FOREST
    f = hero(s, "Tycho Brahe", 0, C)
    put(s, "Giant", 0, C)
    enc = ObservationEncoder(s.cfg, s.geo.n_hexes)
    terrain = enc.o["hexes.terrain_forest"]
    start_phase(s, MOVEMENT)
    assert enc.encode(s, 0)[terrain + E1] == 0
    act(s, a_hex(s, C))
    act(s, a_hero(s, f))  # picked for a move: he looks
    seen = set(np.flatnonzero(H.kadab.seen(s, 0)).tolist())
    assert seen == {h for h in s.geo.adjacent[C] if s.hex_down[h]} and E1 in seen
    assert enc.encode(s, 0)[terrain + E1] == 1  # only his owner knows
    assert enc.encode(s, 1)[terrain + E1] == 0 and not H.kadab.seen(s, 1).any()


# ----- R22.5 Portal -----

def _portal_board(target_owner: int = 1) -> tuple[GameState, list[int], int]:
    s = house_board()
    s.hex_owner[C] = 0
    s.hex_owner[E2] = 1
    s.hex_owner[W1] = target_owner
    army = [put(s, n, target_owner, W1) for n in ("Giant", "Ogre", "Farmers", "Wolf Pack")]
    screen(s, H.PORTAL, 0)
    for hx in range(s.geo.n_hexes):  # one unexplored hex left
        if s.hex_owner[hx] < 0 and hx != E1:
            s.hex_terrain[hx] = SEA
    return s, army, E1


def test_r22_5_portal_roll_the_owner_sends_at_least_that_many():
    s, army, dest = _portal_board()
    start_phase(s, EVENTS)
    lay = layout(s)
    s.rng.script[:] = [2]
    act(s, lay.thing + H.PORTAL)  # one stack, one unexplored hex: chosen at once
    ev = s.frame(Event)
    assert ev.hex == W1 and ev.dest == dest and ev.roll == 2
    assert s.decision == D.PORTAL_SEND and s.actor == 1
    assert YES not in legal(s) and legal(s) == {lay.thing + c for c in army}
    act(s, lay.thing + army[0])
    assert YES not in legal(s)
    act(s, lay.thing + army[1])
    assert YES in legal(s)  # two sent: more only if the owner wishes
    act(s, lay.thing + army[2])
    act(s, YES)
    assert [int(s.thing_hex[c]) for c in army] == [dest, dest, dest, W1]
    assert s.thing_place[H.PORTAL] == CUP and s.stats["events_played"] == 1
    assert s.phase == MOVEMENT or s.phase > EVENTS


def test_r22_5_portal_on_own_stack_no_roll_any_number():
    s, army, dest = _portal_board(target_owner=0)
    start_phase(s, EVENTS)
    lay = layout(s)
    act(s, lay.thing + H.PORTAL)
    assert s.decision == D.PORTAL_SEND and s.actor == 0 and YES in legal(s)
    act(s, lay.thing + army[3])
    act(s, YES)
    assert s.thing_hex[army[3]] == dest
    assert s.phase == MOVEMENT and s.decision == D.MOVE_START
    assert a_hex(s, dest) not in legal(s)  # it waits to explore (R22.5)


def test_r22_5_portal_flag_off_is_never_offered():
    s = six_without_house()
    s.hex_owner[C], s.hex_owner[W1] = 0, 1
    put(s, "Giant", 1, W1)
    screen(s, H.PORTAL, 0)  # even held (it never is: out of play at setup)
    screen(s, thing("Good Harvest"), 0)
    start_phase(s, EVENTS)
    assert not legal_mask(s)[layout(s).thing + H.PORTAL]


def test_portal_and_house_heroes_json_round_trip():
    s, _, _ = _portal_board()
    start_phase(s, EVENTS)
    step(s, layout(s).thing + H.PORTAL)
    again = GameState.from_json(s.to_json())
    assert again.to_json() == s.to_json() and np.array_equal(legal_mask(again), legal_mask(s))

"""Small rules tests written as text positions (tests/builders.py `position`), with scripted dice."""

from __future__ import annotations

import pytest

from ktenv.kings_and_things.constants import CUP
from ktenv.kings_and_things.state import COMBAT, INCOME, MOVEMENT

from ..builders import position, thing
from ..play import a_dir, act, legal_directions, move


def test_income_counts_hexes_fort_levels_counters_and_heroes_r6_2():
    """R6.2: 3 land hexes + a Keep (2) + a village (1) and a Gold Mine (3) + one hero = 10; a
    treasure behind the screen is no income."""
    s = position("""
        players 2; phase collect gold; gold 5 0
        h0 Plains p0 keep: Village | hero Swordmaster
        h1 Mountain p0: Gold Mine
        h2 p0: Goblins
        h5 p1
        screen p0: Diamond
    """)
    assert s.phase != INCOME  # income is automatic: no decision in the phase
    assert s.gold.tolist() == [5 + 10, 1]


@pytest.mark.parametrize("roll", [1, 6])
def test_exploration_roll_of_one_or_six_conquers_without_a_fight_r12_2_2(roll):
    """R12.2.2: on 1 or 6 the explored hex is undefended: the explorer conquers it; a bluff explores
    unrevealed (the Goblins need Mountains, which player 0 does not own)."""
    s = position(f"""
        phase combat
        h0 Forest: p0: Goblins
        h3 p0
        h7 p1
        dice {roll}
    """)
    goblins = thing("Goblins")
    assert s.phase != COMBAT and s.hex_owner[0] == 0
    assert not s.thing_face_up[goblins] and s.thing_hex[goblins] == 0
    assert s.stats["explorations"] == 1 and s.stats["battles"] == 0


def test_damage_roll_reduces_a_keep_and_destroys_a_city_r13_10_2():
    """R13.10.2: after a battle each fort and income counter in the hex is rolled for, whoever won:
    on 1 or 6 the Keep loses a level (a Tower now) and the city goes to the cup."""
    s = position("""
        phase combat
        h0 p1 keep: City | p0: Farmers
        h3 p0
        dice 6 1 1 6 1      # melee: the Farmers miss, Keep and City hit; damage rolls: Keep 6, City 1
    """)
    assert s.thing_place[thing("Farmers")] == CUP
    assert s.hex_owner[0] == 1 and s.hex_fort[0] == 1
    assert s.thing_place[thing("City")] == CUP and s.hex_income[0] == -1
    assert not s.rng.script


def test_jungle_and_swamp_cost_two_frozen_waste_one_r11_1_2():
    """R11.1.2: a walker with 4 MP crosses Frozen Waste (1) and Jungle (2) and has 1 MP left, so
    Swamp (2) is out of reach but Plains (1) is not."""
    s = position("""
        phase movement
        h0 p0: Camel Corps, Nomads          # the Nomads stay: the movement turn goes on
        h3 Frozen Waste p0; h11 Jungle p0
        h12 Swamp p0; h10 p0
    """)
    walker = thing("Camel Corps")
    move(s, 0, [("thing", walker)], [3, 11])
    assert s.thing_mp[walker] == 1
    assert 12 not in legal_directions(s) and 10 in legal_directions(s)
    act(s, a_dir(s, 11, 10))
    assert s.thing_mp[walker] == 0 and s.thing_hex[walker] == 10
    assert s.phase == MOVEMENT

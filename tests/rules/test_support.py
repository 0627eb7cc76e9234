"""R9 support and bluffs, terrain lords (A.10), RT.12, and plain heroes' combat flags (A.11)."""

from __future__ import annotations

import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.constants import BOARD, CUP, DESERT, FOREST, MOUNTAIN, NEUTRAL, PLAINS
from ktenv.kings_and_things.engine import battle_sides as B
from ktenv.kings_and_things.engine.support import remove_revealed_bluffs, reveal, supported
from ktenv.kings_and_things.procedures import Battle
from ktenv.kings_and_things.state import COMBAT

from ..builders import board, hero, own, put, start_phase, thing


def land():
    s = board(2, 9, gold=None)
    s.hex_terrain[:] = PLAINS
    return s


def test_rt12_support_by_terrain_anywhere_and_by_the_lord_in_the_hex():
    """RT.12 / R9.1: Slime Beast supported by the Swamp lord in its hex; Skeleton and Camel Corps
    by an owned Desert hex anywhere; Giant Roc a bluff (no Mountains, the lord stands elsewhere)."""
    s = land()
    s.hex_terrain[[0, 1, 5]] = (PLAINS, DESERT, MOUNTAIN)
    own(s, 0, 0)
    own(s, 0, 1)
    own(s, 1, 5)
    slime = put(s, thing("Slime Beast"), 0, 0)
    skeleton, camel = put(s, thing("Skeletons"), 0, 0), put(s, thing("Camel Corps"), 0, 0)
    roc = put(s, thing("Giant Roc"), 0, 0)
    hero(s, "Swamp King", 0, 0)
    assert supported(s, slime) and supported(s, skeleton) and supported(s, camel)
    assert not supported(s, roc)
    hero(s, "Mountain King", 1, 5)  # another player's lord supports nothing of player 0
    assert not supported(s, roc)


def test_r9_5_only_face_up_bluffs_are_removed():
    s = land()
    own(s, 0, 0)
    bluff = put(s, thing("Goblins"), 0, 0)
    remove_revealed_bluffs(s)
    assert s.thing_place[bluff] == BOARD  # face down: never removed as a bluff
    assert not reveal(s, bluff)
    assert s.thing_place[bluff] == CUP and s.thing_owner[bluff] == -1


def test_r9_3_support_changes_with_ownership():
    s = land()
    s.hex_terrain[3] = FOREST
    own(s, 0, 0)
    bears = put(s, thing("Bears"), 0, 0)
    assert not supported(s, bears)
    own(s, 0, 3)
    assert supported(s, bears)


def test_r9_2_neutral_defenders_need_no_support():
    s = land()
    c = put(s, thing("Crocodiles", 1), NEUTRAL, 2)  # a Swamp creature on Plains
    assert supported(s, c)


@pytest.mark.parametrize("name, step, dice", [
    ("Elf Lord", B.RANGED_STEP, 1), ("Arch Cleric", B.MAGIC_STEP, 1), ("Arch Mage", B.MAGIC_STEP, 1),
    ("Ghaog II", B.MELEE_STEP, 1), ("Lord of the Eagles", B.MELEE_STEP, 1), ("Sir Lance-a-lot", B.MELEE_STEP, 2),
    ("Desert Master", B.MELEE_STEP, 1), ("Dwarf King", B.MELEE_STEP, 1),
])
def test_a11_heroes_fight_in_the_step_their_flags_give(name, step, dice):
    """A.11 / R13.4.1: magic heroes in the magic step, ranged in the ranged step, Charge rolls two."""
    s = land()
    own(s, 1, 0)
    own(s, 0, 3)
    hero(s, name, 0, 0)
    put(s, thing("Farmers"), 1, 0)
    start_phase(s, COMBAT)
    if s.frame(Battle) is None:
        pytest.skip("the battle ended before a decision (nothing to inspect)")
    value = int(cat.HERO_COMBAT[cat.hero_id(name)])
    assert B.attackers(s, 0, step) == [(value, dice, -1)]

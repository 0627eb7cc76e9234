"""Exploration and battles (R12, R13) on arranged boards with scripted dice."""

from __future__ import annotations

import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.constants import BOARD, CUP, DESERT, NEUTRAL, PLAINS, SCREEN, SWAMP
from ktenv.kings_and_things.engine import IllegalActionError, describe_action, legal_actions, step
from ktenv.kings_and_things.engine.actions import PASS, YES
from ktenv.kings_and_things.engine.machine import layout
from ktenv.kings_and_things.procedures import Battle
from ktenv.kings_and_things.state import COMBAT, GAME_OVER

from ..builders import board, only_in_cup, own, pair, position, put, screen, start_phase, thing


def battlefield(n_players: int = 2, seed: int = 1):
    return board(n_players, seed, terrain=PLAINS, gold=None)  # an all-land board: every test picks its terrains


def choose(s, text: str) -> None:
    """Take the legal action whose description contains `text`."""
    for a in legal_actions(s):
        if text in describe_action(s, a):
            step(s, a)
            return
    raise AssertionError(f"no legal action matching {text!r}: {[describe_action(s, a) for a in legal_actions(s)]}")


def finish_combat(s, policy: str = "last") -> None:
    while s.phase == COMBAT:
        legal = legal_actions(s)
        step(s, legal[-1] if policy == "last" else legal[0])


# ----- R13.4 dice -----

def test_rt4_charge_rolls_two_dice_and_value_hits_on_lower_or_equal():
    """RT.4 / R13.4.2: Walrus (4) hits on 1-4; White Knight (3, Charge) rolls two dice in melee."""
    s = position("""
        phase combat
        h0 Plains p1: Mountain Men#1, Mountain Men#2, Nomads | p0: Walrus, White Knight
        h3 Frozen Waste p0
        h12 p0                    # support for the White Knight (Plains)
        h6 Mountain p1; h1 Desert p1
        dice 4 3 3 6 6 6          # melee: Walrus 4 (hit), Knight 3 and 3 (two hits); defenders all miss
    """)
    a, b = pair(s)
    walrus, knight, nomad = thing("Walrus"), thing("White Knight"), thing("Nomads")
    men = [thing("Mountain Men", k) for k in range(2)]
    assert s.decision == D.ASSIGN_HIT and s.actor == 1
    assert s.frame(Battle).hits[1] == 3
    for _ in range(3):
        step(s, legal_actions(s)[0])
    assert not any(s.thing_place[c] == BOARD for c in [*men, nomad])  # three hits, three dead
    assert s.thing_place[walrus] == BOARD and s.thing_place[knight] == BOARD
    finish_combat(s)
    assert s.hex_owner[a] == 0  # R13.9.3: the defender is gone, the attacker conquers


def test_rt5_damaged_city_fights_with_its_lowered_value():
    """RT.5 / R13.5.2: a city given a magic hit drops to 1 and then hits only on a 1."""
    s = position("""
        phase combat
        h0 Swamp p1: City, Spirit | p0: Genie, Sphinx   # Desert magic 4 and 4; Spirit: Swamp magic 2
        h3 Desert p0
        dice 3 5 4     # magic: A rolls 3 (hit) and 5 (miss); B's Spirit rolls 4 (miss). B puts the hit on its city.
    """)
    a, b = pair(s)
    genie, sphinx, city, spirit = thing("Genie"), thing("Sphinx"), thing("City"), thing("Spirit")
    assert s.decision == D.ASSIGN_HIT and s.actor == 1
    step(s, layout(s).thing + city)
    assert s.thing_damage[city] == 1
    # ranged: nobody. melee: city rolls 2 -> misses now (value 1). A has no melee attackers.
    s.rng.script = [2]
    assert s.decision == D.RETREAT and s.actor == 0
    step(s, PASS)
    if s.decision == D.RETREAT:
        step(s, PASS)
    assert s.phase != COMBAT or s.frame(Battle).round == 2
    assert s.thing_place[genie] == BOARD and s.thing_place[sphinx] == BOARD and s.thing_place[spirit] == BOARD


def test_magic_step_casualty_does_not_attack_later():
    """R13.4.4: a ranged creature killed in the magic step does not fire in the ranged step."""
    s = position("""
        phase combat
        h0 Forest p1: Elves | p0: Genie    # Genie: magic 4; Elves: ranged 2, alone: must take the hit
        h3 Desert p0
        dice 1                             # magic: Genie hits; elves would have fired in the ranged step
    """)
    a, b = pair(s)
    elves = thing("Elves")
    assert s.thing_place[elves] == CUP
    assert s.hex_owner[a] == 0


# ----- R9.5 bluffs at the start of a battle -----

def test_bluffs_revealed_at_battle_start_leave_without_a_fight():
    """R13.2 / R9.5: unsupported creatures are removed when revealed; they are no casualties."""
    s = position("""
        phase combat
        h0 Plains p1 tower: p0: Goblins   # a Mountain creature, player 0 owns no Mountains: a bluff
        h3 Frozen Waste p0
        dice 3                            # damage roll for the Tower: nothing
    """)
    a, b = pair(s)
    goblin = thing("Goblins")
    assert s.thing_place[goblin] == CUP
    assert s.hex_owner[a] == 1 and s.hex_fort[a] == 1
    assert s.stats["battles"] == 1


# ----- R13.8 retreat -----

def test_retreat_moves_everyone_to_an_adjacent_own_hex_and_face_down():
    """R13.8.3 / R13.8.6: the whole side moves together; retreated creatures are face down again."""
    s = position("""
        phase combat
        h0 p1 keep: p0: Farmers#1, Farmers#2
        h3 p0
        dice 6 6 6     # melee: everyone misses
    """)
    a, b = pair(s)
    ours = [thing("Farmers", k) for k in range(2)]
    assert s.decision == D.RETREAT and s.actor == 0
    lay = layout(s)
    assert set(legal_actions(s)) == {PASS, lay.hex + b}
    s.rng.script = [3]  # damage roll on the Keep
    step(s, lay.hex + b)
    assert all(s.thing_hex[c] == b and not s.thing_face_up[c] and s.thing_public[c] for c in ours)
    assert s.hex_owner[a] == 1 and s.phase != COMBAT or s.decision != D.RETREAT


def test_retreat_excess_over_ten_is_eliminated_by_choice():
    """R13.8.4: the player chooses which counters over 10 are eliminated at the destination."""
    s = battlefield()
    a, b = pair(s)
    own(s, 1, a, fort=1)
    own(s, 0, b)
    there = [put(s, thing("Farmers", k), 0, b) for k in range(4)]
    there += [put(s, c, 0, b) for c in cat.thing_ids("Tribesmen")]
    there += [put(s, thing(name), 0, b) for name in ("Centaur", "Dragonfly")]
    assert len(there) == 9
    movers = [put(s, thing("Lion Pride"), 0, a), put(s, thing("Wolf Pack"), 0, a)]
    s.rng.script = [6, 6, 6]
    start_phase(s, COMBAT)
    lay = layout(s)
    step(s, lay.hex + b)
    assert s.decision == D.RETREAT_EXCESS
    while s.decision == D.RETREAT_EXCESS:
        step(s, lay.thing + movers[0] if s.thing_place[movers[0]] == BOARD else legal_actions(s)[0])
    assert s.army_counts(0)[b] == 10


def test_no_retreat_without_an_own_adjacent_hex_free_of_enemies():
    """R13.8.3: no legal destination, no retreat decision (the side fights on)."""
    s = position("""
        phase combat
        h0 p1 keep: p0: Farmers
        h3 p0: p1: Centaur     # an enemy counter in the only own neighbour
        dice 6 6
    """)
    a, b = pair(s)
    # two battles pending for player 0: choose the one in a
    if s.decision == D.SEGMENT:
        step(s, layout(s).hex + a)
    assert s.decision != D.RETREAT


# ----- R12.2 exploration -----

def test_exploration_roll_one_or_six_conquers_without_revealing():
    """R12.2.2: on 1 or 6 the hex is the explorer's; bluffs may explore; placement follows."""
    s = battlefield()
    a, b = pair(s)
    s.hex_terrain[a] = SWAMP
    own(s, 0, b)
    goblin = put(s, thing("Goblins"), 0, a)  # a bluff: never revealed by the exploration roll
    screen(s, thing("Peat Bog"), 0)
    s.rng.script = [6]
    start_phase(s, COMBAT)
    assert s.hex_owner[a] == 0 and s.thing_place[goblin] == BOARD and not s.thing_face_up[goblin]
    assert s.decision == D.PLACE  # R13.11.2: Things from the screen onto the new hex
    choose(s, "Peat Bog")
    step(s, layout(s).hex + a)
    assert s.hex_income[a] == thing("Peat Bog")
    assert s.stats["explorations"] == 1 and s.stats["battles"] == 0


def test_exploration_draw_processing_and_doubled_bribes():
    """R12.2.4 / R12.2.5 / RT.7: events go back, wrong-terrain income goes back, the hex's income
    counter stays and doubles every bribe; bribing all takes the hex and the treasure."""
    s = battlefield()
    a, b = pair(s)
    s.hex_terrain[a] = DESERT
    own(s, 0, b)
    put(s, thing("Farmers"), 0, a)
    s.hex_terrain[b] = PLAINS  # supports the Farmers
    drawn = [thing("Diamond Field"), thing("Oil Field"), thing("Bears"), thing("Mother Lode"), thing("Diamond")]
    only_in_cup(s, drawn)
    s.gold[0] = 100
    s.rng.script = [5]
    start_phase(s, COMBAT)
    assert s.thing_place[thing("Mother Lode")] == CUP  # event back
    assert s.thing_place[thing("Oil Field")] == CUP  # Frozen Waste counter, Desert hex
    assert s.hex_income[a] == thing("Diamond Field")
    assert s.decision == D.BRIBE and s.actor == 0
    lay = layout(s)
    assert set(legal_actions(s)) == {PASS, lay.thing + thing("Bears")}
    step(s, lay.thing + thing("Bears"))  # value 2, doubled: 4 gold (RT.7)
    assert s.gold[0] == 96 and s.stats["bribes"] == 1
    assert s.hex_owner[a] == 0  # all bribed: conquered without a battle
    assert s.thing_place[thing("Diamond")] == SCREEN and s.thing_owner[thing("Diamond")] == 0
    assert s.thing_owner[thing("Diamond Field")] == 0


def test_failed_exploration_leaves_defenders_that_cannot_be_bribed():
    """R12.4: survivors stay face up; later explorers fight them with no roll and no bribe."""
    s = battlefield()
    a, b = pair(s)
    own(s, 0, b)
    farmer = put(s, thing("Farmers"), 0, a)
    only_in_cup(s, [thing("Cyclops"), thing("Troll")])
    # roll 2: two defenders; melee: Farmer 6 miss, Cyclops 1 hit, Troll 6 miss
    s.rng.script = [2, 6, 1, 6]
    start_phase(s, COMBAT)
    assert s.decision == D.BRIBE
    step(s, PASS)
    assert s.thing_place[farmer] == CUP
    assert s.phase != COMBAT  # the explorer is gone: the hex stays unexplored
    assert s.hex_owner[a] == -1
    assert all(s.thing_fought[c] and s.thing_owner[c] == NEUTRAL for c in (thing("Cyclops"), thing("Troll")))
    # a new explorer: no roll, no bribe, straight to battle with the neutral controller deciding
    put(s, thing("Farmers", 1), 0, a)
    s.rng.script = [6, 6, 6]
    start_phase(s, COMBAT)
    assert s.decision in (D.RETREAT, D.ASSIGN_HIT)


def test_neutral_controller_assigns_hits_for_the_defenders():
    """R12.2.3 / RD1.6: the player to the explorer's right decides for the neutral defenders."""
    s = battlefield(3)
    a, b = pair(s)
    own(s, 0, b)
    put(s, thing("Farmers"), 0, a)
    put(s, thing("Farmers", 1), 0, a)
    only_in_cup(s, [thing("Bears"), thing("Centaur")])
    s.rng.script = [2, 1, 1, 6, 6]
    start_phase(s, COMBAT)
    step(s, PASS)  # no bribe
    assert s.decision == D.ASSIGN_HIT and s.actor == s.right_of(0)


# ----- R12.3 contest, R13.12 multi-sided -----

def test_contest_then_the_survivor_explores():
    """R12.3.1: players meeting in an unexplored hex fight first; the survivor then explores."""
    s = battlefield()
    a, b = pair(s)
    c2 = int(s.geo.adjacent[a][1])
    own(s, 0, b)
    own(s, 1, c2)
    put(s, thing("Farmers"), 0, a)
    enemy = put(s, thing("Farmers", 1), 1, a)
    # player 0's only item is chosen for it; melee: 0 hits, 1 misses; then the exploration roll 6
    s.rng.script = [1, 6, 6]
    start_phase(s, COMBAT)
    assert s.thing_place[enemy] == CUP
    # the exploration roll (6 was scripted after the battle): conquered by player 0
    assert s.hex_owner[a] == 0


def test_three_sided_battle_asks_each_side_for_a_target():
    """R13.12.1: with three sides each names a target side every round (PLAYER is relative)."""
    s = position("""
        players 3; phase combat        # player 0's one item is chosen for it (a forced move)
        h0 p2 tower: p0: Farmers#1 | p1: Farmers#2
        h3 p0
        h4 p1
    """)
    assert s.decision == D.TARGET
    lay = layout(s)
    targets = legal_actions(s)
    assert len(targets) == 2 and all(lay.player <= t < lay.player + 4 for t in targets)


def test_fifty_rounds_without_a_hit_end_the_battle():
    """R13.9.6 / RD7.4: the attackers leave as if retreating (or are eliminated)."""
    s = position("""
        phase combat
        h0 p1: Farmers#2 | p0: Farmers#1
        h3 p0
    """ + "dice" + " 6" * 200)
    a, b = pair(s)
    rounds = 0
    while s.phase == COMBAT:
        assert s.decision == D.RETREAT
        if s.frame(Battle).forced:
            assert PASS not in legal_actions(s)
            step(s, legal_actions(s)[0])
            break
        step(s, PASS)
        rounds += 1
    assert rounds >= 49
    assert s.hex_owner[a] == 1


# ----- R13.10 after the battle -----

def test_damage_rolls_reduce_forts_and_destroy_income_counters_but_never_a_citadel():
    """R13.10.2: on 1 or 6 a fort loses a level and an income counter is destroyed; Citadels stand."""
    s = battlefield()
    a, b = pair(s)
    own(s, 1, a, fort=4)
    own(s, 0, b)
    s.hex_citadel_round[a] = 0
    village = put(s, thing("Village"), 1, a)
    put(s, thing("Farmers"), 0, a)
    # magic: Citadel 1 hits the Farmer. Battle over. Damage: Citadel 1 (ignored), village 6.
    s.rng.script = [1, 1, 6]
    start_phase(s, COMBAT)
    assert s.hex_fort[a] == 4
    assert s.thing_place[village] == CUP


def test_capturing_a_second_citadel_wins_at_once():
    """R16.3 via R13.11.1: a conquered Citadel is acquired; owning two wins immediately."""
    s = battlefield()
    a, b = pair(s)
    own(s, 1, a, fort=4)
    own(s, 0, b, fort=4)
    s.hex_citadel_round[a] = s.hex_citadel_round[b] = 0
    put(s, thing("Dragonfly"), 0, a)
    # magic: Citadel (defender) misses with 6; melee: Dragonfly 1 -> 4 hits needed... put a hero instead
    s.hex_fort_damage[a] = 0
    s.rng.script = [6, 1]
    start_phase(s, COMBAT)
    for _ in range(200):
        if s.phase != COMBAT:
            break
        s.rng.script = [6, 1, 1, 1, 1]
        step(s, legal_actions(s)[0] if s.decision != D.RETREAT else PASS)
    assert s.phase == GAME_OVER and s.winners == [0] and s.reason == "two_citadels"


def test_hero_lost_in_battle_goes_to_the_pool_and_owner_may_turn_it_over():
    """R7.11 / RP-2.6: a hero eliminated in battle returns to the pool; its owner may turn it."""
    s = position("""
        phase combat
        h0 p1 tower: hero p0: Arch Cleric
        h3 p0
        dice 6 1 3    # magic: Arch Cleric (5) misses; melee: Tower hits; damage roll 3
    """)
    a, b = pair(s)
    f = cat.hero_id("Arch Cleric")
    assert s.decision == D.HERO_TURN and s.actor == 0
    step(s, YES)
    assert s.hero_owner[f] == -1 and s.hero_up[f // 2] == (f % 2) ^ 1


def test_illegal_battle_action_changes_nothing():
    s = position("""
        phase combat
        h0 p1 keep: p0: Farmers
        h3 p0
        dice 6 6 6
    """)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        step(s, layout(s).hex + 5)
    assert s.to_json() == before

"""Magic items and heroes in battle (R13.2, R18.1, A.1-A.8, C.1-C.11) with scripted dice."""

from __future__ import annotations

import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.constants import BOARD, CUP, DESERT, FOREST, MOUNTAIN, PLAINS, SWAMP
from ktenv.kings_and_things.engine import legal_actions, step
from ktenv.kings_and_things.engine.actions import NUMBER, PASS
from ktenv.kings_and_things.engine.common import to_cup
from ktenv.kings_and_things.engine.machine import layout
from ktenv.kings_and_things.procedures import Battle
from ktenv.kings_and_things.state import COMBAT

from ..builders import board, hero, own, put, screen, start_phase, thing

M = cat.MAGIC_ID


def arena(n_players: int = 2):
    """Player 1 defends hex 0 (Plains); player 0 owns its neighbour (Plains) and attacks."""
    s = board(n_players, 5, gold=None)
    s.hex_terrain[:] = PLAINS
    a, b = 0, int(s.geo.adjacent[0][0])
    own(s, 1, a)
    own(s, 0, b)
    return s, a, b


def play_item(s, item):
    assert s.decision == D.ITEM_WINDOW, D.NAMES[s.decision]
    step(s, layout(s).thing + item)


def pass_windows(s):
    while s.decision == D.ITEM_WINDOW:
        step(s, PASS)


def test_firewall_rolled_value_is_a_magic_fort_rt19():
    """C.5 / RT.19: a roll of 4 gives a magic fort of value 4 for this battle; it attacks first."""
    s, a, b = arena()
    put(s, thing("Farmers"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, M["Firewall"], 1)
    s.rng.script = [4, 4]  # the Firewall's value 4; magic step: it hits on a 4
    start_phase(s, COMBAT)
    play_item(s, M["Firewall"])  # the defender's opening window (the attacker holds nothing)
    assert s.thing_place[thing("Farmers")] == CUP  # killed in the magic step: only the Firewall fires there
    assert s.thing_place[M["Firewall"]] == CUP  # returned at the end of the battle
    assert s.hex_owner[a] == 1


def test_firewall_of_value_three_misses_a_four():
    s, a, b = arena()
    put(s, thing("Farmers"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, M["Firewall"], 1)
    s.rng.script = [3, 4, 6, 6]  # value 3; magic die 4 misses; melee both miss
    start_phase(s, COMBAT)
    play_item(s, M["Firewall"])
    assert s.thing_place[thing("Farmers")] == BOARD


def test_golem_takes_no_ranged_hits_and_lowers_them_rt18():
    """C.7 / RT.18: three ranged hits against the Golem's side: only two must be taken."""
    s, a, b = arena()
    hunters = [put(s, c, 0, a) for c in cat.thing_ids("Tribesmen")[2:]]  # ranged 1
    hunters += [put(s, thing("Hunters"), 0, a), put(s, thing("Greathunter"), 0, a)]
    assert len(hunters) == 3
    defenders = [put(s, thing("Farmers", k), 1, a) for k in range(3)]
    screen(s, M["Golem"], 1)
    s.rng.script = [1, 1, 1]  # ranged: three hits
    start_phase(s, COMBAT)
    play_item(s, M["Golem"])
    assert s.decision == D.ASSIGN_HIT and s.frame(Battle).hits[1] == 2
    assert layout(s).thing + M["Golem"] not in legal_actions(s)
    del defenders


def test_talisman_saves_once_per_step_rt17():
    """C.9 / RT.17: a creature given two hits in one step is eliminated even if the first was saved."""
    s, a, b = arena()
    for k in range(2):
        put(s, thing("Farmers", k), 0, a)
    giant = put(s, thing("Buffalo Herd", 1), 1, a)  # value 4, the only defender
    screen(s, M["Talisman"], 1)
    s.rng.script = [1, 1, 6, 3]  # melee: both Farmers hit; Buffalo misses; save roll 3 dodges the first
    start_phase(s, COMBAT)
    play_item(s, M["Talisman"])
    assert s.thing_place[giant] == CUP  # the second hit of the step takes effect
    assert s.thing_place[M["Talisman"]] in (CUP, BOARD)


def test_magic_bow_makes_its_bearer_a_ranged_attacker():
    """C.10: the bearer fires in the ranged step with value +1 and one die."""
    s, a, b = arena()
    farmer = put(s, thing("Farmers"), 0, a)
    target = put(s, thing("Centaur"), 1, a)
    screen(s, M["Magic Bow"], 0)
    s.rng.script = [2, 6]  # ranged: farmer (1+1=2) hits on 2; melee: nobody left to fight
    start_phase(s, COMBAT)
    play_item(s, M["Magic Bow"])  # one creature: the bearer is forced
    assert s.thing_place[target] == CUP and s.thing_hex[farmer] == a and s.hex_owner[a] == 0


def test_magic_sword_charges_with_two_dice():
    """C.11: the bearer charges in melee with two dice at value +1."""
    s, a, b = arena()
    put(s, thing("Farmers"), 0, a)
    foes = [put(s, thing("Centaur"), 1, a), put(s, thing("Villains"), 1, a)]
    screen(s, M["Magic Sword"], 0)
    s.rng.script = [2, 2, 6, 6]  # melee: two dice at value 1+1 -> two hits; both defenders miss
    start_phase(s, COMBAT)
    play_item(s, M["Magic Sword"])
    assert s.decision == D.ASSIGN_HIT and s.frame(Battle).hits[1] == 2
    step(s, layout(s).thing + foes[0])  # the second hit is forced on the other
    assert all(s.thing_place[f] == CUP for f in foes) and s.hex_owner[a] == 0


def _knight_and_troll_attack(item: int):
    """A reported position: player 0 attacks player 1's Plains hex (Lion Pride, Centaur) with the
    Black Knight and a Troll (supported by an own Swamp and Mountain) and puts `item` on the Knight.
    Every die misses (6), so nobody falls; the state waits at the start of round 1."""
    s, a, b = arena()
    swamp, mountain = [int(x) for x in s.geo.adjacent[b] if x != a][:2]
    s.hex_terrain[swamp], s.hex_terrain[mountain] = SWAMP, MOUNTAIN
    own(s, 0, swamp)
    own(s, 0, mountain)
    knight, troll = put(s, thing("Black Knight"), 0, a), put(s, thing("Troll"), 0, a)
    put(s, thing("Lion Pride"), 1, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, item, 0)
    s.rng.script = [6] * 40
    start_phase(s, COMBAT)
    play_item(s, item)
    assert s.decision == D.ITEM_BEARER and PASS not in legal_actions(s)  # placing it: a bearer is a must
    step(s, layout(s).thing + knight)
    return s, knight, troll


def _to_round(s, n: int) -> None:
    """Keep the item where it is and stay in the battle until round `n` starts."""
    while not (s.decision == D.ITEM_BEARER and s.frame(Battle).round == n):
        assert s.decision in (D.ITEM_BEARER, D.RETREAT, D.ITEM_WINDOW), D.NAMES[s.decision]
        step(s, PASS)


@pytest.mark.parametrize("item", ["Magic Bow", "Magic Sword"])
def test_bow_and_sword_may_change_bearers_at_the_start_of_each_round_c10_c11_rp_6_7(item):
    """C.10 / C.11 / RP-6.7: at the start of each round the owner may move the item to another own
    creature in the battle (or keep it: PASS); after round 1 the attacker stays, and round 2 asks."""
    s, knight, troll = _knight_and_troll_attack(M[item])
    _to_round(s, 2)
    lay = layout(s)
    assert s.actor == 0 and s.frame(Battle).bearer_item == M[item]
    assert set(legal_actions(s)) == {PASS, lay.thing + troll}  # not the bearer it already has
    step(s, lay.thing + troll)
    assert s.thing_bearer[M[item]] == troll
    assert s.decision != D.ITEM_BEARER  # once per item and round
    _to_round(s, 3)
    assert set(legal_actions(s)) == {PASS, lay.thing + knight}
    step(s, PASS)
    assert s.thing_bearer[M[item]] == troll


def test_a_dead_bearers_item_must_be_put_on_a_new_creature_c10():
    """C.10: the bearer is eliminated in round 1: at the start of round 2 the item must go to another
    creature (no PASS)."""
    s, knight, troll = _knight_and_troll_attack(M["Magic Bow"])
    while s.decision != D.RETREAT:
        step(s, PASS)
    to_cup(s, knight)  # the Knight fell in round 1 ...
    farmers = put(s, thing("Farmers"), 0, s.frame(Battle).hex, up=True)  # ... and two creatures are left
    step(s, PASS)  # the attacker stays
    assert s.decision == D.ITEM_BEARER and s.frame(Battle).round == 2
    assert set(legal_actions(s)) == {layout(s).thing + troll, layout(s).thing + farmers}


def test_dust_of_defense_sends_the_attacker_away_and_the_fan_stops_it():
    """C.1 / C.3: the defender's Dust forces the attacker to retreat; a Fan cancels the Dust."""
    s, a, b = arena()
    farmer = put(s, thing("Farmers"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, M["Dust of Defense"], 1)
    start_phase(s, COMBAT)
    play_item(s, M["Dust of Defense"])  # one attacker, one retreat hex: the retreat is forced
    assert s.thing_hex[farmer] == b and s.hex_owner[a] == 1

    s, a, b = arena()
    farmer = put(s, thing("Farmers"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, M["Dust of Defense"], 1)
    screen(s, M["Fan"], 0)
    start_phase(s, COMBAT)
    play_item(s, M["Dust of Defense"])
    assert s.decision == D.REACT and s.actor == 0
    step(s, layout(s).thing + M["Fan"])
    assert s.thing_hex[farmer] == a and s.thing_place[M["Dust of Defense"]] == CUP


def test_dispel_magic_cancels_an_item_and_sends_magic_to_melee():
    """C.8: the item has no effect; that side's magic creatures attack in melee from then on."""
    s, a, b = arena()
    s.hex_terrain[b] = DESERT
    put(s, thing("Genie"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, M["Golem"], 0)
    screen(s, M["Dispel Magic"], 1)
    start_phase(s, COMBAT)
    play_item(s, M["Golem"])
    assert s.decision == D.REACT and s.actor == 1
    step(s, layout(s).thing + M["Dispel Magic"])
    assert s.thing_place[M["Golem"]] == CUP and s.frame(Battle).dispelled >> 0 & 1


def test_dispel_before_the_magic_step():
    """C.8: offered to enemy holders when magic creatures are about to attack."""
    s, a, b = arena()
    s.hex_terrain[b] = DESERT
    genie = put(s, thing("Genie"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, M["Dispel Magic"], 1)
    start_phase(s, COMBAT)
    assert s.decision == D.REACT and s.actor == 1
    s.rng.script = [6, 6]  # melee: the Genie (now melee) and the Centaur both miss
    step(s, layout(s).thing + M["Dispel Magic"])
    assert s.thing_place[genie] == BOARD and s.frame(Battle).dispelled & 1


def test_baron_hits_enemy_forts_and_towns_but_not_a_citadel():
    """A.1: before the first round every enemy fort, city and village takes one hit."""
    s, a, b = arena()
    s.hex_fort[a] = 2
    city = put(s, thing("City"), 1, a)
    hero(s, "Baron Munchausen", 0, a)
    s.rng.script = [6, 6, 6, 6]
    start_phase(s, COMBAT)
    assert s.hex_fort_damage[a] == 1 and s.thing_damage[city] == 1

    s, a, b = arena()
    s.hex_fort[a] = 4
    s.hex_citadel_round[a] = 0
    hero(s, "Grand Duke", 0, a)
    s.rng.script = [6, 6, 6]
    start_phase(s, COMBAT)
    assert s.hex_fort_damage[a] == 0


def test_warlord_turns_an_enemy_creature():
    """A.4: a roll at least the creature's value makes it join the Warlord's side."""
    s, a, b = arena()
    hero(s, "Warlord", 0, a)
    centaur = put(s, thing("Centaur"), 1, a)  # value 2
    start_phase(s, COMBAT)
    assert s.decision == D.WARLORD and s.actor == 0
    s.rng.script = [2, 3]  # the Warlord's roll 2 >= 2; then the damage roll
    step(s, layout(s).thing + centaur)
    assert s.thing_owner[centaur] == 0
    assert s.hex_owner[a] == 0  # the defender has nothing left


def test_marksman_value_two_hit_is_placed_by_his_owner():
    """A.6: in value-2 mode the Marksman's owner chooses the counter hit."""
    s, a, b = arena()
    hero(s, "Marksman", 0, a)
    weak, strong = put(s, thing("Farmers"), 1, a), put(s, thing("Buffalo Herd", 1), 1, a)
    start_phase(s, COMBAT)
    assert s.decision == D.MARKSMAN
    s.rng.script = [2]
    step(s, NUMBER + 2)
    assert s.decision == D.MARKSMAN_HIT and s.actor == 0
    step(s, layout(s).thing + strong)
    assert s.thing_place[strong] == CUP and s.thing_place[weak] == BOARD


def test_swordmaster_parries_once_a_round():
    """A.8: 2-5 parries; a second hit in the same round eliminates him without a roll."""
    s, a, b = arena()
    f = hero(s, "Swordmaster", 1, a)
    for k in range(2):
        put(s, thing("Farmers", k), 0, a)
    s.rng.script = [1, 6, 6, 3]  # melee: one Farmer hits, one misses, he misses; parry roll 3
    start_phase(s, COMBAT)
    assert s.hero_owner[f] == 1 and s.decision == D.RETREAT  # parried; the round ends

    s, a, b = arena()
    f = hero(s, "Swordmaster", 1, a)
    for k in range(2):
        put(s, thing("Farmers", k), 0, a)
    s.rng.script = [1, 1, 6, 3, 3, 3]  # both Farmers hit; parry roll 3 for the first hit only
    start_phase(s, COMBAT)
    assert s.hero_owner[f] == -1 or s.decision == D.HERO_TURN


def test_lucky_charm_changes_a_die():
    """C.6 / R18.5: after a roll its holder may move one die by one; then it goes to the cup."""
    s, a, b = arena()
    s.hex_terrain[a] = FOREST
    del b
    explorer_hex = int(s.geo.adjacent[0][2])
    s.hex_owner[a] = -1
    s.hex_terrain[explorer_hex] = MOUNTAIN
    own(s, 0, explorer_hex)
    put(s, thing("Goblins"), 0, a)
    screen(s, M["Lucky Charm"], 0)
    s.rng.script = [5]  # exploration roll 5 ...
    start_phase(s, COMBAT)
    assert s.decision == D.LUCKY_DIE and s.actor == 0
    step(s, NUMBER + 0)
    step(s, NUMBER + 1)  # ... +1 makes it 6: undefended
    assert s.hex_owner[a] == 0 and s.thing_place[M["Lucky Charm"]] == CUP

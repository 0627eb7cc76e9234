"""R10 / Appendix B: the Events phase, every event, its reactions, on arranged boards with scripted
dice; and random games in which every player is handed events so each is played many times."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from ktenv.errors import ConfigError
from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import (
    BOARD,
    CREATURE,
    CUP,
    DESERT,
    FOREST,
    MOUNTAIN,
    NEUTRAL,
    NOBODY,
    OUT,
    PLAINS,
    SCREEN,
    SEA,
    SWAMP,
)
from ktenv.kings_and_things.engine import legal_actions, new_game, step
from ktenv.kings_and_things.engine.actions import NUMBER, PASS, YES
from ktenv.kings_and_things.engine.construction import buildable
from ktenv.kings_and_things.engine.machine import layout, legal_mask
from ktenv.kings_and_things.procedures import Event, Placement
from ktenv.kings_and_things.state import EVENTS, HEROES, GameState

from ..builders import board, hero, own, put, screen, start_phase, thing

EV = cat.EVENT_ID
DISPEL, FAN, ELIXIR = (cat.MAGIC_ID[n] for n in ("Dispel Magic", "Fan", "Elixir"))
LUCKY = cat.MAGIC_ID["Lucky Charm"]


# ----- helpers -----

def events_board(n_players: int = 2, seed: int = 3, **options):
    s = board(n_players, seed, **options, gold=None)
    s.hex_terrain[:] = PLAINS
    s.hex_fort_round[:] = -1
    s.cloud_hex = -1
    s.hex_stack = [PLAINS] * 4
    s.gold[:] = 0
    return s


def begin(s, event: str, player: int = 0):
    """Hand `event` to `player` and start the Events phase with that player first. The next player
    holds an always playable event, so the phase stops there once `event` is resolved."""
    screen(s, EV[event], player)
    screen(s, EV["Dark Plague" if event == "Terrain Disaster" else "Terrain Disaster"], player + 1)
    start_phase(s, EVENTS, first=player)
    return s


def next_player_up(s, player: int = 1) -> bool:
    """The event is over and the next player is choosing theirs (R10.1)."""
    return s.decision == D.EVENT_PLAY and s.actor == player


def do(s, action: int) -> None:
    """One action, then the invariants; lost heroes are not turned over (R7.11)."""
    step(s, action)
    s.check_invariants()
    while s.decision == D.HERO_TURN:
        step(s, PASS)


def lay(s):
    return layout(s)


def play(s, event: str) -> None:
    assert s.decision == D.EVENT_PLAY
    do(s, lay(s).thing + EV[event])


def hexes_offered(s) -> set[int]:
    ly = lay(s)
    return {int(a) - ly.hex for a in legal_actions(s) if ly.hex <= a < ly.thing}


def things_offered(s) -> set[int]:
    ly = lay(s)
    return {int(a) - ly.thing for a in legal_actions(s) if ly.thing <= a < ly.hero}


def heroes_offered(s) -> set[int]:
    ly = lay(s)
    return {int(a) - ly.hero for a in legal_actions(s) if ly.hero <= a < ly.cash}


def creature(s, name: str, owner: int, hx: int, k: int = 0) -> int:
    return put(s, thing(name, k), owner, hx)


def creatures(s, owner: int, hx: int, n: int, name: str = "Farmers") -> list[int]:
    """n copies of Plains creatures (of several designs) for `owner` in `hx`."""
    pool = [c for c in cat.CREATURE_IDS if cat.THING_TERRAIN[c] == PLAINS and s.thing_place[c] == CUP]
    return [put(s, int(c), owner, hx) for c in pool[:n]]


def on_board(s, ids) -> list[bool]:
    return [bool(s.thing_place[c] == BOARD) for c in ids]


# ----- R10 the phase -----

def test_r10_one_event_per_player_in_turn_order_and_pass():
    """R10.1: each player in turn order may play one event (optional); R10.2: then to the cup."""
    s = events_board()
    own(s, 0, 1)
    own(s, 1, 7)
    screen(s, EV["Good Harvest"], 0)
    screen(s, EV["Mother Lode"], 0)
    screen(s, EV["Vandals"], 1)
    own(s, 0, 2, fort=1)
    start_phase(s, EVENTS, first=0)
    assert s.decision == D.EVENT_PLAY and s.actor == 0
    assert things_offered(s) == {EV["Good Harvest"], EV["Mother Lode"]}  # Mother Lode too, with no effect
    assert legal_mask(s)[PASS]
    play(s, "Good Harvest")
    assert s.gold[0] == 2 + 1 and s.stats["events_played"] == 1
    assert s.thing_place[EV["Good Harvest"]] == CUP
    assert s.decision == D.EVENT_PLAY and s.actor == 1  # player 0 may not play a second one
    do(s, PASS)
    assert s.phase != EVENTS and s.thing_place[EV["Vandals"]] == SCREEN


def test_r17_2_played_event_leaves_the_game_once_the_cup_ran_dry():
    s = events_board()
    own(s, 0, 1)
    s.cup_ran_dry = 1
    begin(s, "Good Harvest")
    play(s, "Good Harvest")
    assert s.thing_place[EV["Good Harvest"]] == OUT


# ----- B.1 Willing Workers -----

def test_b1_willing_workers_tower_or_one_level_never_a_citadel():
    s = events_board()
    own(s, 0, 1)
    own(s, 0, 2, fort=2)
    own(s, 0, 3, fort=3)  # a Castle never becomes a Citadel by the event
    own(s, 1, 7, fort=1)  # not the player's
    begin(s, "Willing Workers")
    play(s, "Willing Workers")
    assert s.decision == D.EVENT_HEX and hexes_offered(s) == {1, 2}
    do(s, lay(s).hex + 1)
    assert s.hex_fort[1] == 1 and s.gold[0] == 0  # a Tower; no gold is paid
    assert s.hex_fort_round[1] == s.round  # R14.2: counts as the hex's level this round
    s.gold[0] = 20
    assert not buildable(s, 0)[1] and buildable(s, 0)[2]


def test_b1_option_willing_workers_does_not_count_toward_the_limit():
    s = events_board(willing_workers_counts_toward_limit=False)
    own(s, 0, 1)
    begin(s, "Willing Workers")
    play(s, "Willing Workers")  # one hex: the choice is taken at once
    assert s.hex_fort[1] == 1 and s.hex_fort_round[1] == -1
    s.gold[0] = 20
    assert buildable(s, 0)[1]


def test_rd10_6_willing_workers_needs_a_legal_option():
    s = events_board()
    own(s, 0, 1, fort=3)
    own(s, 0, 2, fort=4)
    begin(s, "Willing Workers")
    assert next_player_up(s) and s.thing_place[EV["Willing Workers"]] == SCREEN
    s = events_board()
    own(s, 0, 1, fort=1)
    s.hex_fort_round[1] = s.round  # already changed this round (R14.2)
    begin(s, "Willing Workers")
    assert next_player_up(s)


# ----- B.2 Terrain Disaster -----

def _disaster_board():
    s = events_board()
    for h in (1, 2, 9):
        s.hex_terrain[h] = FOREST
    own(s, 0, 5)
    own(s, 1, 1, fort=1)
    put(s, thing("Village"), 1, 1)
    return s


def test_b2_disaster_tries_hexes_of_the_same_terrain_until_it_strikes():
    s = _disaster_board()
    army = creatures(s, 1, 1, 3)
    f = hero(s, "Elf Lord", 1, 1)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    assert s.decision == D.EVENT_HEX and len(hexes_offered(s)) == s.geo.n_hexes  # any land hex
    s.rng.script = [1, 1, 3, 3, 2]  # 2: miss; 6: strikes; the owner rolls 2
    do(s, lay(s).hex + 2)
    assert hexes_offered(s) == {1, 9}  # the untried Forest hexes only
    do(s, lay(s).hex + 1)
    assert s.decision == D.LOSS and s.actor == 1
    # B.2 default: creatures and heroes first; the village and the Tower are not offered yet
    assert things_offered(s) == set(army) and heroes_offered(s) == {f} and not hexes_offered(s)
    do(s, lay(s).thing + army[0])
    do(s, lay(s).hero + f)
    assert on_board(s, army) == [False, True, True] and s.hero_owner[f] == NOBODY
    assert s.hex_fort[1] == 1 and s.hex_income[1] >= 0
    assert s.thing_place[EV["Terrain Disaster"]] == CUP


def test_b2_losses_beyond_the_army_hit_town_and_fort_and_the_rest_is_ignored():
    s = _disaster_board()
    army = creatures(s, 1, 1, 1)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [4, 3, 5]  # strikes at once; 5 losses
    do(s, lay(s).hex + 1)
    assert not any(on_board(s, army)) and s.hex_fort[1] == 0 and s.hex_income[1] < 0
    assert s.hex_owner[1] == 1  # the hex stays owned


def test_b2_option_free_choice_mixes_creatures_and_reductions():
    s = events_board(event_losses="free_choice")
    s.hex_terrain[1] = FOREST
    own(s, 0, 5)
    own(s, 1, 1, fort=2)
    village = put(s, thing("Village"), 1, 1)
    army = creatures(s, 1, 1, 3)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [4, 3, 2]
    do(s, lay(s).hex + 1)
    assert things_offered(s) == {*army, village} and hexes_offered(s) == {1}
    do(s, lay(s).hex + 1)
    do(s, lay(s).thing + village)
    assert s.hex_fort[1] == 1 and all(on_board(s, army))


def test_rd10_7_disaster_on_an_unowned_hex_does_nothing():
    s = _disaster_board()
    neutrals = [put(s, thing("Bears"), NEUTRAL, 2)]
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [3, 4]
    do(s, lay(s).hex + 2)
    assert all(on_board(s, neutrals)) and s.rng.script == []
    assert s.thing_place[EV["Terrain Disaster"]] == CUP


def test_b2_no_strike_on_any_hex_of_the_terrain_has_no_effect():
    s = _disaster_board()
    army = creatures(s, 1, 1, 2)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [1, 1, 6, 6, 1, 2]  # 2, 12, 3: the three Forest hexes all miss
    do(s, lay(s).hex + 1)
    do(s, lay(s).hex + 2)  # hex 9 is the last one: tried at once
    assert all(on_board(s, army)) and next_player_up(s)


def test_r14_4_disaster_never_reduces_a_citadel_but_variant_b_does():
    s = events_board()
    own(s, 0, 5)
    own(s, 1, 1, fort=4)
    army = creatures(s, 1, 1, 1)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [4, 3, 5]
    do(s, lay(s).hex + 1)
    assert not any(on_board(s, army)) and s.hex_fort[1] == 4
    s = events_board(victory="unique_b")  # R19.2.2
    own(s, 0, 5)
    own(s, 1, 1, fort=4)
    creatures(s, 1, 1, 1)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [4, 3, 3]
    do(s, lay(s).hex + 1)
    assert s.hex_fort[1] == 2


def test_r18_5_lucky_charm_changes_the_disaster_roll():
    s = _disaster_board()
    army = creatures(s, 1, 1, 1)
    screen(s, LUCKY, 1)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [2, 3, 4]  # 5 misses ... unless the charm makes it 6
    do(s, lay(s).hex + 1)
    assert s.decision == D.LUCKY_DIE and s.actor == 1
    do(s, PASS)  # keeps 5: no strike
    assert all(on_board(s, army))
    s = _disaster_board()
    army = creatures(s, 1, 1, 1)
    screen(s, LUCKY, 0)
    begin(s, "Terrain Disaster")
    play(s, "Terrain Disaster")
    s.rng.script = [2, 3, 4]
    do(s, lay(s).hex + 1)
    do(s, NUMBER + 0)
    do(s, NUMBER + 1)  # +1: 6 strikes, then the owner's roll (4) ... charm already used
    assert not any(on_board(s, army))


# ----- B.3 Big Juju -----

def _juju_board(**options):
    """Player 0: an Elf Mage (magic, value 2, Forest) in own hex 7, supported by Forest hex 1."""
    s = events_board(**options)
    s.hex_terrain[1] = FOREST
    own(s, 0, 7)
    own(s, 0, 1)
    mage = creature(s, "Elf Mage", 0, 7)
    own(s, 1, 11)
    s.hex_stack = [PLAINS, SWAMP]
    return s, mage


def within(s, hx: int, reach: int) -> set[int]:
    return {h for h in range(s.geo.n_hexes) if s.geo.distance[hx, h] <= reach}


def test_b3_rt11_range_is_the_effective_combat_value_and_citadels_are_immune():
    s, mage = _juju_board()
    own(s, 1, 8, fort=4)  # a Citadel next door
    begin(s, "Big Juju")
    play(s, "Big Juju")
    assert s.decision == D.EVENT_HEX  # the only caster is chosen at once
    assert hexes_offered(s) == within(s, 7, 2) - {8}
    assert s.thing_public[mage] and not s.thing_face_up[mage]  # shown, then face down (RI.4)


def test_b10_black_cloud_lowers_the_caster_range():
    s, mage = _juju_board()
    s.cloud_hex = 7
    begin(s, "Big Juju")
    play(s, "Big Juju")
    assert hexes_offered(s) == within(s, 7, 1)


def test_b3_magic_hero_qualifies_and_the_player_chooses_the_caster():
    s, mage = _juju_board()
    f = hero(s, "Arch Cleric", 0, 1)
    begin(s, "Big Juju")
    play(s, "Big Juju")
    assert s.decision == D.EVENT_CASTER
    assert things_offered(s) == {mage} and heroes_offered(s) == {f}
    do(s, lay(s).hero + f)
    assert len(hexes_offered(s)) == s.geo.n_hexes  # value 5 reaches the whole small board


def test_rd10_8_a_bluff_caster_is_removed_and_the_event_fails():
    s, mage = _juju_board()
    own(s, 1, 1)  # the Forest hex is lost: the Elf Mage is a bluff
    s.hex_stack = [SWAMP]
    begin(s, "Big Juju")
    play(s, "Big Juju")
    assert s.thing_place[mage] == CUP and (s.hex_terrain[:SEA] != SWAMP).all()
    assert s.thing_place[EV["Big Juju"]] == CUP and next_player_up(s)


def test_b3_own_hex_choose_terrain_from_the_stack_special_income_goes():
    s, mage = _juju_board()
    own(s, 0, 0)
    farm = put(s, thing("Farmlands"), 0, 0)
    s.hex_stack = [PLAINS, SWAMP, DESERT, SEA]
    screen(s, thing("Peat Bog"), 0)
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 0)
    assert s.decision == D.EVENT_TERRAIN
    assert {int(a) - NUMBER for a in legal_actions(s) if NUMBER <= a < lay(s).hex} == {SWAMP, DESERT, SEA}
    do(s, NUMBER + SWAMP)
    assert s.hex_terrain[0] == SWAMP and s.thing_place[farm] == CUP
    assert sorted(s.hex_stack) == sorted([PLAINS, DESERT, SEA, PLAINS])
    assert s.decision == D.PLACE and s.actor == 0  # the owner may place on the hex (R8.3)
    do(s, lay(s).thing + thing("Peat Bog"))
    assert s.hex_income[0] == thing("Peat Bog")


def test_b3_other_hex_draws_the_first_tile_of_another_terrain():
    s, mage = _juju_board()
    own(s, 1, 2)
    giant = screen(s, thing("Giant"), 1)
    s.hex_stack = [PLAINS, PLAINS, MOUNTAIN, PLAINS]
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 2)
    assert s.hex_terrain[2] == MOUNTAIN and sorted(s.hex_stack) == [PLAINS] * 4
    assert s.decision == D.PLACE and s.actor == 1 and s.frame(Placement).hex == 2  # the hex owner
    do(s, lay(s).thing + giant)
    assert s.thing_hex[giant] == 2
    s, mage = _juju_board()
    s.hex_terrain[2] = SWAMP
    s.hex_stack = [PLAINS]
    begin(s, "Big Juju")  # no tile of another terrain for a Plains hex
    play(s, "Big Juju")
    assert hexes_offered(s) == {1, 2}  # only the Forest and Swamp hexes could change


def test_b3_sea_result_army_escapes_the_rest_is_lost():
    s, mage = _juju_board()
    # player 1's hex 2 (adjacent to 0, 1, 3, 8, 9, 10): Keep, village, 3 creatures and a hero
    own(s, 1, 2, fort=2)
    village = put(s, thing("Village"), 1, 2)
    army = creatures(s, 1, 2, 3)
    f = hero(s, "Elf Lord", 1, 2)
    own(s, 1, 9)
    own(s, 1, 10)
    neutral = put(s, thing("Bears"), NEUTRAL, 3)
    own(s, 0, 8)  # the player's hex next door is no refuge for player 1
    s.cloud_hex = 2
    s.hex_stack = [SEA]
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 2)
    assert s.decision == D.ESCAPE_HEX and s.actor == 1
    assert hexes_offered(s) == {9, 10} and legal_mask(s)[PASS]
    do(s, lay(s).hex + 9)
    assert all(s.thing_hex[c] == 9 for c in army) and s.hero_hex[f] == 9
    assert s.hex_terrain[2] == SEA and s.hex_owner[2] == NOBODY and s.hex_fort[2] == 0
    assert s.thing_place[village] == CUP and s.cloud_hex == -1
    assert s.thing_place[neutral] == BOARD  # another hex
    assert s.hex_stack == [PLAINS]


def test_b3_sea_result_stack_limit_and_no_escape():
    s, mage = _juju_board()
    own(s, 1, 2)
    army = creatures(s, 1, 2, 3)
    own(s, 1, 9)
    creatures(s, 1, 9, 9)
    s.hex_stack = [SEA]
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 2)
    do(s, lay(s).hex + 9)  # room for one: the owner eliminates two
    assert s.decision == D.LOSS and s.actor == 1 and things_offered(s) == set(army)
    do(s, lay(s).thing + army[0])
    do(s, lay(s).thing + army[1])
    assert s.thing_hex[army[2]] == 9 and s.army_counts(1)[9] == 10
    s, mage = _juju_board()
    neutral = put(s, thing("Bears"), NEUTRAL, 9)
    s.hex_stack = [SEA]
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 9)  # neutral defenders go to the cup with the sunk hex
    assert s.thing_place[neutral] == CUP and s.hex_terrain[9] == SEA
    s, mage = _juju_board()
    own(s, 1, 17)
    lost = creatures(s, 1, 17, 2)
    f = hero(s, "Elf Lord", 1, 17)
    s.hex_stack = [SEA]
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 17)  # no own hex next door: eliminated
    assert not any(on_board(s, lost)) and s.hero_owner[f] == NOBODY and s.hex_terrain[17] == SEA


def test_b3_sea_hex_becomes_unexplored_land():
    s, mage = _juju_board()
    s.hex_terrain[6] = SEA
    s.hex_stack = [SEA, SWAMP]
    begin(s, "Big Juju")
    play(s, "Big Juju")
    assert 6 in hexes_offered(s)
    do(s, lay(s).hex + 6)
    assert s.hex_terrain[6] == SWAMP and s.hex_owner[6] == NOBODY and s.hex_stack == [SEA, SEA]


@pytest.mark.parametrize("dispel", [True, False])
def test_c8_dispel_magic_cancels_big_juju(dispel):
    s, mage = _juju_board()
    own(s, 1, 2)
    s.hex_stack = [SWAMP]
    screen(s, DISPEL, 1)
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 2)
    assert s.decision == D.REACT and s.actor == 1
    do(s, lay(s).thing + DISPEL if dispel else PASS)
    assert s.hex_terrain[2] == (PLAINS if dispel else SWAMP)
    assert (s.thing_place[DISPEL] == CUP) == dispel
    assert s.thing_place[EV["Big Juju"]] == CUP


def test_r18_2_the_event_player_never_dispels_their_own_event():
    s, mage = _juju_board()
    own(s, 1, 2)
    s.hex_stack = [SWAMP]
    screen(s, DISPEL, 0)
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 2)
    assert s.hex_terrain[2] == SWAMP and s.thing_place[DISPEL] == SCREEN


def test_json_round_trip_in_the_middle_of_an_event():
    s, mage = _juju_board()
    own(s, 1, 2)
    begin(s, "Big Juju")
    play(s, "Big Juju")
    assert s.decision == D.EVENT_HEX
    other = GameState.from_json(s.to_json())
    assert (legal_mask(other) == legal_mask(s)).all()
    do(other, lay(s).hex + 2)
    do(s, lay(s).hex + 2)
    assert other.to_json() == s.to_json()


def test_rd8_6_option_dispel_does_not_answer_events():
    s, mage = _juju_board(dispel_vs_events=False)
    own(s, 1, 2)
    s.hex_stack = [SWAMP]
    screen(s, DISPEL, 1)
    begin(s, "Big Juju")
    play(s, "Big Juju")
    do(s, lay(s).hex + 2)
    assert s.hex_terrain[2] == SWAMP and s.thing_place[DISPEL] == SCREEN


def test_rd1_8_big_juju_needs_a_magic_caster():
    s = events_board()
    own(s, 0, 0)
    creatures(s, 0, 0, 2)
    begin(s, "Big Juju")
    assert next_player_up(s)


# ----- B.4 Plague -----

def _plague_board():
    s = events_board()
    own(s, 0, 1, fort=3)
    put(s, thing("City"), 0, 1)
    a = creatures(s, 0, 1, 5)
    f = hero(s, "Elf Lord", 0, 1)
    own(s, 0, 2)
    safe = creatures(s, 0, 2, 2)  # no fort, city or village: not affected
    own(s, 1, 9, fort=2)
    put(s, thing("Village"), 1, 9)
    b = creatures(s, 1, 9, 2)
    own(s, 1, 10, fort=1)  # no creature: not affected
    return s, a, f, safe, b


def test_b4_rt9_plague_strikes_every_player_including_the_player():
    s, a, f, safe, b = _plague_board()
    begin(s, "Dark Plague")
    play(s, "Dark Plague")
    assert s.decision == D.LOSS and s.actor == 0  # the player first (RD10.9)
    assert things_offered(s) == {*a, int(s.hex_income[1])} and hexes_offered(s) == {1}
    assert not heroes_offered(s)  # heroes are not affected
    do(s, lay(s).hex + 1)  # Castle -> Keep
    do(s, lay(s).hex + 1)  # Keep -> Tower
    do(s, lay(s).thing + int(s.hex_income[1]))  # the city (counts 1)
    do(s, lay(s).thing + a[0])
    do(s, lay(s).thing + a[1])  # 5 losses
    assert s.hex_fort[1] == 1 and sum(on_board(s, a)) == 3 and s.hero_owner[f] == 0
    assert all(on_board(s, safe))
    # player 1: Keep (2) + village (1) -> 3 losses; removing the two creatures ends it (RT.9)
    assert s.decision == D.LOSS and s.actor == 1
    do(s, lay(s).thing + b[0])
    do(s, lay(s).thing + b[1])
    assert s.hex_fort[9] == 2 and s.hex_income[9] >= 0 and s.hex_fort[10] == 1
    assert next_player_up(s)


def test_b4_plague_player_picks_the_order_of_hexes_and_citadel_is_never_reduced():
    s = events_board()
    own(s, 0, 1, fort=4)
    a = creatures(s, 0, 1, 5)
    own(s, 0, 2, fort=1)
    b = creatures(s, 0, 2, 1)
    own(s, 1, 9)
    begin(s, "Dark Plague")
    play(s, "Dark Plague")
    assert s.decision == D.PLAGUE_HEX and hexes_offered(s) == {1, 2}
    do(s, lay(s).hex + 1)
    assert not hexes_offered(s) and things_offered(s) == set(a)  # N = 4, a Citadel never drops
    for c in a[:4]:
        do(s, lay(s).thing + c)
    assert s.hex_fort[1] == 4 and on_board(s, a) == [False] * 4 + [True]
    do(s, lay(s).hex + 2)  # the Tower or the creature
    assert s.hex_fort[2] == 0 and all(on_board(s, b))


@pytest.mark.parametrize("holder", [0, 1])
def test_c4_elixir_protects_its_holder_from_plague(holder):
    """R18.2.1: against Plague the player who played it is asked last and may use the Elixir."""
    s, a, f, safe, b = _plague_board()
    screen(s, ELIXIR, holder)
    begin(s, "Dark Plague")
    play(s, "Dark Plague")
    assert s.decision == D.REACT and s.actor == holder
    do(s, lay(s).thing + ELIXIR)
    assert s.thing_place[ELIXIR] == CUP
    assert s.decision == D.LOSS and s.actor == 1 - holder  # only the other player suffers
    while s.decision == D.LOSS:
        do(s, int(legal_actions(s)[0]))
    mine = a if holder == 0 else b
    assert all(on_board(s, mine))


def test_c4_declined_elixir_protects_nobody():
    s, a, f, safe, b = _plague_board()
    screen(s, ELIXIR, 1)
    begin(s, "Dark Plague")
    play(s, "Dark Plague")
    do(s, PASS)
    assert s.decision == D.LOSS and s.actor == 0 and s.thing_place[ELIXIR] == SCREEN


# ----- B.5 Mother Lode, B.6 Good Harvest -----

def test_b5_mother_lode_twice_the_income_counters_mines_four_times_with_the_dwarf_king():
    s = events_board()
    own(s, 0, 1)
    put(s, thing("Village"), 0, 1)
    s.hex_terrain[2] = MOUNTAIN
    own(s, 0, 2)
    put(s, thing("Gold Mine"), 0, 2)
    own(s, 1, 9)
    put(s, thing("City"), 1, 9)  # not the player's
    begin(s, "Mother Lode")
    play(s, "Mother Lode")
    assert s.gold[0] == 2 * (1 + 3) and s.gold[1] == 0
    s = events_board()
    own(s, 0, 1)
    put(s, thing("Village"), 0, 1)
    s.hex_terrain[2] = MOUNTAIN
    own(s, 0, 2)
    put(s, thing("Gold Mine"), 0, 2)
    hero(s, "Dwarf King", 0, 1)
    begin(s, "Mother Lode")
    play(s, "Mother Lode")
    assert s.gold[0] == 2 * 1 + 4 * 3


@pytest.mark.parametrize("heroes_count", [True, False])
def test_b6_good_harvest_hexes_forts_and_heroes_without_income_counters(heroes_count):
    s = events_board(good_harvest_counts_heroes=heroes_count)
    own(s, 0, 1, fort=2)
    own(s, 0, 2)
    own(s, 0, 3)
    put(s, thing("City"), 0, 3)
    hero(s, "Elf Lord", 0, 1)
    own(s, 1, 9, fort=3)
    begin(s, "Good Harvest")
    play(s, "Good Harvest")
    assert s.gold[0] == 3 + 2 + (1 if heroes_count else 0) and s.gold[1] == 0


# ----- B.7 Teenie Pox -----

def _pox_board(n_players: int = 2):
    s = events_board(n_players)
    own(s, 0, 0)
    own(s, 1, 1)
    a = creatures(s, 1, 1, 3)
    own(s, 1, 2, fort=2)
    b = creatures(s, 1, 2, 1)  # 1 + Keep 2 = 3: a tie with hex 1
    own(s, 1, 3)
    creatures(s, 1, 3, 2)
    return s, a, b


def test_b7_teenie_pox_largest_stack_ties_chosen_by_the_victim():
    s, a, b = _pox_board()
    begin(s, "Teeniepox")
    s.rng.script = [4]
    play(s, "Teeniepox")  # the only other player is the victim
    assert s.decision == D.EVENT_HEX and s.actor == 1 and hexes_offered(s) == {1, 2}
    do(s, lay(s).hex + 2)
    assert not any(on_board(s, b)) and s.hex_fort[2] == 0 and all(on_board(s, a))


def test_b7_teenie_pox_roll_2_to_5_only():
    s, a, b = _pox_board()
    s.rng.script = [6]
    begin(s, "Teeniepox")
    play(s, "Teeniepox")
    assert all(on_board(s, a)) and all(on_board(s, b)) and next_player_up(s)


def test_b7_teenie_pox_victim_is_another_player_relative_encoding():
    s, a, b = _pox_board(3)
    own(s, 2, 11)
    c = creatures(s, 2, 11, 1)
    s.rng.script = [2]
    begin(s, "Teeniepox")
    play(s, "Teeniepox")
    assert s.decision == D.EVENT_PLAYER
    ly = lay(s)
    assert {int(x) - ly.player for x in legal_actions(s) if ly.player <= x < ly.direction} == {1, 2}
    do(s, ly.player + 2)  # two seats to the left: player 2
    assert not any(on_board(s, c)) and all(on_board(s, a))


@pytest.mark.parametrize("use", [True, False])
def test_c4_elixir_protects_the_teenie_pox_victim(use):
    s, a, b = _pox_board()
    screen(s, ELIXIR, 1)
    begin(s, "Teeniepox")
    play(s, "Teeniepox")
    assert s.decision == D.REACT and s.actor == 1
    s.rng.script = [3]
    do(s, lay(s).thing + ELIXIR if use else PASS)
    if not use:
        do(s, lay(s).hex + 1)
    assert all(on_board(s, a)) == use


def test_c4_event_player_elixir_is_not_asked_against_teenie_pox():
    s, a, b = _pox_board()
    screen(s, ELIXIR, 0)
    s.rng.script = [3]
    begin(s, "Teeniepox")
    play(s, "Teeniepox")
    assert s.decision == D.EVENT_HEX and s.actor == 1


# ----- B.8 Defection -----

def test_b8_defection_pool_hero_strictly_higher_roll_wins():
    s = events_board()
    own(s, 0, 1)
    own(s, 0, 2)
    own(s, 1, 9)
    f = cat.hero_id("Elf Lord")
    s.hero_up[f // 2] = f % 2
    mine = hero(s, "Arch Cleric", 0, 1)
    begin(s, "Defection")
    play(s, "Defection")
    assert s.decision == D.DEFECT_HERO and f in heroes_offered(s) and mine not in heroes_offered(s)
    assert f ^ 1 not in heroes_offered(s)  # only the face-up side of a pool counter
    s.rng.script = [6, 5, 3, 3]
    do(s, lay(s).hero + f)
    assert s.decision == D.EVENT_HEX and hexes_offered(s) == {1, 2}
    do(s, lay(s).hex + 2)
    assert s.hero_owner[f] == 0 and s.hero_hex[f] == 2


def test_b8_defection_tie_fails_and_owned_hero_needs_strictly_higher():
    s = events_board()
    own(s, 0, 1)
    own(s, 1, 9)
    f = hero(s, "Elf Lord", 1, 9)
    begin(s, "Defection")
    play(s, "Defection")
    s.rng.script = [3, 4, 4, 3]
    do(s, lay(s).hero + f)
    assert s.hero_owner[f] == 1 and next_player_up(s)


def test_b8_defection_takes_another_players_hero():
    s = events_board()
    own(s, 0, 1)
    own(s, 1, 9)
    f = hero(s, "Elf Lord", 1, 9)
    begin(s, "Defection")
    play(s, "Defection")
    s.rng.script = [4, 4, 3, 4]
    do(s, lay(s).hero + f)  # the only hex: placed at once
    assert s.hero_owner[f] == 0 and s.hero_hex[f] == 1


@pytest.mark.parametrize("events_playable", ["any", "with_effect"])
def test_rd5_3_defection_needs_room_for_the_hero(events_playable):
    """Without room no hero can be chosen: played anyway (R10.1) it goes to the cup without effect;
    under events_playable=with_effect it is not offered (RD1.8)."""
    s = events_board(events_playable=events_playable)
    own(s, 0, 1)
    own(s, 1, 9)
    creatures(s, 0, 1, 10)
    begin(s, "Defection")
    if events_playable == "any":
        play(s, "Defection")
        assert s.thing_place[EV["Defection"]] == CUP and not (s.hero_owner == 0).any()
    assert next_player_up(s)


def test_r7_10_two_terrain_lords_the_player_to_the_right_picks_the_one_kept():
    s = events_board(3)
    own(s, 0, 1)
    own(s, 1, 9)
    own(s, 2, 11)
    mine = hero(s, "Desert Master", 0, 1)
    theirs = hero(s, "Plains Lord", 1, 9)
    begin(s, "Defection")
    play(s, "Defection")
    s.rng.script = [6, 6, 1, 1]
    do(s, lay(s).hero + theirs)  # placed on the only hex at once
    assert s.decision == D.LORD_KEEP and s.actor == s.right_of(0) == 2
    assert heroes_offered(s) == {mine, theirs} and s.frame(Event).lord_player == 0
    up = int(s.hero_up[mine // 2])
    do(s, lay(s).hero + theirs)
    assert s.hero_owner[theirs] == 0 and s.hero_owner[mine] == NOBODY
    assert s.hero_up[mine // 2] == 1 - up  # back to the pool turned over
    assert getattr(s.frame(Event), "lord_player", -1) < 0  # the next player's event may be under way


# ----- B.9 Vandals -----

@pytest.mark.parametrize("chooser", ["victim", "event_player"])
def test_b9_vandals_one_fort_loses_a_level_citadel_immune(chooser):
    s = events_board(vandals_chooser=chooser)
    own(s, 0, 1, fort=2)
    own(s, 1, 9, fort=2)
    own(s, 1, 10, fort=1)
    own(s, 1, 11, fort=4)
    begin(s, "Vandals")
    play(s, "Vandals")
    assert s.decision == D.EVENT_HEX and s.actor == (1 if chooser == "victim" else 0)
    assert hexes_offered(s) == {9, 10}
    do(s, lay(s).hex + 10)
    assert s.hex_fort[10] == 0 and s.hex_owner[10] == 1 and s.hex_fort[9] == 2 and s.hex_fort[1] == 2


@pytest.mark.parametrize("events_playable", ["any", "with_effect"])
def test_rd1_8_vandals_need_a_victim_with_a_fort_other_than_a_citadel(events_playable):
    """A Citadel is immune (B.9): Vandals played anyway (R10.1) go to the cup without effect; under
    events_playable=with_effect they are not offered."""
    s = events_board(events_playable=events_playable)
    own(s, 0, 1, fort=2)
    own(s, 1, 9, fort=4)
    begin(s, "Vandals")
    if events_playable == "any":
        play(s, "Vandals")
        assert s.thing_place[EV["Vandals"]] == CUP and s.hex_fort[9] == 4
    assert next_player_up(s) and s.hex_fort[1] == 2


# ----- R10.1 / RD1.8: which events may be played -----

def _nothing_to_act_on(s, event: str) -> None:
    """Boards where `event` would do nothing: Mother Lode without income counters, Vandals without an
    enemy fort but a Citadel, Defection without a hex with room (RD5.3, a hero in the pool)."""
    own(s, 0, 1)
    own(s, 1, 10)
    if event == "Defection":  # player 0's only hex is full (R11.4: 10 counters)
        for c in np.flatnonzero(cat.THING_KIND[:s.n_things] == CREATURE)[:10]:
            put(s, int(c), 0, 1)
    if event == "Vandals":
        own(s, 1, 9, fort=4)  # only a Citadel: immune (B.9)


@pytest.mark.parametrize("event", ["Mother Lode", "Vandals", "Defection"])
def test_r10_1_by_default_an_event_without_effect_may_be_played_and_goes_to_the_cup(event):
    """R10.1 as printed (the default, RD1.8): any event may be played; with nothing to act on it
    resolves with no effect and goes to the cup (R10.2), and the next player is up."""
    s = events_board()
    assert s.cfg.events_playable == "any"
    _nothing_to_act_on(s, event)
    begin(s, event)
    gold, played = int(s.gold[0]), s.stats["events_played"]
    assert s.decision == D.EVENT_PLAY and s.actor == 0
    assert lay(s).thing + EV[event] in legal_actions(s)
    play(s, event)
    assert next_player_up(s)
    assert s.thing_place[EV[event]] == CUP and s.stats["events_played"] == played + 1
    assert s.gold[0] == gold and (s.hex_fort[9] == 4 if event == "Vandals" else True)


def test_r10_1_an_event_without_effect_may_also_be_kept_behind_the_screen():
    """R10.1: playing is optional; passing keeps the event behind the screen."""
    s = events_board()
    _nothing_to_act_on(s, "Mother Lode")
    begin(s, "Mother Lode")
    do(s, PASS)
    assert next_player_up(s) and s.thing_place[EV["Mother Lode"]] == SCREEN


@pytest.mark.parametrize("event", ["Mother Lode", "Vandals", "Defection"])
def test_rd1_8_option_with_effect_offers_only_an_event_with_a_target_or_effect(event):
    """Option events_playable=with_effect (RD1.8's earlier reading): the same events are not offered;
    a player holding no other event is not asked, and the event stays behind the screen."""
    s = events_board(events_playable="with_effect")
    _nothing_to_act_on(s, event)
    begin(s, event)
    assert next_player_up(s) and s.thing_place[EV[event]] == SCREEN


def test_rd1_8_option_with_effect_still_offers_an_event_that_has_an_effect():
    s = events_board(events_playable="with_effect")
    own(s, 0, 1)
    own(s, 1, 9, fort=2)
    begin(s, "Vandals")
    assert s.decision == D.EVENT_PLAY and s.actor == 0 and lay(s).thing + EV["Vandals"] in legal_actions(s)


@pytest.mark.parametrize("events_playable", ["any", "with_effect"])
def test_r10_1_appendix_b_conditions_hold_whichever_events_are_offered(events_playable):
    """B.1 / RD10.6 (Willing Workers needs a legal option) and B.3 / B.10 (Big Juju and Weather
    Control need a magic caster in range) are the events' own conditions: never offered without."""
    for event in ("Willing Workers", "Big Juju", "Weather Control"):
        s = events_board(events_playable=events_playable)
        own(s, 0, 1, fort=4)
        begin(s, event)
        assert next_player_up(s), event
        assert s.thing_place[EV[event]] == SCREEN


def test_events_playable_is_always_saved_and_older_saves_keep_the_rule_they_were_played_by():
    """R10.1 became the default: every save names the option, and a save of an earlier ktenv (no
    `events_playable`; `events_without_effect` when it was on) loads with the rule it was played by."""
    assert GameConfig().to_dict()["events_playable"] == "any"
    for value in ("any", "with_effect"):
        s = events_board(events_playable=value)
        assert GameState.from_json(s.to_json()).cfg.events_playable == value
    s = events_board()
    for old, value in (({}, "with_effect"), ({"events_without_effect": True}, "any")):
        data = s.to_dict()
        del data["config"]["events_playable"]
        data["config"].update(old)
        assert GameState.from_dict(data).cfg.events_playable == value
    with pytest.raises(ConfigError, match="events_without_effect.*events_playable=any"):
        GameConfig.from_dict({"events_without_effect": True})
    with pytest.raises(ConfigError, match="events_playable"):
        GameConfig.from_dict({"events_playable": "sometimes"})


# ----- B.10 Weather Control -----

def test_b10_weather_control_puts_the_cloud_on_a_land_hex_in_range():
    s, mage = _juju_board()
    s.hex_terrain[6] = SEA
    own(s, 1, 8, fort=4)  # a Citadel hex may be clouded
    s.cloud_hex = 15
    begin(s, "Weather Control")
    play(s, "Weather Control")
    assert hexes_offered(s) == within(s, 7, 2) - {6}  # land only (RD10.11)
    do(s, lay(s).hex + 2)
    assert s.cloud_hex == 2  # moved from where it was


@pytest.mark.parametrize("blow", ["adjacent", "remove", "decline"])
def test_c3_fan_moves_or_removes_the_cloud(blow):
    s, mage = _juju_board()
    s.hex_terrain[8] = SEA
    screen(s, FAN, 1)
    begin(s, "Weather Control")
    play(s, "Weather Control")
    do(s, lay(s).hex + 2)
    assert s.decision == D.REACT and s.actor == 1
    if blow == "decline":
        do(s, PASS)
        assert s.cloud_hex == 2
        return
    do(s, lay(s).thing + FAN)
    assert s.decision == D.FAN_HEX and s.actor == 1
    assert hexes_offered(s) == {h for h in s.geo.adjacent[2] if h != 8} and legal_mask(s)[PASS]
    do(s, lay(s).hex + 9 if blow == "adjacent" else PASS)
    assert s.cloud_hex == (9 if blow == "adjacent" else -1)


def test_c8_dispel_magic_cancels_weather_control():
    s, mage = _juju_board()
    screen(s, DISPEL, 1)
    begin(s, "Weather Control")
    play(s, "Weather Control")
    do(s, lay(s).hex + 2)
    do(s, lay(s).thing + DISPEL)
    assert s.cloud_hex == -1 and s.thing_place[EV["Weather Control"]] == CUP


# ----- random games: every event many times -----

_HANDOUT = [*cat.EVENT_IDS, DISPEL, FAN, ELIXIR]


def _hand_out(s, rng) -> None:
    """Events and reaction items still in the cup go to screens with room (test arrangement)."""
    for c in _HANDOUT:
        if s.thing_place[c] == CUP:
            room = [p for p in range(s.n_players) if s.alive[p] and s.screen_size(p) < 9]
            if room:
                screen(s, int(c), int(rng.choice(room)))


def _random_game(n_players: int, seed: int, played: Counter) -> None:
    """A full random game (round cap 20); events are handed out each round and always played."""
    s = new_game(GameConfig(n_players=n_players, max_rounds=20), seed)
    rng = np.random.default_rng(seed)
    ly = lay(s)
    while not s.game_over:
        if s.phase == HEROES:
            _hand_out(s, rng)
        legal = legal_actions(s)
        assert legal.size, "a decision with no legal action"
        a = int(rng.choice(legal))
        if s.decision == D.EVENT_PLAY and legal.size > 1 and a == PASS:
            a = int(legal[1])  # play rather than pass, so every event comes up often
        if s.decision == D.EVENT_PLAY and ly.thing <= a < ly.hero:
            played[cat.THING_NAME[a - ly.thing]] += 1
        step(s, a)
        s.check_invariants()


def test_random_games_with_events_keep_the_invariants():
    played: Counter = Counter()
    for n_players, seed in ((2, 11), (3, 12), (4, 13), (2, 14)):
        _random_game(n_players, seed, played)
    assert sum(played.values()) >= 40 and len(played) >= 8, played


def test_describes_event_decisions():
    s = events_board()
    own(s, 0, 1)
    screen(s, EV["Good Harvest"], 0)
    start_phase(s, EVENTS)
    from ktenv.kings_and_things.engine import describe_action

    assert "Good Harvest" in describe_action(s, lay(s).thing + EV["Good Harvest"])
    assert YES not in legal_actions(s)

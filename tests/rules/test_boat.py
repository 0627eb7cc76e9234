"""R22.6 the Boat (house_content=true): loading, the path over 1-3 Sea hexes, the Bellows, battles
(passengers as Ranged, the Boat fights and falls to one hit), retreat by Boat, end of round."""

from __future__ import annotations

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import CUP, PLAINS, SCREEN, SEA
from ktenv.kings_and_things.engine import battle_sides as B
from ktenv.kings_and_things.engine import boat
from ktenv.kings_and_things.engine.actions import YES
from ktenv.kings_and_things.engine.machine import legal_mask
from ktenv.kings_and_things.procedures import Battle, BoatTrip
from ktenv.kings_and_things.state import MOVEMENT, GameState

from ..builders import E1, E2, W1, W2, C, board, hero, put, start_phase
from ..play import a_hero, a_hex, a_thing, act, legal

BOAT = boat.BOAT
FAN = cat.MAGIC_ID["Fan"]


def harbour(kadab: bool = False, n_players: int = 2, house: bool = True) -> GameState:
    """Player 0 owns C with the Boat behind the screen; E1 is a Sea hex between C and E2."""
    s = board(n_players, house_content=house, setup="passive", terrain=PLAINS)
    s.cfg = GameConfig(n_players=n_players, house_content=house, mysterious_kadab=kadab)  # no tile face down yet
    s.thing_place[BOAT], s.thing_owner[BOAT] = SCREEN, 0
    s.hex_terrain[E1] = SEA
    s.hex_owner[C] = 0
    s.hex_owner[W2] = 1
    return s


def hexes(s: GameState) -> set[int]:
    return {a - a_hex(s, 0) for a in legal(s) if a_hex(s, 0) <= a < a_hex(s, 0) + s.geo.n_hexes}


def sail(s: GameState, path: list[int]) -> None:
    """Confirm the load and follow `path` (Sea hexes, then the landing hex); forced steps are
    taken by the engine, so steps already made are skipped."""
    if s.decision == D.BOAT_LOAD:
        act(s, YES)
    for hx in path:
        done = hx in s.frame(BoatTrip).path if s.hex_terrain[hx] == SEA else 0
        if not done:
            act(s, a_hex(s, hx))


def test_r22_6_boat_carries_creatures_and_heroes_across_the_sea():
    s = harbour()
    giant = put(s, "Giant", 0, C)  # any value
    f = hero(s, "Lenin", 0, C)  # heroes allowed
    put(s, "Wolf Pack", 0, W1)  # another unmoved counter: the turn goes on
    s.hex_owner[W1] = 0
    start_phase(s, MOVEMENT)
    assert a_thing(s, BOAT) in legal(s)
    act(s, a_thing(s, BOAT))
    assert s.decision == D.BOAT_LOAD
    assert {a_thing(s, giant), a_hero(s, f)} <= legal(s) and YES not in legal(s)
    act(s, a_thing(s, giant))
    assert YES in legal(s)
    act(s, a_hero(s, f))
    if s.decision == D.BOAT_LOAD:  # nothing left to load: the engine sails at once
        act(s, YES)  # E1 is the only Sea hex next to C: taken at once
    trip = s.frame(BoatTrip)
    assert s.decision == D.BOAT_PATH and trip.crossed == 1 and trip.last == E1
    land = {h for h in s.geo.adjacent[E1] if h != C}
    assert hexes(s) == land  # no more Sea: the land hexes next to it, not the start hex
    act(s, a_hex(s, E2))
    assert s.thing_hex[giant] == E2 and s.hero_hex[f] == E2
    assert s.thing_in_play[BOAT] and s.thing_hex[BOAT] == E2 and s.stats["magic_played"] == 1


def test_r22_6_path_of_at_most_three_sea_hexes():
    s = board(4, house_content=True, setup="passive", terrain=PLAINS)
    s.thing_place[BOAT], s.thing_owner[BOAT] = SCREEN, 0
    s.hex_owner[C] = 0
    x = [h for h in s.geo.adjacent[E2] if s.geo.distance[C][h] == 3][0]
    y = [h for h in s.geo.adjacent[x] if s.geo.distance[C][h] == 3][0]
    s.hex_terrain[[E1, E2, x, y]] = SEA
    put(s, "Giant", 0, C)
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, BOAT))
    sail(s, [E1, E2])
    assert x in hexes(s)
    at_x = s.copy()
    trip = at_x.frame(BoatTrip)
    trip.at, trip.crossed, trip.last = x, 3, x
    trip.path.append(x)
    steps, dests = boat._path_options(at_x)
    assert steps == [] and dests.size  # three Sea hexes crossed: y is not offered, land is


def test_r22_6_bellows_diverts_the_boat_next_to_the_last_sea_hex():
    s = harbour()
    giant = put(s, "Giant", 0, C)
    put(s, "Wolf Pack", 0, W1)  # another unmoved counter: the turn goes on
    s.hex_owner[W1] = 0
    s.thing_place[FAN], s.thing_owner[FAN] = SCREEN, 1
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, BOAT))
    sail(s, [E1, E2])
    assert s.decision == D.REACT and s.actor == 1
    act(s, a_thing(s, FAN))
    assert s.decision == D.FAN_HEX and s.actor == 1
    other = sorted(h for h in s.geo.adjacent[E1] if h != E2 and s.hex_terrain[h] != SEA)
    assert hexes(s) == set(other) | {E2}
    act(s, a_hex(s, other[0]))
    assert s.thing_hex[giant] == other[0] and s.thing_hex[BOAT] == other[0]


def test_r22_6_in_battle_passengers_are_ranged_and_the_boat_fights_and_falls_to_one_hit():
    s = harbour()
    giant = put(s, "Giant", 0, E2)  # Giant: a melee creature
    f = hero(s, "Lenin", 0, E2)
    s.hex_owner[E2] = 1
    put(s, "Farmers", 1, E2)
    s.push(BoatTrip(n=2, passengers=[giant, ~f], owner=0))  # a hero: ~face
    s.thing_place[BOAT], s.thing_hex[BOAT] = 1, E2  # BOARD
    s.thing_in_play[BOAT] = s.thing_face_up[BOAT] = True
    s.push(Battle(hex=E2, order=[0, 1], defender=1))
    ranged = B.attackers(s, 0, B.RANGED_STEP)
    value = int(cat.THING_COMBAT[giant])
    assert sorted(ranged) == sorted([(3, 1, -1), (value, 1, -1), (4, 1, -1)])  # Boat value ASSUMED 3
    assert B.attackers(s, 0, B.MELEE_STEP) == []
    assert a_thing(s, BOAT) in B.hit_targets(s, 0, a_hex(s, 0), a_thing(s, 0), a_hero(s, 0))
    s.thing_damage[BOAT] = 1  # one hit: the Boat is out, the passengers fight normally
    assert (value, 1, -1) in B.attackers(s, 0, B.MELEE_STEP)


def test_r22_6_retreat_by_boat_across_one_sea_hex_then_removed_at_round_end():
    s = harbour()
    battle = [h for h in s.geo.adjacent[E1] if h not in (C, E2)][0]
    giant = put(s, "Giant", 0, battle)
    s.hex_owner[battle] = 1
    put(s, "Farmers", 1, battle)
    s.hex_owner[E2] = 0
    s.push(BoatTrip(n=1, passengers=[giant], owner=0))
    s.thing_place[BOAT], s.thing_hex[BOAT] = 1, battle
    s.thing_in_play[BOAT] = s.thing_face_up[BOAT] = True
    s.push(Battle(hex=battle, order=[0, 1], defender=1))
    across = set(B.retreat_hexes(s, 0).tolist())
    assert {C, E2} <= across  # own hexes across E1
    s.frame(BoatTrip).passengers, s.frame(BoatTrip).n = [], 0
    assert not ({C, E2} - set(s.geo.adjacent[battle])) & set(B.retreat_hexes(s, 0).tolist())
    boat.end_of_round(s)
    assert s.thing_place[BOAT] == CUP and s.frame(BoatTrip) is None


def test_r22_6_face_down_sea_is_no_path_and_flag_off_no_boat():
    s = harbour(kadab=True)
    s.hex_down[:] = False
    s.hex_down[E1] = True  # its terrain is unknown: no Boat path over it
    put(s, "Giant", 0, C)
    start_phase(s, MOVEMENT)
    assert not legal_mask(s)[a_thing(s, BOAT)]
    s = harbour(n_players=6, house=False)  # six players without house_content: the Boat exists, out of play
    put(s, "Giant", 0, C)
    start_phase(s, MOVEMENT)
    assert not legal_mask(s)[a_thing(s, BOAT)]

"""C.2 the Balloon, C.3 the Fan against it, and RP-5.9 trimming a stack at the end of a move."""

from __future__ import annotations

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.constants import BOARD, CUP, PLAINS, SCREEN, SEA
from ktenv.kings_and_things.engine import legal_actions
from ktenv.kings_and_things.engine.actions import PASS, YES
from ktenv.kings_and_things.engine.balloon import BALLOON
from ktenv.kings_and_things.engine.stacks import allow_overflow
from ktenv.kings_and_things.procedures import StackOverflow
from ktenv.kings_and_things.state import COMBAT, DONE, MOVEMENT

from ..builders import board, own, put, put_some, start_phase
from ..play import a_hex, a_thing, act

M = cat.MAGIC_ID


def sky():
    """Player 0 owns the centre; the Balloon is behind its screen."""
    s = board(setup="passive", terrain=PLAINS)
    own(s, 0, 0)
    own(s, 1, 15)
    s.thing_place[BALLOON], s.thing_owner[BALLOON] = SCREEN, 0
    return s


def test_balloon_carries_up_to_three_small_creatures_up_to_three_hexes():
    """C.2: 1-3 creatures of value 3 or less from one hex to a land hex 1-3 away; they are done."""
    s = sky()
    riders = [put(s, "Farmers", 0, 0), put(s, "Centaur", 0, 0)]
    big = put(s, "Buffalo Herd", 0, 0)  # value 3 is allowed ...
    giant = put(s, "Cyclops", 0, 0)  # ... value 5 is not
    own(s, 0, 12)
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, BALLOON))
    assert s.decision == D.BALLOON_LOAD
    assert a_thing(s, giant) not in legal_actions(s) and a_thing(s, big) in legal_actions(s)
    for c in riders:
        act(s, a_thing(s, c))
    act(s, YES)
    assert s.decision == D.BALLOON_DEST
    hexes = {int(a) - a_hex(s, 0) for a in legal_actions(s)}
    assert all(1 <= s.geo.distance[0, h] <= 3 for h in hexes) and 12 in hexes and 0 not in hexes
    act(s, a_hex(s, 12))
    assert all(s.thing_hex[c] == 12 and s.thing_status[c] == DONE for c in riders)
    assert s.thing_in_play[BALLOON] and s.thing_hex[BALLOON] == 12
    assert s.decision == D.MOVE_START


def test_balloon_lifts_pinned_creatures_rd10_12():
    s = sky()
    rider = put(s, "Farmers", 0, 0)
    put(s, "Centaur", 1, 0)  # an enemy pins the Farmers
    own(s, 0, 7)
    start_phase(s, MOVEMENT)
    assert s.thing_pinned[rider]
    act(s, a_thing(s, BALLOON))  # the lone pinned rider is loaded and confirmed (forced)
    assert s.decision == D.BALLOON_DEST
    act(s, a_hex(s, 7))
    assert s.thing_hex[rider] == 7


def test_fan_blows_the_balloon_into_the_sea_and_the_passengers_escape():
    """C.3: the Fan moves the landing hex; on Sea the Balloon is lost, the passengers may escape."""
    s = sky()
    rider = put(s, "Farmers", 0, 0)
    s.thing_place[M["Fan"]], s.thing_owner[M["Fan"]] = SCREEN, 1
    target = 2
    sea = int(s.geo.neighbours[target][0])
    s.hex_terrain[sea] = SEA
    shore = [int(h) for h in s.geo.neighbours[sea] if h >= 0 and h != target and s.hex_terrain[h] != SEA][0]
    own(s, 0, shore)
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, BALLOON))  # the lone rider is loaded and the flight confirmed: forced
    if s.decision == D.BALLOON_LOAD:
        act(s, YES)
    act(s, a_hex(s, target))
    assert s.decision == D.REACT and s.actor == 1
    act(s, a_thing(s, M["Fan"]))
    assert s.decision == D.FAN_HEX and s.actor == 1
    act(s, a_hex(s, sea))
    assert s.thing_place[BALLOON] == CUP
    assert s.decision == D.ESCAPE_HEX and s.actor == 0 and PASS in legal_actions(s)
    act(s, a_hex(s, shore))
    assert s.thing_hex[rider] == shore


def test_dispel_magic_cancels_the_flight():
    s = sky()
    rider = put(s, "Farmers", 0, 0)
    put(s, "Centaur", 0, 0)
    s.thing_place[M["Dispel Magic"]], s.thing_owner[M["Dispel Magic"]] = SCREEN, 1
    own(s, 0, 3)
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, BALLOON))
    act(s, a_thing(s, rider))
    act(s, YES)
    act(s, a_hex(s, 3))
    act(s, a_thing(s, M["Dispel Magic"]))
    assert s.thing_hex[rider] == 0 and s.thing_place[BALLOON] == CUP
    assert s.thing_status[rider] != DONE  # it may still move normally


def test_balloon_passengers_fire_as_ranged_and_the_balloon_returns_at_round_end():
    """C.2 / RD7.1: in a battle the passengers attack in the ranged step, the Balloon with value 3;
    the Balloon goes back to the cup at the end of the round."""
    s = sky()
    rider = put(s, "Farmers", 0, 0)
    own(s, 1, 2)
    enemy = put(s, "Buffalo Herd", 1, 2)  # value 3
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, BALLOON))
    if s.decision == D.BALLOON_LOAD:
        act(s, YES)
    act(s, a_hex(s, 2))
    assert s.thing_hex[rider] == 2
    s.rng.script = [1, 6, 6]  # ranged step: Balloon (3) hits with 1, the Farmer misses; melee: Buffalo 6
    while s.phase == MOVEMENT:
        act(s, PASS if PASS in legal_actions(s) else legal_actions(s)[0])
    while s.phase == COMBAT and s.decision != D.RETREAT:
        act(s, legal_actions(s)[0])
    assert s.thing_place[enemy] == CUP
    while s.phase != MOVEMENT or s.thing_in_play[BALLOON]:
        if s.round > 2:
            break
        act(s, PASS if PASS in legal_actions(s) else legal_actions(s)[0])
    assert not s.thing_in_play[BALLOON]


def test_over_the_limit_is_trimmed_at_the_end_of_the_movement_turn():
    """RP-5.9 / RD10.2: a stack over 10 (a Warlord's defector) is trimmed by its owner."""
    s = board(setup="passive", terrain=PLAINS)
    own(s, 0, 0)
    names = ["Farmers", "Farmers", "Farmers", "Farmers", "Centaur", "Dragonfly", "Eagles", "Villains",
             "Pegasus", "Lion Pride", "Wolf Pack"]
    ids = [put(s, n, 0, 0) for n in names]
    allow_overflow(s, 0)
    start_phase(s, MOVEMENT, fresh=False)
    act(s, PASS)  # end the movement turn
    assert s.decision == D.RETREAT_EXCESS and s.actor == 0
    act(s, a_thing(s, ids[0]))
    assert s.thing_place[ids[0]] == CUP and s.frame(StackOverflow) is None
    assert (s.thing_place[ids[1:]] == BOARD).all()


def test_a_citadel_reduced_to_a_castle_leaves_its_big_stack_to_be_trimmed_r19_2_2():
    """R19.2.2 variant B: a Citadel (no stack limit, R11.4.2) reduced to a Castle by a damage roll
    leaves 11 creatures over the limit: allowed until the owner's next movement turn ends, then the
    owner trims it (RP-5.9, as after the Warlord, RD10.2). Found by long random play
    (ktenv.kings_and_things.dev.fuzz)."""
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.engine.conquest import reduce_fort

    s = board(setup="passive", terrain=PLAINS)
    s.cfg = GameConfig(n_players=2, victory="unique_b")
    own(s, 0, 0)
    s.hex_fort[0] = 4
    names = ["Farmers", "Farmers", "Farmers", "Farmers", "Centaur", "Dragonfly", "Eagles", "Villains",
             "Pegasus", "Lion Pride", "Wolf Pack"]
    ids = [put(s, n, 0, 0) for n in names]
    s.check_invariants()
    reduce_fort(s, 0)  # the damage roll of R13.10 (combat_and_disaster)
    assert s.hex_fort[0] == 3
    s.check_invariants()
    start_phase(s, MOVEMENT, fresh=False)  # keeps the overflow register reduce_fort set
    act(s, PASS)
    assert s.decision == D.RETREAT_EXCESS and s.actor == 0
    act(s, a_thing(s, ids[0]))
    assert (s.room_for(0) >= 0).all()
    s.check_invariants()


def _islands(landing: int | None):
    """Player 0 on the centre; every hex 1-3 away is Sea but `landing` (if any)."""
    s = board(setup="passive", terrain=PLAINS)
    far = s.geo.distance[0] > 3
    s.hex_terrain[~far] = SEA
    s.hex_terrain[0] = PLAINS
    if landing is not None:
        s.hex_terrain[landing] = PLAINS
    own(s, 0, 0)
    s.thing_place[BALLOON], s.thing_owner[BALLOON] = SCREEN, 0
    return s


def test_no_balloon_flight_without_a_land_hex_to_come_down_on():
    """C.2: the Balloon comes down on a land hex 1-3 away; with none, it cannot be played (before
    this, loading was allowed and the destination choice had no legal action: a dead end found by
    the differential run, seed 20007)."""
    s = _islands(landing=None)
    put(s, "Farmers", 0, 0)
    start_phase(s, MOVEMENT)
    assert s.decision == D.MOVE_START
    assert a_thing(s, BALLOON) not in legal_actions(s)


def test_balloon_boards_only_as_many_as_the_landing_hexes_have_room_for():
    """C.2 with R11.4: the only land hex in reach has room for one more creature, so the Balloon
    takes one passenger; the second is not offered, and the destination choice is never empty."""
    s = _islands(landing=12)
    riders = [put(s, "Farmers", 0, 0), put(s, "Centaur", 0, 0)]
    own(s, 0, 12)
    put_some(s, 9, 0, 12)
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, BALLOON))
    assert s.decision == D.BALLOON_LOAD
    assert a_thing(s, riders[1]) in legal_actions(s)  # either may board first ...
    act(s, a_thing(s, riders[0]))
    # ... but not both: the confirmation and the one landing hex were then forced
    assert s.decision == D.MOVE_START
    assert s.thing_hex[riders[0]] == 12 and s.thing_hex[riders[1]] == 0
    assert s.thing_in_play[BALLOON] and s.thing_hex[BALLOON] == 12

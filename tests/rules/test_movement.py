"""R11 movement (phase 5): the moving-stack model, stopping, Sea, stack limit, pins and the bluff
challenge, flyers passing enemy hexes (RT.6), the Deerhunter (A.3), conquest by movement and the
income-counter window (R11.9). Scenarios are laid by hand on an empty 19-hex board (all Plains
unless a test says otherwise); hexes W2-W1-C-E1-E2 form a west-east line through the centre."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.errors import IllegalActionError
from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import CUP, DESERT, FOREST, MOUNTAIN, NOBODY, PLAINS, SEA, SWAMP
from ktenv.kings_and_things.engine import machine, movement
from ktenv.kings_and_things.engine.actions import PASS, YES
from ktenv.kings_and_things.engine.machine import legal_mask, new_game, step
from ktenv.kings_and_things.procedures import Move, MovementTurn
from ktenv.kings_and_things.state import COMBAT, DONE, MOVEMENT, MOVING, UNMOVED, GameState

from ..builders import E1, E2, W1, W2, C, board, hero, own, position, put, start_phase, thing
from ..play import a_dir, a_hero, a_hex, a_thing, act, legal, legal_directions, move

DEERHUNTER = cat.hero_id("Deerhunter")
ALL = range(19)


SPARE = 15  # a hex far from the line, where player 0 keeps a counter to move later


def line_board(n_players: int = 2, spare: bool = True) -> GameState:
    """An empty board; with `spare` player 0 owns hex 15 with a Sphinx there, so that MOVE_START
    stays a real choice (a decision with one legal action is taken automatically)."""
    s = board(n_players, setup="passive", terrain=PLAINS)
    if spare:
        own(s, 0, SPARE)
        put(s, "Sphinx", 0, SPARE)
    return s


def mover_hexes(s: GameState) -> set[int]:
    lay = machine.layout(s)
    return {a - lay.hex for a in legal(s) if lay.hex <= a < lay.thing}


# ----------------------------------------------------------------- turn start (R11.1.2, R11.5.1)


def test_turn_start_gives_4_mp_and_pins_where_enemies_stand():
    s = position(f"""
        phase movement
        h{C} p0: Camel Corps | hero Marksman
        h{E1} p0
        h{W1} p1 tower: Farmers | p0: Dervish         # a Tower: the pin cannot be challenged
        h{E2}: p0: Nomads | neutral: Tigers           # neutral defenders are no enemy (R0.4.4)
    """)
    free, pinned, beside_neutral = thing("Camel Corps"), thing("Dervish"), thing("Nomads")
    f = cat.hero_id("Marksman")
    assert (s.decision, s.actor) == (D.MOVE_START, 0)
    assert s.thing_mp[[free, pinned, beside_neutral]].tolist() == [4, 4, 4]
    assert s.hero_mp[f] == 4
    assert s.thing_pinned[pinned] and not s.thing_pinned[free] and not s.thing_pinned[beside_neutral]
    assert (s.thing_status == UNMOVED).all()
    assert not s.thing_mp[s.thing_owner == 1].any()  # only the mover carries MP
    assert mover_hexes(s) == {C, E2}  # W1: pinned, no flyer, no Deerhunter, no challenge (R11.7.1)
    assert PASS in legal(s)


def test_enemy_presence_definition():
    """R11.3.2: enemy face-down counters, enemy face-up combat counters, the owner's fort or city."""
    s = position(f"""
        players 3
        h{W1} p1: Farmers                 # face down
        h{E1} p1: Farmlands               # a special income counter is no combat counter
        h{E2} p1: City
        h1: hero p2: Marksman
        h2: neutral: Tigers
        h4 p2 keep
    """)
    pres = movement.enemy_presence(s, 0)
    assert pres[W1] and pres[E2] and pres[1] and pres[4]
    assert not pres[E1] and not pres[2] and not pres[C]
    assert not movement.enemy_presence(s, 1)[W1]


# ----------------------------------------------------------------- costs and the stack (R11.1, R11.2)


def test_terrain_costs_and_free_start_hex():
    """R11.1.2: Forest/Mountains/Swamp/Jungle cost 2, Plains/Desert/Frozen Waste 1; start hex free."""
    s = line_board()
    own(s, 0, *ALL)
    s.hex_terrain[E1] = FOREST
    s.hex_terrain[E2] = MOUNTAIN
    s.hex_terrain[10] = DESERT
    c = put(s, "Camel Corps", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", c)], [])
    assert s.thing_mp[c] == 4  # nothing paid for the start hex
    act(s, a_dir(s, C, E1))
    assert s.thing_mp[c] == 2
    act(s, a_dir(s, E1, E2))
    assert s.thing_mp[c] == 0
    assert legal_directions(s) == set()
    assert s.thing_hex[c] == E2 and s.thing_moved[c]


def test_one_mp_left_allows_only_cheap_terrain():
    s = line_board()
    own(s, 0, *ALL)
    s.hex_terrain[[4, 5]] = SWAMP
    c = put(s, "Camel Corps", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", c)], [E1, C, W1])
    assert s.thing_mp[c] == 1
    nb = set(s.geo.adjacent[W1])
    assert legal_directions(s) == nb - {5}  # hex 5 is Swamp (2)


def test_flyers_pay_one_everywhere():
    """RD4.7: a flyer pays 1 a hex whatever the terrain."""
    s = line_board()
    own(s, 0, *ALL)
    s.hex_terrain[:] = MOUNTAIN
    f = put(s, "Pegasus", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", f)], [E1, E2, 12, 4])
    assert s.thing_mp[f] == 0 and s.thing_hex[f] == 4


def test_drop_and_pick_up():
    """R11.2.3: drop makes a member done where it stands; pick up joins with its full 4 MP."""
    s = line_board()
    own(s, 0, *ALL)
    a = put(s, "Camel Corps", 0, C)
    b = put(s, "Dervish", 0, C)
    d = put(s, "Nomads", 0, E1)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", a), ("thing", b)], [E1])
    assert s.thing_status[[a, b]].tolist() == [MOVING, MOVING]
    assert a_thing(s, d) in legal(s)  # unmoved own counter in the current hex
    act(s, a_thing(s, a))  # drop
    act(s, a_thing(s, d))  # pick up
    assert s.thing_status[a] == DONE and s.thing_hex[a] == E1
    assert s.thing_mp[d] == 4
    act(s, a_dir(s, E1, E2))
    assert s.thing_mp[[b, d]].tolist() == [2, 3]
    assert a_thing(s, a) not in legal(s)  # done: cannot be picked up again (R11.2.4)
    act(s, PASS)
    assert s.decision == D.MOVE_START
    assert s.thing_status[[a, b, d]].tolist() == [DONE, DONE, DONE]
    assert s.thing_hex[[b, d]].tolist() == [E2, E2]


def test_off_board_directions_are_illegal():
    s = line_board()
    own(s, 0, *ALL)
    a = put(s, "Camel Corps", 0, E2)
    start_phase(s, MOVEMENT)
    move(s, E2, [("thing", a)], [])
    assert legal_directions(s) == set(s.geo.adjacent[E2]) == {12, E1, 10}  # a rim hex: three are off


def test_one_moving_stack_at_a_time():
    """R11.2.2: while a stack moves, no other move can start and no far counter can join."""
    s = line_board()
    own(s, 0, *ALL)
    a = put(s, "Camel Corps", 0, C)
    b = put(s, "Dervish", 0, W2)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", a)], [E1])
    lay = machine.layout(s)
    assert not any(lay.hex <= x < lay.thing for x in legal(s))
    assert a_thing(s, b) not in legal(s)
    act(s, PASS)
    assert W2 in mover_hexes(s) and C not in mover_hexes(s)


def test_selection_only_adds_and_mask_exactness():
    """A chosen hex moves at least one counter: no cancel, no removal, so every turn ends."""
    s = line_board()
    own(s, 0, *ALL)
    a = put(s, "Camel Corps", 0, C)
    b = put(s, "Nomads", 0, C)
    start_phase(s, MOVEMENT)
    act(s, a_hex(s, C))
    assert legal(s) == {a_thing(s, a), a_thing(s, b)}  # nothing chosen yet: no YES, no PASS
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        step(s, YES)
    assert s.to_json() == before  # refused and unchanged
    act(s, a_thing(s, a))
    assert legal(s) == {YES, a_thing(s, b)}
    act(s, YES)
    assert s.decision == D.MOVE_STACK and s.thing_status[a] == MOVING and s.thing_status[b] == UNMOVED


# ----------------------------------------------------------------- stopping (R11.3)


def test_unexplored_hex_stops_everybody_flyers_too():
    """R11.3.1, R11.6.3."""
    s = position(f"""
        phase movement
        h{C} p0: Camel Corps, Pegasus
        h{SPARE} p0: Sphinx
    """)
    a, f = thing("Camel Corps"), thing("Pegasus")
    move(s, C, [("thing", a), ("thing", f)], [E1])
    assert s.decision == D.MOVE_START
    assert s.thing_status[[a, f]].tolist() == [DONE, DONE]
    assert s.thing_hex[f] == E1 and s.thing_mp[f] == 3


def test_enemy_counters_stop_but_an_empty_enemy_hex_does_not():
    """R11.3.2 / R11.3.3."""
    s = position(f"""
        phase movement
        h{C} p0: Camel Corps
        h{W1} p0: Dervish
        h{E2} p0; h{W2} p0
        h{E1} p1: Farmlands         # only the marker and a special income counter
        h4 p1: Farmers              # a face-down counter
        h{SPARE} p0: Sphinx
    """)
    a, b = thing("Camel Corps"), thing("Dervish")
    move(s, C, [("thing", a)], [E1])
    assert s.decision == D.MOVE_STACK  # passes through
    act(s, a_dir(s, E1, E2))
    act(s, PASS)
    move(s, W1, [("thing", b)], [C, 4])
    assert s.decision == D.MOVE_START and s.thing_status[b] == DONE and s.thing_hex[b] == 4


@pytest.mark.parametrize("guard", ["fort", "hero", "city", "face_up"])
def test_enemy_combat_counters_stop(guard):
    s = line_board()
    own(s, 0, C)
    own(s, 1, E1)
    if guard == "fort":
        s.hex_fort[E1] = 1
    elif guard == "hero":
        hero(s, "Marksman", 1, E1)
    elif guard == "city":
        put(s, "City", 1, E1)
    else:
        put(s, "Farmers", 1, E1, up=True)
    a = put(s, "Camel Corps", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", a)], [E1])
    assert s.decision == D.MOVE_START and s.thing_status[a] == DONE


# ----------------------------------------------------------------- Sea (R11.3.4, RD4.7)


def test_only_all_flyer_stacks_enter_sea_and_never_stop_there():
    s = line_board()
    own(s, 0, *[h for h in ALL if h != E1])
    s.hex_terrain[E1] = SEA
    a = put(s, "Camel Corps", 0, C)
    f = put(s, "Pegasus", 0, C)
    g = put(s, "Eagles", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", a), ("thing", f), ("thing", g)], [])
    assert E1 not in legal_directions(s)  # a walker in the stack
    act(s, a_thing(s, a))  # drop the walker
    assert E1 in legal_directions(s)
    act(s, a_dir(s, C, E1))
    assert s.frame(Move).hex == E1
    assert s.thing_hex[f] == C  # nothing lies on Sea: the stack is shown at its take-off hex
    options = legal(s)
    assert PASS not in options and a_thing(s, f) not in options  # no end, no drop over Sea
    assert legal_directions(s) == set(s.geo.adjacent[E1])
    act(s, a_dir(s, E1, E2))
    assert s.thing_hex[[f, g]].tolist() == [E2, E2] and s.thing_mp[f] == 2


def test_sea_only_when_land_is_in_reach():
    s = line_board()
    own(s, 0, *[h for h in ALL if h != E1])
    s.hex_terrain[E1] = SEA
    f = put(s, "Pegasus", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", f)], [4, C])
    assert s.thing_mp[f] == 2 and E1 in legal_directions(s)
    act(s, a_dir(s, C, 4))
    assert s.thing_mp[f] == 1 and E1 in set(s.geo.adjacent[4])
    assert E1 not in legal_directions(s)  # would end on Sea


def test_sea_chain_needs_enough_mp():
    s = line_board()
    sea = [E1, E2, 10, 12]
    own(s, 0, *[h for h in ALL if h not in sea])
    s.hex_terrain[sea] = SEA
    f = put(s, "Pegasus", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", f)], [E1])
    assert legal_directions(s) == set(s.geo.adjacent[E1])  # 3 MP: every neighbour leads to land
    act(s, a_dir(s, E1, E2))
    assert s.thing_mp[f] == 2
    assert legal_directions(s) == {E1, 10, 12}  # 11 lies on the rim: only Sea around
    act(s, a_dir(s, E2, 12))
    assert legal_directions(s) == {4, 13}  # 1 MP left: land now


# ----------------------------------------------------------------- stack limit (R11.4, RD4.2)


def test_stack_limit_every_step_and_citadel_exemption():
    s = line_board()
    own(s, 0, *ALL)
    names = ["Farmers", "Hunters", "Tribesmen", "Villains", "Gypsies", "Centaur", "Wolf Pack",
             "Lion Pride", "Buffalo Herd", "White Knight"]
    for name in names:
        put(s, name, 0, E1)
    a = put(s, "Camel Corps", 0, C)
    f = put(s, "Pegasus", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", a), ("thing", f)], [])
    assert E1 not in legal_directions(s)  # R11.4.3 flyers may not cross a full hex either
    act(s, a_thing(s, a))
    assert E1 not in legal_directions(s)
    act(s, PASS)
    s2 = line_board()
    own(s2, 0, *ALL)
    s2.hex_fort[E1] = 4  # R11.4.2: no limit in a Citadel hex
    for name in names:
        put(s2, name, 0, E1)
    a = put(s2, "Camel Corps", 0, C)
    start_phase(s2, MOVEMENT)
    move(s2, C, [("thing", a)], [E1])
    assert s2.thing_hex[a] == E1
    assert s2.army_counts(0)[E1] == 11


# ----------------------------------------------------------------- pins (R11.5) and challenges (R11.7)


def _pinned_board(fort: bool, enemy: str = "Farmers") -> tuple[GameState, int, int]:
    s = position(f"""
        h{W1} p1 fort={int(fort)}: {enemy} | p0: Camel Corps
        h{C} p0; h{E1} p0; h{W2} p0
        h{E2} p0: Nomads               # something else to move, so MOVE_START is a real choice
        h{SPARE} p0: Sphinx
    """)
    return s, thing("Camel Corps"), thing(enemy)


def test_pinned_counters_stay_but_receive_others():
    """R11.5.1, R11.5.3."""
    s, a, _ = _pinned_board(fort=True)
    b = put(s, "Dervish", 0, C)
    start_phase(s, MOVEMENT)
    assert W1 not in mover_hexes(s)
    move(s, C, [("thing", b)], [W1])  # moving in is allowed, and stops there
    assert s.thing_hex[b] == W1 and s.thing_status[b] == DONE


def test_challenge_won_when_only_bluffs_pin():
    """R11.7: the enemy's face-down creature is a bluff (no Swamp hex): no supported reveal,
    the pin is lifted for this phase."""
    s, a, e = _pinned_board(fort=False, enemy="Swamp Rat")
    start_phase(s, MOVEMENT)
    assert W1 in mover_hexes(s)
    act(s, a_hex(s, W1))
    assert s.decision == D.PIN_CHALLENGE and s.actor == 0
    act(s, YES)  # the enemy has nothing supported to show: nobody is asked
    assert s.decision == D.MOVE_STACK and not s.thing_pinned[a]  # the lone walker goes (forced)
    assert W2 in legal_directions(s)
    act(s, a_dir(s, W1, W2))
    assert s.thing_hex[a] == W2
    assert not s.thing_face_up[e] and not s.thing_public[e]


def test_challenge_declined_by_enemy_lifts_pin():
    s, a, e = _pinned_board(fort=False)  # Farmers: supported by P1's Plains hex
    start_phase(s, MOVEMENT)
    act(s, a_hex(s, W1))
    act(s, YES)
    assert (s.decision, s.actor) == (D.PIN_REVEAL, 1)
    assert legal(s) == {PASS, a_thing(s, e)}
    act(s, PASS)  # the lone walker is chosen and sent off by the engine (forced moves)
    assert (s.decision, s.actor) == (D.MOVE_STACK, 0) and not s.thing_pinned[a]


def test_challenge_lost_when_a_supported_creature_is_shown():
    s, a, e = _pinned_board(fort=False)
    start_phase(s, MOVEMENT)
    act(s, a_hex(s, W1))
    act(s, YES)
    act(s, a_thing(s, e))  # P1 shows the Farmers
    assert s.thing_public[e] and not s.thing_face_up[e]  # known to all, face down again (RI.4)
    assert s.thing_pinned[a]
    assert (s.decision, s.actor) == (D.MOVE_START, 0)
    assert W1 not in mover_hexes(s)  # one challenge per hex and turn


def test_no_challenge_against_a_hero_or_fort():
    s, a, _ = _pinned_board(fort=False)
    hero(s, "Marksman", 1, W1)
    start_phase(s, MOVEMENT)
    assert W1 not in mover_hexes(s)
    assert not movement.pin_challengeable(s, 0, W1)


def test_declining_the_challenge():
    s, a, _ = _pinned_board(fort=False)
    f = put(s, "Pegasus", 0, W1)
    start_phase(s, MOVEMENT)
    act(s, a_hex(s, W1))
    act(s, PASS)  # no challenge: only the flyer may go (R11.6), so it is chosen and goes (forced)
    assert s.thing_status[a] == UNMOVED and s.thing_status[f] != UNMOVED


# ----------------------------------------------------------------- flyers (R11.6, RD4.6, RT.6)


def test_rt6_four_flyers_against_two():
    """RT.6: A's 4 flyers enter B's Forest hex with a walker and want to go on; A reveals 4, B reveals
    his 2 flyers; A leaves 2 of A's choice; the other 2 continue to a Frozen Waste hex."""
    s = position(f"""
        phase movement
        h{C} p0: Pegasus, Eagles, Flying Buffalo, Dragonfly, Camel Corps
        h{W1} p0
        h{E1} Forest p1: Great Owl, Wyvern, Bears
        h{E2} Frozen Waste p0
        h{SPARE} p0: Sphinx
    """)
    flyers = [thing(n) for n in ("Pegasus", "Eagles", "Flying Buffalo", "Dragonfly")]
    walker, owl, wyvern, guard = thing("Camel Corps"), thing("Great Owl"), thing("Wyvern"), thing("Bears")
    move(s, C, [("thing", c) for c in flyers + [walker]], [E1])
    assert (s.decision, s.actor) == (D.FLY_INTEND, 0)
    assert a_thing(s, walker) not in legal(s)
    for c in flyers:
        act(s, a_thing(s, c))
    assert s.thing_face_up[flyers].all()  # no flyer left to declare: PASS was taken automatically
    assert (s.decision, s.actor) == (D.FLY_BLOCK, 1)
    assert legal(s) == {PASS, a_thing(s, owl), a_thing(s, wyvern)}  # the Bears cannot fly
    act(s, a_thing(s, owl))
    act(s, a_thing(s, wyvern))  # then only PASS is left: taken automatically
    assert (s.decision, s.actor) == (D.FLY_LEAVE, 0)
    assert legal(s) == {a_thing(s, c) for c in flyers}
    act(s, a_thing(s, flyers[0]))
    act(s, a_thing(s, flyers[2]))
    assert s.decision == D.MOVE_STACK
    assert s.thing_status[[flyers[0], flyers[2], walker]].tolist() == [DONE] * 3
    act(s, a_dir(s, E1, E2))
    act(s, PASS)
    assert s.thing_hex[[flyers[1], flyers[3]]].tolist() == [E2, E2]
    assert s.thing_hex[[flyers[0], flyers[2], walker]].tolist() == [E1] * 3
    shown = flyers + [owl, wyvern]
    assert not s.thing_face_up[shown].any() and s.thing_public[shown].all()  # RI.4
    assert not s.thing_public[guard]


def test_flying_hero_declared_blocks():
    """RD4.6: a flying hero declared by its owner counts like a revealed flyer."""
    s = position(f"""
        phase movement
        h{C} p0: Pegasus
        h{E2} p0
        h{E1} p1: hero Lord of the Eagles
        h{SPARE} p0: Sphinx
    """)
    f, lord = thing("Pegasus"), cat.hero_id("Lord of the Eagles")
    move(s, C, [("thing", f)], [E1])
    act(s, a_thing(s, f))  # the last flyer declared: the PASS that follows is automatic
    assert (s.decision, s.actor) == (D.FLY_BLOCK, 1) and a_hero(s, lord) in legal(s)
    act(s, a_hero(s, lord))  # one blocker for one flyer: it stays, no choice left
    assert s.decision == D.MOVE_START and s.thing_status[f] == DONE and s.thing_hex[f] == E1


def test_revealed_bluff_flyers_are_removed():
    """R11.6.1 steps 1-2 with R9.5: the mover's bluff leaves at once; the enemy's bluff leaves and
    does not count, so the mover's real flyer goes on."""
    s = position(f"""
        phase movement
        h{C} p0: Giant Roc, Pegasus     # Giant Roc: Mountain, and P0 owns none
        h{E2} p0
        h{E1} p1: Vampire Bat           # Swamp: P1 owns none
        h{SPARE} p0: Sphinx
    """)
    roc, peg, bat = thing("Giant Roc"), thing("Pegasus"), thing("Vampire Bat")
    move(s, C, [("thing", roc), ("thing", peg)], [E1])
    act(s, a_thing(s, roc))
    assert s.thing_place[roc] == CUP and s.thing_owner[roc] == NOBODY
    assert s.thing_status[roc] == 0 and s.thing_mp[roc] == 0
    act(s, a_thing(s, peg))
    assert (s.decision, s.actor) == (D.FLY_BLOCK, 1)
    act(s, a_thing(s, bat))
    assert s.thing_place[bat] == CUP
    assert s.decision == D.MOVE_STACK and s.actor == 0 and s.thing_status[peg] == MOVING
    act(s, a_dir(s, E1, E2))
    assert s.thing_hex[peg] == E2


def test_no_intending_flyer_means_all_stop():
    s = position(f"""
        phase movement
        h{C} p0: Pegasus
        h{E2} p0
        h{E1} p1: Farmers
        h{SPARE} p0: Sphinx
    """)
    f = thing("Pegasus")
    move(s, C, [("thing", f)], [E1])
    act(s, PASS)
    assert s.decision == D.MOVE_START and s.thing_status[f] == DONE and not s.thing_face_up[f]


def test_pinned_flyer_leaves_under_r11_6():
    """R11.5.2 / R11.6.1: flyers may leave a hex where they are pinned; unblocked, they go."""
    s, a, _ = _pinned_board(fort=True)
    f = put(s, "Pegasus", 0, W1)
    start_phase(s, MOVEMENT)
    assert W1 in mover_hexes(s)
    act(s, a_hex(s, W1))  # only the flyer may come: chosen and sent off by the engine (forced)
    assert s.decision == D.MOVE_STACK and not s.thing_pinned[f] and s.thing_public[f]
    assert W2 in legal_directions(s)
    act(s, a_dir(s, W1, W2))
    assert s.thing_hex[f] == W2 and s.thing_pinned[a]


def test_pinned_flyer_blocked_when_leaving():
    s, a, _ = _pinned_board(fort=True)
    f = put(s, "Pegasus", 0, W1)
    eagle = put(s, "Eagles", 1, W1)
    start_phase(s, MOVEMENT)
    act(s, a_hex(s, W1))  # the flyer is the only choice: it intends to leave (forced)
    assert (s.decision, s.actor) == (D.FLY_BLOCK, 1)
    act(s, a_thing(s, eagle))
    assert s.decision == D.MOVE_START and s.thing_status[f] == DONE and s.thing_hex[f] == W1


# ----------------------------------------------------------------- Deerhunter (A.3, RD4.5)


def _forest_board() -> GameState:
    s = line_board()
    own(s, 0, *ALL)
    s.hex_terrain[:] = FOREST
    return s


def test_deerhunter_stack_pays_one_per_hex():
    s = _forest_board()
    w = put(s, "Camel Corps", 0, C)
    dh = hero(s, "Deerhunter", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", w), ("hero", dh)], [E1, E2, 12, 4])
    assert s.thing_mp[w] == 0 and s.hero_mp[dh] == 0 and s.thing_hex[w] == 4


def test_deerhunter_drop_recomputes_costs():
    """RD4.5: a qualifying counter separated from him pays normal costs for the whole path."""
    s = _forest_board()
    w = put(s, "Camel Corps", 0, C)
    v = put(s, "Dervish", 0, C)
    dh = hero(s, "Deerhunter", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", w), ("thing", v), ("hero", dh)], [E1, E2])
    assert a_thing(s, w) in legal(s) and a_hero(s, dh) in legal(s)  # normal cost 4: still fine
    act(s, a_dir(s, E2, 12))
    options = legal(s)
    assert a_thing(s, w) not in options and a_hero(s, dh) not in options  # normal cost 6 > 4
    assert PASS in options
    act(s, a_dir(s, 12, 4))
    act(s, PASS)
    assert s.thing_hex[[w, v]].tolist() == [4, 4]


def test_deerhunter_dropped_early_leaves_normal_costs():
    s = _forest_board()
    w = put(s, "Camel Corps", 0, C)
    dh = hero(s, "Deerhunter", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", w), ("hero", dh)], [E1])
    assert s.thing_mp[w] == 3
    act(s, a_hero(s, dh))  # the walker now pays Forest prices for the hex it entered
    assert s.thing_mp[w] == 2 and not s.frame(Move).deerhunter
    act(s, a_dir(s, E1, E2))
    assert s.thing_mp[w] == 0


def test_deerhunter_picked_up_counter_pays_normal():
    s = _forest_board()
    dh = hero(s, "Deerhunter", 0, C)
    late = put(s, "Dervish", 0, E1)
    start_phase(s, MOVEMENT)
    move(s, C, [("hero", dh)], [E1])
    act(s, a_thing(s, late))
    act(s, a_dir(s, E1, E2))
    assert s.hero_mp[dh] == 2 and s.thing_mp[late] == 2


def test_deerhunter_leads_out_of_a_pinned_hex():
    """A.3 Effect 2: his moving stack may leave the hex where it is pinned."""
    s, a, _ = _pinned_board(fort=True)
    dh = hero(s, "Deerhunter", 0, W1)
    start_phase(s, MOVEMENT)
    assert W1 in mover_hexes(s)
    act(s, a_hex(s, W1))
    act(s, a_thing(s, a))  # a pinned walker alone may not go: the Deerhunter, the only choice left,
    assert s.decision == D.MOVE_STACK and s.hero_status[dh] == MOVING  # is added and they go (forced)
    assert W2 in legal_directions(s)
    act(s, a_dir(s, W1, W2))
    assert s.thing_hex[a] == W2 and s.hero_hex[dh] == W2


def test_deerhunter_dropped_in_the_pinned_hex_strands_the_rest():
    s, a, _ = _pinned_board(fort=True)
    dh = hero(s, "Deerhunter", 0, W1)
    start_phase(s, MOVEMENT)
    move(s, W1, [("thing", a), ("hero", dh)], [])
    act(s, a_hero(s, dh))
    assert legal_directions(s) == set()


# ----------------------------------------------------------------- end of turn (R11.8) and R11.9


def test_conquest_by_movement_of_an_empty_enemy_hex():
    """R11.8.1: control marker replaced, the special income counter changes owner, cloud removed."""
    s = line_board()
    own(s, 0, C)
    own(s, 1, E1, W2)
    farm = put(s, "Farmlands", 1, E1)
    s.cloud_hex = E1
    a = put(s, "Camel Corps", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", a)], [E1])
    act(s, PASS)
    assert s.hex_owner[E1] == 1  # not before the end of the turn (RD4.4)
    act(s, PASS)  # end of P0's movement; P1 has nothing to move
    assert s.hex_owner[E1] == 0 and s.thing_owner[farm] == 0 and s.cloud_hex == -1
    assert s.stats["hexes_conquered"] == 1
    assert s.hex_owner[W2] == 1


def test_passing_through_or_stopping_at_a_fort_does_not_conquer():
    s = position(f"""
        phase movement
        h{C} p0: Camel Corps, Dervish
        h{E2} p0
        h{E1} p1; h{W1} p1 tower
        h{SPARE} p0: Sphinx
    """)
    a, b = thing("Camel Corps"), thing("Dervish")
    move(s, C, [("thing", a)], [E1, E2])
    act(s, PASS)
    move(s, C, [("thing", b)], [W1])
    act(s, PASS)
    assert s.hex_owner[E1] == 1 and s.hex_owner[W1] == 1
    assert s.stats["hexes_conquered"] == 0


def test_income_counter_window_then_combat():
    """R11.9 / RD8.4: each player in turn order may remove own income counters, then phase 6."""
    s = position(f"""
        phase movement; first 1
        h{C} p0: Village, Camel Corps
        h{W2} p1: City
        h{SPARE} p0: Sphinx
    """)
    village, city = thing("Village"), thing("City")
    assert (s.decision, s.actor) == (D.MOVE_START, 0)  # P1 had nothing to move
    act(s, PASS)
    assert (s.decision, s.actor) == (D.REMOVE_INCOME, 1)
    assert legal(s) == {PASS, a_thing(s, city)}
    act(s, PASS)
    assert (s.decision, s.actor) == (D.REMOVE_INCOME, 0)
    act(s, a_thing(s, village))
    assert s.thing_place[village] == CUP and s.hex_income[C] == -1
    assert s.stats["income_counters_removed"] == 1
    act(s, PASS)
    assert s.phase != MOVEMENT
    assert s.frame(MovementTurn) is None and s.frame(Move) is None
    assert not s.thing_mp.any() and not s.thing_status.any() and not s.thing_moved.any()


def test_phase_end_goes_to_combat():
    s = line_board(spare=False)
    own(s, 0, C)
    own(s, 1, W2)
    s.phase, s.stage, s.turn = MOVEMENT, 0, 0
    while s.phase == MOVEMENT:  # drive the runner alone: PASS for every decision
        movement.run(s)
        if s.decision != D.NONE:
            machine._apply(s, PASS)
    assert (s.phase, s.stage, s.turn) == (COMBAT, 0, 0) and s.decision == D.NONE
    assert not s.frames


# ----------------------------------------------------------------- JSON and random play


def test_json_round_trip_over_sea():
    s = line_board()
    own(s, 0, *[h for h in ALL if h != E1])
    s.hex_terrain[E1] = SEA
    f = put(s, "Pegasus", 0, C)
    start_phase(s, MOVEMENT)
    move(s, C, [("thing", f)], [E1])
    copy = GameState.from_json(s.to_json())
    assert np.array_equal(legal_mask(copy), legal_mask(s))
    for g in (s, copy):
        act(g, a_dir(g, E1, E2))
        act(g, PASS)
    assert copy.to_json() == s.to_json()


def _play(n_players: int, seed: int, rounds: int, exact_every: int = 0) -> GameState:
    rng = np.random.default_rng(seed)
    s = new_game(GameConfig(n_players=n_players, max_rounds=rounds), seed)
    k = 0
    while not s.game_over:
        mask = legal_mask(s)
        options = np.flatnonzero(mask)
        assert options.size, f"empty mask at {D.NAMES[s.decision]}"
        if s.phase == MOVEMENT and exact_every and k % exact_every == 0:
            for a in options[rng.permutation(options.size)[:8]]:  # every allowed action is accepted
                g = s.copy()
                step(g, int(a))
                g.check_invariants()
        step(s, int(options[rng.integers(options.size)]))
        s.check_invariants()
        if s.phase != MOVEMENT:
            assert not (s.thing_mp.any() or s.thing_status.any() or s.thing_pinned.any() or s.thing_moved.any()
                        or s.hero_mp.any() or s.hero_status.any() or s.hero_pinned.any() or s.hero_moved.any())
            assert s.frame(MovementTurn) is None and s.frame(Move) is None
        k += 1
    return s


@pytest.mark.parametrize("n_players,seed,rounds", [(2, 11, 30), (3, 12, 20), (4, 13, 15)])
def test_random_games_with_combat_passing_through(monkeypatch, n_players, seed, rounds):
    """Stacks stay in contested and unexplored hexes round after round: movement must cope."""
    def through(s):
        s.phase, s.stage, s.turn = s.phase + 1, 0, 0
    monkeypatch.setitem(machine.RUNNERS, COMBAT, through)
    s = _play(n_players, seed, rounds, exact_every=7)
    assert s.round >= 2


@pytest.mark.parametrize("n_players,seed", [(2, 0), (3, 0), (4, 1)])
def test_random_full_games(n_players, seed):
    s = _play(n_players, seed, 25)
    assert s.stats["hexes_conquered"] >= 0

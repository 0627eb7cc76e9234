"""R15.1 special powers: the Master Thief (A.5) and the Assassin Primus (A.7)."""

from __future__ import annotations

from ktenv.constants import CUP, PLAINS, SCREEN
from ktenv.engine import decisions as D
from ktenv.engine import legal_actions, step
from ktenv.engine.actions import NUMBER, PASS
from ktenv.engine.machine import layout
from ktenv.engine.special_powers import ASSASSIN, THIEF
from ktenv.state import SPECIAL

from .builders import board, hero, own, put, screen, start_phase, thing


def setup_two():
    s = board(2, 3, gold=None)
    s.hex_terrain[:] = PLAINS
    own(s, 0, 0)
    own(s, 1, 3)
    return s


def use(s, face, victim_rel=1):
    lay = layout(s)
    step(s, lay.hero + face)
    if s.decision == D.SPECIAL_VICTIM:
        step(s, lay.player + victim_rel)


def test_thief_wins_the_duel_and_takes_all_gold():
    """A.5: thief higher on the first roll -> chooses all the victim's gold."""
    s = setup_two()
    hero(s, "Master Thief", 0, 0)
    s.gold[:] = (3, 17)
    screen(s, thing("Bears"), 1)
    s.rng.script = [6, 6, 1, 1]
    start_phase(s, SPECIAL)
    assert s.decision == D.SPECIAL_USE and s.actor == 0
    use(s, THIEF)  # 2 players: the victim is forced
    assert s.decision == D.THIEF_TAKE
    step(s, NUMBER)
    assert tuple(s.gold) == (20 + 2, 0 + 1)  # the next round's income follows at once (2 and 1)


def test_thief_steals_a_screen_counter():
    s = setup_two()
    hero(s, "Master Thief", 0, 0)
    bears = screen(s, thing("Bears"), 1)
    s.rng.script = [6, 6, 1, 1]
    start_phase(s, SPECIAL)
    use(s, THIEF)
    step(s, NUMBER + 1)
    assert s.thing_place[bears] == SCREEN and s.thing_owner[bears] == 0


def test_thief_screen_option_needs_a_counter():
    """RD10.3: with an empty screen only the gold can be taken (forced)."""
    s = setup_two()
    hero(s, "Master Thief", 0, 0)
    s.gold[:] = (0, 9)
    s.rng.script = [6, 6, 1, 1]
    start_phase(s, SPECIAL)
    use(s, THIEF)
    assert tuple(s.gold) == (9 + 2, 0 + 1)


def test_thief_caught_after_a_tie_returns_to_the_pool_turned_over():
    """A.5 / RD5.5: a tie, then the victim higher: caught, back to the pool turned over."""
    s = setup_two()
    f = hero(s, "Master Thief", 0, 0)
    s.rng.script = [3, 3, 2, 4, 1, 1, 2, 2]
    start_phase(s, SPECIAL)
    use(s, THIEF)
    assert s.hero_owner[f] == -1 and s.hero_up[f // 2] == (f % 2) ^ 1


def test_victim_higher_nothing_happens():
    s = setup_two()
    f = hero(s, "Master Thief", 0, 0)
    s.gold[:] = (1, 9)
    s.rng.script = [1, 1, 6, 6]
    start_phase(s, SPECIAL)
    use(s, THIEF)
    assert tuple(s.gold) == (1 + 2, 9 + 1) and s.hero_owner[f] == 0


def test_assassin_strikes_the_only_eligible_counter_without_a_roll():
    """A.7: one hero or face-down counter in the hex: it is eliminated."""
    s = setup_two()
    hero(s, "Assassin Primus", 0, 0)
    victim = put(s, thing("Farmers"), 1, 3)
    s.rng.script = [5, 2]  # one d6 each (X13 default)
    start_phase(s, SPECIAL)
    lay = layout(s)
    step(s, lay.hero + ASSASSIN)  # the target hex is forced (only one)
    assert s.thing_place[victim] == CUP


def test_assassin_roll_decides_whose_choice_dies():
    """A.7: both name a target; d6 1-3 the assassin's, 4-6 the owner's."""
    s = setup_two()
    hero(s, "Assassin Primus", 0, 0)
    a, b = put(s, thing("Farmers"), 1, 3), put(s, thing("Centaur"), 1, 3)
    s.rng.script = [5, 2, 2]
    start_phase(s, SPECIAL)
    lay = layout(s)
    step(s, lay.hero + ASSASSIN)
    assert s.decision == D.ASSASSIN_TARGET and s.actor == 0
    step(s, lay.thing + a)
    assert s.decision == D.ASSASSIN_TARGET and s.actor == 1
    step(s, lay.thing + b)
    assert s.thing_place[a] == CUP and s.thing_place[b] != CUP


def test_no_power_no_question():
    s = setup_two()
    start_phase(s, SPECIAL)
    assert s.phase != SPECIAL or s.decision != D.SPECIAL_USE
    assert PASS == 0 and legal_actions(s).size >= 1

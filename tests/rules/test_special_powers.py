"""R15.1 special powers: the Master Thief (A.5) and the Assassin Primus (A.7)."""

from __future__ import annotations

import pytest

from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things import native
from ktenv.kings_and_things.constants import CUP, PLAINS, SCREEN
from ktenv.kings_and_things.engine import describe_action, legal_actions, legal_mask, step
from ktenv.kings_and_things.engine.actions import NUMBER, PASS, YES
from ktenv.kings_and_things.engine.machine import layout
from ktenv.kings_and_things.engine.special_powers import ASSASSIN, THIEF
from ktenv.kings_and_things.env.testing import swap_identities
from ktenv.kings_and_things.procedures import SpecialPower
from ktenv.kings_and_things.state import SPECIAL

from ..builders import board, hero, own, put, screen, start_phase, thing


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


def _assassin_at_target(hidden=("Farmers", "Centaur"), known=(), salt=0):
    """Player 0's Assassin wins the duel against player 1's hex 3 (dice 5 v 2, then the strike 2).
    With face-down counters alone his choice is forced (YES) and made at once: player 1 names next."""
    s = setup_two()
    hero(s, "Assassin Primus", 0, 0)
    down = [put(s, thing(name), 1, 3) for name in hidden]
    shown = [put(s, thing(name), 1, 3) for name in known]
    for c in shown:
        s.thing_public[c] = True  # face down again, but all saw it (RI.4)
    s.rng.script = [5, 2, 2]
    s.rng.state ^= salt
    start_phase(s, SPECIAL)
    step(s, layout(s).hero + ASSASSIN)
    assert s.decision == D.ASSASSIN_TARGET and s.actor == (0 if shown else 1)
    return s, down, shown


def test_assassin_roll_decides_whose_choice_dies():
    """A.7: both name a target; d6 1-3 the assassin's, 4-6 the owner's."""
    s, (a, b), _ = _assassin_at_target()
    pick = s.frame(SpecialPower).target_a  # the forced YES: the game's draw among the face-down pair
    assert pick in (a, b)
    step(s, layout(s).thing + (b if pick == a else a))
    assert s.thing_place[pick] == CUP and s.thing_place[a if pick == b else b] != CUP


def test_assassin_cannot_name_a_face_down_counter_he_cannot_identify():
    """A.7: a face-down target's identity is unknown to the assassin's owner, so his mask names no such
    counter (RI: the mask leaks nothing). YES points at one of them, the draw saying which; a counter all
    have seen is named by id. The hex owner names any of his own by id."""
    s, (a, b), (bears,) = _assassin_at_target(known=("Bears",))
    lay = layout(s)
    assert set(legal_actions(s)) == {YES, lay.thing + bears}
    assert describe_action(s, YES) == "assassin's target: one of the face-down counters"
    step(s, YES)
    assert set(legal_actions(s)) == {lay.thing + a, lay.thing + b, lay.thing + bears}


def test_assassin_mask_ignores_which_counters_are_in_the_hex():
    """Swapping a face-down counter of the hex with one elsewhere leaves the assassin's mask as it was."""
    s, (a, _), _ = _assassin_at_target(known=("Goblins",))
    other = put(s, thing("Bears"), 1, 4)
    own(s, 1, 4)
    swapped = swap_identities(s, a, other)
    assert (legal_mask(swapped) == legal_mask(s)).all()


def test_assassin_draw_reaches_every_face_down_counter():
    """The counter YES points at is the game's draw, uniform over the face-down ones."""
    hit = set()
    for seed in range(40):
        s, down, _ = _assassin_at_target(hidden=("Farmers", "Centaur", "Ogre"), salt=seed * 0x9E3779B97F4A7C15 % 2**64)
        assert s.frame(SpecialPower).target_a in down
        hit.add(s.frame(SpecialPower).target_a)
    assert hit == set(down)


def test_no_power_no_question():
    s = setup_two()
    start_phase(s, SPECIAL)
    assert s.phase != SPECIAL or s.decision != D.SPECIAL_USE
    assert PASS == 0 and legal_actions(s).size >= 1


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
def test_native_engine_names_and_draws_the_assassin_target_alike():
    """Both engines give the same masks, the same draw and the same victim (two engines, one game)."""
    from ktenv.kings_and_things.native.game import NativeGame

    for salt in range(12):
        s, _, _ = _assassin_at_target(hidden=("Farmers", "Centaur", "Ogre"), known=("Goblins",),
                                      salt=salt * 0x9E3779B97F4A7C15 % 2**64)
        n = NativeGame.from_python(s)
        for _ in range(2):
            assert (legal_mask(n) == legal_mask(s)).all()
            action = YES if s.actor == 0 else int(legal_actions(s)[salt % 4])
            step(s, action)
            step(n, action)
        assert n.to_python().to_dict() == s.to_dict()

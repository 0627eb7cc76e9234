"""Victory: the sole Citadel (R16.2, RT.16), two Citadels (R16.3), every alternative condition of
R19 (quick, unique_a, unique_b, fixed_rounds, land_conquest), the round limit (R16.7) and
elimination (R16.6)."""

from __future__ import annotations

import pytest

from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.engine.machine import step
from ktenv.kings_and_things.engine.victory import citadel_captured
from ktenv.kings_and_things.state import CHANGE_ORDER, CONSTRUCTION, GAME_OVER, InvariantError

from ..builders import board, hero, own, put_some, screen_some, start_phase
from ..play import a_hex, masked_in, run_until

P0_HEXES = (0, 1, 2, 3)
P1_HEXES = (10, 11, 12, 13)
P2_HEXES = (15, 16)


def _castles(n_players: int = 2, seed: int = 0, **options):
    """Players 0 and 1: four hexes with a Castle each (income 16: enough for a Citadel with 2-3
    players, R14.3) and 50 gold; a third player (if any) two bare hexes."""
    s = board(n_players, seed, **options)
    own(s, 0, *P0_HEXES)
    own(s, 1, *P1_HEXES)
    s.hex_fort[list(P0_HEXES + P1_HEXES)] = 3
    if n_players == 3:
        own(s, 2, *P2_HEXES)
    s.gold[:] = 50
    return s


def _build_citadel(s, player: int, hx: int) -> None:
    """Run to `player`'s Construction turn and raise the Castle on `hx` to a Citadel."""
    run_until(s, lambda g: g.decision == D.BUILD and g.actor == player)
    assert hx in masked_in(s, "HEX")
    now = s.round
    step(s, a_hex(s, hx))  # play may run on to the next decision, even into the next round
    assert s.hex_fort[hx] == 4 and s.hex_citadel_round[hx] == now


def _capture(s, hx: int, player: int) -> None:
    """What the conquest code does when `player` takes the Citadel hex `hx` (R13.11, R16.1)."""
    s.hex_owner[hx] = player
    s.edited()
    citadel_captured(s, hx)


def _finish(s, limit_round: int) -> None:
    run_until(s, lambda g: g.round > limit_round)


# ----------------------------------------------------------------- R16.2 sole Citadel


def test_sole_citadel_wins_at_the_end_of_the_next_construction_phase_r16_2():
    s = _castles()
    start_phase(s, CONSTRUCTION, round_no=5)
    _build_citadel(s, 0, 0)
    run_until(s, lambda g: g.phase != CONSTRUCTION)
    assert not s.game_over  # built this round: no win yet
    run_until(s, lambda g: g.round == 6 and g.phase == CONSTRUCTION)
    assert not s.game_over
    run_until(s, lambda g: g.phase != CONSTRUCTION)
    assert s.game_over and s.winners == [0] and s.reason == "sole_citadel"
    assert s.round == 6
    assert s.phase == GAME_OVER and s.decision == D.NONE


def test_second_citadel_in_the_same_phase_switches_to_conquest_rt_16():
    """RT.16: built in round 5; a second Citadel completed in round 6's Construction phase
    prevents the win and from then on only conquest wins (R16.3, R16.5)."""
    s = _castles()
    start_phase(s, CONSTRUCTION, round_no=5)
    _build_citadel(s, 0, 0)
    run_until(s, lambda g: g.round == 6 and g.phase == CONSTRUCTION and g.actor == 1)
    _build_citadel(s, 1, 10)
    run_until(s, lambda g: g.round == 9)
    assert not s.game_over  # two Citadels: nobody wins by holding one
    _capture(s, 10, 0)
    assert s.game_over and s.winners == [0] and s.reason == "two_citadels"


def test_two_citadels_completed_in_the_same_phase_r16_5():
    s = _castles()
    start_phase(s, CONSTRUCTION, round_no=3)
    _build_citadel(s, 0, 0)
    _build_citadel(s, 1, 10)
    run_until(s, lambda g: g.round == 6)
    assert not s.game_over


def test_captured_citadel_wins_after_the_next_construction_phase_r16_2():
    s = _castles()
    s.round = 4
    s.hex_fort[10] = 4
    s.hex_citadel_round[10] = 2  # player 1's, held since round 2: player 1 would win now
    s.hex_citadel_seq[10] = 0
    s.citadel_seq = 1
    _capture(s, 10, 0)  # taken by player 0 in round 4's Combat phase
    assert not s.game_over and s.hex_citadel_round[10] == 4
    start_phase(s, CONSTRUCTION)
    run_until(s, lambda g: g.phase != CONSTRUCTION)
    assert not s.game_over  # acquired this round
    run_until(s, lambda g: g.round > 5)
    assert s.game_over and s.winners == [0] and s.reason == "sole_citadel" and s.round == 5


def test_interrupted_holding_restarts_the_count_r16_2():
    s = _castles()
    start_phase(s, CONSTRUCTION, round_no=5)
    _build_citadel(s, 0, 0)
    run_until(s, lambda g: g.round == 6)
    _capture(s, 0, 1)  # player 1 takes it in round 6
    run_until(s, lambda g: g.round == 7)
    assert not s.game_over  # player 1 acquired it in round 6
    run_until(s, lambda g: g.round == 8)
    assert s.game_over and s.winners == [1] and s.round == 7


def test_player_who_lost_a_citadel_may_build_again_r16_4():
    s = _castles()
    s.round = 4
    s.hex_fort[0] = 4
    s.hex_citadel_round[0] = 1
    _capture(s, 0, 1)  # player 1 now owns a Citadel; player 0 owns none
    own(s, 0, *[4, 5, 6])  # income 6 + 9 = 15 (R14.3)
    start_phase(s, CONSTRUCTION)
    assert s.actor == 0 and {1, 2, 3} <= set(masked_in(s, "HEX"))


# ----------------------------------------------------------------- R16.3 two Citadels


def test_two_citadels_win_at_once_r16_3():
    s = _castles()
    s.round = 3
    for hx in (0, 10):
        s.hex_fort[hx] = 4
        s.hex_citadel_round[hx] = 2
    s.check_invariants()
    _capture(s, 10, 0)
    assert s.game_over and s.winners == [0] and s.reason == "two_citadels"
    s.check_invariants()


def test_two_citadels_without_a_win_break_the_invariant_only_in_standard_r16_3():
    for variant in ("standard", "fixed_rounds", "land_conquest", "unique_b", "quick"):
        s = _castles(victory=variant)
        s.hex_fort[[0, 1]] = 4
        s.hex_citadel_round[[0, 1]] = 1
        if variant == "standard":
            with pytest.raises(InvariantError):
                s.check_invariants()
        else:
            s.check_invariants()  # R19 replaces R16.3: two Citadels are no win by themselves


# ----------------------------------------------------------------- R19.1 quick victory


def test_quick_victory_at_the_end_of_the_same_round_r19_1():
    s = _castles(victory="quick")
    start_phase(s, CONSTRUCTION, round_no=3)
    _build_citadel(s, 0, 0)
    assert not s.game_over and s.decision == D.BUILD and s.actor == 1  # not at the build itself
    run_until(s, lambda g: g.round > 3)  # phases 8 and 9 ask nothing: the round ends
    assert s.game_over and s.winners == [0] and s.reason == "quick_citadel" and s.round == 3


def test_quick_victory_tie_goes_to_the_first_acquirer_rd9_3():
    s = _castles(victory="quick")
    start_phase(s, CONSTRUCTION, round_no=3, first=1)
    _build_citadel(s, 1, 10)
    _build_citadel(s, 0, 0)
    run_until(s, lambda g: g.round > 3)
    assert s.winners == [1]


@pytest.mark.parametrize("acquire,wins", [("build_or_conquer", True), ("build_only", False)])
def test_quick_victory_by_conquest_option_x23(acquire, wins):
    s = _castles(victory="quick", quick_victory_acquire=acquire)
    s.round = 4
    s.hex_fort[10] = 4
    s.hex_citadel_round[10] = 2
    _capture(s, 10, 0)
    start_phase(s, CHANGE_ORDER)
    assert s.game_over == wins
    if wins:
        assert s.winners == [0] and s.reason == "quick_citadel"


# ----------------------------------------------------------------- R19.2 unique Citadel


def test_unique_a_no_second_citadel_and_win_after_the_next_round_r19_2_1():
    s = _castles(victory="unique_a")
    start_phase(s, CONSTRUCTION, round_no=3)
    _build_citadel(s, 0, 0)
    run_until(s, lambda g: g.decision == D.BUILD and g.actor == 1 or g.round > 3)
    if s.decision == D.BUILD and s.actor == 1:
        assert 10 not in masked_in(s, "HEX")  # once a Citadel exists no other may be built
    run_until(s, lambda g: g.round > 3)
    assert not s.game_over
    run_until(s, lambda g: g.round == 4 and g.phase == CONSTRUCTION and g.actor == 1)
    assert not set(P1_HEXES) & set(masked_in(s, "HEX"))
    run_until(s, lambda g: g.round > 4)
    assert s.game_over and s.winners == [0] and s.reason == "unique_citadel" and s.round == 4


def test_unique_a_capturer_holds_one_round_x24():
    s = _castles(victory="unique_a")
    s.round = 5
    s.hex_fort[0] = 4
    s.hex_citadel_round[0] = 4  # player 0 built it in round 4 ...
    _capture(s, 0, 1)  # ... and player 1 takes it in round 5: player 1 must hold it through round 6
    start_phase(s, CHANGE_ORDER)
    assert not s.game_over
    run_until(s, lambda g: g.round > 6)
    assert s.game_over and s.winners == [1] and s.round == 6


def test_unique_a_immediate_capture_option_x24():
    s = _castles(victory="unique_a", unique_a_capture="immediate")
    s.round = 5
    s.hex_fort[0] = 4
    s.hex_citadel_round[0] = 4
    _capture(s, 0, 1)
    assert s.game_over and s.winners == [1] and s.reason == "unique_citadel"


def test_unique_b_everyone_may_build_and_two_win_at_the_end_of_a_round_r19_2_2():
    s = _castles(victory="unique_b")
    start_phase(s, CONSTRUCTION, round_no=3)
    _build_citadel(s, 0, 0)
    _build_citadel(s, 1, 10)
    run_until(s, lambda g: g.round == 6)
    assert not s.game_over  # no sole-Citadel win in variant B
    _capture(s, 10, 0)
    assert not s.game_over  # two Citadels count at the end of the round
    s.check_invariants()
    run_until(s, lambda g: g.round > 6)
    assert s.game_over and s.winners == [0] and s.reason == "two_citadels" and s.round == 6


def test_unique_b_sole_citadel_never_wins_r19_2_2():
    s = _castles(victory="unique_b")
    start_phase(s, CONSTRUCTION, round_no=3)
    _build_citadel(s, 0, 0)
    run_until(s, lambda g: g.round == 8)
    assert not s.game_over


# ----------------------------------------------------------------- R19.3 fixed number of rounds


def test_fixed_rounds_highest_income_r19_3():
    s = _castles(victory="fixed_rounds", fixed_rounds=3)
    s.hex_fort[13] = 4  # player 1: income 17 against 16
    s.hex_citadel_round[13] = 1
    start_phase(s, CHANGE_ORDER, round_no=2)
    assert not s.game_over
    run_until(s, lambda g: g.round > 3)
    assert s.game_over and s.winners == [1] and s.reason == "fixed_rounds" and s.round == 3


def test_fixed_rounds_ties_most_hexes_then_gold_then_shared_rd9_3():
    s = _castles(victory="fixed_rounds", fixed_rounds=3)
    own(s, 1, *[14])
    s.hex_fort[list(P1_HEXES)] = [3, 3, 3, 2]  # player 1: 5 hexes + 11; player 0: 4 hexes + 12
    s.gold[:] = [90, 10]
    assert s.income(0) == s.income(1) == 16
    start_phase(s, CHANGE_ORDER, round_no=3)
    assert s.winners == [1]  # equal income: most land hexes (gold does not matter yet)
    # equal income and hexes: most gold
    s2 = _castles(victory="fixed_rounds", fixed_rounds=3)
    s2.gold[:] = [30, 31]
    start_phase(s2, CHANGE_ORDER, round_no=3)
    assert s2.winners == [1]
    # everything equal: a shared win
    s3 = _castles(victory="fixed_rounds", fixed_rounds=3)
    start_phase(s3, CHANGE_ORDER, round_no=3)
    assert s3.winners == [0, 1] and s3.reason == "fixed_rounds"


# ----------------------------------------------------------------- R19.4 land conquest


@pytest.mark.parametrize("n_players,threshold", [(2, 13), (3, 10), (4, 19)])
def test_land_conquest_thresholds_r19_4(n_players, threshold):
    s = board(n_players, 3, victory="land_conquest")
    assert s.cfg.land_threshold == threshold
    n = s.geo.n_hexes
    for p in range(1, n_players):
        own(s, p, *[n - p])
    mine = [h for h in range(n) if s.hex_owner[h] == -1][:threshold - 1]
    own(s, 0, *mine)
    t = s.copy()
    start_phase(s, CHANGE_ORDER, round_no=2)
    assert not s.game_over  # one short
    extra = [h for h in range(n) if t.hex_owner[h] == -1][0]
    own(t, 0, *[extra])
    start_phase(t, CHANGE_ORDER, round_no=2)
    assert t.game_over and t.winners == [0] and t.reason == "land_conquest"


def test_land_conquest_2p_threshold_option_and_ties_rd9_3():
    s = board(2, 4, victory="land_conquest", land_threshold_2p=5)
    own(s, 0, *range(0, 6))
    own(s, 1, *range(10, 17))
    start_phase(s, CHANGE_ORDER, round_no=2)
    assert s.winners == [1]  # both qualify: most hexes
    s2 = board(2, 4, victory="land_conquest", land_threshold_2p=5)
    own(s2, 0, *range(0, 6))
    own(s2, 1, *range(10, 16))
    start_phase(s2, CHANGE_ORDER, round_no=2, first=1)
    assert s2.winners == [1]  # equal: turn order of the round


# ----------------------------------------------------------------- R16.7 round limit


def test_round_limit_decides_by_income_r16_7():
    s = _castles(max_rounds=5)
    s.hex_fort[0] = 2  # player 1 has the higher income
    start_phase(s, CHANGE_ORDER, round_no=4)
    assert not s.game_over and s.round == 5
    run_until(s, lambda g: False)
    assert s.game_over and s.winners == [1] and s.reason == "round_limit" and s.round == 5


def test_no_round_limit_option():
    s = _castles(max_rounds=None)
    start_phase(s, CHANGE_ORDER, round_no=10_000)
    assert not s.game_over


def test_fixed_rounds_before_the_round_limit_r19_3():
    s = _castles(victory="fixed_rounds", fixed_rounds=4, max_rounds=4)
    start_phase(s, CHANGE_ORDER, round_no=4)
    assert s.reason == "fixed_rounds"


# ----------------------------------------------------------------- R16.6 elimination


def test_elimination_and_last_player_standing_r16_6():
    s = _castles()
    s.hex_owner[list(P1_HEXES)] = -1
    s.hex_fort[list(P1_HEXES)] = 0
    screen_some(s, 3, 1)
    start_phase(s, CHANGE_ORDER, round_no=2)
    assert s.game_over and s.winners == [0] and s.reason == "last_standing"
    assert not s.alive[1] and s.screen_size(1) == 0 and s.gold[1] == 0  # screen emptied into the cup


def test_eliminated_player_is_skipped_r16_6():
    s = _castles(3)
    s.hex_owner[list(P2_HEXES)] = -1
    screen_some(s, 2, 2)
    start_phase(s, CHANGE_ORDER, round_no=2, first=1)
    assert not s.game_over
    assert not s.alive[2] and s.screen_size(2) == 0
    assert s.first_player == 2 or 2 not in s.turn_order()
    assert s.turn_order() in ([0, 1], [1, 0])
    run_until(s, lambda g: g.round == 4, check=True)
    assert s.turn_order() in ([0, 1], [1, 0])


def test_counters_on_the_board_keep_a_player_in_r16_6():
    s = _castles(3)
    s.hex_owner[list(P2_HEXES)] = -1
    hero(s, "Marksman", 2, P2_HEXES[0])  # a hero on an unowned hex
    start_phase(s, CHANGE_ORDER, round_no=2)
    assert s.alive[2]
    s2 = _castles(3)
    s2.hex_owner[list(P2_HEXES)] = -1
    put_some(s2, 1, 2, P2_HEXES[1])
    start_phase(s2, CHANGE_ORDER, round_no=2)
    assert s2.alive[2]


def test_turn_order_passes_left_r15_2_and_never_with_two_players_r5_3():
    s = _castles(3)
    start_phase(s, CHANGE_ORDER, round_no=2, first=2)
    assert s.first_player == 0 and s.round == 3
    s2 = _castles(2)
    start_phase(s2, CHANGE_ORDER, round_no=2, first=1)
    assert s2.first_player == 1 and s2.round == 3

"""Kingsburg rules: the worked examples of K18 as test vectors, and the other rules of the page, each test
citing its K-numbers. States are arranged by hand and the dice scripted (ktenv.rng.Dice.script)."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kingsburg import (
    IllegalActionError,
    KingsburgConfig,
    KingsburgState,
    aid,
    battle,
    construction,
    legal_mask,
    new_game,
    scoring,
    season,
    step,
    year,
)
from ktenv.kingsburg import actions as A
from ktenv.kingsburg import catalog as cat
from ktenv.kingsburg.common import enter
from ktenv.kingsburg.machine import resume
from ktenv.kingsburg.state import BATTLE, BUILD, INFLUENCE, REROLL, SEASON_END, SEASON_START

ANN, BRIAN, CINDY, DAVID = range(4)


def blank(n: int = 4, **cfg) -> KingsburgState:
    s = KingsburgState(KingsburgConfig(n_players=n, **cfg), 0)
    s.enemy_deck[:] = [cat.CARDS_OF_YEAR[y][0] for y in range(cat.YEARS)]
    return s


def own(s: KingsburgState, p: int, *names: str) -> None:
    for name in names:
        row, column = divmod(cat.BUILDING_NAMES.index(name), cat.COLUMNS)
        s.built[p, row, column] = True


def season_start(s: KingsburgState, order, dice, phase: int = 2) -> KingsburgState:
    """Start a productive season with the previous turn order `order` and scripted `dice` (rolled in
    that order: each player's coloured dice, then white dice)."""
    s.order[:] = order
    s.phase = phase
    enter(s, SEASON_START)
    s.rng.script = list(dice)
    resume(s)
    return s


def legal(s: KingsburgState) -> list[int]:
    return np.flatnonzero(legal_mask(s)).tolist()


def place(s: KingsburgState, player: int, advisor: int, values: list[int]) -> None:
    """P4/P5: `player` influences `advisor` with dice of these values (coloured, as in K18.2)."""
    assert (s.decision, s.actor) == (A.INFLUENCE, player), (s.decision, s.actor)
    step(s, A.TARGET + advisor - 1)
    if s.decision == A.GROUP_DICE and s.actor == player:
        wanted = sorted(values)
        choice = [a for a in legal(s) if sorted(int(s.dice[player, j]) for j in A.SUBSETS[a - A.DICE]) == wanted]
        step(s, choice[0])
    assert (s.die_advisor[player] == advisor).sum() == len(values)


def k18_1_order() -> KingsburgState:
    # previous order Cindy, Ann, David, Brian; rolls Cindy 2-2-6, Ann 1-3-5, David 2-3-5, Brian 4-4-5
    return season_start(blank(), [CINDY, ANN, DAVID, BRIAN], [2, 2, 6, 1, 3, 5, 2, 3, 5, 4, 4, 5])


def test_k18_1_turn_order_ascending_totals_ties_keep_previous_order():  # K5.2.3, K18.1
    s = k18_1_order()
    assert s.order.tolist() == [ANN, CINDY, DAVID, BRIAN]
    assert (s.decision, s.actor) == (A.INFLUENCE, ANN)
    assert season.new_turn_order([2, 0, 3, 1], np.array([9, 13, 10, 10])) == [0, 2, 3, 1]


def test_k18_2_influence_and_help():  # K5.3, K5.4, K11, K18.2
    s = k18_1_order()
    place(s, ANN, 8, [5, 3])
    assert A.TARGET + 8 - 1 not in legal(s)  # Cindy cannot take 8 (2+6): taken (K5.3.5)
    place(s, CINDY, 4, [2, 2])
    place(s, DAVID, 7, [2, 5])
    assert A.TARGET + 8 - 1 not in legal(s)  # Brian's 4+4 -> 8 is taken
    place(s, BRIAN, 9, [4, 5])
    place(s, ANN, 1, [1])
    place(s, CINDY, 6, [6])
    place(s, DAVID, 3, [3])
    # Brian's 4 has no free advisor: a forced pass (K5.3.1, D8); the others have no dice left
    assert s.passed.all() and ((s.dice[BRIAN] == 4) & (s.die_advisor[BRIAN] == -1)).sum() == 1
    # help (K5.4): Ann +1 VP at 1; David +1 wood at 3; Cindy picks wood at 4 ...
    assert (s.decision, s.actor) == (A.HELP_GOOD, CINDY) and s.vp[ANN] == 1 and s.goods[DAVID].tolist() == [0, 1, 0]
    assert legal(s) == [A.PICK_GOOD + cat.GOLD, A.PICK_GOOD + cat.WOOD]
    step(s, A.PICK_GOOD + cat.WOOD)
    # ... and trades it at 6 for gold + stone (her only kind: no choice, D11); David's token and good at 7
    assert s.goods[CINDY].tolist() == [1, 0, 1]
    assert (s.decision, s.actor) == (A.HELP_GOOD, DAVID) and s.tokens[DAVID] == 1
    step(s, A.PICK_GOOD + cat.STONE)
    assert s.goods[ANN].tolist() == [2, 0, 0]  # +2 gold at 8
    assert (s.decision, s.actor) == (A.HELP_GOOD, BRIAN)
    assert legal(s) == [A.PICK_GOOD + cat.GOLD, A.PICK_GOOD + cat.STONE]
    step(s, A.PICK_GOOD + cat.GOLD)
    assert s.goods[BRIAN].tolist() == [1, 1, 0]  # wood + gold at 9
    assert s.stage == BUILD and (s.dice == 0).all()  # K5.4.4: the dice went back


def test_influence_voluntary_pass_is_final():  # K5.3.1, D8
    s = k18_1_order()
    step(s, A.PASS)
    assert s.passed[ANN] and s.actor == CINDY
    for _ in range(20):
        if s.stage != INFLUENCE or s.phase != 2:
            break
        assert s.actor != ANN
        step(s, A.PASS)


def test_k18_3_aid_from_the_king():  # K4, K18.3, D14
    s = blank()
    for p, (b, g) in enumerate([(6, 0), (5, 2), (5, 0), (6, 1)]):
        s.built[p].flat[:b] = True  # b buildings (rows 1-2 from the left)
        s.goods[p, cat.GOLD] = g
    assert aid.recipients(s) == (CINDY, [])
    s.goods[CINDY, cat.WOOD] = 2
    assert aid.recipients(s) == (-1, [BRIAN, CINDY])  # tied on goods: one good each, no die
    s = new_game(KingsburgConfig(n_players=4), seed=3)  # year I: everybody takes one good (K4.4)
    order = s.order.tolist()
    for p in order:
        assert (s.decision, s.actor) == (A.AID_GOOD, p) and len(legal(s)) == 3
        step(s, A.PICK_GOOD + cat.STONE)
    assert s.goods[:, cat.STONE].tolist() == [1, 1, 1, 1]


def test_aid_die_is_a_white_die_in_spring():  # K4.2, K5.2.1
    s = blank()
    s.aid_player = DAVID
    season_start(s, [0, 1, 2, 3], [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 6])
    assert s.dice[DAVID].tolist() == [4, 4, 4, 6, 0] and s.dice[ANN, 3] == 0


def build_turn(s: KingsburgState, p: int, goods, phase: int = 4) -> KingsburgState:
    s.goods[p] = goods
    s.order[:] = [p] + [q for q in range(s.n_players) if q != p]
    s.phase = phase  # default summer: no King's reward follows (K3.1)
    enter(s, BUILD)
    resume(s)
    assert (s.decision, s.actor) == (A.BUILD_TURN, p)
    return s


@pytest.mark.parametrize("who,row,goods,paid,vp", [
    (ANN, 0, [2, 0, 0], [2, 0, 0], 3),  # Statue
    (BRIAN, 1, [1, 1, 0], [1, 1, 0], 0),  # Inn
    (CINDY, 2, [1, 0, 1], [1, 0, 1], 1),  # Guard Tower
    (DAVID, 3, [0, 2, 0], [0, 2, 0], 0),  # Palisade
])
def test_k18_4_construction_costs_and_vp(who, row, goods, paid, vp):  # K5.5.2, K12.2, K18.4
    s = build_turn(blank(), who, goods)
    step(s, A.BUILD + row)
    assert s.built[who, row, 0] and s.goods[who].tolist() == [0, 0, 0] and s.vp[who] == vp


def test_rows_are_built_from_the_left_and_the_crane_discounts():  # K5.5.2, K12.1, K12.2 (Crane)
    s = blank()
    own(s, DAVID, "Barricade", "Crane", "Inn", "Market")
    s = build_turn(s, DAVID, [1, 3, 1])  # Farms 2/3/1 costs 1/3/1 with the Crane
    assert A.BUILD + 1 in legal(s) and A.BUILD + 0 not in legal(s)  # no Statue without 2 gold
    step(s, A.BUILD + 1)
    assert s.owns(DAVID, cat.FARMS) and s.goods[DAVID].tolist() == [0, 0, 0]
    assert construction.cost(s, DAVID, 0, 0).tolist() == [2, 0, 0]  # columns I-II: no discount


def test_k18_5_envoy_award_and_double_build():  # K7.2, K5.5.1, D19, K18.5
    s = blank()
    for p, (b, g) in enumerate([(5, 0), (4, 2), (4, 1), (4, 0)]):
        s.built[p].flat[:b] = True
        s.goods[p, cat.GOLD] = g
    assert year.envoy_recipient(s) == DAVID
    s.goods[CINDY] = 0
    assert year.envoy_recipient(s) == -1  # still tied: nobody
    s = blank()
    own(s, DAVID, "Guard Tower")
    s.envoy_holder = DAVID
    s = build_turn(s, DAVID, [1, 3, 0])
    step(s, A.BUILD + 4)  # Barricade
    assert (s.decision, s.actor) == (A.ENVOY_BUILD, DAVID) and s.envoy_holder == DAVID
    step(s, A.BUILD + 2)  # Blacksmith, with the Envoy
    assert s.owns(DAVID, cat.BARRICADE) and s.owns(DAVID, cat.BLACKSMITH) and s.envoy_holder == -1
    assert s.goods[DAVID].tolist() == [0, 0, 0]


def test_envoy_kept_when_the_second_build_is_declined():  # D19
    s = blank()
    s.envoy_holder = ANN
    s = build_turn(s, ANN, [0, 3, 0], phase=6)  # autumn: no phase 5 follows to take the Envoy back
    step(s, A.BUILD + 4)
    step(s, A.PASS)
    assert s.envoy_holder == ANN and s.built[ANN].sum() == 1


def test_k18_5_envoy_influence_joins_an_influenced_advisor():  # K5.3.6, K5.4.1, K18.5
    s = blank()
    s.envoy_holder = DAVID
    season_start(s, [BRIAN, DAVID, ANN, CINDY], [1, 2, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5])
    assert s.order.tolist()[:2] == [BRIAN, DAVID]
    place(s, BRIAN, 3, [1, 2])
    assert A.TARGET + 3 - 1 in legal(s)  # occupied, but David holds the Envoy
    place(s, DAVID, 3, [3])
    assert s.envoy_holder == -1 and s.advisor_envoy[3] == DAVID
    while s.stage == INFLUENCE:
        step(s, A.PASS)
    assert s.goods[BRIAN].tolist() == [0, 1, 0] and s.goods[DAVID].tolist() == [0, 1, 0]


def winter(s: KingsburgState, card: int, reinforcement: int) -> KingsburgState:
    s.enemy_deck[s.year - 1] = card
    s.phase = 8
    enter(s, BATTLE)
    s.rng.script = [reinforcement]
    resume(s)
    return s


def test_k18_6_battle():  # K9, K12.3, K18.6
    s = blank()
    own(s, ANN, "Statue", "Palisade", "Barricade")
    own(s, BRIAN, "Inn", "Guard Tower")
    s.soldiers[BRIAN] = 1
    own(s, CINDY, "Guard Tower", "Blacksmith", "Barricade")
    own(s, DAVID, "Inn", "Barricade", "Crane")
    s.goods[DAVID, cat.WOOD] = 1
    s.vp[:] = [3, 1, 3, 1]
    goblins3 = cat.CARDS_OF_YEAR[0][2]
    assert cat.ENEMY_CARDS[goblins3].enemy == "Goblins" and cat.ENEMY_CARDS[goblins3].strength == 3
    winter(s, goblins3, 1)
    assert s.strength.tolist() == [3, 3, 4, 2]
    assert s.result.tolist() == [battle.DRAW, battle.DRAW, battle.VICTORY, battle.DEFEAT]
    assert s.goods[CINDY].tolist() == [0, 0, 1] and s.vp[CINDY] == 3 + 1  # 1 stone; best defender +1 VP
    assert not s.owns(DAVID, cat.CRANE) and s.owns(DAVID, cat.BARRICADE) and s.owns(DAVID, cat.INN)
    assert s.vp[DAVID] == 0 and s.goods[DAVID].tolist() == [0, 1, 0]  # no gold: nothing more (K9.7)
    assert s.vp[ANN] == 3 and s.vp[BRIAN] == 1 and (s.soldiers == 0).all()  # K9.8, K9.9
    t = blank()
    own(t, DAVID, "Inn", "Market", "Barricade", "Crane")
    battle.lose_building(t, DAVID)  # same column: the upper row goes first
    assert not t.owns(DAVID, cat.MARKET) and t.owns(DAVID, cat.CRANE)


def test_stone_wall_wins_a_draw_and_fortress_adds_vp():  # K9.4, K9.5, K9.6, D15
    s = blank(2)
    own(s, 0, "Palisade", "Stable", "Stone Wall", "Fortress")  # +1 +1 +1
    s.soldiers[1] = 3
    winter(s, cat.CARDS_OF_YEAR[0][4], 1)  # Zombies 4: Palisade +2 -> 0 has 1 + 2 + 1 + 1 = 5
    assert s.strength.tolist() == [5, 4]
    assert s.result.tolist() == [battle.VICTORY, battle.DRAW]
    assert s.vp[0] == 1 + 1 + 1  # reward 1 VP, Fortress +1, best defender +1
    s = blank(2)
    own(s, 0, "Guard Tower", "Palisade", "Stable", "Stone Wall")
    s.soldiers[1] = 3
    winter(s, cat.CARDS_OF_YEAR[0][2], 1)  # Goblins 3: strength 1+1+1+1 = 4 vs 4: both win, both best
    assert s.result.tolist() == [battle.VICTORY, battle.VICTORY] and s.vp.tolist() == [1, 1]


def test_defeat_losses_in_order_with_goods_of_choice():  # K9.7, D16
    s = blank(2)
    s.goods[0] = [2, 0, 1]
    s.vp[0] = 1
    s.soldiers[1] = 9
    winter(s, cat.CARDS_OF_YEAR[0][3], 1)  # Orcs 3: lose 2 goods of choice, 1 VP
    assert (s.decision, s.actor) == (A.LOSS_GOOD, 0)
    assert legal(s) == [A.PICK_GOOD + cat.GOLD, A.PICK_GOOD + cat.STONE]  # kinds owned only
    assert s.vp[0] == 1  # the VP go after the goods
    step(s, A.PICK_GOOD + cat.STONE)
    assert s.goods[0].tolist() == [1, 0, 0]  # only gold left: the second pick is forced
    assert s.vp[0] == 0 and s.year == 2


def test_the_seed_example_card_is_in_the_deck_and_the_deck_is_provisional():  # K13.2, K13.3, K17.1
    goblins3 = cat.ENEMY_CARDS[cat.CARDS_OF_YEAR[0][2]]
    assert (goblins3.enemy, goblins3.strength, goblins3.reward, goblins3.losses) == (
        "Goblins", 3, (0, 0, 1, 0, 0), (1, 0, 0, 0, 1, 0))
    assert cat.ENEMY_STATUS == "provisional" and len(cat.ENEMY_CARDS) == 25
    with pytest.raises(ValueError, match="5 cards per year"):
        cat.load_enemy_deck('{"status": "provisional", "cards": []}')
    with pytest.raises(ValueError, match="status"):
        cat.load_enemy_deck('{"status": "maybe", "cards": []}')


def test_k18_7_statue_then_chapel():  # K5.2.2, D7, D23, K18.7
    s = blank()
    own(s, ANN, "Statue", "Chapel")
    s.aid_player = ANN
    season_start(s, [ANN, BRIAN, CINDY, DAVID], [2, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6])
    assert s.stage == REROLL and (s.decision, s.actor) == (A.REROLL, ANN)
    assert legal(s) == [A.PASS, A.STATUE_COLOURED, A.STATUE_WHITE]  # total 8: no Chapel yet
    s.rng.script = [1]
    step(s, A.STATUE_COLOURED)
    assert s.dice[ANN].tolist() == [1, 2, 2, 2, 0] and s.dice[ANN].sum() == 7
    assert legal(s) == [A.PASS, A.CHAPEL]
    s.rng.script = [2, 2, 2, 2]
    step(s, A.CHAPEL)
    assert s.dice[ANN].tolist() == [2, 2, 2, 2, 0] and s.stage == INFLUENCE  # no further reroll


def test_market_and_token_readings():  # K5.3.3, K5.3.4, D6, K16.1 (P6)
    s = blank()
    own(s, ANN, "Inn", "Market")
    s.tokens[ANN] = 1
    season_start(s, [ANN, BRIAN, CINDY, DAVID], [1, 1, 6, 3, 3, 3, 4, 4, 4, 5, 5, 5])
    targets = [a - A.TARGET + 1 for a in legal(s) if A.TARGET <= a < A.DICE]
    assert 11 in targets and 18 not in targets  # 1+1+6 = 8, +3 = 11 with token and Market +1
    assert 17 not in targets  # (1+6 = 7 ... no: 8 + 2 = 10, 8 + 3 = 11; 1+1+6+... cannot reach 17)
    step(s, A.TARGET + 2 - 1)  # 2: the two 1s (none), or 1 with Market +1, or ... ask the dice
    assert s.decision == A.GROUP_DICE
    ones = [a for a in legal(s) if [int(s.dice[ANN, j]) for j in A.SUBSETS[a - A.DICE]] == [1]][0]
    step(s, ones)  # 1 -> 2 by Market +1, or by token with Market -1: P6
    assert s.decision == A.MODIFIER and legal(s) == [A.MOD_MARKET, A.MOD_TOKEN_MARKET]
    step(s, A.MOD_TOKEN_MARKET)
    assert s.tokens[ANN] == 0 and s.flags[ANN, 0] and s.flags[ANN, 1]


def test_two_player_neutral_dice():  # K14.1, K5.1.3
    s = blank(2)
    season_start(s, [0, 1], [1, 2, 3, 2, 4, 1, 1, 1, 2, 2, 2])  # 6 blocks 6; 2+4 = 6 splits to 2 and 4
    assert s.advisor_group[[2, 4, 6]].tolist() == [-2, -2, -2]
    s = blank(2)
    season_start(s, [0, 1], [1, 2, 3, 3, 3, 1, 1, 1, 2, 2, 2])  # 3+3 = 6 splits: both 3, one die only
    assert sorted(np.flatnonzero(s.advisor_group == -2).tolist()) == [3, 6]
    assert s.neutral_dice.tolist().count(0) == 1
    s = blank(2)
    season_start(s, [0, 1], [6, 6, 6, 5, 6, 1, 1, 1, 2, 2, 2])
    assert sorted(np.flatnonzero(s.advisor_group == -2).tolist()) == [11, 18]
    assert A.TARGET + 3 - 1 in legal(s) and A.TARGET + 11 - 1 not in legal(s)


def test_end_of_season_inn_embassy_town_hall():  # K5.6, D12
    s = blank()
    own(s, ANN, "Inn", "Barricade", "Crane", "Town Hall", "Embassy")
    s.phase = 4  # summer
    s.order[:] = [0, 1, 2, 3]
    enter(s, SEASON_END)
    resume(s)
    assert s.tokens[ANN] == 1 and s.vp[ANN] == 1  # the Inn's token can pay the Town Hall at once
    assert (s.decision, s.actor) == (A.TOWN_HALL_TURN, ANN) and legal(s) == [A.PASS, A.TOWN_HALL + 3]
    step(s, A.TOWN_HALL + 3)
    assert s.tokens[ANN] == 0 and s.vp[ANN] == 2 and s.stage != SEASON_END


def test_kings_reward_and_d13_option():  # K6.1, D13
    s = blank()
    enter(s, 7, phase=3)
    s.decision = A.NONE
    year.kings_reward(s)
    assert s.vp.tolist() == [1, 1, 1, 1]
    s = blank(kings_reward_requires_building=True)
    year.kings_reward(s)
    assert s.vp.tolist() == [0, 0, 0, 0]
    own(s, CINDY, "Statue")
    year.kings_reward(s)
    assert s.vp.tolist() == [0, 0, 1, 0]


def test_recruiting_with_and_without_barracks():  # K8.1, D4
    s = blank(2)
    own(s, 1, "Guard Tower", "Blacksmith", "Barracks")
    s.goods[:] = [[1, 1, 1], [0, 1, 1]]
    s.order[:] = [0, 1]
    enter(s, 9, phase=7)
    resume(s)
    assert (s.decision, s.actor) == (A.RECRUIT_TURN, 0)
    step(s, A.RECRUIT)
    step(s, A.PICK_GOOD + cat.GOLD)
    step(s, A.PICK_GOOD + cat.WOOD)
    assert s.soldiers[0] == 1 and s.goods[0].tolist() == [0, 0, 1]  # 1 good left: cannot pay another
    assert (s.decision, s.actor) == (A.RECRUIT_TURN, 1)
    step(s, A.RECRUIT)
    step(s, A.PICK_GOOD + cat.WOOD)
    assert s.soldiers[1] == 1
    s.rng.script = [1]  # the King's reinforcements in the battle that follows
    step(s, A.RECRUIT)  # the last stone: the payment is forced
    assert s.strength[1] == 2 + 1 + 2  # soldiers, R, two buildings
    assert s.goods[1].tolist() == [1, 0, 0]  # all paid; then 1 gold for beating the Barbarians 2 (K9.5)


def test_final_scoring_cathedral_and_tie_breaks():  # K10.2, K10.3
    s = blank(3)
    own(s, 0, "Statue", "Chapel", "Church", "Cathedral")
    s.goods[0] = [3, 2, 0]
    s.vp[:] = [10, 12, 12]
    s.goods[1] = [1, 0, 0]
    s.goods[2] = [1, 0, 0]
    own(s, 2, "Inn")
    scoring.finish(s)
    assert s.vp.tolist() == [12, 12, 12] and s.winners == [0]  # 5 goods -> 2 VP; tied on VP: most goods
    assert s.game_over
    s = blank(3)
    s.vp[:] = [12, 12, 12]
    s.goods[:, cat.GOLD] = [0, 1, 1]
    own(s, 2, "Inn")
    scoring.finish(s)
    assert s.winners == [2]  # tied on VP and goods: most buildings
    s = blank(2)
    s.vp[:] = [5, 5]
    scoring.finish(s)
    assert s.winners == [0, 1]  # shared


def test_illegal_actions_are_refused_and_change_nothing():  # K16
    s = new_game(KingsburgConfig(n_players=3), seed=1)
    before = s.to_json()
    for bad in (A.RECRUIT, A.N_ACTIONS, -1, 2.5, True, "3"):
        with pytest.raises(IllegalActionError):
            step(s, bad)
        assert s.to_json() == before


def test_save_load_round_trip_and_corrupt_saves():  # design: to_json/from_json exact, bad saves refused
    s = new_game(KingsburgConfig(n_players=5), seed=9)
    rng = np.random.default_rng(0)
    for _ in range(120):
        step(s, int(rng.choice(legal(s))))
    t = KingsburgState.from_json(s.to_json())
    assert t == s and t.to_json() == s.to_json()
    a = int(rng.choice(legal(s)))
    step(s, a)
    step(t, a)
    assert t == s
    with pytest.raises(ValueError, match="schema"):
        KingsburgState.from_json('{"schema": "other"}')
    with pytest.raises(ValueError, match="not JSON"):
        KingsburgState.from_json("{")
    broken = s.to_json().replace('"order":[', '"order":[0,')
    with pytest.raises(ValueError):
        KingsburgState.from_json(broken)


def test_configuration_errors():  # K1.1, K15
    from ktenv.errors import ConfigError

    for bad in ({"n_players": 6}, {"n_players": 1}, {"building_token_limit": 0}, {"what": 1},
                {"neutral_dice_players": [7]}):
        with pytest.raises(ConfigError):
            KingsburgConfig.from_dict(bad)
    assert KingsburgConfig.from_dict({"num_players": 3}).n_players == 3
    assert KingsburgConfig.from_dict({"num_players": 3, "neutral_dice_players": [2, 3]}).neutral_dice

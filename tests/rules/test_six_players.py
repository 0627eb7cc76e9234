"""R20.1 Six players (two boxes): board, tile pool, start hexes, the doubled cup, 20 Things each,
Citadel income 25, the neutral owner code, and six-player games through the engine, the envs, the
agents, the arena and the renderer. Five players stay an error (no source covers them)."""

from __future__ import annotations

import numpy as np
import pytest
from ktenv.agents import make

import ktenv
from ktenv.errors import ConfigError
from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.board import board_radius, geometry, lay_board, start_position_choices
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import (
    BOARD,
    CREATURE,
    CUP,
    EVENT,
    MAGIC,
    MAX_PLAYERS,
    N_TERRAINS,
    NEUTRAL,
    PLAINS,
    SCREEN,
    SEA,
    TREASURE,
)
from ktenv.kings_and_things.engine.actions import action_layout
from ktenv.kings_and_things.engine.machine import legal_mask, new_game, step
from ktenv.kings_and_things.env.testing import check_mask_exact, random_states
from ktenv.kings_and_things.procedures import Setup
from ktenv.kings_and_things.state import MOVEMENT, SETUP, GameState
from ktenv.rng import Dice
from tests.builders import board, own, put, screen, start_phase, thing
from tests.play import a_hex, a_thing, act
from tests.rules.test_random_games import check_descriptions, check_round_trip, play
from tests.rules.test_random_games import check_mask_exact as check_engine_mask_exact

SIX = GameConfig(n_players=6, max_rounds=4)


def _setup_until(s: GameState, done, seed: int = 0) -> GameState:
    rng = np.random.default_rng(seed)
    while not done(s):
        step(s, int(rng.choice(np.flatnonzero(legal_mask(s)))))
    return s


# ----------------------------------------------------------------- configuration


def test_five_players_are_rejected_naming_r20_1():
    with pytest.raises(ConfigError, match="R20.1"):
        GameConfig(n_players=5)
    with pytest.raises(ValueError, match="R20.1"):
        board_radius(5)
    with pytest.raises(ConfigError, match="n_players"):
        GameConfig(n_players=7)


def test_six_player_numbers_r20_1():
    cfg = GameConfig(n_players=6)
    assert cfg.citadel_income == 25  # R20.1
    assert cfg.two_boxes and not GameConfig(n_players=4).two_boxes
    assert cfg.land_threshold == 31  # R19.4 "more than half" of 61 hexes (ASSUMPTION, as 19 of 37)


def test_neutral_owner_code_never_collides_with_a_seat():
    assert MAX_PLAYERS == 6 and NEUTRAL == MAX_PLAYERS
    assert NEUTRAL not in range(MAX_PLAYERS)


# ----------------------------------------------------------------- board (R20.1, R3)


def test_board_radius_4_with_61_hexes():
    assert board_radius(6) == 4
    assert geometry(4).n_hexes == 61


def test_tile_pool_of_both_boxes_79_tiles():
    pool = cat.TWO_BOXES.TERRAIN_HEX_COUNT
    names = dict(zip(("Desert", "Forest", "Frozen Waste", "Jungle", "Mountain", "Plains", "Swamp", "Sea"),
                     pool.tolist(), strict=True))
    assert names == {"Jungle": 7, "Frozen Waste": 7, "Forest": 9, "Desert": 9, "Swamp": 11, "Mountain": 11,
                     "Plains": 11, "Sea": 14}
    assert pool.sum() == 79
    terrain, provisional, aside = lay_board(6, pool.tolist(), Dice(3))
    assert terrain.size == 61 and len(provisional) == 18 and aside == []
    laid = np.bincount(terrain, minlength=N_TERRAINS) + np.bincount(provisional, minlength=N_TERRAINS)
    assert laid.tolist() == pool.tolist()


def test_the_game_keeps_all_79_tiles_board_plus_hex_stack():
    s = _setup_until(new_game(SIX, 5), lambda s: s.phase != SETUP)
    tiles = np.bincount(s.hex_terrain, minlength=N_TERRAINS) + np.bincount(s.hex_stack, minlength=N_TERRAINS)
    assert tuple(tiles.tolist()) == cat.TWO_BOX_TILES == tuple(cat.TWO_BOXES.TERRAIN_HEX_COUNT.tolist())
    assert len(s.hex_stack) == 18 and s.hex_aside == []  # R3.5 the hex stack: 79 - 61


def test_start_positions_are_the_six_corners_of_ring_4():
    geo = geometry(4)
    corners = {geo.corner(4, d) for d in ("NE", "E", "SE", "SW", "W", "NW")}
    options = start_position_choices(6)
    assert len(options) == 6
    for option in options:
        assert set(option) == corners
        assert all(len(geo.adjacent[h]) == 3 for h in option)  # R3.3.2
    assert {o[0] for o in options} == corners
    s = _setup_until(new_game(SIX, 1), lambda s: (s.start_hex >= 0).all())
    assert set(s.start_hex.tolist()) == corners
    order = s.turn_order()
    clockwise = [geo.corner(4, d) for d in ("NE", "E", "SE", "SW", "W", "NW")]
    first = clockwise.index(int(s.start_hex[order[0]]))
    assert [int(s.start_hex[p]) for p in order] == clockwise[first:] + clockwise[:first]  # RD2.1


# ----------------------------------------------------------------- two boxes, one cup (R20.1)


def test_second_box_copies_have_new_ids_after_the_box():
    box, two = cat.HOUSE, cat.TWO_BOXES  # the box and the R22 house block, then the second box
    n = box.N_THINGS
    doubled = np.flatnonzero(np.isin(box.THING_KIND, cat.SECOND_BOX_KINDS))
    doubled = doubled[~np.isin(doubled, box.HOUSE_THING_IDS)]  # house counters exist once
    assert two.N_THINGS == n + doubled.size
    assert two.THING_ORIGINAL[n:].tolist() == doubled.tolist()  # ids derived from the box's size
    assert two.THING_ORIGINAL[:n].tolist() == list(range(n)) and not two.THING_BOX[:n].any()
    assert two.THING_BOX[n:].all()
    for key in ("THING_KIND", "THING_TERRAIN", "THING_COMBAT", "THING_FLYING", "THING_MAGIC", "THING_RANGED",
                "THING_CHARGE", "THING_INCOME", "THING_GOLD", "THING_IS_MINE"):
        a, b = getattr(box, key), getattr(two, key)
        assert np.array_equal(b[:n], a) and np.array_equal(b[n:], a[doubled]), key
    assert two.THING_NAME[:n] == box.THING_NAME
    # every Thing of the box twice (R1.3, R20.1: "the Things of both boxes"), house Things and heroes once
    assert two.N_THINGS == 2 * cat.N_THINGS + len(box.HOUSE_THING_IDS)
    house = {"magic": 1, "events": 1}  # the Boat, the Portal
    for key in ("creatures", "treasures", "magic", "events", "cities", "villages", "special_income"):
        assert two.SUMMARY[key] == 2 * cat.SUMMARY[key] + house.get(key, 0), key
    assert two.N_HERO_FACES == box.N_HERO_FACES
    assert dict(two.MAGIC_ID) == dict(box.MAGIC_ID) and dict(two.EVENT_ID) == dict(box.EVENT_ID)
    assert two.thing_ids("Killer Penguins") == box.thing_ids("Killer Penguins") + tuple(
        n + int(k) for k in np.flatnonzero(doubled == box.thing_ids("Killer Penguins")[0]))
    assert two.FORT_COUNT.tolist() == (2 * box.FORT_COUNT).tolist()  # the bank holds both boxes' forts
    assert cat.catalog_for(6) is two and all(cat.catalog_for(n) is cat.CATALOG for n in (2, 3, 4))
    assert len(cat.THING_KIND) == two.N_THINGS  # module arrays cover every id of any game


def test_two_boxes_follow_a_bigger_box():
    """A block appended to the box (e.g. house counters) moves the second box's ids along."""
    import dataclasses

    box = cat.CATALOG
    extra = box.TREASURE_IDS[0]
    grow = {k: np.concatenate((getattr(box, k), getattr(box, k)[[extra]]))
            for k in ("THING_KIND", "THING_TERRAIN", "THING_COMBAT", "THING_FLYING", "THING_MAGIC",
                      "THING_RANGED", "THING_CHARGE", "THING_INCOME", "THING_GOLD", "THING_DESIGN",
                      "THING_IS_MINE", "THING_BOX")}
    grow["THING_ORIGINAL"] = np.arange(box.N_THINGS + 1, dtype=np.int16)
    grow.update(cat._thing_lists(box.THING_NAME + ("House Gem",), grow["THING_KIND"]))
    bigger = dataclasses.replace(box, **grow)
    two = cat.two_boxes(bigger)
    assert two.THING_ORIGINAL[box.N_THINGS + 1] == 0  # the copies start after the bigger box
    assert two.N_THINGS == 2 * (box.N_THINGS + 1)
    once = cat.two_boxes(bigger, single=("House Gem",))  # a counter that exists once
    assert once.N_THINGS == 2 * box.N_THINGS + 1 and once.thing_ids("House Gem") == (box.N_THINGS,)


def _second(name: str) -> int:
    ids = cat.TWO_BOXES.thing_ids(name)
    assert len(ids) == 2 and ids[1] >= cat.CATALOG.N_THINGS
    return ids[1]


def test_a_second_box_event_resolves_like_its_original():
    """R20.1 / B.5: the second box's Mother Lode pays like the first; it then goes to the cup."""

    s = board(6, 3, gold=None)
    s.hex_terrain[:] = 5  # Plains
    s.gold[:] = 0
    for p in range(6):
        own(s, p, 10 + p)  # nobody is out of the game (R16.6)
    own(s, 0, 1)
    put(s, thing("Village"), 0, 1)
    lode, plague = _second("Mother Lode"), _second("Dark Plague")
    screen(s, lode, 0)
    screen(s, plague, 1)  # always playable: the phase stops at player 1 afterwards
    start_phase(s, 4, first=0)  # Events
    lay = action_layout(6)
    assert legal_mask(s)[lay.thing + lode]
    step(s, lay.thing + lode)
    s.check_invariants()
    assert s.gold[0] == 2 * 1 and s.thing_place[lode] == CUP  # twice the village's income
    assert s.actor == 1 and legal_mask(s)[lay.thing + plague]
    elixir = cat.MAGIC_ID["Elixir"]
    screen(s, elixir, 2)
    s.edited()
    step(s, lay.thing + plague)  # R18.2: the second box's Plague opens a reaction round like the first
    assert s.actor == 2 and legal_mask(s)[lay.thing + elixir]


def test_the_cup_holds_both_boxes_and_each_player_draws_20():
    s = new_game(SIX, 2)
    assert s.n_things == cat.TWO_BOXES.N_THINGS
    s = _setup_until(s, lambda s: getattr(s.frame(Setup), "screens_open", False))  # R4.7 done, nothing placed yet
    assert [s.screen_size(p) for p in range(6)] == [20] * 6
    assert int((s.thing_place == CUP).sum()) == s.n_things - 120 - 2  # the house Things are out (R22 off)
    for p in range(6):
        kinds = cat.THING_KIND[s.screen(p)]
        assert set(kinds.tolist()) <= {CREATURE, 1, 2, 3, TREASURE, MAGIC, EVENT}


def test_second_box_counters_are_drawn_and_played():
    s, _ = play(6, 3, "economy", max_rounds=3)
    second = np.arange(cat.CATALOG.N_THINGS, s.n_things)
    assert (s.thing_place[second] != CUP).any()
    assert ((s.thing_place[second] == BOARD) | (s.thing_place[second] == SCREEN)).any()


def test_one_box_games_keep_their_sizes():
    for n in (2, 3, 4):
        s = new_game(GameConfig(n_players=n), 0)
        assert s.n_things == cat.N_THINGS == 196 and s.cat is cat.CATALOG
    assert action_layout(2).size == action_layout(3).size == 271
    assert action_layout(4).size == 289
    six = action_layout(6)
    assert six.n_hexes == 61 and six.n_things == cat.TWO_BOXES.N_THINGS and six.n_seats == 6
    assert six.n_treasures == 12 and six.size == 523  # the house block too (R22; out of play without it)
    assert six.size == 18 + 61 + six.n_things + 26 + 12 + 6 + 6


# ----------------------------------------------------------------- random games


def test_random_six_player_games_invariants_masks_and_round_trips():
    """Invariants after every action (inside play), exact masks and JSON round trips on the way."""
    for seed, policy in ((0, "full"), (1, "economy")):
        rng = np.random.default_rng(seed)

        def visit(s, i, rng=rng):
            if i % 41 == 0:
                check_round_trip(s)
            if i % 67 == 11:
                check_engine_mask_exact(s, rng)
                check_descriptions(s)

        s, _ = play(6, seed, policy, max_rounds=4, visit=visit)
        assert s.winners


def test_neutral_defenders_in_a_six_player_game():
    """Explorations put neutral defenders (owner NEUTRAL) on the board next to seats 4 and 5."""
    seen = set()

    def visit(s, i):
        on = s.thing_place == BOARD
        seen.update(int(o) for o in np.unique(s.thing_owner[on]))

    play(6, 4, "full", max_rounds=5, visit=visit)
    assert NEUTRAL in seen and {4, 5} & seen


def test_json_round_trip_of_a_six_player_game():
    s = _setup_until(new_game(SIX, 6), lambda s: s.round >= 2)
    text = s.to_json()
    again = GameState.from_json(text)
    assert again.to_json() == text and again.n_things == cat.TWO_BOXES.N_THINGS
    assert np.array_equal(legal_mask(again), legal_mask(s))


# ----------------------------------------------------------------- environments, agents, arena


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_six_players():
    from pettingzoo.test import api_test

    api_test(ktenv.env(n_players=6, max_rounds=2), num_cycles=300)


def test_mask_is_exact_through_the_six_player_env():
    env = ktenv.raw_env(n_players=6, max_rounds=4)
    rng = np.random.default_rng(6)
    tried = 0
    for s in random_states(env.cfg, 8, seed=66, gap=(1, 80)):
        tried += check_mask_exact(env, s, rng)
    assert tried > 8


def test_six_player_env_spaces_and_observation():
    env = ktenv.raw_env(n_players=6, max_rounds=3)
    env.reset(seed=1)
    assert env.possible_agents == [f"player_{i}" for i in range(6)]
    n_actions = action_layout(6).size
    assert env.action_space("player_5").n == n_actions
    obs = env.observe(env.agent_selection)
    layout = env.unwrapped.observation_layout()
    assert obs["action_mask"].shape == (n_actions,) and obs["observation"].shape == (layout.size,)
    assert layout.section("things").rows == cat.TWO_BOXES.N_THINGS
    assert layout.section("hexes").rows == 61 and layout.section("players").rows == 6
    four = ktenv.raw_env(n_players=4)
    assert four.action_space("player_0").n == 289
    assert four.unwrapped.observation_layout().section("things").rows == 196


def test_single_agent_env_with_six_players():
    from ktenv.kings_and_things.env.single import SingleAgentEnv

    env = SingleAgentEnv(n_players=6, max_rounds=2, opponents="random")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    done = False
    steps = 0
    while not done and steps < 3000:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        steps += 1
    assert done


@pytest.mark.parametrize("name", ["random", "greedy", "expert"])
def test_agents_play_six_player_games(name):
    env = ktenv.raw_env(n_players=6, max_rounds=3)
    env.reset(seed=11)
    agents = {a: make(name, seed=i) for i, a in enumerate(env.possible_agents)}
    for agent in env.agent_iter(50_000):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else agents[agent].act(obs["observation"], obs["action_mask"]))
    assert env.unwrapped.game_state.game_over


def test_six_player_tournament(tmp_path, capsys):
    from ktenv.cli import main

    code = main(["tournament", "--agents", "random,greedy,expert", "--players", "6", "--games", "2",
                 "--workers", "1", "--max-rounds", "3", "--db", str(tmp_path / "six.sqlite"), "--no-progress"])
    assert code == 0
    assert "6 players" in capsys.readouterr().out


def test_render_six_players():
    env = ktenv.raw_env(n_players=6, max_rounds=3, render_mode="rgb_array")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(400):
        if env.game_state.game_over:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    picture = env.render()
    assert picture.ndim == 3 and picture.shape[2] == 3
    env.close()
    text_env = ktenv.raw_env(n_players=6, max_rounds=3, render_mode="ansi")
    text_env.reset(seed=2)
    assert "player 5" in text_env.render() or "p5" in text_env.render()


def test_sea_tiles_stay_off_start_hexes_in_six_player_games():
    for seed in range(4):
        s = _setup_until(new_game(SIX, seed), lambda s: s.phase != SETUP, seed)
        for p in range(6):
            assert s.hex_terrain[s.start_hex[p]] != SEA  # R3.4 applies to every start hex


def test_six_player_observation_leaks_no_hidden_fact():
    """RI: changing hidden opponent facts (screens, face-down identities, the cup) leaves each of
    the six observations unchanged, second-box counters included."""
    from ktenv.kings_and_things.env.observation import ObservationEncoder
    from ktenv.kings_and_things.env.testing import check_no_leak

    enc = ObservationEncoder(GameConfig(n_players=6, max_rounds=6), 61)
    rng = np.random.default_rng(6)
    checked = 0
    for s in random_states(enc.cfg, 6, seed=16, gap=(20, 200)):
        for p in range(6):
            checked += check_no_leak(enc.encode, s, p, rng)
    assert checked > 6 * 6


def test_tournament_players_five_rejected_six_accepted():
    from ktenv.arena.config import TournamentConfig

    with pytest.raises(ConfigError, match="R20.1"):
        TournamentConfig(agents=["random"], players=5)
    assert TournamentConfig(agents=["random"], players=6).game_config().n_players == 6


# ----------------------------------------------------------------- second-box magic items (R20.1)


def _battle_board():
    """Six players; player 1 defends hex 0 (Plains), player 0 attacks from a neighbour; the
    others own a far hex each (so nobody is out of the game, R16.6)."""

    s = board(6, 5, gold=None)
    s.hex_terrain[:] = 5  # Plains
    a, b = 0, int(s.geo.adjacent[0][0])
    own(s, 1, a)
    own(s, 0, b)
    for p in range(2, 6):
        own(s, p, s.geo.corner(4, ("NE", "E", "SE", "SW", "W", "NW")[p]))
    return s, a, b


def test_a_second_box_golem_is_played_as_its_original_c7():
    from ktenv.kings_and_things import decisions as D
    from ktenv.kings_and_things.state import COMBAT

    golem, golem2, talisman = cat.MAGIC_ID["Golem"], _second("Golem"), cat.MAGIC_ID["Talisman"]
    lay = action_layout(6)
    s, a, b = _battle_board()
    put(s, thing("Farmers"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, golem, 0)  # the attacker holds the first box's Golem ...
    screen(s, golem2, 1)  # ... the defender the second box's, and a Talisman
    screen(s, talisman, 1)
    start_phase(s, COMBAT)
    assert s.decision == D.ITEM_WINDOW and s.actor == 0
    step(s, lay.thing + golem)
    assert s.thing_in_play[golem] and s.thing_owner[golem] == 0
    # one copy of an item in play at a time [DECISION]: the defender's Golem waits
    assert s.decision == D.ITEM_WINDOW and s.actor == 1
    assert legal_mask(s)[lay.thing + talisman] and not legal_mask(s)[lay.thing + golem2]
    s.check_invariants()

    s, a, b = _battle_board()
    put(s, thing("Farmers"), 0, a)
    put(s, thing("Centaur"), 1, a)
    screen(s, golem2, 1)
    screen(s, talisman, 0)  # the attacker is asked again at the start of the round
    start_phase(s, COMBAT)
    assert s.decision == D.ITEM_WINDOW and s.actor == 0
    step(s, 0)  # pass
    assert s.decision == D.ITEM_WINDOW and s.actor == 1 and legal_mask(s)[lay.thing + golem2]
    step(s, lay.thing + golem2)
    s.check_invariants()
    # the counters changed places: the Golem in play carries the original's id (C.7 rules)
    assert s.thing_in_play[golem] and s.thing_owner[golem] == 1 and s.thing_place[golem2] == CUP
    assert s.decision == D.ITEM_WINDOW and s.actor == 0


def test_two_lucky_charm_holders_are_asked_in_turn_order_c6():
    from ktenv.kings_and_things import decisions as D
    from ktenv.kings_and_things.engine.actions import NUMBER, PASS
    from ktenv.kings_and_things.procedures import LuckyCharm
    from ktenv.kings_and_things.state import COMBAT

    s, a, b = _battle_board()
    s.hex_owner[a] = -1  # an exploration by player 0 from b
    s.hex_terrain[a] = 1  # Forest
    put(s, thing("Goblins"), 0, a)
    own(s, 0, b)
    charm, charm2 = cat.MAGIC_ID["Lucky Charm"], _second("Lucky Charm")
    screen(s, charm2, 2)
    screen(s, charm, 3)
    s.rng.script = [5]  # exploration roll 5
    start_phase(s, COMBAT)
    assert s.decision == D.LUCKY_DIE and s.actor == 2  # turn order from the first player (0)
    step(s, NUMBER + 0)
    step(s, NUMBER + 1)  # 5 -> 6
    assert s.thing_place[charm2] == CUP and s.thing_place[charm] == SCREEN
    assert s.decision == D.LUCKY_DIE and s.actor == 3 and s.frame(LuckyCharm).shown[0] == 6  # sees the changed die
    step(s, PASS)
    assert s.hex_owner[a] == 0  # 6: undefended (R12.2.2)
    assert s.frame(LuckyCharm) is None
    s.check_invariants()


def test_a_second_box_balloon_flies_and_reactions_of_either_box_answer_c2_c3():

    balloon, balloon2 = cat.MAGIC_ID["Balloon"], _second("Balloon")
    fan2 = _second("Fan")
    s = board(6, setup="passive", terrain=PLAINS)
    own(s, 0, 0)
    for p in range(1, 6):
        own(s, p, s.geo.corner(4, ("NE", "E", "SE", "SW", "W", "NW")[p]))
    s.thing_place[balloon2], s.thing_owner[balloon2] = SCREEN, 0
    s.thing_place[balloon], s.thing_owner[balloon] = SCREEN, 3  # the other box's Balloon
    s.thing_place[fan2], s.thing_owner[fan2] = SCREEN, 1
    rider = put(s, "Farmers", 0, 0)
    put(s, "Cyclops", 0, 0)  # too heavy to ride; keeps player 0's movement turn open
    own(s, 0, 12)
    start_phase(s, MOVEMENT)
    act(s, a_thing(s, balloon2))
    act(s, a_hex(s, 12))  # the lone rider is loaded (forced); fly to hex 12
    # the second box's Fan may answer (R18.2): player 1 is asked
    assert s.actor == 1 and legal_mask(s)[a_thing(s, fan2)]
    act(s, 0)  # pass
    assert s.thing_hex[rider] == 12
    assert s.thing_in_play[balloon] and s.thing_owner[balloon] == 0  # flies under the original's id
    assert s.thing_place[balloon2] == SCREEN and s.thing_owner[balloon2] == 3  # they changed places
    s.check_invariants()

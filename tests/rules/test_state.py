"""GameState: exact JSON round trip, copy independence, save-file errors (design.md "state"),
and check_invariants (R0.5, R1.9.3, R11.4, R17.1)."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.board import board_radius, geometry
from ktenv.kings_and_things.constants import CREATURE, NEUTRAL, SCREEN, SEA, VILLAGE
from ktenv.kings_and_things.engine import legal_mask, step
from ktenv.kings_and_things.procedures import RecruitTurn, SpecialPower
from ktenv.kings_and_things.state import (
    CHANGE_ORDER,
    COMBAT,
    CONSTRUCTION,
    EVENTS,
    GAME_OVER,
    HEROES,
    INCOME,
    MOVEMENT,
    RECRUIT,
    SCHEMA_VERSION,
    SETUP,
    SPECIAL,
    GameState,
    InvariantError,
    StateFileError,
)

from ..builders import board, cup, free_land, own, past_setup, put, put_some, screen_some, set_gold
from ..play import random_action


def _played(n_players: int, seed: int, steps: int) -> GameState:
    s = past_setup(n_players, seed)
    rng = np.random.default_rng(seed + 1000)
    for _ in range(steps):
        if s.game_over:
            break
        step(s, random_action(s, rng))
    return s


# ----------------------------------------------------------------- JSON round trip


@pytest.mark.parametrize("n_players,seed,steps", [(2, 1, 0), (3, 2, 37), (4, 3, 120), (2, 4, 400)])
def test_json_round_trip_is_exact(n_players, seed, steps):
    s = _played(n_players, seed, steps)
    text = s.to_json()
    again = GameState.from_json(text)
    assert again.to_json() == text
    again.check_invariants()


def test_json_round_trip_keeps_scripted_dice():
    s = _played(2, 5, 10)
    s.rng.script = [6, 1, 3]
    again = GameState.from_json(s.to_json())
    assert again.rng.script == [6, 1, 3]
    assert [again.rng.d6() for _ in range(5)] == [s.rng.d6() for _ in range(5)]


@pytest.mark.parametrize("n_players,seed", [(2, 11), (3, 12), (4, 13)])
def test_play_continues_identically_from_a_loaded_copy(n_players, seed):
    """Same legal masks and same outcomes for the same actions, from the original and from the file."""
    s = _played(n_players, seed, 25)
    other = GameState.from_json(s.to_json())
    rng = np.random.default_rng(seed)
    for _ in range(300):
        if s.game_over:
            break
        assert np.array_equal(legal_mask(s), legal_mask(other))
        action = random_action(s, rng)
        step(s, action)
        step(other, action)
        assert s.to_json() == other.to_json()
    assert s.to_json() == other.to_json()


def test_round_trip_of_finished_game():
    s = _played(3, 21, 100_000)
    assert s.game_over and s.winners
    again = GameState.from_json(s.to_json())
    assert again.winners == s.winners and again.reason == s.reason and again.game_over
    assert not legal_mask(again).any()


def test_saves_of_games_without_kadab_or_house_content_keep_their_old_fields():
    """R20.3 / R22: their config keys and arrays are written only when on, so a default game's save
    is what it was before them (the golden playthroughs check the bytes)."""
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.engine import new_game

    plain = new_game(GameConfig(n_players=2), 1).to_dict()
    assert not {"house_content", "mysterious_kadab", "mysterious_flip"} & set(plain["config"])
    assert not {"hex_down", "thing_from", "hero_from"} & set(plain)
    assert len(plain["thing_place"]) == cat.N_THINGS and len(plain["hero_owner"]) == cat.N_HERO_FACES
    on = new_game(GameConfig(n_players=2, house_content=True, mysterious_kadab=True), 1)
    data = on.to_dict()
    assert data["config"]["house_content"] and "hex_down" in data and len(data["thing_place"]) == cat.N_THINGS + 2
    assert GameState.from_json(on.to_json()).to_json() == on.to_json()


def test_a_six_player_save_from_before_the_house_block_is_refused():
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.engine import new_game

    data = new_game(GameConfig(n_players=6), 1).to_dict()
    for name in ("thing_place", "thing_owner", "thing_hex"):
        data[name] = data[name][:2 * cat.N_THINGS]  # the old six-player catalog: 392 Things
    with pytest.raises(StateFileError, match="six-player save from before the house block"):
        GameState.from_dict(data)


# ----------------------------------------------------------------- copy


def test_copy_is_independent():
    s = _played(3, 7, 30)
    before = s.to_json()
    c = s.copy()
    assert c.to_json() == before
    rng = np.random.default_rng(0)
    for _ in range(50):
        if c.game_over:
            break
        step(c, random_action(c, rng))
    c.gold[:] += 99
    c.hex_owner[0] = 0
    c.push(SpecialPower(hero=1))
    c.stats["decisions"] += 1
    c.winners.append(1)
    c.rng.script.append(6)
    assert s.to_json() == before


def test_copy_continues_like_the_original():
    s = _played(2, 8, 15)
    c = s.copy()
    rng1, rng2 = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(200):
        if s.game_over:
            break
        a = random_action(s, rng1)
        assert a == random_action(c, rng2)
        step(s, a)
        step(c, a)
    assert s.to_json() == c.to_json()


# ----------------------------------------------------------------- pickle and deepcopy (Ray, multiprocessing, search)


def _copies(s: GameState) -> list[GameState]:
    protocols = range(2, pickle.HIGHEST_PROTOCOL + 1)
    return [pickle.loads(pickle.dumps(s, protocol=p)) for p in protocols] + [copy.deepcopy(s)]


@pytest.mark.parametrize("n_players,seed,steps", [(2, 1, 0), (4, 3, 120), (6, 5, 40)])
def test_pickle_and_deepcopy_are_exact(n_players, seed, steps):
    """The restored state equals the original: same JSON, same legal mask, same future dice, and the
    same game when both continue with the same actions."""
    s = _played(n_players, seed, steps)
    s.rng.script = [4, 2]  # scripted dice travel too
    legal_mask(s)  # a cached mask travels as well
    for other in _copies(s):
        assert other.to_json() == s.to_json()
        assert np.array_equal(legal_mask(other), legal_mask(s))
        assert other.geo is geometry(board_radius(n_players))  # rebuilt, not copied
        a, b = other.rng.copy(), s.rng.copy()
        assert [a.d6() for _ in range(20)] == [b.d6() for _ in range(20)]
        original = s.copy()
        rng1, rng2 = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(60):
            if original.game_over:
                break
            action = random_action(original, rng1)
            assert action == random_action(other, rng2)
            step(original, action)
            step(other, action)
        assert other.to_json() == original.to_json()


def test_deepcopy_and_unpickled_state_are_independent():
    s = _played(3, 7, 30)
    before = s.to_json()
    for other in _copies(s):
        other.gold[:] += 9
        other.push(SpecialPower(hero=1))
        other.rng.script.append(6)
        other.winners.append(0)
        assert s.to_json() == before


# ----------------------------------------------------------------- bad save files


@pytest.fixture(scope="module")
def saved() -> str:
    return _played(2, 9, 40).to_json()


def _load_modified(text: str, change) -> None:
    data = json.loads(text)
    change(data)
    GameState.from_json(json.dumps(data))


def test_not_json(saved):
    with pytest.raises(StateFileError, match="not valid JSON"):
        GameState.from_json("{nope")


@pytest.mark.parametrize("cut", [1, 10, 1000, -2])
def test_truncated_file(saved, cut):
    with pytest.raises(StateFileError):
        GameState.from_json(saved[:cut])


def test_not_an_object():
    with pytest.raises(StateFileError, match="JSON object"):
        GameState.from_json("[1, 2, 3]")


def test_wrong_schema(saved):
    with pytest.raises(StateFileError, match="'schema'"):
        _load_modified(saved, lambda d: d.update(schema="other.game"))


@pytest.mark.parametrize("version", [SCHEMA_VERSION + 1, 0, "1", None])
def test_wrong_version(saved, version):
    with pytest.raises(StateFileError, match="'version'"):
        _load_modified(saved, lambda d: d.update(version=version))


@pytest.mark.parametrize("field", ["gold", "thing_place", "hex_owner", "hero_up", "round", "decision",
                                   "rng", "stats", "frames", "winners", "config"])
def test_missing_field_is_named(saved, field):
    with pytest.raises(StateFileError, match=f"'{field}'"):
        _load_modified(saved, lambda d: d.pop(field))


def test_bad_config_is_named(saved):
    with pytest.raises(StateFileError, match="'config'"):
        _load_modified(saved, lambda d: d["config"].update(n_players=7))
    with pytest.raises(StateFileError, match="'config'"):
        _load_modified(saved, lambda d: d["config"].update(victory="fastest"))


@pytest.mark.parametrize("field", ["gold", "thing_place", "hex_terrain", "hero_owner", "alive"])
def test_wrong_shape_is_named(saved, field):
    with pytest.raises(StateFileError, match=f"'{field}'.*shape"):
        _load_modified(saved, lambda d: d[field].append(0))
    with pytest.raises(StateFileError, match=f"'{field}'"):
        _load_modified(saved, lambda d: d.update({field: d[field][:-1]}))
    with pytest.raises(StateFileError, match=f"'{field}'"):
        _load_modified(saved, lambda d: d.update({field: [d[field]]}))


@pytest.mark.parametrize("field,value", [("thing_place", 300), ("hex_owner", -200), ("hero_hex", 1000),
                                         ("gold", 2**40), ("hex_income", 40000)])
def test_out_of_dtype_range_is_named(saved, field, value):
    def change(d):
        d[field][0] = value
    with pytest.raises(StateFileError, match=f"'{field}'.*out of range"):
        _load_modified(saved, change)


@pytest.mark.parametrize("field", ["thing_face_up", "alive", "hex_citadel_built"])
def test_boolean_field_must_be_true_or_false(saved, field):
    def change(d):
        d[field][0] = 2
    with pytest.raises(StateFileError, match=f"'{field}'"):
        _load_modified(saved, change)


@pytest.mark.parametrize("field,value", [("gold", ["a", 1]), ("thing_owner", "x"), ("round", "1"),
                                         ("phase", 1.5), ("actor", True)])
def test_wrong_type_is_named(saved, field, value):
    with pytest.raises(StateFileError, match=f"'{field}'"):
        _load_modified(saved, lambda d: d.update({field: value}))


@pytest.mark.parametrize("field,value", [("phase", 42), ("phase", -1), ("decision", 999), ("decision", -3),
                                         ("actor", 9), ("first_player", 5), ("round", -1), ("turn", -1),
                                         ("cup_ran_dry", 7), ("stage", -2), ("citadel_seq", -1)])
def test_out_of_range_scalar_is_named(saved, field, value):
    with pytest.raises(StateFileError, match=f"'{field}'"):
        _load_modified(saved, lambda d: d.update({field: value}))


def test_inconsistent_contents_are_refused(saved):
    """Values in range for their array type but breaking the rules: refused as inconsistent."""
    def two_places(d):
        d["thing_place"][0] = 9  # an unknown place
    with pytest.raises(StateFileError, match="inconsistent"):
        _load_modified(saved, two_places)

    def negative_gold(d):
        d["gold"][0] = -5
    with pytest.raises(StateFileError, match="negative gold"):
        _load_modified(saved, negative_gold)


def test_bad_rng_and_stats(saved):
    with pytest.raises(StateFileError):
        _load_modified(saved, lambda d: d.update(rng={"state": "abc"}))
    with pytest.raises(StateFileError):
        _load_modified(saved, lambda d: d.update(rng={"state": "1", "script": [7]}))
    with pytest.raises(StateFileError):
        _load_modified(saved, lambda d: d["stats"].pop("battles"))


def test_failed_load_raises_only_state_file_error(saved):
    """Fuzz: random single-character corruption never escapes as another exception type."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        i = int(rng.integers(len(saved)))
        text = saved[:i] + rng.choice(list('0123456789-,[]{}":ax ')) + saved[i + 1:]
        try:
            GameState.from_json(text)
        except StateFileError:
            pass


# ----------------------------------------------------------------- invariants


@pytest.fixture()
def kingdoms():
    s = board(2, 31)
    h0, h1 = free_land(s, 2)
    own(s, 0, h0)
    own(s, 1, h1)
    s.check_invariants()
    return s


def test_invariants_hold_for_the_arranged_board(kingdoms):
    kingdoms.check_invariants()


def test_thing_on_sea_hex(kingdoms):
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    put_some(kingdoms, 1, 0, hx)
    kingdoms.check_invariants()
    kingdoms.hex_owner[hx] = -1
    kingdoms.hex_terrain[hx] = SEA
    with pytest.raises(InvariantError, match="Sea"):
        kingdoms.check_invariants()


def test_two_income_counters_in_a_hex(kingdoms):
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    v1, v2 = cup(kingdoms, kind=VILLAGE, count=2)
    put(kingdoms, v1, 0, hx)
    kingdoms.check_invariants()
    kingdoms.thing_place[v2], kingdoms.thing_owner[v2], kingdoms.thing_hex[v2] = 2, 0, hx  # BOARD, bypassing hex_income
    with pytest.raises(InvariantError, match="two income counters"):
        kingdoms.check_invariants()


def test_income_counter_registry_must_agree(kingdoms):
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    (v,) = cup(kingdoms, kind=VILLAGE)
    put(kingdoms, v, 0, hx)
    kingdoms.hex_income[hx] = -1
    with pytest.raises(InvariantError, match="hex_income"):
        kingdoms.check_invariants()


def test_special_income_counter_on_wrong_terrain(kingdoms):
    from ktenv.kings_and_things.constants import DESERT, MOUNTAIN
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    kingdoms.hex_terrain[hx] = MOUNTAIN
    (mine,) = cup(kingdoms, name="Gold Mine")
    put(kingdoms, mine, 0, hx)
    kingdoms.check_invariants()
    kingdoms.hex_terrain[hx] = DESERT
    with pytest.raises(InvariantError, match="wrong terrain"):
        kingdoms.check_invariants()


def test_negative_gold(kingdoms):
    set_gold(kingdoms, 1, -1)
    with pytest.raises(InvariantError, match="negative gold"):
        kingdoms.check_invariants()


def test_stack_of_eleven(kingdoms):
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    put_some(kingdoms, 10, 0, hx)
    kingdoms.check_invariants()
    put_some(kingdoms, 1, 0, hx)
    with pytest.raises(InvariantError, match="more than 10 creatures"):
        kingdoms.check_invariants()


def test_hero_counts_toward_the_stack(kingdoms):
    from ..builders import hero
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    put_some(kingdoms, 10, 0, hx)
    hero(kingdoms, "Dwarf King", 0, hx)
    with pytest.raises(InvariantError, match="more than 10"):
        kingdoms.check_invariants()


def test_citadel_has_no_stack_limit(kingdoms):
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    kingdoms.hex_fort[hx] = 4
    kingdoms.hex_citadel_round[hx] = 1
    put_some(kingdoms, 14, 0, hx)
    kingdoms.check_invariants()


def test_screen_of_eleven_outside_recruiting(kingdoms):
    screen_some(kingdoms, 10, 0)
    kingdoms.check_invariants()
    screen_some(kingdoms, 1, 0)
    with pytest.raises(InvariantError, match="more than 10 counters behind the screen"):
        kingdoms.check_invariants()
    recruiting = kingdoms.push(RecruitTurn(open_screen=0))  # player 0's own recruiting turn (R17.1.1)
    kingdoms.check_invariants()
    recruiting.open_screen = 1  # ... but not player 1's
    with pytest.raises(InvariantError, match="R17.1"):
        kingdoms.check_invariants()


def test_thing_with_two_places_impossible_but_owner_checked(kingdoms):
    (c,) = cup(kingdoms, kind=CREATURE)
    kingdoms.thing_owner[c] = 0  # in the cup but owned
    with pytest.raises(InvariantError, match="cup"):
        kingdoms.check_invariants()
    kingdoms.thing_owner[c] = -1
    kingdoms.thing_place[c] = SCREEN  # behind a screen without an owner
    with pytest.raises(InvariantError, match="screen"):
        kingdoms.check_invariants()


def test_treasure_on_board_is_refused(kingdoms):
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    t = int(cat.TREASURE_IDS[0])
    kingdoms.thing_place[t], kingdoms.thing_owner[t], kingdoms.thing_hex[t] = 2, 0, hx
    with pytest.raises(InvariantError, match="R8.3.2"):
        kingdoms.check_invariants()


def test_owned_sea_hex_and_fort_in_unowned_hex(kingdoms):
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    kingdoms.hex_terrain[hx] = SEA
    with pytest.raises(InvariantError, match="Sea hex is owned"):
        kingdoms.check_invariants()
    kingdoms.hex_terrain[hx] = 0
    kingdoms.hex_owner[hx] = -1
    kingdoms.hex_fort[hx] = 1
    with pytest.raises(InvariantError, match="unowned"):
        kingdoms.check_invariants()


def test_pool_hero_on_board_and_owned_hero_face_down(kingdoms):
    from ..builders import hero
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    face = hero(kingdoms, "Dwarf King", 0, hx)
    kingdoms.check_invariants()
    kingdoms.hero_up[face // 2] ^= 1
    with pytest.raises(InvariantError, match="face-up"):
        kingdoms.check_invariants()


def test_two_terrain_lords(kingdoms):
    from ..builders import hero
    hx = int(np.flatnonzero(kingdoms.hex_owner == 0)[0])
    hero(kingdoms, "Ice Lord", 0, hx)
    hero(kingdoms, "Plains Lord", 0, hx)
    with pytest.raises(InvariantError, match="two terrain lords"):
        kingdoms.check_invariants()


# ----------------------------------------------------------------- who stands in whose hex (the loader)

SETTLED = (INCOME, HEROES, RECRUIT, CONSTRUCTION, SPECIAL, CHANGE_ORDER)


@pytest.fixture()
def three_kingdoms():
    """Three players owning one hex each, and an unexplored hex."""
    s = board(3, 41)
    hexes = free_land(s, 4)
    for p in range(3):
        own(s, p, hexes[p])
    return s, hexes


def _reload(s: GameState, phase: int) -> GameState:
    s.phase = phase
    return GameState.from_json(s.to_json())


def test_an_enemy_stack_in_an_owned_hex_loads_in_every_phase(three_kingdoms):
    """Reachable: an enemy stack stays in a hex whose owner's flyers left it (R11.6), no battle follows
    (R12.1.1), and the owner may then place counters beside it (R8.3.1) in any later phase."""
    s, (h0, _, _, _) = three_kingdoms
    put_some(s, 2, 1, h0)
    put_some(s, 1, 0, h0)
    for phase in range(INCOME, GAME_OVER + 1):
        _reload(s, phase)


def test_setup_refuses_counters_in_another_players_hex(three_kingdoms):
    """R4.8, R8.3.1: in setup Things are only placed on their owner's hexes; nobody has moved yet."""
    s, (h0, _, _, free) = three_kingdoms
    put_some(s, 2, 0, h0)
    _reload(s, SETUP)
    enemy = put_some(s, 1, 1, h0)
    with pytest.raises(StateFileError, match=f"hex {h0}, owned by player 0, holds counters of player 1 during setup"):
        _reload(s, SETUP)
    put(s, enemy[0], 1, free)
    with pytest.raises(StateFileError, match=f"hex {free}, owned by nobody, holds counters of player 1"):
        _reload(s, SETUP)


def test_settled_phases_refuse_a_stack_in_an_unexplored_hex(three_kingdoms):
    """R12.1.4: every exploration is resolved in the Combat phase; until the next Events (R22.5 Portal)
    and Movement phases nobody enters an unexplored hex."""
    s, (_, _, _, free) = three_kingdoms
    put_some(s, 2, 1, free)
    for phase in SETTLED:
        with pytest.raises(StateFileError, match=f"hex {free}, owned by nobody, holds counters of player 1"):
            _reload(s, phase)
    for phase in (EVENTS, MOVEMENT, COMBAT, GAME_OVER):
        _reload(s, phase)


def test_settled_phases_refuse_two_enemy_players_in_a_hex(three_kingdoms):
    """R12.1.4, R13.9.3: every battle is fought in the Combat phase until one side is left."""
    s, (h0, _, _, _) = three_kingdoms
    put_some(s, 1, 1, h0)
    put_some(s, 2, 2, h0)
    for phase in SETTLED:
        with pytest.raises(StateFileError, match=f"hex {h0}, owned by player 0, holds counters of players 1 and 2"):
            _reload(s, phase)
    for phase in (EVENTS, MOVEMENT, COMBAT, GAME_OVER):
        _reload(s, phase)


def test_neutral_counters_stand_only_in_unexplored_hexes(three_kingdoms):
    """R12.4.1: neutral defenders stay only in unexplored hexes; a conquest removes them."""
    s, (h0, _, _, free) = three_kingdoms
    put(s, cup(s, kind=CREATURE)[0], NEUTRAL, free)
    for phase in range(SETUP, GAME_OVER + 1):
        _reload(s, phase)
    put(s, cup(s, kind=CREATURE)[0], NEUTRAL, h0)
    with pytest.raises(StateFileError, match=f"hex {h0}: neutral counters in a hex owned by player 0"):
        _reload(s, RECRUIT)
    _reload(s, COMBAT)  # a battle under way

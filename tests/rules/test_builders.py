"""The test vocabulary itself (tests/builders.py): the position text format round-trips, bad lines
name themselves, and the public engine helpers (`resume`, `GameState.edited`) do what they say."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.constants import BOARD, FOREST, NEUTRAL, NOBODY, OUT, PLAINS, SCREEN, SWAMP
from ktenv.kings_and_things.engine import legal_mask, resume
from ktenv.kings_and_things.env.testing import random_states
from ktenv.kings_and_things.state import MOVEMENT, PHASE_NAMES

from ..builders import E1, W1, C, PositionError, board, describe, hero, own, position, put, screen, thing
from ..play import a_cash

FACTS = ("hex_terrain", "hex_owner", "hex_fort", "hex_down", "hex_income", "thing_place", "thing_owner", "thing_hex",
         "hero_owner", "hero_hex", "gold")


def arranged_facts(s) -> dict:
    """What a position says: the board, Things (face up where on the board), heroes, gold, phase."""
    facts = {name: getattr(s, name).tolist() for name in FACTS}
    facts["face_up"] = (s.thing_face_up & (s.thing_place == BOARD)).tolist()
    owned = (s.hero_owner[0::2] != NOBODY) | (s.hero_owner[1::2] != NOBODY)
    facts["pool_up"] = np.where(owned, -1, s.hero_up).tolist()
    facts.update(phase=s.phase, round=s.round, first=s.first_player, n=s.n_players, script=list(s.rng.script))
    return facts


EXAMPLE = """
    players 2; phase movement; round 3; first 1; gold 10 12
    h0 Plains p0 fort=1: Troll, Goblins+       # + = face up
    h5 Swamp p1: Dragon Rider | hero Lord of the Eagles
    h6 (q=-1,r=0): p0: Nomads | neutral: Tigers
    h3 Forest p1 keep: City, Goblins#3
    screen p0: Gold Mine, Goblins#2
    out: Ogre
    dice 4 3
"""


def test_the_example_position_arranges_what_it_says():
    s = position(EXAMPLE, start=False)
    troll, goblins, rider = thing("Troll"), thing("Goblins"), thing("Dragon Rider")
    assert (s.phase, s.round, s.first_player, s.gold.tolist()) == (MOVEMENT, 3, 1, [10, 12])
    assert (s.hex_owner[0], s.hex_fort[0], s.hex_terrain[0]) == (0, 1, PLAINS)
    assert s.thing_hex[[troll, goblins]].tolist() == [0, 0] and s.thing_owner[troll] == 0
    assert s.thing_face_up[goblins] and not s.thing_face_up[troll]
    assert (s.hex_terrain[5], s.hex_owner[5], s.thing_hex[rider]) == (SWAMP, 1, 5)
    eagles = cat.hero_id("Lord of the Eagles")
    assert (s.hero_owner[eagles], s.hero_hex[eagles], s.hero_up[eagles // 2]) == (1, 5, eagles % 2)
    assert s.hex_owner[6] == NOBODY and s.thing_owner[thing("Nomads")] == 0
    assert s.thing_owner[thing("Tigers")] == NEUTRAL and s.thing_face_up[thing("Tigers")]
    city = thing("City")
    assert (s.hex_terrain[3], s.hex_fort[3], s.hex_income[3]) == (FOREST, 2, city)
    assert s.thing_face_up[city] and s.thing_hex[thing("Goblins", 2)] == 3
    assert s.thing_place[thing("Gold Mine")] == SCREEN and s.thing_place[thing("Goblins", 1)] == SCREEN
    assert s.thing_place[thing("Ogre")] == OUT
    assert s.rng.script == [4, 3]
    assert s.hex_owner.tolist().count(NOBODY) == s.geo.n_hexes - 3  # the rest is cleared
    assert (s.hex_terrain[[1, 2, 4]] == PLAINS).all()


def test_describe_writes_what_position_reads():
    s = position(EXAMPLE, start=False)
    text = describe(s)
    assert "h0 Plains p0 fort=1: Goblins#1+, Troll" in text
    assert "h6 Plains: p0: Nomads#1 | neutral: Tigers#1" in text
    t = position(text, start=False)
    assert arranged_facts(t) == arranged_facts(s)
    assert describe(t) == text


def test_round_trip_of_a_board_arranged_with_the_builders():
    s = board(3, 1, terrain=PLAINS)
    own(s, 0, C, E1, fort=3)
    own(s, 2, W1)
    s.hex_terrain[W1] = SWAMP
    put(s, "Goblins", 0, C, up=True)
    put(s, "Village", 0, E1)
    put(s, "Tigers", NEUTRAL, 7)
    put(s, "Farmers", 1, 7)
    hero(s, "Marksman", 2, W1)
    screen(s, "Ogre", 1)
    s.gold[:] = [3, 0, 9]
    assert arranged_facts(position(describe(s), start=False)) == arranged_facts(s)


@pytest.mark.parametrize("n_players", [2, 4, 6])
def test_round_trip_of_states_met_in_random_play(n_players):
    """describe/position keep every arranged fact of real mid-game states (six players: 2 boxes)."""
    checked = 0
    for s in random_states({"n_players": n_players}, 8, seed=3, gap=(20, 200)):
        if not s.alive.all() or s.cloud_hex >= 0 or s.thing_in_play.any() or s.phase == 0:
            continue  # beyond what a position describes
        t = position(describe(s), start=False)
        assert arranged_facts(t) == arranged_facts(s), describe(s)
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("text, message", [
    ("h0 Plainz p0", "line 1 'h0 Plainz p0': unknown terrain 'Plainz'"),
    ("players 2\nh99 p0", "line 2 'h99 p0': no hex h99 on this board"),
    ("h0 p2: Troll", "'p2' is no player of this game"),
    ("h0 Plains: Troll", "Things on an unowned hex need a side"),
    ("h0 p0: Trolls", "unknown Thing 'Trolls'"),
    ("h0 p0: Goblins#9", "Goblins has copies #1-#4, not #9"),
    ("h0 p0: Troll\nh1 p1: Troll", "line 2 'h1 p1: Troll': no copy of Troll left"),
    ("h0 p0\nh0 p1", "h0 is described twice"),
    ("h0 fort=2", "a fort needs an owner"),
    ("gold 1 2 3", "gold needs 2 numbers"),
    ("h1: hero Marksman", "heroes on an unowned hex need an owner"),
    ("phase lunch", "unknown phase 'lunch'"),
    ("h0 p0\nplayers 3", "'players' must come before"),
    ("(q=9,r=9) p0", "no hex at (q=9,r=9)"),
    ("h1 (q=0,r=0) p0", "h1 is not at (q=0,r=0)"),
    ("castle p0", "unknown line 'castle'"),
    ("dice 7", "dice are 1-6"),
])
def test_a_bad_line_names_itself(text, message):
    with pytest.raises(PositionError, match="position line") as err:
        position(text)
    assert message in str(err.value)


def test_position_starts_its_phase_only_when_asked():
    text = "phase movement\nh0 p0: Giant\nh1 p0: Ogre"
    s = position(text)
    assert (s.phase, s.decision, s.actor) == (MOVEMENT, D.MOVE_START, 0)
    t = position(text, start=False)
    assert t.phase == MOVEMENT and t.decision != D.MOVE_START


def test_edited_drops_the_cached_mask_and_resume_runs_to_a_decision():
    s = position("phase movement\nh0 p0: Giant\nh1 p0: Ogre")
    before = legal_mask(s)
    gem = int(cat.TREASURE_IDS[0])
    s.thing_place[gem], s.thing_owner[gem] = SCREEN, 0  # a treasure player 0 may cash (RD8.1)
    assert legal_mask(s) is before  # the cache does not see the hand edit ...
    assert s.edited() is s
    assert legal_mask(s)[a_cash(s, gem)] and legal_mask(s).sum() == before.sum() + 1  # ... until told
    t = position("h0 p0: Giant\nh1 p0: Ogre\nphase movement", start=False)
    t.stage = t.turn = 0
    t.decision, t.actor = D.NONE, NOBODY
    assert resume(t) is t and (t.decision, t.actor) == (D.MOVE_START, 0)
    assert PHASE_NAMES[t.phase] == "movement"

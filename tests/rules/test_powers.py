"""R21 "Kings & Things Encounter" player powers (encounter_powers=true), with scripted dice.

Each power is shown working for the player who holds it and not for a player without it."""

from __future__ import annotations

import numpy as np
import pytest

import ktenv
from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.config import ENCOUNTER_POWERS, ConfigError, GameConfig, power_code
from ktenv.kings_and_things.constants import BOARD, CUP, FOREST, NEUTRAL, PLAINS, SCREEN, SEA
from ktenv.kings_and_things.engine import legal_actions, new_game, step
from ktenv.kings_and_things.engine import powers as P
from ktenv.kings_and_things.engine.actions import NUMBER, PASS, YES
from ktenv.kings_and_things.engine.battle_sides import MAGIC_STEP, MELEE_STEP, attackers
from ktenv.kings_and_things.engine.construction import buildable
from ktenv.kings_and_things.engine.exploration import neutral_defenders
from ktenv.kings_and_things.engine.machine import layout, legal_mask
from ktenv.kings_and_things.engine.recruiting import free_count
from ktenv.kings_and_things.env.observation import ObservationEncoder
from ktenv.kings_and_things.env.stats import INCOME, player_stats
from ktenv.kings_and_things.env.testing import check_mask_exact, check_no_leak, random_states
from ktenv.kings_and_things.procedures import AviatorFlight, Battle, LuckyReroll, MovementTurn, NomadMove
from ktenv.kings_and_things.state import COMBAT, CONSTRUCTION, HEROES, MOVEMENT, RECRUIT, GameState
from ktenv.kings_and_things.state import INCOME as INCOME_PHASE

from ..builders import E1, E2, W1, C, board, only_in_cup, own, pair, put, screen, start_phase, thing
from ..play import a_dir


def powers_board(n_players: int = 2, seed: int = 1, **powers: str) -> GameState:
    """An empty all-Plains board with Encounter powers on; `powers` by player: p0="Amoeba", ...
    Players other than 0 own a home hex at the board's edge (hex n-1, n-2) so nobody drops out."""
    s = board(n_players, seed, encounter_powers=True, gold=None)
    s.hex_terrain[:] = PLAINS
    s.gold[:] = 0
    s.power[:] = -1
    for p in range(1, n_players):
        own(s, p, s.geo.n_hexes - p)
    for key, name in powers.items():
        s.power[int(key[1:])] = power_code(name)
    return s


def battle(s: GameState, attacker: int = 0, defender: int = 1) -> tuple[int, int]:
    """The defender owns hex a, the attacker owns its neighbour b (Plains: supports Plains creatures)."""
    a, b = pair(s)
    own(s, defender, a)
    own(s, attacker, b)
    return a, b


def play(s: GameState, until, policy=lambda s: legal_actions(s)[0], limit: int = 200) -> None:
    for _ in range(limit):
        if until(s):
            return
        step(s, int(policy(s)))
        s.check_invariants()
    raise AssertionError("limit reached")


# ----- R21.0 dealing, configuration, state -----

def test_powers_are_dealt_distinct_and_deterministic_per_seed():
    """R21.0 / RD10.16: distinct powers, uniformly at random from the game's dice; same seed, same deal."""
    seen = set()
    for seed in range(40):
        n = 2 + seed % 3
        s = new_game(GameConfig(n_players=n, encounter_powers=True), seed)
        dealt = s.power.tolist()
        assert len(set(dealt)) == n and all(0 <= k < len(ENCOUNTER_POWERS) for k in dealt)
        assert new_game(GameConfig(n_players=n, encounter_powers=True), seed).power.tolist() == dealt
        seen.update(dealt)
    assert seen == set(range(len(ENCOUNTER_POWERS)))  # every power turns up


def test_powers_off_by_default_and_assigned_by_config():
    s = new_game(GameConfig(n_players=3), 0)
    assert s.power.tolist() == [-1, -1, -1] and s.power_hex.tolist() == [-1, -1, -1]
    cfg = GameConfig.from_dict({"n_players": 3, "encounter_powers": True, "powers": ["tax_farmer", "Lucky", "Nomad"]})
    s = new_game(cfg, 5)
    assert s.power.tolist() == [power_code("Tax Farmer"), power_code("Lucky"), power_code("Nomad")]


@pytest.mark.parametrize("data", [
    {"powers": ["Lucky", "Brute"]},  # needs encounter_powers
    {"encounter_powers": True, "powers": ["Lucky"]},  # one per player
    {"encounter_powers": True, "powers": ["Lucky", "Lucky"]},  # distinct
    {"encounter_powers": True, "powers": ["Lucky", "Wizard"]},  # unknown
    {"encounter_powers": 1},
])
def test_bad_power_config_names_the_key(data):
    with pytest.raises(ConfigError, match="'(powers|encounter_powers)'"):
        GameConfig.from_dict({"n_players": 2, **data})


def test_json_round_trip_keeps_powers_and_old_saves_load():
    s = new_game(GameConfig(n_players=2, encounter_powers=True, powers=("Tax Farmer", "Vandal")), 3)
    s.power_hex[0] = 2
    t = GameState.from_json(s.to_json())
    assert t.power.tolist() == s.power.tolist() and t.power_hex.tolist() == [2, -1]
    assert t.cfg.powers == ("Tax Farmer", "Vandal")
    data = new_game(GameConfig(n_players=2), 3).to_dict()
    del data["power"], data["power_hex"]  # a save from before the Encounter powers
    assert GameState.from_dict(data).power.tolist() == [-1, -1]


def test_observation_shows_every_players_power_and_mark():
    """RI.1: the Encounter powers are public; rows are relative seats."""
    s = powers_board(3, p0="Lucky", p1="Tax Farmer", p2="Nomad")
    s.power_hex[1] = 4
    enc = ObservationEncoder(s.cfg, s.geo.n_hexes)
    lay = enc.layout
    obs = enc.encode(s, 1)
    table = lay.table(obs, "players")
    cols = [lay.section("players").index(f"power_{name.lower().replace(' ', '_')}")
            for name in ("Tax Farmer", "Nomad", "Lucky")]
    assert [table[k, cols[k]] for k in range(3)] == [1, 1, 1]  # observer 1 first, then 2, then 0
    assert table[:, lay.section("players").index("power_amoeba")].sum() == 0
    assert lay.column(obs, "players", "marked_hex").tolist() == [4, -1, -1]


# ----- R21.1 Amoeba -----

@pytest.mark.parametrize("amoeba", [True, False])
def test_amoeba_ignores_the_first_hit_of_a_round(amoeba):
    """R21.1 / RD10.16: two melee hits on the Amoeba's side: one is cancelled before assignment."""
    s = powers_board(**({"p1": "Amoeba"} if amoeba else {"p1": "Builder"}))
    a, _ = battle(s)
    put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Lion Pride"), 0, a)
    put(s, thing("Farmers", 0), 1, a)
    put(s, thing("Farmers", 1), 1, a)
    s.rng.script = [1, 1, 6, 6]  # melee: both attackers hit, the farmers miss
    start_phase(s, COMBAT)
    assert s.decision == D.ASSIGN_HIT and s.actor == 1
    assert s.frame(Battle).hits[1] == (1 if amoeba else 2)


# ----- R21.2 Aviator -----

@pytest.mark.parametrize("aviator", [True, False])
def test_aviator_creature_flies_for_one_mp_a_hex(aviator):
    """R21.2: the declared creature moves as a flyer: 1 MP into Forest (a walker pays 2)."""
    s = powers_board(p0="Aviator" if aviator else "Builder")
    own(s, 0, C)
    own(s, 0, E1)
    s.hex_terrain[E1] = FOREST
    farmers = put(s, thing("Farmers"), 0, C)
    start_phase(s, MOVEMENT)
    lay = layout(s)
    step(s, lay.hex + C)
    if aviator:
        assert s.decision == D.AVIATOR_CREATURE
        assert set(legal_actions(s)) == {PASS, lay.thing + farmers}
        step(s, lay.thing + farmers)
    assert s.decision == D.MOVE_STACK  # the only counter is chosen and goes (forced choices)
    step(s, a_dir(s, C, E1))
    assert s.thing_hex[farmers] == E1 and s.thing_mp[farmers] == (3 if aviator else 2)


@pytest.mark.parametrize("aviator", [True, False])
def test_aviator_creature_crosses_sea(aviator):
    """R21.2 / R11.3.4: only flyers enter Sea; the declared creature may."""
    s = powers_board(p0="Aviator" if aviator else "Builder")
    own(s, 0, C)
    own(s, 0, E2)
    s.hex_terrain[E1] = SEA
    farmers = put(s, thing("Farmers"), 0, C)
    start_phase(s, MOVEMENT)
    lay = layout(s)
    step(s, lay.hex + C)
    if aviator:
        step(s, lay.thing + farmers)
    assert s.decision == D.MOVE_STACK
    assert bool(legal_mask(s)[a_dir(s, C, E1)]) == aviator


def test_aviator_pinned_creature_must_be_declared_to_leave():
    """R21.2 / R11.5.2: a pinned walker may leave only as the Aviator's flyer; declining is not
    offered when nothing else could move from the hex (every movement turn ends)."""
    s = powers_board(p0="Aviator")
    own(s, 0, C)
    own(s, 0, E1)
    farmers = put(s, thing("Farmers"), 0, C)
    enemy = put(s, thing("Wolf Pack"), 1, C)
    s.thing_face_up[enemy] = s.thing_public[enemy] = True  # face up: no bluff to challenge
    start_phase(s, MOVEMENT)
    lay = layout(s)
    assert legal_mask(s)[lay.hex + C]
    step(s, lay.hex + C)  # the declaration is forced (no PASS: nothing else could leave), then the
    # R11.6 leaving: the flyer is revealed (supported) and no enemy flyer blocks it
    fly = s.frame(AviatorFlight)
    assert fly.flyer == farmers and fly.round == s.round
    assert s.decision == D.MOVE_STACK and s.thing_public[farmers]
    step(s, a_dir(s, C, E1))
    assert s.thing_hex[farmers] == E1


def test_without_aviator_a_pinned_walker_cannot_start():
    s = powers_board(p0="Builder")
    own(s, 0, C)
    own(s, 0, E2)
    put(s, thing("Farmers"), 0, C)
    put(s, thing("Centaur"), 0, E2)
    enemy = put(s, thing("Wolf Pack"), 1, C)
    s.thing_face_up[enemy] = s.thing_public[enemy] = True
    start_phase(s, MOVEMENT)
    assert s.decision == D.MOVE_START and s.actor == 0
    assert legal_mask(s)[layout(s).hex + E2] and not legal_mask(s)[layout(s).hex + C]


def test_aviator_flyer_retreats_alone_up_to_four_hexes():
    """R21.2 / RD10.16: in a battle that round the flyer may retreat alone to an own hex without
    enemies within 4 hexes; the rest of the side is then asked again."""
    s = powers_board(p0="Aviator")
    a, b = battle(s)
    far = next(int(h) for h in np.flatnonzero(s.geo.distance[a] == 2) if s.hex_owner[h] < 0)
    own(s, 0, far)
    farmers = put(s, thing("Farmers"), 0, a)
    wolves = put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Lion Pride"), 1, a)
    s.rng.script = [6, 6, 6]  # melee: everybody misses
    start_phase(s, COMBAT)
    assert s.decision == D.RETREAT and s.actor == 0
    lay = layout(s)
    assert not legal_mask(s)[lay.thing + farmers]  # not declared this round: no flyer
    s.push(AviatorFlight(flyer=farmers, round=s.round))
    s.edited()
    assert legal_mask(s)[lay.thing + farmers]
    step(s, lay.thing + farmers)
    assert s.decision == D.AVIATOR_RETREAT
    assert {b, far} <= set(int(x) - lay.hex for x in legal_actions(s))
    step(s, lay.hex + far)
    assert s.thing_hex[farmers] == far and not s.thing_face_up[farmers]
    assert s.decision == D.RETREAT and s.actor == 0 and not legal_mask(s)[lay.thing + farmers]
    s.rng.script = [6, 6]  # round 2: nobody hits again
    step(s, PASS)  # the Wolf Pack stays
    assert s.thing_hex[wolves] == a and s.frame(Battle).round == 2


def test_aviator_flyer_identity_is_its_owners():
    """RI.2: the declared creature (a Thing id) is in its owner's observation only, even while
    another player decides."""
    s = powers_board(p0="Aviator")
    a, _ = battle(s)
    farmers = put(s, thing("Farmers"), 0, a)
    put(s, thing("Lion Pride"), 1, a)
    s.push(AviatorFlight(flyer=farmers, round=s.round))
    enc = ObservationEncoder(s.cfg, s.geo.n_hexes)
    for observer in (0, 1):
        s.actor = observer
        seen = enc.layout.column(enc.encode(s, observer), "things", "reg_pw_fly")
        assert seen[farmers] == (observer == 0) and seen.sum() == (observer == 0)


@pytest.mark.parametrize("power,name", [("Aviator", "Ghaog II"), ("Aviator", "Lord of the Eagles"),
                                        ("Magician", "Arch Mage"), ("Magician", "Arch Cleric")])
def test_plus_one_to_hero_recruitment(power, name):
    """R21.2 / R21.9: +1 to the recruitment roll of these heroes (a roll one short succeeds)."""
    for holder in (True, False):
        s = powers_board(p0=power if holder else "Builder")
        own(s, 0, C)
        f = cat.hero_id(name)
        s.hero_up[f // 2] = f % 2
        target = 2 * int(cat.HERO_COMBAT[f])
        s.rng.script = [6, target - 7]  # one short
        start_phase(s, HEROES)
        step(s, layout(s).hero + f)  # no gold: no bonus, the roll follows; one own hex: placed at once
        assert (s.hero_owner[f] == 0) == holder


# ----- R21.3 Builder -----

def test_builder_builds_for_four_gold():
    """R21.3: a Tower for 4 gold instead of 5."""
    s = powers_board(p0="Builder", p1="Vandal")
    own(s, 0, C)
    own(s, 0, E1)
    own(s, 1, E2)
    s.gold[:] = (8, 4)
    assert not buildable(s, 1).any()  # player 1 needs 5
    start_phase(s, CONSTRUCTION)
    assert s.decision == D.BUILD and s.actor == 0
    step(s, layout(s).hex + C)
    assert s.hex_fort[C] == 1 and s.gold[0] == 4
    assert s.decision == D.BUILD and s.actor == 0 and legal_mask(s)[layout(s).hex + E1]  # 4 is enough


# ----- R21.4 Brute -----

@pytest.mark.parametrize("brute", [True, False])
def test_brute_charge_creature_goes_behind_the_screen(brute):
    """R21.4: an eliminated own Charge creature returns behind the screen instead of the cup."""
    s = powers_board(p1="Brute" if brute else "Builder")
    a, _ = battle(s)
    put(s, thing("Wolf Pack"), 0, a)
    knight = put(s, thing("White Knight"), 1, a)
    s.rng.script = [1, 6, 6]  # melee: the Wolf Pack hits; the knight's two dice miss
    start_phase(s, COMBAT)
    assert s.hex_owner[a] == 0
    assert s.thing_place[knight] == (SCREEN if brute else CUP)
    assert s.thing_owner[knight] == (1 if brute else -1)


def test_brute_screen_over_ten_discards():
    """R21.4 / R17.1: over 10 behind the screen, the Brute discards at the next pause."""
    s = powers_board(p1="Brute")
    a, _ = battle(s)
    put(s, thing("Wolf Pack"), 0, a)
    knight = put(s, thing("White Knight"), 1, a)
    for c in np.flatnonzero(s.thing_place == CUP)[:10]:
        screen(s, int(c), 1)
    s.rng.script = [1, 6, 6]
    start_phase(s, COMBAT)
    assert s.thing_place[knight] == SCREEN
    assert s.decision == D.DISCARD and s.actor == 1
    step(s, layout(s).thing + knight)
    s.check_invariants()
    assert s.screen_size(1) == 10


def test_brute_bluff_goes_to_the_cup():
    """R21.4: not for bluffs removed under R9.5."""
    s = powers_board(p1="Brute")
    a, _ = battle(s)
    put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Farmers"), 1, a)
    bluff = put(s, thing("Black Knight"), 1, a)  # Swamp: unsupported
    s.rng.script = [6, 6]
    start_phase(s, COMBAT)
    assert s.thing_place[bluff] == CUP


# ----- R21.5 Lucky -----

@pytest.mark.parametrize("lucky", [True, False])
def test_lucky_rerolls_one_own_die(lucky):
    """R21.5: after the own roll the Lucky player may re-roll one die (the defender is not asked)."""
    s = powers_board(p0="Lucky" if lucky else "Builder")
    a, _ = battle(s)
    put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Farmers"), 1, a)
    s.rng.script = [6, 2, 6] if lucky else [6, 6]
    start_phase(s, COMBAT)
    if lucky:
        assert s.decision == D.LUCKY_REROLL and s.actor == 0
        assert set(legal_actions(s)) == {PASS, NUMBER} and s.frame(LuckyReroll).shown == [6]
        step(s, NUMBER)  # the 6 becomes a 2: a hit; the farmers (6) miss; the hex is taken
        assert s.hex_owner[a] == 0
    else:
        assert s.decision == D.RETREAT and s.hex_owner[a] == 1


def test_lucky_once_per_round():
    """R21.5: one re-roll a round: used in the ranged step, not offered again in melee."""
    s = powers_board(p0="Lucky")
    a, _ = battle(s)
    put(s, thing("Hunters"), 0, a)  # ranged 1
    put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Lion Pride"), 1, a)
    put(s, thing("Centaur"), 1, a)
    s.rng.script = [6, 5, 6, 6, 6]  # ranged 6, re-roll 5; melee 6 / 6, 6: nobody hits
    start_phase(s, COMBAT)
    assert s.decision == D.LUCKY_REROLL
    step(s, NUMBER)
    assert s.decision == D.RETREAT and s.actor == 0  # melee rolled without a question
    s.rng.script = [6]  # round 2, ranged: asked again
    step(s, PASS)
    assert s.decision == D.LUCKY_REROLL and s.frame(Battle).round == 2


# ----- R21.6 Explorer -----

@pytest.mark.parametrize("explorer,roll,defenders", [(True, 1, 1), (True, 5, 0), (False, 1, 0), (False, 5, 5)])
def test_explorer_defender_count(explorer, roll, defenders):
    """R21.6: d6 5-6 none, 1-4 that many (standard R12.2.2: 1 or 6 none, 2-5 that many)."""
    s = powers_board(p0="Explorer" if explorer else "Builder")
    a, b = pair(s)
    own(s, 0, b)
    put(s, thing("Farmers"), 0, a)
    bears = [thing("Bears"), thing("Wild Cat"), thing("Bandits"), thing("Killer Racoon"), thing("Centaur")]
    only_in_cup(s, bears)
    s.gold[0] = 100
    s.rng.script = [roll]
    start_phase(s, COMBAT)
    if defenders:
        assert s.decision == D.BRIBE and neutral_defenders(s, a).size == defenders
    else:
        assert s.hex_owner[a] == 0 and not ((s.thing_owner == NEUTRAL) & (s.thing_place == BOARD)).any()


# ----- R21.7 Tax Farmer -----

def test_tax_farmer_marks_a_hex_that_counts_double():
    """R21.7: marked at the end of Income; counts double until the next Income phase ends (income,
    Citadel check); never the same hex twice in a row."""
    s = powers_board(p0="Tax Farmer")
    own(s, 0, C)
    own(s, 0, E1)
    city = put(s, thing("City"), 0, C)
    value = int(cat.THING_INCOME[city])
    start_phase(s, INCOME_PHASE)
    assert s.gold[0] == 2 + value  # nothing marked yet
    assert s.decision == D.TAX_FARMER_HEX and s.actor == 0
    lay = layout(s)
    assert set(legal_actions(s)) == {lay.hex + C, lay.hex + E1}
    step(s, lay.hex + C)
    assert s.power_hex[0] == C and s.income(0) == 2 + 2 * value
    assert player_stats(s)[0, INCOME] == s.income(0)
    s.gold[:] = 0
    start_phase(s, INCOME_PHASE)  # next round: C pays double; E1 is marked (C may not be again)
    assert s.gold[0] == 2 + 2 * value and s.power_hex[0] == E1 and s.phase == HEROES
    assert s.income(0) == 2 + value


def test_no_tax_farmer_no_mark():
    s = powers_board(p0="Builder")
    own(s, 0, C)
    put(s, thing("City"), 0, C)
    start_phase(s, INCOME_PHASE)
    assert s.phase == HEROES and s.power_hex.tolist() == [-1, -1]


# ----- R21.8 King of Things -----

def test_king_of_things_draws_one_more_free_thing():
    """R21.8: one extra free Thing every round."""
    s = powers_board(p0="King of Things", p1="Builder")
    for hx in (C, E1, E2):
        own(s, 0, hx)
    own(s, 1, W1)
    own(s, 1, 7)
    assert free_count(s, 0) == 2 + 1 and free_count(s, 1) == 2
    enc = ObservationEncoder(s.cfg, s.geo.n_hexes)
    assert enc.layout.column(enc.encode(s, 0), "self", "free_things")[0] == 3


# ----- R21.9 Magician -----

def test_magician_sends_enemy_magic_to_melee():
    """R21.9 / RD10.16: in the Magician's battles every other side's magic attacks in melee."""
    for magician in (True, False):
        s = powers_board(p1="Magician" if magician else "Builder")
        a, _ = battle(s)
        put(s, thing("Genie"), 0, a)  # magic 4
        sprite = put(s, thing("Sprite"), 1, a)  # the Magician's own magic stays magic
        s.push(Battle(hex=a, order=[0, 1], defender=1))
        assert bool(attackers(s, 0, MAGIC_STEP)) != magician
        assert bool(attackers(s, 0, MELEE_STEP)) == magician
        assert attackers(s, 1, MAGIC_STEP) == [(int(cat.THING_COMBAT[sprite]), 1, -1)]


# ----- R21.10 Nomad -----

def test_nomad_moves_a_tower_with_terrain_costs():
    """R21.10 / RD10.16: Towers and Keeps move into adjacent own hexes with no fort, 4 MP a turn."""
    s = powers_board(p0="Nomad")
    own(s, 0, C, fort=1)
    own(s, 0, E1)
    own(s, 0, E2)
    s.hex_terrain[E2] = FOREST
    start_phase(s, MOVEMENT)
    lay = layout(s)
    assert s.decision == D.MOVE_START and legal_mask(s)[YES]
    step(s, YES)  # one fort, one destination: moved at once
    assert s.hex_fort[C] == 0 and s.hex_fort[E1] == 1 and P.MP - s.frame(MovementTurn).fort_spent[E1] == 3
    step(s, YES)
    assert s.decision == D.NOMAD_DEST
    assert set(legal_actions(s)) == {lay.hex + C, lay.hex + E2}
    step(s, lay.hex + E2)  # Forest: 2 MP
    assert s.hex_fort[E2] == 1 and P.MP - s.frame(MovementTurn).fort_spent[E2] == 1
    step(s, YES)  # back to E1 (Plains, 1 MP), the only way; then nothing is left to move: turn over
    assert s.hex_fort[E1] == 1 and s.hex_fort[E2] == 0
    assert s.phase != MOVEMENT or s.actor != 0
    turn = s.frame(MovementTurn)  # the turn is over: its MP bookkeeping with it
    assert (turn is None or not any(turn.fort_spent)) and s.frame(NomadMove) is None


def test_nomad_moves_a_village_but_not_a_castle_and_not_into_a_fort():
    s = powers_board(p0="Nomad")
    own(s, 0, C, fort=3)  # a Castle stays
    own(s, 0, E1, fort=1)
    village = put(s, thing("Village"), 0, C)
    start_phase(s, MOVEMENT)
    lay = layout(s)
    assert not legal_mask(s)[YES]  # the Tower's only neighbour own hex holds the Castle
    assert legal_mask(s)[lay.thing + village]
    step(s, lay.thing + village)
    assert s.thing_hex[village] == E1 and s.hex_income[E1] == village and s.hex_income[C] == -1


def test_without_nomad_forts_and_towns_stay():
    s = powers_board(p0="Builder")
    own(s, 0, C, fort=1)
    own(s, 0, E1)
    village = put(s, thing("Village"), 0, C)
    put(s, thing("Centaur"), 0, E1)
    start_phase(s, MOVEMENT)
    assert s.decision == D.MOVE_START and s.actor == 0
    mask = legal_mask(s)
    assert not mask[YES] and not mask[layout(s).thing + village]


# ----- R21.11 Gambler -----

def _gamble(s: GameState) -> int:
    a, _ = battle(s)
    put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Farmers"), 1, a)
    start_phase(s, COMBAT)
    return a


def test_gambler_stakes_and_the_winner_takes_both():
    """R21.11 / RD10.16: stake up to 3 and no more than the opponent has; the winner takes both."""
    s = powers_board(p0="Gambler")
    s.gold[:] = (5, 2)
    s.rng.script = [1, 6]  # melee: the Wolf Pack hits, the farmers miss: the attacker wins
    _gamble(s)
    assert s.decision == D.GAMBLER_STAKE and s.actor == 0
    assert set(legal_actions(s)) == {NUMBER, NUMBER + 1, NUMBER + 2}
    step(s, NUMBER + 2)
    assert s.phase != COMBAT and tuple(s.gold) == (5 + 2, 0)


def test_gambler_loses_the_stake_when_the_defender_holds():
    s = powers_board(p1="Gambler")
    s.gold[:] = (9, 9)
    s.rng.script = [6, 6]  # nobody hits; the attacker retreats: the defender holds the hex
    a = _gamble(s)
    assert s.decision == D.GAMBLER_STAKE and s.actor == 1
    step(s, NUMBER + 3)
    assert s.decision == D.RETREAT and s.actor == 0 and s.frame(Battle).stake == 3
    step(s, layout(s).hex + pair(s)[1])
    assert s.hex_owner[a] == 1 and tuple(s.gold) == (6, 12)


def gamble_in_a_third_players_hex(seed: int = 1) -> GameState:
    """Players 0 (the Gambler) and 1 meet in player 2's empty hex (melee creatures each)."""
    s = powers_board(n_players=3, seed=seed, p0="Gambler")
    a, b = pair(s)
    own(s, 2, a)
    own(s, 0, b)
    put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Farmers"), 1, a)
    s.gold[:] = (9, 9, 0)
    return s


def test_gambler_stakes_go_back_when_neither_staker_holds_the_hex():
    """R21.11 / RD10.16: the winner takes both stakes; in a third player's hex with no survivor the hex
    stays the third player's, who staked nothing: each staker takes his stake back."""
    s = gamble_in_a_third_players_hex()
    s.rng.script = [1, 1]  # melee: both hit, nobody is left
    start_phase(s, COMBAT)
    assert s.decision == D.GAMBLER_STAKE and s.actor == 0
    step(s, NUMBER + 3)
    assert s.frame(Battle) is None or s.frame(Battle).stake == 0
    assert tuple(s.gold) == (9, 9, 0)


def test_no_stake_without_gambler_or_without_gold():
    s = powers_board(p0="Builder")
    s.gold[:] = (9, 9)
    s.rng.script = [1, 6]
    _gamble(s)
    assert s.phase != COMBAT and tuple(s.gold) == (9, 9)
    s = powers_board(p0="Gambler")
    s.gold[:] = (9, 0)  # the opponent cannot match
    s.rng.script = [1, 6]
    _gamble(s)
    assert s.phase != COMBAT and tuple(s.gold) == (9, 0)


# ----- R21.12 Populous -----

@pytest.mark.parametrize("n", [1, 2, 3])
def test_populous_value_one_creatures_roll_3n_minus_1(n):
    """R21.12: n value-1 attackers roll 3n - 1 dice; other attacks (a Tower) unchanged."""
    for populous in (True, False):
        s = powers_board(p0="Populous" if populous else "Builder")
        a, _ = battle(s, attacker=1, defender=0)
        s.hex_fort[a] = 1  # the Tower: value 1, melee, one die
        for k in range(n):
            put(s, thing("Farmers", k), 0, a)
        put(s, thing("Wolf Pack"), 0, a)
        s.push(Battle(hex=a, order=[1, 0], defender=0))
        dice_by_value = {}
        for value, k, _ in attackers(s, 0, MELEE_STEP):
            dice_by_value[value] = dice_by_value.get(value, 0) + k
        assert dice_by_value == {1: (3 * n - 1 if populous else n) + 1, 3: 1}


# ----- R21.13 Recruiter -----

def test_recruiter_targets():
    """R21.13: value 4 -> 7, 5 -> 8, 6 -> 9; the pre-roll gold is capped accordingly (RD5.2)."""
    s = powers_board(p0="Recruiter")
    for name, target in (("Deerhunter", 7), ("Warlord", 8), ("Arch Mage", 9)):
        f = cat.hero_id(name)
        assert P.hero_target(s, 0, f) == target and P.hero_target(s, 1, f) == 2 * cat.HERO_COMBAT[f]
    own(s, 0, C)
    f = cat.hero_id("Deerhunter")
    s.hero_up[f // 2] = f % 2
    s.gold[0] = 100
    s.rng.script = [3, 4]  # 7
    start_phase(s, HEROES)
    step(s, layout(s).hero + f)
    assert set(legal_actions(s)) == {NUMBER + k for k in range(6)}  # up to +5 (7 - 2)
    step(s, NUMBER)
    assert s.hero_owner[f] == 0


# ----- R21.14 Trafficker -----

@pytest.mark.parametrize("trafficker", [True, False])
def test_trafficker_trades_one_for_one(trafficker):
    """R21.14 / RD10.16: 1-for-1 trades, at most five Things by trade."""
    s = powers_board(p0="Trafficker" if trafficker else "Builder")
    own(s, 0, C)
    own(s, 1, E2)
    mine = [screen(s, int(c), 0) for c in np.flatnonzero(s.thing_place == CUP)[:7]]
    start_phase(s, RECRUIT)
    assert s.decision == D.RECRUIT_TRADE and s.actor == 0
    lay = layout(s)
    step(s, lay.thing + mine[0])
    assert bool(legal_mask(s)[PASS]) == trafficker
    if not trafficker:
        return
    for c in mine[1:5]:
        step(s, lay.thing + c)
    assert s.decision == D.PLACE  # five at most: with five chosen the only choice left was PASS
    assert s.drawn[0] == free_count(s, 0) + 5
    assert all(s.thing_place[c] == CUP for c in mine[:5])


# ----- R21.15 Vandal -----

def _vandal_battle(s: GameState, fort_roll: int, income_roll: int) -> tuple[int, int]:
    a, _ = battle(s)
    s.hex_fort[a] = 1
    village = put(s, thing("Village"), 1, a)
    put(s, thing("Wolf Pack"), 0, a)
    put(s, thing("Lion Pride"), 0, a)
    s.rng.script = [1, 1, 6, 6, fort_roll, income_roll]  # 2 hits; the Tower and village miss
    start_phase(s, COMBAT)
    while s.decision == D.ASSIGN_HIT:
        step(s, legal_actions(s)[0])
    assert s.hex_owner[a] == 0
    return a, village


@pytest.mark.parametrize("who,fort_roll,income_roll,reduced,destroyed", [
    ("p0", 6, 6, False, False),  # the conquering Vandal: only a 1 counts
    ("p0", 1, 1, True, True),
    ("p1", 3, 2, True, True),  # the Vandal lost the hex: 1, 2 or 3
    ("p1", 4, 6, False, False),
    (None, 3, 6, False, True),  # standard: 1 or 6
])
def test_vandal_damage_rolls(who, fort_roll, income_roll, reduced, destroyed):
    """R21.15: after the Vandal conquers, damage only on a 1; after the Vandal loses, on 1-3."""
    s = powers_board(**({who: "Vandal"} if who else {}))
    a, village = _vandal_battle(s, fort_roll, income_roll)
    assert s.hex_fort[a] == (0 if reduced else 1)
    assert (s.thing_place[village] == CUP) == destroyed


# ----- random games -----

@pytest.mark.parametrize("n_players,seed", [(2, 0), (2, 3), (3, 1), (3, 4), (4, 2), (4, 5)])
def test_random_games_with_powers_keep_the_invariants(n_players, seed):
    """Every action of random games with Encounter powers keeps the invariants, every decision has
    a legal action, and the state survives a JSON round trip."""
    s = new_game(GameConfig(n_players=n_players, encounter_powers=True, max_rounds=20), seed)
    rng = np.random.default_rng(seed)
    k = 0
    while not s.game_over:
        legal = legal_actions(s)
        assert legal.size
        step(s, int(legal[rng.integers(legal.size)]))
        s.check_invariants()
        k += 1
        if k % 500 == 0:
            t = GameState.from_json(s.to_json())
            assert t.to_json() == s.to_json()
    assert s.round <= 20


@pytest.mark.parametrize("n", [2, 4])
def test_env_with_powers_stays_in_the_box_exact_and_leak_free(n):
    """The observation with powers stays in its box, hides what it must (RI.2, RD8.2), the stats copy
    of income agrees with the engine's (R21.7) and the mask stays exact."""
    env = ktenv.raw_env(n_players=n, max_rounds=8, encounter_powers=True)
    enc = env.encoder
    rng = np.random.default_rng(n)
    for s in random_states(env.cfg, 12, seed=70 + n, gap=(20, 120)):
        stats = player_stats(s)
        assert [stats[p, INCOME] for p in range(n)] == [s.income(p) for p in range(n)]
        for p in range(n):
            obs = enc.encode(s, p)
            assert not np.flatnonzero((obs < enc.low) | (obs > enc.high)).size
            check_no_leak(enc.encode, s, p, rng)
        check_mask_exact(env, s, rng)


def test_powers_are_shown_in_the_summary_and_the_text_board():
    """R21.0: powers are public, so the summary and the ansi board name them (and only with the option)."""
    from ktenv.kings_and_things.config import ENCOUNTER_POWERS, GameConfig
    from ktenv.kings_and_things.engine import new_game
    from ktenv.kings_and_things.render import ansi
    from ktenv.kings_and_things.summary import format_summary, summary

    s = new_game(GameConfig(n_players=2, encounter_powers=True, powers=("Builder", "Gambler")), 3)
    rows = summary(s)["players"]
    assert [r["power"] for r in rows] == ["Builder", "Gambler"]
    assert "power: Builder" in format_summary(summary(s)) and "power: Gambler" in ansi(s)
    plain = new_game(GameConfig(n_players=2), 3)
    assert "power" not in summary(plain)["players"][0]
    assert not any(name in ansi(plain) for name in ENCOUNTER_POWERS)

"""Typed procedure frames (ktenv.kings_and_things.procedures): saves carry them, version 2 saves still load."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import SEA
from ktenv.kings_and_things.engine import dice
from ktenv.kings_and_things.env.observation import LENGTH, SCALAR, ObservationEncoder, Register, frame_source
from ktenv.kings_and_things.procedures import (
    FRAMES,
    Discard,
    Event,
    EventsPhase,
    HeroRecruit,
    HeroTurnOver,
    Losses,
    LuckyCharm,
    LuckyReroll,
    Placement,
    Reactions,
    RecruitStep,
    RecruitTurn,
    Rolls,
    Setup,
    SpecialPower,
    SpecialStage,
)
from ktenv.kings_and_things.saves_v2 import frames_from_v2
from ktenv.kings_and_things.state import EVENTS, HEROES, RECRUIT, SETUP, GameState, InvariantError, StateFileError


def test_every_frame_round_trips_through_json():
    for cls in FRAMES.values():
        frame = cls()
        again = type(frame)(**{k: v for k, v in frame.to_dict().items() if k != "procedure"})
        assert again == frame and again.to_dict() == frame.to_dict()
        assert frame.copy() == frame and frame.copy() is not frame


def test_a_state_with_a_frame_saves_and_loads_it():
    s = GameState(GameConfig(n_players=2), 1)
    s.push(SpecialPower(stage=SpecialStage.DUEL, hero=3, victim=1, used_thief=True))
    back = GameState.from_json(s.to_json())
    assert back.frames == s.frames and back.to_json() == s.to_json()
    assert isinstance(back.frame(SpecialPower).stage, SpecialStage)
    copied = s.copy()
    copied.frame(SpecialPower).victim = 0
    assert s.frame(SpecialPower).victim == 1  # copy() does not share frames


def test_a_corrupt_frame_is_refused_by_name():
    s = GameState(GameConfig(n_players=2), 1)
    s.push(SpecialPower())
    data = s.to_dict()
    for broken, needle in (({"procedure": "teleport"}, "unknown procedure 'teleport'"),
                           ({**data["frames"][0], "hero": "x"}, "field 'hero' must be an integer"),
                           ({**data["frames"][0], "wand": 1}, "unknown field 'wand'")):
        with pytest.raises(StateFileError, match=needle):
            GameState.from_json(json.dumps({**data, "frames": [broken]}))


def test_version_2_saves_load_their_registers_into_frames():
    s = GameState(GameConfig(n_players=2), 1)
    data = s.to_dict()
    data["version"] = 2
    del data["frames"]
    data["reg"] = {"sp_stage": 4, "sp_hero": 7, "sp_victim": 0, "sp_used_thief": 1}
    back = GameState.from_json(json.dumps(data))
    assert back.frames == [SpecialPower(stage=SpecialStage.TAKE, hero=7, victim=0, used_thief=True)]
    frames, taken = frames_from_v2({"sp_hero": 2, "unrelated": 1})
    assert taken == {"sp_hero"} and frames == [SpecialPower(hero=2)]


def test_a_register_naming_a_missing_frame_field_fails_at_once():
    with pytest.raises(TypeError, match="SpecialPower.wand"):
        Register("x", SCALAR, source="SpecialPower.wand")


def test_version_2_saves_load_the_dice_reaction_and_loss_registers_into_frames():
    """Rolls (packed 4 bits a die), the Lucky Charm window, reaction rounds, losses and
    the Lucky re-roll of a version-2 save become their frames; no register of theirs is left."""
    s = GameState(GameConfig(n_players=3), 1)
    data = s.to_dict()
    data["version"] = 2
    del data["frames"]
    data["reg"] = {
        "dice20": 6 | 2 << 4 | 7 << 8, "dice20_n": 3, "dice30": 4, "dice30_n": 1, "dice3": 0, "dice3_n": 0,
        "lucky_code": 30, "lucky_n": 1, "lucky_d0": 4, "lucky_die": 0, "lucky_asked": 0b101,
        "rx_n": 2, "rx0_c": 12, "rx0_p": 1, "rx0_ask": 2, "rx0_cancel": 0, "rx0_fan": -1, "rx0_elixir": 0b10,
        "rx0_victims": 0b11, "rx1_c": 40, "rx1_p": 2, "rx1_ask": 0, "rx1_cancel": 1, "rx1_fan": 0, "rx1_elixir": 0,
        "rx1_victims": 0, "rx_fan": 2,
        "ls_hex": 9, "ls_owner": 2, "ls_n": 3, "ls_flags": 1 | 4 | 16,
        "pw_lk": 0, "pw_lk_n": 3, "pw_d0": 6, "pw_d1": 2, "pw_d2": 7, "pw_lk_die": 1,
    }
    back = GameState.from_json(json.dumps(data))
    assert back.frame(Rolls) == Rolls(code=[20, 30, 3], count=[3, 1, 0], dice=[6, 2, 7, 4])
    assert back.frame(LuckyCharm) == LuckyCharm(code=30, shown=[4], die=0, asked=0b101)
    assert back.frame(Reactions) == Reactions(
        trigger=[12, 40], player=[1, 2], asked=[2, 0], cancelled=[0, 1], fan=[-1, 0], elixir=[0b10, 0],
        victims=[0b11, 0], result_fan=2)
    assert back.frame(Losses) == Losses(hex=9, owner=2, left=3, heroes=True, until_no_creature=True, army_only=True)
    assert back.frame(LuckyReroll) == LuckyReroll(side=0, shown=[6, 2, 7], die=1)
    assert GameState.from_json(back.to_json()).frames == back.frames  # and they save as version 3
    assert dice.peek(back, 20) == [6, 2, 7] and dice.take(back, 30) == [4] and dice.held(back, 3)
    assert frames_from_v2({"ls_n": 1}) == ([Losses(left=1)], {"ls_n"})


def test_registers_read_elements_and_lengths_of_frame_lists():
    """The per-die registers (lucky_d<i>, pw_d<i>) read one element of a list field; lucky_n its length."""
    s = GameState(GameConfig(n_players=2), 1)
    enc = ObservationEncoder(s.cfg, s.geo.n_hexes)
    s.push(LuckyReroll(side=0, shown=[5, 0, 3]))
    obs = enc.encode(s, 1)
    col = enc.o
    assert obs[col["registers.reg_pw_lk_n"]] == 3 and obs[col["registers.reg_pw_d0"]] == 5
    assert obs[col["registers.reg_pw_d2"]] == 3 and obs[col["registers.reg_pw_d3"]] == 0
    assert frame_source("len(LuckyCharm.shown)") == (LuckyCharm, "shown", LENGTH)
    assert frame_source("LuckyCharm.shown[3]") == (LuckyCharm, "shown", 3)
    for bad in ("LuckyCharm.die[0]", "len(LuckyCharm.die)", "LuckyCharm.shown[x]", "LuckyCharm.wand[0]"):
        with pytest.raises(TypeError):
            frame_source(bad)


def test_version_2_battle_registers_load_into_the_battle_frames():
    """The battle family (R13): `b_*` and `ex_*` keys of a version-2 save become `Battle` and `Excess`."""
    from ktenv.kings_and_things import catalog as cat
    from ktenv.kings_and_things.procedures import Battle, BattleKind, BattleStage, Excess, Exploration, StackOverflow

    bow, sword = cat.MAGIC_ID["Magic Bow"], cat.MAGIC_ID["Magic Sword"]
    assert (bow, sword) == (176, 177)  # the version-2 keys b_bore176 / b_bore177 name them by id
    s = GameState(GameConfig(n_players=3), 1)
    data = s.to_dict()
    data["version"] = 2
    del data["frames"]
    data["reg"] = {
        "b_hex": 12, "b_kind": 2, "b_def": 1, "b_att": 0, "b_ctrl": -1, "b_round": 3, "b_stage": 18, "b_nohit": 1,
        "b_step": 2, "b_order_n": 3, "b_order_0": 2, "b_order_1": 0, "b_order_2": 1, "b_idx": 1, "b_side": 0,
        "b_return": 6, "b_started": 1, "b_multi": 1, "b_target0": 2, "b_target2": 0, "b_hits1": 2, "b_hits6": 1,
        "b_dispelled": 4, "b_tsave40": 1, "b_tsaveh3": 1, f"b_bore{sword}": 1, "b_lucky2": 3, "b_stake": 2,
        "b_exback": 18, "ex_hex": 9, "ex_side": 0, "stack_overflow_ok": 1, "x_hex": 12,
    }
    back = GameState.from_json(json.dumps(data))
    assert [f for f in back.frames if isinstance(f, (Battle, Excess))] == [
        Battle(stage=BattleStage.RETREAT, idx=1, hex=12, kind=BattleKind.CONTEST, attacker=0, defender=1,
               controller=-1, order=[2, 0, 1], round=3, step=2, multi=True,
               targets=[2, -1, 0, -1, -1, -1, -1], side=0, resume=BattleStage.ROUND, hits=[0, 2, 0, 0, 0, 0, 1],
               rounds_without_hit=1, dispelled=4, talisman_things=[0] * 40 + [1], talisman_heroes=[0, 0, 0, 1],
               sword_bearer_asked=True, lucky_round=[0, 0, 3, 0, 0, 0, 0], stake=2,
               excess_resume=BattleStage.RETREAT),
        Excess(hex=9, side=0),
    ]
    assert back.frame(StackOverflow).retreat and back.frame(Exploration).hex == 12  # the movement family's
    again = GameState.from_json(back.to_json())
    assert again.frames == back.frames


def test_a_battle_frame_encodes_like_the_registers_it_replaced():
    """Observation columns keep their version-2 names: `reg_b_hits_rel*` reads `Battle.hits`; a side's
    secret target (RI.6) is seen by that side only."""
    from ktenv.kings_and_things.env.observation import ObservationEncoder
    from ktenv.kings_and_things.procedures import Battle

    s = GameState(GameConfig(n_players=2), 1)
    enc = ObservationEncoder(s.cfg, s.geo.n_hexes)
    empty = enc.encode(s, 0)
    s.push(Battle())
    assert (enc.encode(s, 0) == empty).all()  # default fields: nothing observed
    b = s.frame(Battle)
    b.hits[1], b.targets[0], b.hex = 3, 1, 5
    seen0, seen1 = enc.encode(s, 0), enc.encode(s, 1)
    hits, target = enc.o["registers.reg_b_hits_rel0"], enc.o["registers.reg_b_target_rel0"]
    assert seen0[hits + 1] == 3 and seen1[hits] == 3  # sides relative to the observer
    assert seen0[target + 1] == 1 and not seen1[target:target + 3].any()
    assert seen0[enc.o["hexes.reg_b_hex"] + 5] == 1 and seen1[enc.o["hexes.reg_b_hex"] + 5] == 1


def test_version_2_movement_registers_load_into_frames():
    """The movement family's registers (R11, R12.2, C.2, R21, R22, RP-5.9, R4.5) of a
    version-2 save: bitmasks become lists, `enter<hex>` packed orders become entries, Nomad MP left
    becomes MP spent."""
    from ktenv.kings_and_things.procedures import (
        AviatorFlight,
        BalloonFlight,
        BalloonStage,
        BoatTrip,
        BruteScreens,
        Claims,
        Entries,
        Exploration,
        ExploreStage,
        FlyStage,
        Move,
        MovementTurn,
        NomadMove,
        StackOverflow,
    )

    reg = {"mv_on": 1, "mv_ending": 1, "mv_chal": 1 << 3 | 1 << 7, "mv_gk": 5, "mv_gk_done": 1, "mv_nf4": 3,
           "mv_nt12": 1, "mv_sel": 3, "mv_hex": 9, "mv_ri": 2, "mv_fly": 2, "mv_ih": 0b101, "mv_decl": 0b10,
           "mv_blk": 1, "mv_bi": 2, "mv_stay": 1, "mv_dh": 1, "mv_steps": 2, "mv_land": 3, "mv_q5": 1, "mv_q200": 1,
           "bl_stage": 2, "bl_n": 2, "bl_p0": 11, "bl_p1": 12, "bl_hex": 4, "bl_dest": 6, "bl_owner": 1,
           "bl_used": 1, "bt_n": 1, "bt_p0": -3, "bt_owner": 0, "bt_used": 1,
           "x_stage": 2, "x_hex": 8, "x_player": 1, "x_ctrl": 0, "x_tie": 1,
           "pw_fly": 30, "pw_fly_round": 4, "pw_ar": 30, "pw_nm": 40, "pw_nm_hex": 9, "pw_brute": 0b10,
           "overflow1": 1, "stack_overflow_ok": 1, "enter8": 1 * 8 + 2, "enter3": 2, "claim_round": 1,
           "unrelated": 7}
    frames, taken = frames_from_v2(reg)
    assert taken == set(reg) - {"unrelated"}
    got = {type(f): f for f in frames}
    assert len(got) == len(frames)
    assert got[Claims] == Claims(round=1)
    assert got[StackOverflow] == StackOverflow(owners=[0, 1, 0, 0, 0, 0, 0], retreat=True)
    assert got[Entries] == Entries(hexes=[3, 8, 8], players=[1, 0, 1])  # hex 8: player 0 entered first
    assert got[MovementTurn] == MovementTurn(ending=True, challenged=[3, 7], gypsy_start=5, gypsy_done=True,
                                             fort_spent=[0, 0, 0, 0, 1], town_spent=[0] * 12 + [3])
    assert got[Move] == Move(start=3, hex=9, revealer=2, fly=FlyStage.LEAVE, intending=[0, 2], blocks=1, asked=2,
                             blocking=[1], stay=1, deerhunter=True, steps=2, ground_cost=3, qualifying=[5, 200])
    assert got[NomadMove] == NomadMove(hex=9, town=40)
    assert got[BalloonFlight] == BalloonFlight(stage=BalloonStage.WAIT, n=2, passengers=[11, 12], hex=4, dest=6,
                                               owner=1, used=True)
    assert got[BoatTrip] == BoatTrip(n=1, passengers=[-3], owner=0, used=True)  # sailed: the round's facts
    assert got[Exploration] == Exploration(stage=ExploreStage.TIE, hex=8, player=1, controller=0, tie=True)
    assert got[AviatorFlight] == AviatorFlight(flyer=30, round=4, retreating=30)
    assert got[BruteScreens] == BruteScreens(over=[1])
    assert frames_from_v2({"mv_on": 1})[0] == [MovementTurn()]  # the turn had begun, nothing else yet


def test_version_2_seen_bitmasks_load_into_the_seen_array():
    """R22.4 / R20.3: what each player saw of face-down tiles is a state array (saved with Mysterious
    Kadab only); version 2 kept it as a bitmask register per player."""
    s = GameState(GameConfig(n_players=2, mysterious_kadab=True), 1)
    assert "seen" in s.to_dict() and "seen" not in GameState(GameConfig(n_players=2), 1).to_dict()
    data = s.to_dict()
    data["version"] = 2
    del data["frames"], data["seen"]
    data["reg"] = {"seen1": 0b1010, "mv_on": 1}
    back = GameState.from_json(json.dumps(data))
    assert not back.seen[0].any()
    assert back.seen[1].nonzero()[0].tolist() == [1, 3]
    again = GameState.from_json(back.to_json())
    assert (again.seen == back.seen).all() and again.to_json() == back.to_json()


def _v2(s: GameState, reg: dict[str, int]) -> GameState:
    data = s.to_dict()
    data["version"] = 2
    del data["frames"]
    data["reg"] = reg
    return GameState.from_json(json.dumps(data))


def test_version_2_event_registers_load_into_the_events_frames():
    s = GameState(GameConfig(n_players=3), 1)
    s.phase = EVENTS
    back = _v2(s, {"ev_done": 0b101, "ev_p": 1, "ev_c": 40, "ev_q": 2, "ev_hex": 7, "ev_dest": 8, "ev_hero": 3,
                   "ev_roll": 9, "ev_roll2": 4, "ev_n": 2, "ev_new": 5, "ev_tried": 1 << 7 | 1 << 70,
                   "ev_todo": 0b110, "ev_hexes": 1 << 3 | 1 << 64, "ev_mask": 1 << 0 | 1 << 300, "ev_act": 12,
                   "lord_choice": 1})
    assert back.frames == [
        EventsPhase(done=[1, 0, 1, 0, 0, 0, 0]),
        Event(player=1, card=40, other=2, hex=7, dest=8, hero=3, roll=9, roll2=4, n=2, terrain=5, tried=[7, 70],
              todo=[0, 1, 1, 0, 0, 0, 0], hexes=[3, 64], posed=[0, 300], answer=12, lord_player=1),
    ]


def test_version_2_economy_registers_load_into_their_frames():
    s = GameState(GameConfig(n_players=2), 1)
    s.phase = HEROES
    back = _v2(s, {"hero": 5, "attempts": 2, "bonus": 0, "cost": 20, "hero_turns": 1 << 4 | 1 << 9,
                   "hero_turn_4": 1, "hero_turn_9": 0, "hero_turn": 4})
    assert back.frames == [HeroRecruit(hero=5, attempts=2, bonus=0, cost=20),
                           HeroTurnOver(face=4, faces=[4, 9], owners=[1, 0])]
    s.phase = RECRUIT
    back = _v2(s, {"sub": 3, "paid": 2, "keep": 4, "screen_open": 2, "place_new": 0, "place_hex": 6,
                   "place_remove": 1, "thing": 33})
    assert back.frames == [RecruitTurn(step=RecruitStep.PLACE, paid=2, keep=4, open_screen=1),
                           Placement(only_new=False, hex=6, may_remove=True, thing=33)]
    assert isinstance(back.frame(RecruitTurn).step, RecruitStep) and back.open_screen() == 1
    back = _v2(s, {"sub": 4, "screen_open": 1, "discarding": 1})  # player 0 discards: player 1's wait is over
    assert back.frames == [RecruitTurn(step=RecruitStep.LIMIT), Discard(player=0)] and back.open_screen() == 0
    s.phase = SETUP
    back = _v2(s, {"sub": 1, "setup_screens": 1})  # "sub" in setup: the player's placement is under way
    assert back.frames == [Setup(screens_open=True, placed=True)]


def test_a_second_terrain_lord_is_allowed_only_while_the_event_asks_which_stays():
    s = GameState(GameConfig(n_players=2), 1)
    for face in np.flatnonzero(cat.HERO_LORD_TERRAIN >= 0)[:2]:
        s.hero_up[face // 2] = face % 2
        s.hero_owner[face], s.hero_hex[face] = 0, int(np.flatnonzero(s.hex_terrain != SEA)[0])
    with pytest.raises(InvariantError, match="R7.10"):
        s.check_invariants()
    s.push(Event(player=0, lord_player=0))
    s.check_invariants()


def test_lost_heroes_are_asked_about_lowest_face_first_then_the_frame_ends():
    """R7.11 / RP-2.6: one HeroTurnOver frame holds every pending question, lowest face first."""
    from ktenv.kings_and_things import decisions as D
    from ktenv.kings_and_things.engine import interrupts
    from ktenv.kings_and_things.engine.actions import PASS, YES
    from ktenv.kings_and_things.engine.machine import layout
    from ktenv.kings_and_things.engine.support import lose_hero

    s = GameState(GameConfig(n_players=2), 1)
    land = int(np.flatnonzero(s.hex_terrain != SEA)[0])
    high, low = 2 * 9 + int(s.hero_up[9]), 2 * 4 + int(s.hero_up[4])
    for face, owner in ((high, 0), (low, 1)):
        s.hero_owner[face], s.hero_hex[face] = owner, land
        lose_hero(s, face)
    assert s.frames == [HeroTurnOver(faces=[low, high], owners=[1, 0])]
    assert interrupts.pending(s) and s.decision == D.HERO_TURN and s.actor == 1
    assert s.frame(HeroTurnOver).face == low
    up = int(s.hero_up[4])
    interrupts.apply_hero_turn(s, layout(s), YES)
    assert s.hero_up[4] == 1 - up and s.frame(HeroTurnOver) == HeroTurnOver(faces=[high], owners=[0])
    assert interrupts.pending(s) and s.actor == 0 and s.frame(HeroTurnOver).face == high
    interrupts.apply_hero_turn(s, layout(s), PASS)
    assert s.frames == [] and not interrupts.pending(s)


def test_every_frame_field_is_known_to_the_version_2_tables():
    """Every field of every frame is either read from a version-2 save (`saves_v2` tables) or listed as
    new since version 3; the tables name no frame or field that does not exist. A field added to a frame,
    or renamed, fails here until `saves_v2` says whether version 2 held it."""
    from ktenv.kings_and_things import saves_v2

    tables = {"KEYS": saves_v2.KEYS, "COUNTS": saves_v2.COUNTS, "CONVERTED": saves_v2.CONVERTED,
              "READ_BY_READERS": saves_v2.READ_BY_READERS, "NEW_SINCE_V3": saves_v2.NEW_SINCE_V3}
    registered = set(FRAMES.values())
    for table_name, table in tables.items():
        for cls, names in table.items():
            assert cls in registered, f"saves_v2.{table_name}: {cls.__name__} is not a registered frame"
            fields = {f.name for f in dataclasses.fields(cls)}
            for name in names:
                assert name in fields, f"saves_v2.{table_name}: {cls.__name__} has no field {name!r}"
    for cls in (*saves_v2.MARKERS, *saves_v2.FIELD_READERS, *saves_v2.FRAME_READERS):
        assert cls in registered, f"saves_v2: {cls.__name__} is not a registered frame"
    assert set(saves_v2.READ_BY_READERS) <= set(saves_v2.FIELD_READERS) | set(saves_v2.FRAME_READERS)
    for cls in FRAMES.values():
        fields = {f.name for f in dataclasses.fields(cls)}
        read, new = saves_v2.fields_read(cls), set(saves_v2.NEW_SINCE_V3.get(cls, ()))
        assert not read & new, f"{cls.__name__}: {sorted(read & new)} both read from version 2 and new since 3"
        assert fields == read | new, (
            f"{cls.__name__}: fields {sorted(fields - read - new)} are unknown to saves_v2: name the version-2 "
            f"key each replaced, or list it in NEW_SINCE_V3")


def test_a_version_2_register_no_frame_reads_is_refused_by_name():
    """A corrupt or foreign version-2 save gets a clear error, not a silently dropped fact."""
    s = GameState(GameConfig(n_players=2), 1)
    data = s.to_dict()
    data["version"], data["reg"] = 2, {"b_hex": 3, "wand_of_wonder": 1}
    del data["frames"]
    with pytest.raises(StateFileError, match="version 2 register 'wand_of_wonder'"):
        GameState.from_json(json.dumps(data))


def test_a_negative_version_2_bitmask_is_a_clear_error_not_a_hang():
    from ktenv.kings_and_things import saves_v2

    assert saves_v2.bits(0b1011) == [0, 1, 3]
    with pytest.raises(ValueError, match="negative"):
        saves_v2.bits(-1)

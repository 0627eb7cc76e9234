"""Typed procedure frames (ktenv.procedures): saves carry them, version 2 saves still load."""

from __future__ import annotations

import json

import pytest

from ktenv.config import GameConfig
from ktenv.env.observation import SCALAR, Register
from ktenv.procedures import FRAMES, SpecialPower, SpecialStage, frames_from_v2
from ktenv.state import GameState, StateFileError


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
    assert back.reg == {}
    frames, taken = frames_from_v2({"sp_hero": 2, "unrelated": 1})
    assert taken == {"sp_hero"} and frames == [SpecialPower(hero=2)]


def test_a_register_naming_a_missing_frame_field_fails_at_once():
    with pytest.raises(TypeError, match="SpecialPower.wand"):
        Register("x", SCALAR, source="SpecialPower.wand")


def test_version_2_movement_registers_load_into_frames():
    """Issue 13: the movement family's registers (R11, R12.2, C.2, R21, R22, RP-5.9, R4.5) of a
    version-2 save: bitmasks become lists, `enter<hex>` packed orders become entries, Nomad MP left
    becomes MP spent."""
    from ktenv.procedures import (
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
    assert back.reg == {} and not back.seen[0].any()
    assert back.seen[1].nonzero()[0].tolist() == [1, 3]
    again = GameState.from_json(back.to_json())
    assert (again.seen == back.seen).all() and again.to_json() == back.to_json()

"""Typed procedure frames (ktenv.procedures): saves carry them, version 2 saves still load."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ktenv import catalog as cat
from ktenv.config import GameConfig
from ktenv.constants import SEA
from ktenv.env.observation import SCALAR, Register
from ktenv.procedures import (
    FRAMES,
    Discard,
    Event,
    EventsPhase,
    HeroRecruit,
    HeroTurnOver,
    Placement,
    RecruitStep,
    RecruitTurn,
    Setup,
    SpecialPower,
    SpecialStage,
    frames_from_v2,
)
from ktenv.state import EVENTS, HEROES, RECRUIT, SETUP, GameState, InvariantError, StateFileError


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
                   "lord_choice": 1, "unrelated": 1})
    assert back.reg == {"unrelated": 1}
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
    assert back.reg == {}
    assert back.frames == [HeroRecruit(hero=5, attempts=2, bonus=0, cost=20),
                           HeroTurnOver(face=4, faces=[4, 9], owners=[1, 0])]
    s.phase = RECRUIT
    back = _v2(s, {"sub": 3, "paid": 2, "keep": 4, "screen_open": 2, "place_new": 0, "place_hex": 6,
                   "place_remove": 1, "thing": 33})
    assert back.reg == {}
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
    from ktenv.engine import decisions as D
    from ktenv.engine import interrupts
    from ktenv.engine.actions import PASS, YES
    from ktenv.engine.machine import layout
    from ktenv.engine.support import lose_hero

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

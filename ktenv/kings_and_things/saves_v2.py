"""Version 2 saves: their procedures under way, read back into today's frames.

A save of version 2 (``"version": 2``) kept the state of the procedures under way (a move, a battle, an
event ...) in a bag of named integers, `reg`, where version 3 keeps typed frames (`procedures`). This
module alone knows that bag; `GameState.from_json` calls `load_registers` when it reads such a save
(and imports this module only then).

Each frame of `procedures.FRAMES` is read in one of four ways, simplest first:

- `KEYS`: a field takes the value of the key it replaced; a list field names a key pattern, `{}` standing
  for the side (`per_side`) or the index (`series`); `COUNTS` names the key that held a list's length.
- `CONVERTED`: a field reads a converted form (a bitmask, packed numbers) through a function.
- `FIELD_READERS`: a frame's function reads what needs the saved phase or several keys.
- `FRAME_READERS`: a frame's function rebuilds it whole (the generic reading is then skipped; its
  `KEYS` entries still say which key each field replaced).

`READ_BY_READERS` names the fields those functions fill and the keys they read them from, so every field
of every frame is accounted for: a field no version 2 save held is listed in `NEW_SINCE_V3` (a test
fails on a field the tables do not know). `MARKERS` are keys that only said a procedure was under way.
A frame exists when any of its keys does; a key no frame takes makes the save unreadable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .constants import RECRUIT, SETUP
from .procedures import (
    FRAMES,
    AviatorFlight,
    BalloonFlight,
    Battle,
    BoatTrip,
    BruteScreens,
    Claims,
    Discard,
    Entries,
    Event,
    EventsPhase,
    Excess,
    Exploration,
    Frame,
    HeroRecruit,
    HeroTurnOver,
    Losses,
    LuckyCharm,
    LuckyReroll,
    Move,
    MovementTurn,
    NomadMove,
    Placement,
    Reactions,
    RecruitStep,
    RecruitTurn,
    Rolls,
    Setup,
    SpecialPower,
    StackOverflow,
    _is_list,
)

# ===================================================================== the tables
# frame -> field -> the version-2 key it replaced (a pattern with `{}` for a list), read as it is
KEYS: dict[type[Frame], dict[str, str]] = {
    SpecialPower: {
        "stage": "sp_stage", "hero": "sp_hero", "victim": "sp_victim", "hex": "sp_hex", "target_a": "sp_a",
        "target_b": "sp_b", "tie": "sp_tie", "used_thief": "sp_used_thief", "used_assassin": "sp_used_assassin",
    },
    Setup: {"screens_open": "setup_screens"},
    HeroRecruit: {"hero": "hero", "attempts": "attempts", "bonus": "bonus", "cost": "cost"},
    RecruitTurn: {"paid": "paid", "keep": "keep"},
    Event: {
        "player": "ev_p", "card": "ev_c", "other": "ev_q", "hex": "ev_hex", "dest": "ev_dest", "hero": "ev_hero",
        "roll": "ev_roll", "roll2": "ev_roll2", "n": "ev_n", "terrain": "ev_new", "answer": "ev_act",
        "lord_player": "lord_choice",
    },
    Placement: {"only_new": "place_new", "hex": "place_hex", "may_remove": "place_remove", "thing": "thing"},
    HeroTurnOver: {"face": "hero_turn"},
    Claims: {"round": "claim_round"},
    StackOverflow: {"owners": "overflow{}", "retreat": "stack_overflow_ok"},
    MovementTurn: {"ending": "mv_ending", "gypsy_start": "mv_gk", "gypsy_done": "mv_gk_done"},
    Move: {
        "start": "mv_sel", "hex": "mv_hex", "revealer": "mv_ri", "fly": "mv_fly", "blocks": "mv_blk", "asked": "mv_bi",
        "stay": "mv_stay", "deerhunter": "mv_dh", "steps": "mv_steps", "ground_cost": "mv_land",
    },
    NomadMove: {"hex": "pw_nm_hex", "town": "pw_nm"},
    BalloonFlight: {
        "stage": "bl_stage", "n": "bl_n", "passengers": "bl_p{}", "hex": "bl_hex", "dest": "bl_dest", "sea": "bl_sea",
        "owner": "bl_owner", "used": "bl_used",
    },
    BoatTrip: {
        "stage": "bt_stage", "n": "bt_n", "passengers": "bt_p{}", "hex": "bt_hex", "at": "bt_at", "crossed": "bt_k",
        "last": "bt_last", "dest": "bt_dest", "owner": "bt_owner", "used": "bt_used",
    },
    Exploration: {
        "stage": "x_stage", "hex": "x_hex", "player": "x_player", "controller": "x_ctrl", "tie": "x_tie",
        "done": "x_done",
    },
    AviatorFlight: {"flyer": "pw_fly", "round": "pw_fly_round", "retreating": "pw_ar"},
    Battle: {
        "stage": "b_stage", "idx": "b_idx", "done": "b_done", "hex": "b_hex", "kind": "b_kind", "attacker": "b_att",
        "defender": "b_def", "controller": "b_ctrl", "order": "b_order_{}", "round": "b_round", "step": "b_step",
        "multi": "b_multi", "targets": "b_target{}", "side": "b_side", "resume": "b_return", "window": "b_win",
        "window_idx": "b_widx", "after_window": "b_after", "item": "b_item", "firewall": "b_firewall",
        "bearer_item": "b_bear", "bow_bearer_asked": "b_bore176", "sword_bearer_asked": "b_bore177", "dust": "b_dust",
        "force_side": "b_force_side", "dispelled": "b_dispelled", "dispel_asked": "b_dchecked",
        "dispel_side": "b_dside", "warlord_asked": "b_warlord", "turncoat": "b_turncoat", "marksman": "b_marksman",
        "marksman_asked": "b_marksman_asked", "marksman_hits": "b_mhits", "marksman_target": "b_mtarget",
        "marksman_side": "b_mside", "hits": "b_hits{}", "hits_this_round": "b_hitsround",
        "rounds_without_hit": "b_nohit", "forced": "b_force", "save_side": "b_save_side", "save_action": "b_save_act",
        "parried": "b_parried", "talisman_things": "b_tsave{}", "talisman_heroes": "b_tsaveh{}",
        "excess_resume": "b_exback", "powers_applied": "b_pw", "stake": "b_stake", "lucky_round": "b_lucky{}",
        "amoeba_round": "b_amoeba{}", "winner": "b_winner",
    },
    Excess: {"hex": "ex_hex", "side": "ex_side"},
    Losses: {"hex": "ls_hex", "owner": "ls_owner", "left": "ls_n"},
    Reactions: {"result_cancelled": "rx_cancel", "result_fan": "rx_fan", "result_elixir": "rx_elixir"},
    LuckyReroll: {"side": "pw_lk", "shown": "pw_d{}", "die": "pw_lk_die"},
    LuckyCharm: {"code": "lucky_code", "shown": "lucky_d{}", "die": "lucky_die", "asked": "lucky_asked"},
}

# the key that held a list's length (taken with the list, not read: the indices say it)
COUNTS: dict[type[Frame], dict[str, str]] = {Battle: {"order": "b_order_n"}}

# keys that only said a procedure was under way (no field holds them); version 2 also flagged a battle's
# reveal and where a Balloon landed, which no rule read
MARKERS: dict[type[Frame], tuple[str, ...]] = {MovementTurn: ("mv_on",), BalloonFlight: ("bl_landed",),
                                               Battle: ("b_started",)}

# fields no version 2 save held: none yet (a field added to a frame goes here)
NEW_SINCE_V3: dict[type[Frame], tuple[str, ...]] = {}


# ===================================================================== converted forms
# A reader takes the register bag and returns None (its keys are absent) or (value, the keys it took).

Reader = Callable[[dict[str, int]], "tuple[Any, set[str]] | None"]


def bits(mask: int) -> list[int]:
    """The set bits of a version-2 bitmask, lowest first (a negative one is corrupt: its bits never end)."""
    if mask < 0:
        raise ValueError(f"a version-2 bitmask is negative ({mask})")
    out, i = [], 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def _indexed(key: str, stem: str) -> bool:
    """Is `key` a version-2 key `<stem><number>`?"""
    return key.startswith(stem) and key[len(stem):].isdigit()


def _bitmask(key: str) -> Reader:
    """Reader of a version-2 bitmask register as the list of its set bits (ascending)."""
    def read(reg: dict[str, int]):
        if key not in reg:
            return None
        return bits(int(reg[key])), {key}
    return read


def _members(stem: str) -> Reader:
    """Reader of a version-2 key family `<stem><id>` (one key per member) as the list of the ids."""
    def read(reg: dict[str, int]):
        found = sorted(k for k in reg if k.startswith(stem) and k[len(stem):].isdigit())
        if not found:
            return None
        return sorted(int(k[len(stem):]) for k in found), set(found)
    return read


def _spent(stem: str, full: int) -> Reader:
    """Reader of version-2 `<stem><index>` = points left (absent: `full`) as points spent per index."""
    def read(reg: dict[str, int]):
        found = {int(k[len(stem):]): int(v) for k, v in reg.items() if k.startswith(stem) and k[len(stem):].isdigit()}
        if not found:
            return None
        spent = [0] * (max(found) + 1)
        for i, left in found.items():
            spent[i] = full - left
        return spent, {f"{stem}{i}" for i in found}
    return read


def _entries(which: int) -> Reader:
    """Reader of version-2 `enter<hex>` (the players entering the hex, packed base 8, first entrant
    highest) as the parallel lists of (hex, player) entries: `which` 0 the hexes, 1 the players."""
    def read(reg: dict[str, int]):
        found = sorted((int(k[5:]), int(v)) for k, v in reg.items() if k.startswith("enter") and k[5:].isdigit())
        if not found:
            return None
        pairs = []
        for hx, v in found:
            players = []
            while v:
                players.append(v % 8 - 1)
                v //= 8
            pairs += [(hx, p) for p in reversed(players)]
        return [pair[which] for pair in pairs], {f"enter{hx}" for hx, _ in found}
    return read


# frame -> field -> the reader of its converted version-2 form
CONVERTED: dict[type[Frame], dict[str, Reader]] = {
    Entries: {"hexes": _entries(0), "players": _entries(1)},
    MovementTurn: {"challenged": _bitmask("mv_chal"), "fort_spent": _spent("mv_nf", 4),
                   "town_spent": _spent("mv_nt", 4)},
    Move: {"intending": _bitmask("mv_ih"), "blocking": _bitmask("mv_decl"), "qualifying": _members("mv_q")},
    BoatTrip: {"path": _bitmask("bt_path")},
    BruteScreens: {"over": _bitmask("pw_brute")},
}


# ===================================================================== a frame's own reader
# A field reader (reg, values, phase) puts fields into `values` and returns the keys it took; a frame
# reader (reg) returns (the frame or None, the keys it took).


def _setup(reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
    if phase == SETUP and "sub" in reg:  # version 2's "sub" served setup and recruiting (RecruitTurn.step)
        values["placed"] = bool(reg["sub"])
        return {"sub"}
    return set()


def _recruit_turn(reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
    if phase != RECRUIT or "sub" not in reg:
        return set()
    values["step"] = RecruitStep(reg["sub"])
    if reg.get("screen_open") and not reg.get("discarding"):  # "screen_open" - 1 without "discarding"
        values["open_screen"] = reg["screen_open"] - 1
        return {"sub", "screen_open"}
    return {"sub"}


def _events_phase(reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
    if "ev_done" not in reg:
        return set()
    values["done"] = [reg["ev_done"] >> p & 1 for p in range(7)]
    return {"ev_done"}


def _event(reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
    taken = set()
    for key, name in (("ev_tried", "tried"), ("ev_hexes", "hexes"), ("ev_mask", "posed")):
        if key in reg:
            values[name] = bits(reg[key])
            taken.add(key)
    if "ev_todo" in reg:
        values["todo"] = [reg["ev_todo"] >> p & 1 for p in range(7)]
        taken.add("ev_todo")
    return taken


def _discard(reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
    if not reg.get("discarding"):
        return {"discarding"} & set(reg)
    values["player"] = reg.get("screen_open", 0) - 1  # "screen_open" - 1 with "discarding"
    return {"discarding", "screen_open"} & set(reg)


def _hero_turn_over(reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
    taken = {k for k in reg if k.startswith("hero_turn_") and k[10:].isdigit()}
    if "hero_turns" in reg:
        values["faces"] = bits(reg["hero_turns"])
        values["owners"] = [reg[f"hero_turn_{f}"] for f in values["faces"]]
        taken.add("hero_turns")
    return taken


_LOSS_FLAGS = ("heroes", "creatures_first", "until_no_creature", "citadel", "army_only")  # "ls_flags", bit 0 first


def _losses(reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
    keys = {k for k in ("ls_hex", "ls_owner", "ls_n", "ls_flags") if k in reg}
    if not keys:
        return None, keys
    flags = reg.get("ls_flags", 0)
    return Losses(hex=reg.get("ls_hex", -1), owner=reg.get("ls_owner", -1), left=reg.get("ls_n", 0),
                  **{name: bool(flags >> i & 1) for i, name in enumerate(_LOSS_FLAGS)}), keys


# the keys of one reaction round, "rx_n" rounds of them
_ROUND_KEYS = {"trigger": "rx{}_c", "player": "rx{}_p", "asked": "rx{}_ask", "cancelled": "rx{}_cancel",
               "fan": "rx{}_fan", "elixir": "rx{}_elixir", "victims": "rx{}_victims"}


def _reactions(reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
    keys = {k for k in ("rx_n", "rx_cancel", "rx_fan", "rx_elixir") if k in reg}
    if not keys:
        return None, keys
    frame = Reactions(result_cancelled=bool(reg.get("rx_cancel", 0)), result_fan=reg.get("rx_fan", -1),
                      result_elixir=reg.get("rx_elixir", 0))
    for d in range(reg.get("rx_n", 0)):
        for name, pattern in _ROUND_KEYS.items():
            key = pattern.format(d)
            getattr(frame, name).append(reg[key])
            keys.add(key)
    return frame, keys


def _lucky_reroll(reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
    keys = {k for k in reg if k in ("pw_lk", "pw_lk_n", "pw_lk_die") or _indexed(k, "pw_d")}
    if not keys:
        return None, keys
    return LuckyReroll(side=reg.get("pw_lk", -1), shown=[reg.get(f"pw_d{i}", 0) for i in range(reg.get("pw_lk_n", 0))],
                       die=reg.get("pw_lk_die", -1)), keys


def _rolls(reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
    frame, keys = Rolls(), set()
    for key in reg:  # "dice<code>" packed 4 bits a die, "dice<code>_n" the count
        if _indexed(key, "dice"):
            code, n = int(key[4:]), reg[f"{key}_n"]
            frame.code.append(code)
            frame.count.append(n)
            frame.dice.extend((reg[key] >> (4 * i)) & 15 for i in range(n))
            keys |= {key, f"{key}_n"}
    return (frame if keys else None), keys


def _lucky_charm(reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
    keys = {k for k in reg if k in ("lucky_code", "lucky_n", "lucky_die", "lucky_asked") or _indexed(k, "lucky_d")}
    if not keys:
        return None, keys
    return LuckyCharm(code=reg.get("lucky_code", -1),
                      shown=[reg.get(f"lucky_d{i}", 0) for i in range(reg.get("lucky_n", 0))],
                      die=reg.get("lucky_die", -1), asked=reg.get("lucky_asked", 0)), keys


FieldReader = Callable[[dict[str, int], dict[str, Any], int], set[str]]
FrameReader = Callable[[dict[str, int]], tuple[Frame | None, set[str]]]

FIELD_READERS: dict[type[Frame], FieldReader] = {
    Setup: _setup, RecruitTurn: _recruit_turn, EventsPhase: _events_phase, Event: _event, Discard: _discard,
    HeroTurnOver: _hero_turn_over,
}
FRAME_READERS: dict[type[Frame], FrameReader] = {
    Losses: _losses, Reactions: _reactions, LuckyReroll: _lucky_reroll, Rolls: _rolls, LuckyCharm: _lucky_charm,
}

# frame -> field -> the version-2 key(s) its reader fills it from (fields `KEYS` does not name)
READ_BY_READERS: dict[type[Frame], dict[str, str]] = {
    Setup: {"placed": "sub"},  # in setup
    RecruitTurn: {"step": "sub", "open_screen": "screen_open"},  # in recruiting
    EventsPhase: {"done": "ev_done"},  # bit per side
    Event: {"tried": "ev_tried", "todo": "ev_todo", "hexes": "ev_hexes", "posed": "ev_mask"},  # bitmasks
    Discard: {"player": "screen_open"},  # with "discarding"
    HeroTurnOver: {"faces": "hero_turns", "owners": "hero_turn_{}"},  # a bitmask; the owner per face
    Losses: dict.fromkeys(_LOSS_FLAGS, "ls_flags"),
    Reactions: _ROUND_KEYS,
    Rolls: {"code": "dice{}", "count": "dice{}_n", "dice": "dice{}"},  # 4 bits a die
}


def fields_read(cls: type[Frame]) -> set[str]:
    """The fields of `cls` a version-2 save can fill, by any of the four ways."""
    return set(KEYS.get(cls, ())) | set(CONVERTED.get(cls, ())) | set(READ_BY_READERS.get(cls, ()))


# ===================================================================== reading


def frames_from_v2(reg: dict[str, int], phase: int = -1) -> tuple[list[Frame], set[str]]:
    """The frames a version-2 save's register bag describes (a frame exists when any of its keys
    does), outermost first, and the keys they took. `phase`: the save's phase (for `FIELD_READERS`)."""
    out, taken = [], set()
    for cls in FRAMES.values():
        whole = FRAME_READERS.get(cls)
        if whole is not None:
            frame, keys = whole(reg)
            out.extend([frame] if frame is not None else [])
            taken |= keys
            continue
        values: dict[str, Any] = {}
        marked = {k for k in MARKERS.get(cls, ()) if k in reg}
        taken |= marked
        converted, named, counts = CONVERTED.get(cls, {}), KEYS.get(cls, {}), COUNTS.get(cls, {})
        for f in dataclasses.fields(cls):
            read = converted.get(f.name)
            if read is not None:
                got = read(reg)
                if got is not None:
                    values[f.name], keys = got
                    taken |= keys
                continue
            key = named.get(f.name, "")
            if not key:
                continue
            if _is_list(f):
                stem = key.removesuffix("{}")
                found = {k: v for k, v in reg.items() if k.startswith(stem) and k[len(stem):].isdigit()}
                if found:
                    by_index = {int(k[len(stem):]): v for k, v in found.items()}
                    size = 7 if f.metadata.get("per_side") else max(by_index) + 1
                    values[f.name] = [by_index.get(i, f.metadata.get("default", 0)) for i in range(size)]
                    taken |= set(found)
                if counts.get(f.name) in reg:
                    taken.add(counts[f.name])
            elif key in reg:
                values[f.name] = reg[key]
                taken.add(key)
        reader = FIELD_READERS.get(cls)
        if reader is not None:
            taken |= reader(reg, values, phase)
        if values or marked:
            out.append(cls(**values))
    return out, taken


class RegisterError(ValueError):
    """A version-2 register no frame takes: a corrupt or foreign save (`GameState.from_json` reports it)."""


def load_registers(state: Any, registers: dict) -> None:
    """Version 2 kept the procedures under way in a bag of named integers; they become the frames of
    `state` (a `GameState` being loaded: its phase and sizes are read) and the Kadab knowledge its `seen`
    array. A register no frame takes is a corrupt or foreign save (`RegisterError`)."""
    reg = {str(k): int(v) for k, v in registers.items()}
    state.frames, moved = frames_from_v2(reg, state.phase)
    for p in range(state.n_players):  # R22.4: the hexes each player saw were a bitmask
        key = f"seen{p}"
        if key in reg:
            seen = set(bits(reg[key]))
            state.seen[p] = [hx in seen for hx in range(state.geo.n_hexes)]
            moved.add(key)
    unknown = sorted(set(reg) - moved)
    if unknown:
        raise RegisterError(f"saved game: version 2 register {unknown[0]!r} is not one this ktenv can read")

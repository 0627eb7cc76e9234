"""Typed procedure frames: the state of a procedure that spans several decisions.

A move, an exploration, a battle, an event, a reaction window ... each is one dataclass here, with
an `IntEnum` stage where it has stages and named, typed fields (an int, a bool, or a list of ints).
The state keeps the frames under way on a stack (`GameState.frames`, outermost first): a battle
pushed during an exploration sits above it, a reaction window above the battle. Saves carry them
(`to_dict`), and the observation's registers name the frame fields they read
(`ktenv.kings_and_things.env.observation.REGISTERS`), so a field that no longer exists fails at import.

A field that holds counters says so (`things=THING`, `FLAGS` or `ACTION`, collected in `THING_REFS`):
a world sampled for a searching agent (`ktenv.kings_and_things.worlds`) leaves those counters where they are and deals
every other hidden counter again, so a new field holding a Thing id must declare it.

The native engine mirrors these records one to one (one struct per frame, same fields, same order),
so both engines save the same state.

Version 2 saves kept these facts in a key-value bag (`reg`); `frames_from_v2` reads them back into
frames, in four ways, simplest first: a field names the key it replaced (`slot(v2="b_hex")`, or a key
pattern for a list, `per_side(v2="b_hits{}")`); a field reads a converted form (`v2_read`: a bitmask,
packed numbers); a frame reads what needs the saved phase or several keys (`Frame.v2_fields`); a frame
that rebuilds itself whole defines `from_v2`. `V2_MARKERS` are keys that only said a procedure was
under way.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar, TypeVar

from .constants import RECRUIT, SETUP

F = TypeVar("F", bound="Frame")


class FrameError(ValueError):
    """A saved frame that cannot be read (unknown procedure or field, wrong type)."""


class Frame:
    """Base of every procedure frame. Subclasses are registered with `@procedure(name)`."""

    NAME: ClassVar[str] = ""
    # Version-2 register keys that only said the procedure was under way (no field holds them).
    V2_MARKERS: ClassVar[tuple[str, ...]] = ()
    __slots__ = ()

    def copy(self: F) -> F:
        other = dataclasses.replace(self)
        for f in _LIST_FIELDS[type(self)]:
            setattr(other, f, list(getattr(self, f)))
        return other

    @classmethod
    def v2_fields(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        """Read the version-2 keys the generic reading (`v2=`) cannot: bitmasks, shifted codes, a key
        two procedures shared (told apart by the saved `phase`). Puts fields into `values`, returns
        the keys it took. None by default. (A frame that rebuilds itself whole from version 2
        defines `from_v2(reg) -> (frame or None, keys)` instead.)"""
        return set()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"procedure": self.NAME}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = [int(v) for v in value] if isinstance(value, list) else int(value)
        return out


FRAMES: dict[str, type[Frame]] = {}  # name -> class, in the order frames nest (outermost first)
_LIST_FIELDS: dict[type, tuple[str, ...]] = {}
# per frame class: (field, THING / FLAGS / ACTION) of every field that refers to counters
THING_REFS: dict[type, tuple[tuple[str, str], ...]] = {}


def procedure(name: str):
    """Class decorator: make a dataclass frame and register it under `name`."""

    def wrap(cls):
        cls = dataclass(slots=True)(cls)
        cls.NAME = name
        if name in FRAMES:
            raise TypeError(f"procedure {name!r} is registered twice")
        FRAMES[name] = cls
        _LIST_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if _is_list(f))
        THING_REFS[cls] = tuple((f.name, f.metadata["things"]) for f in dataclasses.fields(cls)
                                if f.metadata.get("things"))
        return cls

    return wrap


# What a field says of the counters (`things=`): the procedure under way refers to them, so a sampled
# world (ktenv.kings_and_things.worlds) leaves them where they are. THING: the value is a Thing id (other values, -1
# or a
# hero face coded past the Things, name none); FLAGS: a list indexed by Thing id, nonzero where it
# refers to that Thing; ACTION: an action (or a list of them) whose Thing block names a Thing.
THING, FLAGS, ACTION = "thing", "flags", "action"


def slot(default: int = 0, v2: str = "", things: str = "") -> Any:
    """A number field; `v2` is the register key it replaced in version 2 saves; `things`: what it says of
    the counters (THING, ACTION; see above)."""
    return field(default=default, metadata={"v2": v2, "things": things})


def per_side(v2: str = "", size: int = 7, default: int = 0) -> Any:
    """A number for every side code (players 0-5, neutral 6: `constants.NEUTRAL`); `v2` is the key
    pattern with `{}` for the side; `default` the value of a side without one (-1 for a side index)."""
    return field(default_factory=lambda: [default] * size,
                 metadata={"v2": v2, "per_side": True, "default": default})


def series(v2: str = "", count: str = "", things: str = "") -> Any:
    """A list of numbers (a path, a queue); `v2` is the key pattern with `{}` for the index, `count`
    the version-2 key that held its length, if any; `things`: what it says of the counters (above)."""
    return field(default_factory=list, metadata={"v2": v2, "series": True, "count": count, "things": things})


def _is_list(f: dataclasses.Field) -> bool:
    return bool(f.metadata.get("per_side") or f.metadata.get("series"))


def frame_from_dict(data: Any) -> Frame:
    if not isinstance(data, dict) or "procedure" not in data:
        raise FrameError("a frame must be an object with a 'procedure' name")
    cls = FRAMES.get(data["procedure"])
    if cls is None:
        raise FrameError(f"unknown procedure {data['procedure']!r}")
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            raise FrameError(f"frame {cls.NAME!r}: field {f.name!r} is missing")
        value = data[f.name]
        if _is_list(f):
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise FrameError(f"frame {cls.NAME!r}: field {f.name!r} must be a list of integers")
            value = [int(v) for v in value]
        elif not _is_int(value):
            raise FrameError(f"frame {cls.NAME!r}: field {f.name!r} must be an integer")
        values[f.name] = value
    extra = set(data) - {"procedure"} - set(values)
    if extra:
        raise FrameError(f"frame {cls.NAME!r}: unknown field {sorted(extra)[0]!r}")
    frame = cls(**values)
    for f in dataclasses.fields(cls):  # keep IntEnum stages typed
        if isinstance(f.default, IntEnum):
            setattr(frame, f.name, type(f.default)(getattr(frame, f.name)))
    return frame


def bits(mask: int) -> list[int]:
    """The set bits of a version-2 bitmask, lowest first."""
    out, i = [], 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def _is_int(v: Any) -> bool:
    return isinstance(v, int)  # bools too: flags are saved as 0/1 but True/False reads the same


def frames_from_v2(reg: dict[str, int], phase: int = -1) -> tuple[list[Frame], set[str]]:
    """The frames a version-2 save's register bag describes (a frame exists when any of its keys
    does), and the keys they took. `phase`: the save's phase (for `Frame.v2_fields`)."""
    out, taken = [], set()
    for cls in FRAMES.values():
        custom = getattr(cls, "from_v2", None)  # a frame whose keys need more than `v2=` (packed, derived)
        if custom is not None:
            frame, keys = custom(reg)
            out.extend([frame] if frame is not None else [])
            taken |= keys
            continue
        values: dict[str, Any] = {}
        marked = {k for k in cls.V2_MARKERS if k in reg}
        taken |= marked
        for f in dataclasses.fields(cls):
            read = f.metadata.get("v2_read")
            if read is not None:  # a version-2 form that needs converting (a bitmask, packed numbers)
                got = read(reg)
                if got is not None:
                    values[f.name], keys = got
                    taken |= keys
                continue
            key = f.metadata.get("v2", "")
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
                if f.metadata.get("count") in reg:
                    taken.add(f.metadata["count"])
            elif key in reg:
                values[f.name] = reg[key]
                taken.add(key)
        taken |= cls.v2_fields(reg, values, phase)
        if values or marked:
            out.append(cls(**values))
    return out, taken


# ===================================================================== the frames
# Outermost first: the order frames nest on the stack (and the order a version-2 save's frames are
# rebuilt in).


class SpecialStage(IntEnum):
    """Stages of one use of a special-power hero (A.5, A.7)."""

    CHOOSE = 0  # the player picks a hero to use, or passes
    DUEL = 1  # the hero's owner rolls
    DUEL_B = 2  # the victim rolls
    DUEL_EVAL = 3  # higher wins; a tie rolls again
    TAKE = 4  # the Master Thief takes gold or a counter
    TARGET_A = 5  # the Assassin's owner names a target
    TARGET_B = 6  # the hex owner names a target
    STRIKE = 7  # the strike's die
    STRIKE_EVAL = 8  # 1-3: the first target dies, 4-6: the second


@procedure("special_power")
class SpecialPower(Frame):
    """R15.1 phase 8: one player's turn with the Master Thief (A.5) and the Assassin Primus (A.7)."""

    stage: SpecialStage = slot(SpecialStage.CHOOSE, v2="sp_stage")
    hero: int = slot(-1, v2="sp_hero")  # hero face in use
    victim: int = slot(-1, v2="sp_victim")  # the player robbed or struck
    hex: int = slot(-1, v2="sp_hex")  # the Assassin's target hex
    target_a: int = slot(0, v2="sp_a", things=THING)  # a Thing id, or -1 - hero face
    target_b: int = slot(0, v2="sp_b", things=THING)
    tie: bool = slot(False, v2="sp_tie")  # the duel is a re-roll after a tie
    used_thief: bool = slot(False, v2="sp_used_thief")  # each hero once per turn
    used_assassin: bool = slot(False, v2="sp_used_assassin")


# ----- events and economy: setup, heroes, recruiting, placement, events, interrupts

class RecruitStep(IntEnum):
    """Steps of one player's Recruit Things turn (R8.1-R8.3, R17.1.1)."""

    PAID = 0  # declare the paid draws (R8.1.1)
    TRADE = 1  # choose the trade set (R8.1.1)
    DRAW = 2  # draw, pay, return the trade counters (R8.1.5: or keep some)
    PLACE = 3  # place Things and remove own income counters (R8.2, R8.3)
    LIMIT = 4  # placement done: the screen limit applies again (R17.1.1)
    DONE = 5  # the turn ends


@procedure("setup")
class Setup(Frame):
    """R4.7-R4.10: the initial draw and placements. The screen limit waits until the placement is
    done (R17.1.1); each player places in turn (R4.8, R4.10)."""

    screens_open: bool = slot(False, v2="setup_screens")  # R17.1.1: screens may hold more than 10
    placed: bool = slot(False)  # the player at `s.turn` has had their placement (version 2: "sub")

    @classmethod
    def v2_fields(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        if phase == SETUP and "sub" in reg:  # version 2's "sub" served setup and recruiting (RecruitTurn.step)
            values["placed"] = bool(reg["sub"])
            return {"sub"}
        return set()


@procedure("hero_recruit")
class HeroRecruit(Frame):
    """R7 phase 2: one player's turn to recruit heroes: dismiss (R7.2), choose (R7.3), gold before
    the roll (R7.4), 2d6 (R7.5), gold after a short roll (R7.6), place (R7.7)."""

    hero: int = slot(-1, v2="hero")  # the pool hero face being recruited
    attempts: int = slot(0, v2="attempts")  # attempts this turn (option hero_attempts_per_round)
    bonus: int = slot(-1, v2="bonus")  # +1s bought before the roll (R7.4); -1: not rolled yet
    cost: int = slot(0, v2="cost")  # gold asked to make up a short roll (R7.6); 0: none asked


@procedure("recruit_turn")
class RecruitTurn(Frame):
    """R8 phase 3: one player's Recruit Things turn: declare paid draws and a trade set, draw
    (R8.1), place (R8.2, R8.3), then the screen limit (R17.1)."""

    step: RecruitStep = slot(RecruitStep.PAID)  # version 2: "sub" in phase 3
    paid: int = slot(0, v2="paid")  # paid draws declared, 5 gold each (R8.1.1); 0: none yet
    keep: int = slot(0, v2="keep")  # trade counters still to keep: the cup ran dry (R8.1.5)
    # R17.1.1: this player's screen may hold more than 10 until their placement is done; -1: no (a
    # discard by another player meanwhile ends it). Version 2: "screen_open" - 1 without "discarding".
    open_screen: int = slot(-1)

    @classmethod
    def v2_fields(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        if phase != RECRUIT or "sub" not in reg:
            return set()
        values["step"] = RecruitStep(reg["sub"])
        if reg.get("screen_open") and not reg.get("discarding"):
            values["open_screen"] = reg["screen_open"] - 1
            return {"sub", "screen_open"}
        return {"sub"}


@procedure("events_phase")
class EventsPhase(Frame):
    """R10 phase 4: in turn order each player may play one event (R10.1)."""

    done: list[int] = per_side()  # 1: the player has played an event or passed (version 2: "ev_done" bits)

    @classmethod
    def v2_fields(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        if "ev_done" not in reg:
            return set()
        values["done"] = [reg["ev_done"] >> p & 1 for p in range(7)]
        return {"ev_done"}


class EventStage(IntEnum):
    """Stages of the events phase (`s.stage`, R10): the choice of an event, then its resolution
    (Appendix B). A stage after a posed choice reads its answer; a roll stage rolls (R18.5), the next
    reads the dice."""

    BEGIN = 0
    CHOOSE = 1  # the next player in turn order who may play an event (R10.1)
    PLAYED = 2  # the event chosen, or PASS
    FINISH = 3  # the event goes to the cup (R10.2)
    WW_HEX = 4  # B.1 Willing Workers: the hex
    DIS_HEX = 5  # B.2 Terrain Disaster: the hex
    DIS_ROLL = 6
    DIS_CHECK = 7  # 6-8 strikes; else the next hex of the same terrain
    DIS_OWNER_ROLL = 8
    DIS_LOSS = 9
    CASTER = 10  # B.3 Big Juju / B.10 Weather Control: the caster (RD10.8)
    TARGET = 11
    REACT = 12  # Dispel Magic, Fan (R18.2)
    JUJU_TERRAIN = 13  # B.3: the new terrain (own hex)
    JUJU_APPLY = 14
    JUJU_ESCAPE = 15  # B.3 Sea: the next army to escape
    JUJU_ESCAPED = 16
    JUJU_MOVE = 17
    JUJU_SINK = 18
    FAN = 19  # C.3: the Fan moves the cloud
    PLAGUE_REACT = 20  # B.4 Dark Plague: the Elixir (R18.2)
    PLAGUE_PLAYER = 21
    PLAGUE_NEXT = 22  # RD10.9: the player orders the hexes
    PLAGUE_HIT = 23
    POX_VICTIM = 24  # B.7 Teeniepox
    POX_REACT = 25
    POX_ROLL = 26
    POX_CHECK = 27
    POX_HIT = 28
    DEF_HERO = 29  # B.8 Defection
    DEF_ROLL_A = 30
    DEF_ROLL_B = 31
    DEF_CHECK = 32
    DEF_PLACE = 33
    DEF_LORD = 34  # R7.10 / RD5.4: two terrain lords
    VAN_VICTIM = 35  # B.9 Vandals
    VAN_FORT = 36
    PORTAL_STACK = 100  # R22.5 Portal (house content, engine.house)
    PORTAL_DEST = 101
    PORTAL_ROLLED = 102
    PORTAL_SENT = 103


@procedure("event")
class Event(Frame):
    """R10.2 / Appendix B: one player's event, from the choice to play it until it goes to the cup.
    Every choice is posed (`posed`) and its answer read by the stage that asked (`s.stage`)."""

    player: int = slot(-1, v2="ev_p")  # who plays it
    card: int = slot(-1, v2="ev_c", things=THING)  # the event counter (a second-box event acts as its original, R20.1)
    other: int = slot(-1, v2="ev_q")  # the other player concerned: victim, hex owner, army owner
    hex: int = slot(-1, v2="ev_hex")  # the struck or target hex; the Portal's stack (R22.5)
    dest: int = slot(-1, v2="ev_dest")  # an escape hex (B.3), the Portal's destination (R22.5)
    hero: int = slot(-1, v2="ev_hero")  # the hero Defection tries to win (B.8)
    roll: int = slot(0, v2="ev_roll")  # the event's roll (B.2, B.7, B.8, R22.5)
    roll2: int = slot(0, v2="ev_roll2")  # the hero owner's roll (B.8)
    n: int = slot(0, v2="ev_n")  # losses to take (B.7); counters sent through the Portal (R22.5)
    terrain: int = slot(-1, v2="ev_new")  # the tile Big Juju puts down (B.3)
    tried: list[int] = series()  # B.2: the hexes chosen so far, in order (version 2: "ev_tried" bits)
    todo: list[int] = per_side()  # 1: the player's army must escape (B.3) or the Plague hits them (B.4)
    hexes: list[int] = series()  # B.4 / RD10.9: hexes of the Plague player still to hit, lowest first
    posed: list[int] = series(things=ACTION)  # the legal actions of the choice asked now; empty: none asked
    answer: int = slot(-1, v2="ev_act", things=ACTION)  # the action chosen, until the stage that asked reads it
    lord_player: int = slot(-1, v2="lord_choice")  # R7.10 / RD5.4: a second terrain lord came to this player

    @classmethod
    def v2_fields(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        taken = set()
        for key, name in (("ev_tried", "tried"), ("ev_hexes", "hexes"), ("ev_mask", "posed")):
            if key in reg:
                values[name] = bits(reg[key])
                taken.add(key)
        if "ev_todo" in reg:
            values["todo"] = [reg["ev_todo"] >> p & 1 for p in range(7)]
            taken.add("ev_todo")
        return taken


@procedure("placement")
class Placement(Frame):
    """Placing Things from behind the screen (RP-S5, RP-S7, RP-3.4, RP-6.13): a Thing, then its hex;
    PASS ends. In the Recruit Things turn own income counters may also be removed (R8.2.2)."""

    only_new: bool = slot(False, v2="place_new")  # R4.10: only the Things drawn in the exchange
    hex: int = slot(-1, v2="place_hex")  # only this hex (R13.11.2 conquest, B.3 Big Juju); -1: any
    may_remove: bool = slot(False, v2="place_remove")  # R8.2.2: own income counters may be removed
    thing: int = slot(-1, v2="thing", things=THING)  # the Thing chosen, its hex still to choose


@procedure("discard")
class Discard(Frame):
    """R17.1.2 / RD3.2: a player over the screen limit discards down to 10 (the others over it follow
    at once; meanwhile no screen is checked)."""

    player: int = slot(-1)  # who discards (version 2: "screen_open" - 1 with "discarding")

    @classmethod
    def v2_fields(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        if not reg.get("discarding"):
            return {"discarding"} & set(reg)
        values["player"] = reg.get("screen_open", 0) - 1
        return {"discarding", "screen_open"} & set(reg)


@procedure("hero_turn_over")
class HeroTurnOver(Frame):
    """R7.11 / RP-2.6: the former owner of a lost hero may turn its counter over, asked at the next
    pause in the rules (lowest face first)."""

    face: int = slot(-1, v2="hero_turn")  # the hero asked about now
    faces: list[int] = series()  # the heroes waiting for the question, lowest first (v2: "hero_turns" bits)
    owners: list[int] = series()  # their former owners, in the same order (v2: "hero_turn_{face}")

    @classmethod
    def v2_fields(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        taken = {k for k in reg if k.startswith("hero_turn_") and k[10:].isdigit()}
        if "hero_turns" in reg:
            values["faces"] = bits(reg["hero_turns"])
            values["owners"] = [reg[f"hero_turn_{f}"] for f in values["faces"]]
            taken.add("hero_turns")
        return taken


# ----- movement (R11, R12.2, C.2, R20.3, R21.2 / R21.4 / R21.10, R22.3 / R22.6, RP-5.9, R4.5)


def _v2_bits(key: str):
    """Reader of a version-2 bitmask register as the list of its set bits (ascending)."""
    def read(reg: dict[str, int]):
        if key not in reg:
            return None
        bits = int(reg[key])
        return [i for i in range(bits.bit_length()) if bits >> i & 1], {key}
    return read


def _v2_members(stem: str):
    """Reader of a version-2 key family `<stem><id>` (one key per member) as the list of the ids."""
    def read(reg: dict[str, int]):
        found = sorted(k for k in reg if k.startswith(stem) and k[len(stem):].isdigit())
        if not found:
            return None
        return sorted(int(k[len(stem):]) for k in found), set(found)
    return read


def _v2_spent(stem: str, full: int):
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


def _v2_entries(which: int):
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


def _converted(read, things: str = "") -> Any:
    """A list field whose version-2 form the function `read` converts."""
    return field(default_factory=list, metadata={"v2_read": read, "series": True, "things": things})


@procedure("claims")
class Claims(Frame):
    """R4.5.2: in setup each player claims a second hex in turn order, then a third (then the start
    gold, R4.6)."""

    round: int = slot(0, v2="claim_round")  # 0: claiming second hexes, 1: third hexes


@procedure("stack_overflow")
class StackOverflow(Frame):
    """RP-5.9 / RD10.2: stacks allowed over the limit of 10 (R11.4) for now: a defector (A.4), a
    Balloon or Boat diverted onto a full hex, a Citadel reduced (R19.2.2), counters sent back from
    a Sea tile (R20.3) wait for their owner's next movement turn to be trimmed; a retreat onto a full
    hex (R13.8.4) waits for the excess to be eliminated."""

    owners: list[int] = per_side(v2="overflow{}")  # 1: the side's stacks may be over 10 until it next moves
    retreat: bool = slot(False, v2="stack_overflow_ok")  # R13.8.4: a retreat's excess is being eliminated


@procedure("entries")
class Entries(Frame):
    """R12.3.2 (option contest_attacker second_to_enter): the order in which players entered unexplored
    hexes this movement phase, kept until the phase's contests are over (R12.1.4). Entry i: player
    `players[i]` entered hex `hexes[i]` (each player once per hex)."""

    hexes: list[int] = _converted(_v2_entries(0))
    players: list[int] = _converted(_v2_entries(1))


@procedure("movement_turn")
class MovementTurn(Frame):
    """R11: one player's movement turn (R11.1.2: every creature and hero gets 4 MP, R11.5.1: pins are
    set as the turn begins); it ends when the player passes (R11.2.5), after conquest by movement
    (R11.8.1). Its moves nest in it (`Move`, `NomadMove`); a `BalloonFlight` or `BoatTrip` begun in
    it stays for the round."""

    V2_MARKERS = ("mv_on",)

    ending: bool = slot(False, v2="mv_ending")  # the player passed: stacks over 10 are trimmed first (RP-5.9)
    challenged: list[int] = _converted(_v2_bits("mv_chal"))  # R11.7: hexes whose pin was offered a challenge
    gypsy_start: int = slot(-1, v2="mv_gk")  # R22.3: the hex the Gypsy King began the turn in
    gypsy_done: bool = slot(False, v2="mv_gk_done")  # R22.3: his owner declined to bring his town or fort
    # R21.10 Nomad: MP (of 4) spent this turn by the Tower or Keep now in hex i / by the city or village i
    fort_spent: list[int] = _converted(_v2_spent("mv_nf", 4))
    town_spent: list[int] = _converted(_v2_spent("mv_nt", 4))


class FlyStage(IntEnum):
    """R11.6: why flyers are passing an enemy hex."""

    NONE = 0
    ENTRY = 1  # the stack entered a hex with enemies: flyers may go on (R11.6.1)
    LEAVE = 2  # pinned flyers leave the hex they start in (R11.6)


@procedure("move")
class Move(Frame):
    """R11.2: one move of a stack (RP-5.1 choosing it, RP-5.2 stepping), with the bluff challenge
    against a pin (R11.7), flyers passing enemy hexes (R11.6) and the Deerhunter's company (A.3)."""

    start: int = slot(-1, v2="mv_sel")  # the hex whose counters are being chosen (RP-5.1)
    hex: int = slot(-1, v2="mv_hex")  # where the stack is (over Sea too, R11.3.4); -1 until it sets off
    revealer: int = slot(0, v2="mv_ri")  # R11.7: enemies asked to reveal a supported creature so far
    fly: FlyStage = slot(FlyStage.NONE, v2="mv_fly")
    intending: list[int] = _converted(_v2_bits("mv_ih"))  # R11.6 step 1: flying hero faces that go on
    blocks: int = slot(0, v2="mv_blk")  # R11.6 step 2: blockers declared so far
    asked: int = slot(0, v2="mv_bi")  # R11.6 step 2: enemies (from the mover's left) asked so far
    blocking: list[int] = _converted(_v2_bits("mv_decl"))  # RD4.6: enemy flying hero faces that blocked
    stay: int = slot(0, v2="mv_stay")  # R11.6 step 3: intending flyers the mover still has to stop
    deerhunter: bool = slot(False, v2="mv_dh")  # A.3: the move started with the Deerhunter
    steps: int = slot(0, v2="mv_steps")  # A.3 / RD4.5: hexes entered since then
    ground_cost: int = slot(0, v2="mv_land")  # their normal ground cost (R11.1.2)
    # A.3: members still qualifying (a Thing id, or the game's number of Things + a hero face)
    qualifying: list[int] = _converted(_v2_members("mv_q"), things=THING)


@procedure("nomad_move")
class NomadMove(Frame):
    """R21.10 Nomad: a Tower or Keep, or a city or village, moving to an adjacent own hex."""

    hex: int = slot(-1, v2="pw_nm_hex")  # where the fort or town stands
    town: int = slot(-1, v2="pw_nm", things=THING)  # the city or village; -1: the fort of `hex` moves


class BalloonStage(IntEnum):
    """Stages of a Balloon flight (C.2)."""

    LOAD = 0  # up to 3 passengers from one hex
    DEST = 1  # a land hex 1-3 away
    WAIT = 2  # the reactions (Dispel Magic, the Fan, C.3)
    FANNED = 3  # the Fan's player picks the hex next to the landing hex
    ESCAPE = 4  # blown to Sea: the passengers escape to an adjacent own hex, or are lost
    FLOWN = 5  # over (landed, lost or cancelled); the frame keeps the round's facts


@procedure("balloon_flight")
class BalloonFlight(Frame):
    """C.2 the Balloon (C.3 the Fan against it): its flight in the owner's movement turn; the frame then
    stays until the end of the round (one flight a round; the passengers attack as ranged in battles
    while the Balloon is in play with them)."""

    V2_MARKERS = ("bl_landed",)  # version 2 also kept where it landed, which no rule read

    stage: BalloonStage = slot(BalloonStage.FLOWN, v2="bl_stage")
    n: int = slot(0, v2="bl_n")  # passengers
    passengers: list[int] = series(v2="bl_p{}", things=THING)  # their Thing ids (n of them)
    hex: int = slot(-1, v2="bl_hex")  # the hex it lifts off from
    dest: int = slot(-1, v2="bl_dest")  # the hex it flies to (before reactions)
    sea: int = slot(-1, v2="bl_sea")  # the Sea hex the Fan blew it to
    owner: int = slot(-1, v2="bl_owner")  # who flew it (kept for the round's battles)
    used: bool = slot(False, v2="bl_used")  # flown this round (even if cancelled)


class BoatStage(IntEnum):
    """Stages of a Boat trip (R22.6)."""

    LOAD = 0  # up to 3 creatures or heroes from one hex
    PATH = 1  # 1-3 Sea hexes, then the land destination
    WAIT = 2  # the reactions (Dispel Magic, the Bellows)
    FANNED = 3  # the Bellows player picks a land hex next to the last Sea hex
    SAILED = 4  # over; the frame keeps the round's facts


@procedure("boat_trip")
class BoatTrip(Frame):
    """R22.6 the Boat (house content): its trip in the owner's movement turn; the frame then stays until
    the end of the round (one trip a round; the passengers attack as ranged while it is in play)."""

    stage: BoatStage = slot(BoatStage.SAILED, v2="bt_stage")
    n: int = slot(0, v2="bt_n")  # passengers
    passengers: list[int] = series(v2="bt_p{}", things=THING)  # a Thing id, or ~face (negative) for a hero
    hex: int = slot(-1, v2="bt_hex")  # the start hex
    at: int = slot(-1, v2="bt_at")  # where the path is: the start hex, then its last Sea hex
    crossed: int = slot(0, v2="bt_k")  # Sea hexes crossed (1-3)
    last: int = slot(-1, v2="bt_last")  # the last Sea hex crossed
    path: list[int] = _converted(_v2_bits("bt_path"))  # the Sea hexes crossed (none twice)
    dest: int = slot(-1, v2="bt_dest")  # the land hex it sails to (before reactions)
    owner: int = slot(-1, v2="bt_owner")  # who sailed it (kept for the round's battles)
    used: bool = slot(False, v2="bt_used")  # sailed this round (even if cancelled)


class ExploreStage(IntEnum):
    """Stages of an exploration (R12.2)."""

    ROLL = 0  # R12.2.1 / R12.2.2 the roll (none when defenders are left from earlier)
    ROLLED = 1  # the defenders are drawn
    TIE = 2  # R12.2.4: the controller picks the income counter that stays
    BRIBE = 3  # R12.2.5
    FIGHT = 4  # R12.2.6: the battle against the defenders
    PLACE = 5  # R13.11.2: placement in the conquered hex
    DONE = 6
    PLACE_START = 7  # loot over the screen limit is discarded first (R17.1.2), then placement


@procedure("exploration")
class Exploration(Frame):
    """R12.2: a player explores an unexplored hex; the neutral defenders are drawn and run by the player
    to the right (RD1.6); a battle against them (R12.2.6) nests in it."""

    stage: ExploreStage = slot(ExploreStage.ROLL, v2="x_stage")
    hex: int = slot(-1, v2="x_hex")
    player: int = slot(-1, v2="x_player")  # the explorer
    controller: int = slot(-1, v2="x_ctrl")  # runs the neutral defenders (RD1.6)
    tie: bool = slot(False, v2="x_tie")  # R12.2.4: tied income counters wait on the hex for the choice
    done: bool = slot(False, v2="x_done")  # over: the segment ends (R12.1)


@procedure("aviator_flight")
class AviatorFlight(Frame):
    """R21.2 Aviator: the creature declared a flyer for the round (its identity is its owner's, RI.4)."""

    flyer: int = slot(-1, v2="pw_fly", things=THING)
    round: int = slot(-1, v2="pw_fly_round")  # the round it flies in (the frame is dropped after it)
    retreating: int = slot(-1, v2="pw_ar", things=THING)  # RD10.16: the flyer while it retreats alone from a battle


@procedure("brute_screens")
class BruteScreens(Frame):
    """R21.4 Brute / R17.1: screens allowed over 10 until the rules next pause, a Charge creature having
    come back behind one in the middle of a decision."""

    over: list[int] = _converted(_v2_bits("pw_brute"))  # the players (ascending)


# ----- battle family (R13): a battle, and the counters eliminated over the stack limit


class BattleKind(IntEnum):
    """What a battle is fought over (R12.1.5, R12.2, R12.3)."""

    OWNED = 0  # an owned hex: the owner defends, every other player attacks
    EXPLORATION = 1  # the explorer against the neutral defenders drawn for the hex (R12.2)
    CONTEST = 2  # players in an unowned hex; the survivor explores (R12.3)


class BattleStage(IntEnum):
    """Stages of a battle (R13.2-R13.10); a stage runs the rules up to the next decision."""

    START = 0  # Gambler's stake (R21.11), reveal, bluff check (R13.2 steps 1-2)
    WINDOW = 1  # an item window (R18.1): sides in battle order play items or pass
    FIREWALL = 2  # the Firewall's value is rolled (C.5)
    PREHERO = 3  # Baron Munchausen and the Grand Duke (A.1, A.2)
    WARLORD = 4  # the Warlord names a creature (A.4), then bluff and end checks
    WARLORD_ROLL = 5  # the Warlord's roll
    ROUND = 6  # a combat round begins (R13.3)
    BEARERS = 7  # Bow and Sword bearers (C.10, C.11)
    TARGETS = 8  # each side names its target (R13.12)
    STEP = 9  # a step begins: its item window (R18.1.1)
    STEP_PRE = 10  # Dispel Magic before the magic step (C.8), the Marksman's choice (A.6)
    DISPEL_WAIT = 11  # the reaction round against a side's magic attacks (C.8)
    ROLL = 12  # each side rolls its dice of the step (R13.4.2)
    HITS = 13  # hits counted (R13.4.4)
    MARKSMAN_PLACE = 14  # the Marksman's owner places his value-2 hits (A.6)
    ASSIGN = 15  # receiving sides assign their hits one at a time (R13.6)
    SAVE = 16  # a saving roll read: Swordmaster (A.8) or Talisman (C.9)
    REMOVE = 17  # the step's eliminated counters leave (R13.6.5)
    RETREAT = 18  # attackers, then the defender, may retreat (R13.8)
    EXCESS = 19  # counters over the stack limit after a retreat are eliminated (R13.8.4)
    END = 20  # ownership, loot, items home (R13.10 step 1)
    DAMAGE_FORT = 21  # the fort's damage roll (R13.10 step 2)
    DAMAGE_FORT_ROLLED = 22
    DAMAGE_INCOME = 23  # the income counter's damage roll
    DAMAGE_INCOME_ROLLED = 24
    RESET = 25  # damage healed, counters face down, the winner's placement (R13.10 steps 3-6)
    PLACE = 26  # the winner's placement in the hex is under way (R13.11.2)
    DONE = 27  # the battle is over


@procedure("battle")
class Battle(Frame):
    """One battle (R13) in `hex`, from the reveal to the winner's placement: rounds of magic, ranged and
    melee steps (R13.3, R13.4), hits assigned by their owners (R13.6), retreats (R13.8), the end
    (R13.9, R13.10); with the item windows (R18.1, Appendix C), the heroes (Appendix A) and the
    Encounter powers that act in battles (R21.1, R21.5, R21.11). `begin` in engine.battle pushes it;
    the Combat phase (R12) or the exploration that drew the defenders drops it."""

    V2_MARKERS = ("b_started",)  # version 2 also flagged the reveal, which no rule read

    stage: BattleStage = slot(BattleStage.START, v2="b_stage")
    idx: int = slot(0, v2="b_idx")  # where the stage's walk over the sides (in its order) has come to
    done: bool = slot(False, v2="b_done")  # the battle is over: its caller takes over
    hex: int = slot(-1, v2="b_hex")
    kind: BattleKind = slot(BattleKind.OWNED, v2="b_kind")
    attacker: int = slot(-1, v2="b_att")  # the player who started it (the chooser, R12.1.5; X12)
    defender: int = slot(-1, v2="b_def")  # the defending side (a player or NEUTRAL)
    controller: int = slot(-1, v2="b_ctrl")  # the player deciding for the neutral side (R12.2.3, RD1.6)
    order: list[int] = series(v2="b_order_{}", count="b_order_n")  # battle order (R12.1.6): attackers, defender
    round: int = slot(0, v2="b_round")  # combat round, from 1 (R13.3)
    step: int = slot(0, v2="b_step")  # battle_sides.MAGIC_STEP, RANGED_STEP or MELEE_STEP (R13.4.1)
    multi: bool = slot(False, v2="b_multi")  # three sides or more are active this round (R13.12)
    targets: list[int] = per_side(v2="b_target{}", default=-1)  # each side's target this round (R13.12)
    side: int = slot(-1, v2="b_side")  # the side whose choice it is (item, target, hits, retreat)
    # stage to go back to after a retreat decision or a saving roll (absent in version 2: RETREAT)
    resume: BattleStage = slot(BattleStage.RETREAT, v2="b_return")
    # ----- item windows (R18.1)
    window: int = slot(0, v2="b_win")  # battle_items.OPENING, ROUND_START or STEP_START
    window_idx: int = slot(0, v2="b_widx")  # the side of battle order asked next in the window
    after_window: BattleStage = slot(BattleStage.START, v2="b_after")  # stage once the window closes
    item: int = slot(-1, v2="b_item", things=THING)  # the item just played, awaiting its reactions (R18.2)
    firewall: int = slot(0, v2="b_firewall")  # the Firewall's rolled value for this battle (C.5)
    bearer_item: int = slot(-1, v2="b_bear", things=THING)  # the Bow or Sword whose bearer is chosen (C.10, C.11)
    # the Bow's / the Sword's bearer was asked this round (version 2: by Thing id, 176 / 177)
    bow_bearer_asked: bool = slot(False, v2="b_bore176")
    sword_bearer_asked: bool = slot(False, v2="b_bore177")
    dust: int = slot(-1, v2="b_dust")  # the attacking side Dust of Defense sends away (C.1)
    force_side: int = slot(-1, v2="b_force_side")  # that side, retreating now (no PASS)
    # bitmask over side codes: sides whose magic attacks in the melee step for the rest of the battle (C.8)
    dispelled: int = slot(0, v2="b_dispelled")
    # bitmask over the positions in the active sides: sides already offered Dispel Magic this step (C.8)
    dispel_asked: int = slot(0, v2="b_dchecked")
    dispel_side: int = slot(-1, v2="b_dside")  # the side whose magic attacks meet the reaction round
    # ----- heroes before the first round (R13.2 step 4)
    warlord_asked: bool = slot(False, v2="b_warlord")  # the Warlord's owner was asked (A.4)
    turncoat: int = slot(-1, v2="b_turncoat", things=THING)  # the creature the Warlord tries to turn (A.4)
    # ----- the Marksman (A.6)
    marksman: int = slot(0, v2="b_marksman")  # his value this ranged step: 5, or 2 (his owner places); 0 unasked
    marksman_asked: bool = slot(False, v2="b_marksman_asked")
    marksman_hits: int = slot(0, v2="b_mhits")  # value-2 hits his owner still places
    marksman_target: int = slot(-1, v2="b_mtarget")  # the side they fall on
    marksman_side: int = slot(-1, v2="b_mside")  # the Marksman's side
    # ----- hits (R13.4.4, R13.6) and saving rolls (A.8, C.9)
    hits: list[int] = per_side(v2="b_hits{}")  # hits each side still has to assign this step
    hits_this_round: bool = slot(False, v2="b_hitsround")  # somebody scored a hit this round (RD7.4)
    rounds_without_hit: int = slot(0, v2="b_nohit")  # rounds in a row without a hit (R13.9.6 / RD7.4)
    forced: bool = slot(False, v2="b_force")  # 50 such rounds: the attackers leave as if retreating (RD7.4)
    save_side: int = slot(-1, v2="b_save_side")  # the hit awaiting its saving roll: the side ...
    save_action: int = slot(-1, v2="b_save_act", things=ACTION)  # ... and the action that named the counter
    parried: bool = slot(False, v2="b_parried")  # the Swordmaster parried this round (A.8)
    # per Thing id / hero face: 1 once the Talisman rolled for it this step or round (C.9)
    talisman_things: list[int] = series(v2="b_tsave{}", things=FLAGS)
    talisman_heroes: list[int] = series(v2="b_tsaveh{}")
    excess_resume: BattleStage = slot(BattleStage.START, v2="b_exback")  # stage after the excess (R13.8.4)
    # ----- Encounter powers (R21)
    powers_applied: bool = slot(False, v2="b_pw")  # the battle-start powers were applied (R21.11)
    stake: int = slot(0, v2="b_stake")  # gold each side staked (R21.11 Gambler)
    lucky_round: list[int] = per_side(v2="b_lucky{}")  # round in which the side last re-rolled (R21.5 Lucky)
    amoeba_round: list[int] = per_side(v2="b_amoeba{}")  # round the Amoeba last ignored a hit (R21.1)
    winner: int = slot(-1, v2="b_winner")  # the side holding the field (R13.9), once the battle ended


@procedure("excess")
class Excess(Frame):
    """Counters over the stack limit of 10 eliminated by their owner, one at a time: after a retreat
    (R13.8.4, RP-6.12) or at the end of the owner's movement turn (RP-5.9)."""

    hex: int = slot(-1, v2="ex_hex")
    side: int = slot(-1, v2="ex_side")  # the player who eliminates them


# ----- dice, reactions, losses: the shared procedures other procedures call into


@procedure("losses")
class Losses(Frame):
    """The shared "take N losses in a hex" procedure (`engine.losses`): Terrain Disaster (B.2), the
    excess of an army escaping a sunk hex (B.3), Plague (B.4), Teenie Pox (B.7). The owner gives up
    one counter (or fort level) at a time; what offers no choice is taken at once."""

    hex: int = slot(-1, v2="ls_hex")
    owner: int = slot(-1, v2="ls_owner")  # the player taking the losses
    left: int = slot(0, v2="ls_n")  # losses still to take
    heroes: bool = slot(False)  # heroes can be lost (B.2, B.7; never by Plague, B.4)
    creatures_first: bool = slot(False)  # forts and towns only when no creature or hero is left (event_losses)
    until_no_creature: bool = slot(False)  # B.4: done once none of the owner's creatures is left
    citadel: bool = slot(False)  # a Citadel may lose levels (R19.2.2 variant B, Terrain Disaster only)
    army_only: bool = slot(False)  # creatures and heroes only (B.3, the excess of an escape)

    @classmethod
    def from_v2(cls, reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
        keys = {k for k in ("ls_hex", "ls_owner", "ls_n", "ls_flags") if k in reg}
        if not keys:
            return None, keys
        flags = reg.get("ls_flags", 0)  # version 2 kept the flags as bits, in the field order above
        return cls(reg.get("ls_hex", -1), reg.get("ls_owner", -1), reg.get("ls_n", 0), bool(flags & 1),
                   bool(flags & 2), bool(flags & 4), bool(flags & 8), bool(flags & 16)), keys


@procedure("reactions")
class Reactions(Frame):
    """R18.2 reaction rounds (`engine.reactions`): an event or item played (or magic creatures about
    to attack, C.8) opens a round in which the other players may answer with Dispel Magic (C.8), the
    Fan / Bellows (C.3) or the Elixir (C.4); a reaction opens its own round above it (R18.2.2).

    The lists hold one entry per open round, outermost first. When the last round closes, its
    outcome waits in the `result_` fields until the procedure that opened it reads it."""

    trigger: list[int] = series(things=THING)  # the Thing played, or MAGIC_STEP (-2): magic creatures about to attack
    player: list[int] = series()  # who played it
    asked: list[int] = series()  # players of the round's ask order already asked
    cancelled: list[int] = series()  # 1: a Dispel Magic cancelled it
    fan: list[int] = series()  # the player whose Fan took effect on it, or -1
    elixir: list[int] = series()  # bit p: player p is saved by an Elixir
    victims: list[int] = series()  # bit p: player p may answer with an Elixir (Teenie Pox, B.7)
    result_cancelled: bool = slot(False, v2="rx_cancel")
    result_fan: int = slot(-1, v2="rx_fan")
    result_elixir: int = slot(0, v2="rx_elixir")

    @classmethod
    def from_v2(cls, reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
        keys = {k for k in ("rx_n", "rx_cancel", "rx_fan", "rx_elixir") if k in reg}
        if not keys:
            return None, keys
        frame = cls(result_cancelled=bool(reg.get("rx_cancel", 0)), result_fan=reg.get("rx_fan", -1),
                     result_elixir=reg.get("rx_elixir", 0))
        for d in range(reg.get("rx_n", 0)):
            for name, key in (("trigger", "c"), ("player", "p"), ("asked", "ask"), ("cancelled", "cancel"),
                              ("fan", "fan"), ("elixir", "elixir"), ("victims", "victims")):
                getattr(frame, name).append(reg[f"rx{d}_{key}"])
                keys.add(f"rx{d}_{key}")
        return frame, keys


@procedure("lucky_reroll")
class LuckyReroll(Frame):
    """R21.5 Lucky (Encounter power): after its own battle roll, the Lucky player may re-roll one of
    its dice, once per combat round. The re-roll is a roll event of its own (R18.5.1)."""

    side: int = slot(-1, v2="pw_lk")  # the Lucky player's battle side
    shown: list[int] = series(v2="pw_d{}")  # the dice of its roll (the first 16), once it is asked
    die: int = slot(-1, v2="pw_lk_die")  # the die being re-rolled; -1 until chosen

    @classmethod
    def from_v2(cls, reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
        keys = {k for k in reg if k in ("pw_lk", "pw_lk_n", "pw_lk_die") or _indexed(k, "pw_d")}
        if not keys:
            return None, keys
        return cls(reg.get("pw_lk", -1), [reg.get(f"pw_d{i}", 0) for i in range(reg.get("pw_lk_n", 0))],
                   reg.get("pw_lk_die", -1)), keys


@procedure("rolls")
class Rolls(Frame):
    """R18.5.1 roll events (`engine.dice`): the dice of every roll made and not yet read by the rule
    that made it, which reads them in its next stage. In between, the Lucky Charm (C.6) and the Lucky
    power (R21.5) may change them. One roll per roll code (`engine.dice`: HERO ... BATTLE + side)."""

    code: list[int] = series()  # the roll code of each roll held, in the order made
    count: list[int] = series()  # how many dice each has
    dice: list[int] = series()  # their dice, roll after roll (0-7: R18.5.2, a changed die may leave 1-6)

    @classmethod
    def from_v2(cls, reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
        frame, keys = cls(), set()
        for key in reg:  # version 2: "dice<code>" packed 4 bits a die, "dice<code>_n" the count
            if _indexed(key, "dice"):
                code, n = int(key[4:]), reg[f"{key}_n"]
                frame.code.append(code)
                frame.count.append(n)
                frame.dice.extend((reg[key] >> (4 * i)) & 15 for i in range(n))
                keys |= {key, f"{key}_n"}
        return (frame if keys else None), keys


@procedure("lucky_charm")
class LuckyCharm(Frame):
    """C.6 / R18.5.1: the Lucky Charm window after a roll event. Each holder (two with two boxes,
    R20.1) is asked in turn order from the first player (R18.6.1) whether to change one die by one,
    seeing the dice as the one before left them. Only the holder is asked, and nobody else can tell
    a window was offered (RD8.2)."""

    code: int = slot(-1, v2="lucky_code")  # roll code of the roll (`Rolls`)
    shown: list[int] = series(v2="lucky_d{}")  # its dice (the first 16) as the asked holder sees them
    die: int = slot(-1, v2="lucky_die")  # the die the holder chose to change; -1 until chosen
    asked: int = slot(0, v2="lucky_asked")  # bit p: player p was asked about this roll

    @classmethod
    def from_v2(cls, reg: dict[str, int]) -> tuple[Frame | None, set[str]]:
        keys = {k for k in reg if k in ("lucky_code", "lucky_n", "lucky_die", "lucky_asked") or _indexed(k, "lucky_d")}
        if not keys:
            return None, keys
        return cls(reg.get("lucky_code", -1), [reg.get(f"lucky_d{i}", 0) for i in range(reg.get("lucky_n", 0))],
                   reg.get("lucky_die", -1), reg.get("lucky_asked", 0)), keys


def _indexed(key: str, stem: str) -> bool:
    """Is `key` a version-2 key `<stem><number>`?"""
    return key.startswith(stem) and key[len(stem):].isdigit()

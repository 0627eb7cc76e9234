"""Typed procedure frames: the state of a procedure that spans several decisions.

A move, an exploration, a battle, an event, a reaction window ... each is one dataclass here, with
an `IntEnum` stage where it has stages and named, typed fields (an int, a bool, or a list of ints).
The state keeps the frames under way on a stack (`GameState.frames`, outermost first): a battle
pushed during an exploration sits above it, a reaction window above the battle. Saves carry them
(`to_dict`), and the observation's registers name the frame fields they read
(`ktenv.env.observation.REGISTERS`), so a field that no longer exists fails at import.

The native engine mirrors these records one to one (one struct per frame, same fields, same order),
so both engines save the same state.

Every field declares the version-2 register key it replaces (`v2=`): version 2 saves kept these
facts in a key-value bag (`reg`), and `frames_from_v2` reads them back into frames.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar, TypeVar

F = TypeVar("F", bound="Frame")


class FrameError(ValueError):
    """A saved frame that cannot be read (unknown procedure or field, wrong type)."""


class Frame:
    """Base of every procedure frame. Subclasses are registered with `@procedure(name)`."""

    NAME: ClassVar[str] = ""
    __slots__ = ()

    def copy(self: F) -> F:
        other = dataclasses.replace(self)
        for f in _LIST_FIELDS[type(self)]:
            setattr(other, f, list(getattr(self, f)))
        return other

    @classmethod
    def from_v2(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        """Read the version-2 keys the generic reading (`v2=`) cannot: bitmasks, shifted codes, a key
        two procedures shared (told apart by the saved `phase`). Puts fields into `values`, returns
        the keys it took. None by default."""
        return set()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"procedure": self.NAME}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = [int(v) for v in value] if isinstance(value, list) else int(value)
        return out


FRAMES: dict[str, type[Frame]] = {}  # name -> class, in the order frames nest (outermost first)
_LIST_FIELDS: dict[type, tuple[str, ...]] = {}


def procedure(name: str):
    """Class decorator: make a dataclass frame and register it under `name`."""

    def wrap(cls):
        cls = dataclass(slots=True)(cls)
        cls.NAME = name
        if name in FRAMES:
            raise TypeError(f"procedure {name!r} is registered twice")
        FRAMES[name] = cls
        _LIST_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if _is_list(f))
        return cls

    return wrap


def slot(default: int = 0, v2: str = "") -> Any:
    """A number field; `v2` is the register key it replaced in version 2 saves."""
    return field(default=default, metadata={"v2": v2})


def per_side(v2: str = "", size: int = 7) -> Any:
    """A number for every side code (players 0-5, neutral 6: `constants.NEUTRAL`); `v2` is the key
    pattern with `{}` for the side."""
    return field(default_factory=lambda: [0] * size, metadata={"v2": v2, "per_side": True})


def series(v2: str = "") -> Any:
    """A list of numbers (a path, a queue); `v2` is the key pattern with `{}` for the index."""
    return field(default_factory=list, metadata={"v2": v2, "series": True})


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
    does), and the keys they took. `phase`: the save's phase (for `Frame.from_v2`)."""
    out, taken = [], set()
    for cls in FRAMES.values():
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            key = f.metadata.get("v2", "")
            if not key:
                continue
            if _is_list(f):
                stem = key.removesuffix("{}")
                found = {k: v for k, v in reg.items() if k.startswith(stem) and k[len(stem):].isdigit()}
                if found:
                    by_index = {int(k[len(stem):]): v for k, v in found.items()}
                    size = 7 if f.metadata.get("per_side") else max(by_index) + 1
                    values[f.name] = [by_index.get(i, 0) for i in range(size)]
                    taken |= set(found)
            elif key in reg:
                values[f.name] = reg[key]
                taken.add(key)
        taken |= cls.from_v2(reg, values, phase)
        if values:
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
    target_a: int = slot(0, v2="sp_a")  # a Thing id, or -1 - hero face
    target_b: int = slot(0, v2="sp_b")
    tie: bool = slot(False, v2="sp_tie")  # the duel is a re-roll after a tie
    used_thief: bool = slot(False, v2="sp_used_thief")  # each hero once per turn
    used_assassin: bool = slot(False, v2="sp_used_assassin")


# ----- events and economy (issue 13): setup, heroes, recruiting, placement, events, interrupts

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
    def from_v2(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        from .state import SETUP  # version 2's "sub" served setup and recruiting (RecruitTurn.step)

        if phase == SETUP and "sub" in reg:
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
    def from_v2(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        from .state import RECRUIT

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
    def from_v2(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
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
    card: int = slot(-1, v2="ev_c")  # the event counter (a second-box event acts as its original, R20.1)
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
    posed: list[int] = series()  # the legal actions of the choice asked now; empty: none asked
    answer: int = slot(-1, v2="ev_act")  # the action chosen, until the stage that asked reads it
    lord_player: int = slot(-1, v2="lord_choice")  # R7.10 / RD5.4: a second terrain lord came to this player

    @classmethod
    def from_v2(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
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
    thing: int = slot(-1, v2="thing")  # the Thing chosen, its hex still to choose


@procedure("discard")
class Discard(Frame):
    """R17.1.2 / RD3.2: a player over the screen limit discards down to 10 (the others over it follow
    at once; meanwhile no screen is checked)."""

    player: int = slot(-1)  # who discards (version 2: "screen_open" - 1 with "discarding")

    @classmethod
    def from_v2(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
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
    def from_v2(cls, reg: dict[str, int], values: dict[str, Any], phase: int) -> set[str]:
        taken = {k for k in reg if k.startswith("hero_turn_") and k[10:].isdigit()}
        if "hero_turns" in reg:
            values["faces"] = bits(reg["hero_turns"])
            values["owners"] = [reg[f"hero_turn_{f}"] for f in values["faces"]]
            taken.add("hero_turns")
        return taken

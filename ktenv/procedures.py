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
    # Version-2 register keys that only said the procedure was under way (no field holds them).
    V2_MARKERS: ClassVar[tuple[str, ...]] = ()
    __slots__ = ()

    def copy(self: F) -> F:
        other = dataclasses.replace(self)
        for f in _LIST_FIELDS[type(self)]:
            setattr(other, f, list(getattr(self, f)))
        return other

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


def _is_int(v: Any) -> bool:
    return isinstance(v, int)  # bools too: flags are saved as 0/1 but True/False reads the same


def frames_from_v2(reg: dict[str, int]) -> tuple[list[Frame], set[str]]:
    """The frames a version-2 save's register bag describes (a frame exists when any of its keys
    does), and the keys they took."""
    out, taken = [], set()
    for cls in FRAMES.values():
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
                    values[f.name] = [by_index.get(i, 0) for i in range(size)]
                    taken |= set(found)
            elif key in reg:
                values[f.name] = reg[key]
                taken.add(key)
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
    target_a: int = slot(0, v2="sp_a")  # a Thing id, or -1 - hero face
    target_b: int = slot(0, v2="sp_b")
    tie: bool = slot(False, v2="sp_tie")  # the duel is a re-roll after a tie
    used_thief: bool = slot(False, v2="sp_used_thief")  # each hero once per turn
    used_assassin: bool = slot(False, v2="sp_used_assassin")

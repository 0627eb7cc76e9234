"""Writes the native core's declarations from the Python engine's: one source of truth for both.

    python -m ktenv.kings_and_things.dev.gen           # rewrite ktenv/kings_and_things/native/src/generated.hpp
    python -m ktenv.kings_and_things.dev.gen --check   # exit 1 if it is out of date (a test runs this)

The header holds X-macro lists and constants, not code: the codes of `ktenv.kings_and_things.constants`, the phases,
the decision codes, the options of `GameConfig` (a choice is stored as its index in `OPTION_CHOICES`),
the catalog's per-Thing and per-hero tables, the state's arrays with their element types and the size
they follow (Things, hexes, hero faces, hero counters, players), the state's scalars, the statistics,
and every procedure frame of `ktenv.kings_and_things.procedures` (its stage enum and its fields with their defaults).
The hand-written C++ (state.hpp, procedures.hpp, the bindings) expands these lists, so a field added
to a Python frame or a state array appears in the native engine's structs, copies and conversions
at the next build, and a stale header fails the tests.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from enum import IntEnum
from pathlib import Path

import numpy as np

from .. import catalog as cat
from .. import constants, decisions
from .. import state as state_module
from ..config import OPTION_CHOICES, OPTION_FLAGS, GameConfig
from ..procedures import FRAMES, THING_REFS
from ..state import _ARRAYS, _SCALARS, STAT_KEYS, GameState

HEADER = Path(__file__).resolve().parents[1] / "native" / "src" / "generated.hpp"
_CTYPES = {np.dtype(np.int8): "std::int8_t", np.dtype(np.int16): "std::int16_t", np.dtype(np.int32): "std::int32_t",
           np.dtype(np.int64): "std::int64_t", np.dtype(bool): "bool"}


def _array_sizes() -> list[tuple[str, str, str]]:
    """(name, C++ element type, size or "rows, columns") of every state array, read off a real state."""
    s = GameState(GameConfig(n_players=4))
    sizes = {s.n_things: "Things", s.geo.n_hexes: "Hexes", len(s.hero_owner): "Faces",
             len(s.hero_up): "Counters", s.n_players: "Players"}
    if len(sizes) != 5:
        raise RuntimeError("state sizes are ambiguous: the array sizes of a 4-player game must all differ")
    return [(name, _CTYPES[getattr(s, name).dtype], ", ".join(sizes[n] for n in getattr(s, name).shape))
            for name in _ARRAYS]


def _field_type(frame: type, f: dataclasses.Field) -> tuple[str, str]:
    """(C++ type, default) of a frame field."""
    if f.metadata.get("per_side"):
        return "PerSide", f"per_side({f.metadata.get('default', 0)})"
    if f.metadata.get("series"):
        return "Series", "{}"
    default = f.default
    if isinstance(default, IntEnum):
        return type(default).__name__, f"{type(default).__name__}::{default.name}"
    if isinstance(default, bool):
        return "bool", "true" if default else "false"
    if isinstance(default, int):
        return "std::int32_t", str(default)
    raise TypeError(f"frame {frame.__name__}: field {f.name!r} has no native type (int, bool, IntEnum, list)")


_CONSTANTS = ("DESERT", "FOREST", "FROZEN_WASTE", "JUNGLE", "MOUNTAIN", "PLAINS", "SWAMP", "SEA", "N_TERRAINS",
              "CREATURE", "SPECIAL_INCOME", "CITY", "VILLAGE", "TREASURE", "MAGIC", "EVENT",
              "CUP", "SCREEN", "BOARD", "OUT", "MAX_PLAYERS", "NOBODY", "NEUTRAL", "SCREEN_LIMIT", "STACK_LIMIT")
_PHASES = ("SETUP", "INCOME", "HEROES", "RECRUIT", "EVENTS", "MOVEMENT", "COMBAT", "CONSTRUCTION", "SPECIAL",
           "CHANGE_ORDER", "GAME_OVER")


def _codes() -> list[str]:
    lines = ["// ktenv/kings_and_things/constants.py"]
    lines += [f"constexpr int {name} = {getattr(constants, name)};" for name in _CONSTANTS]
    lines += ["", "// phases of a round (ktenv/kings_and_things/state.py)"]
    lines += [f"constexpr int PHASE_{name} = {getattr(state_module, name)};" for name in _PHASES]
    codes = {v: k for k, v in vars(decisions).items() if k.isupper() and isinstance(v, int) and k != "N_DECISIONS"}
    lines += ["", "// decision codes (ktenv/kings_and_things/engine/decisions.py)", "namespace decision {"]
    lines += [f"constexpr int {codes[i]} = {i};" for i in sorted(codes)]
    lines += [f"constexpr int N_DECISIONS = {decisions.N_DECISIONS};", "}  // namespace decision", ""]
    return lines


def _options() -> list[str]:
    """X(name, default) of GameConfig's numbers, flags and choices (choice: index into OPTION_CHOICES)."""
    default = GameConfig()
    numbers = [f.name for f in dataclasses.fields(GameConfig)
               if f.name not in OPTION_CHOICES and f.name not in OPTION_FLAGS and f.name != "powers"]
    lines = ["// X(name, default): GameConfig's numbers (max_rounds: 0 = no limit)",
             "#define KTENV_CONFIG_NUMBERS(X) \\"]
    lines += [f"  X({n}, {getattr(default, n) or 0}) \\" for n in numbers]
    lines += ["", "// X(name, default): GameConfig's true/false options", "#define KTENV_CONFIG_FLAGS(X) \\"]
    lines += [f"  X({n}, {'true' if getattr(default, n) else 'false'}) \\" for n in OPTION_FLAGS]
    lines += ["", "// X(name, default index): GameConfig's choices, as the index of the value in OPTION_CHOICES",
              "#define KTENV_CONFIG_CHOICES(X) \\"]
    lines += [f"  X({n}, {choices.index(getattr(default, n))}) \\" for n, choices in OPTION_CHOICES.items()]
    lines += ["", "// the choices by name: cfg.victory == option::victory_quick", "namespace ktenv::option {"]
    for n, choices in OPTION_CHOICES.items():
        lines += [f"constexpr int {n}_{value} = {i};" for i, value in enumerate(choices)]
    return lines + ["}  // namespace ktenv::option", ""]


def _catalog_tables() -> list[str]:
    """X(name, element type, size) of the catalog's per-Thing and per-hero-face tables."""
    c = cat.catalog_for(4)
    lines = ["// X(name, element type, size): the catalog's tables (ktenv/kings_and_things/catalog.py, per game: "
             "catalog_for)",
             "#define KTENV_CATALOG_TABLES(X) \\"]
    for name, value in vars(c).items():
        if isinstance(value, np.ndarray) and (name.startswith("THING_") or name.startswith("HERO_")):
            size = "Things" if len(value) == c.N_THINGS else "Faces"
            lines.append(f"  X({name}, {_CTYPES[value.dtype]}, {size}) \\")
    return lines + [""]


def _named_ids() -> list[str]:
    """The hero faces, magic items and events by name: hero::DWARF_KING, magic::BALLOON, event::..."""
    def ident(name: str) -> str:
        return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper()

    lines = []
    for space, ids in (("hero", cat.HERO_ID), ("magic", cat.MAGIC_ID), ("event", cat.EVENT_ID)):
        lines.append(f"namespace {space} {{")
        lines += [f"constexpr int {ident(name)} = {int(i)};  // {name}" for name, i in ids.items()]
        lines += [f"}}  // namespace {space}", ""]
    lines.append("namespace house_value {  // R22: the assumed combat value of a house magic item [DATA M7]")
    lines += [f"constexpr int {ident(name)} = {int(v)};  // {name}" for name, v in cat.HOUSE_ITEM_VALUE.items()]
    lines += ["}  // namespace house_value", ""]
    return lines


def header() -> str:
    lines = ["// Generated by `python -m ktenv.kings_and_things.dev.gen` from the Python engine's declarations.",
             "// Do not edit: change the Python declarations and run the generator.", "#pragma once", "",
             "#include <cstdint>", "", "namespace ktenv {", ""]
    lines += _codes()
    lines += _named_ids()
    lines += ["}  // namespace ktenv", ""]
    lines += _options()
    lines += _catalog_tables()
    lines.append("// X(name, element type, size): the state's arrays")
    lines.append("#define KTENV_STATE_ARRAYS(X) \\")
    arrays = _array_sizes()
    lines += [f"  X({n}, {t}, {z}) \\" for n, t, z in arrays if "," not in z]
    lines += ["", "// X(name, element type, rows, columns): the state's two-dimensional arrays",
              "#define KTENV_STATE_GRIDS(X) \\"]
    lines += [f"  X({n}, {t}, {z}) \\" for n, t, z in arrays if "," in z]
    lines += ["", "// X(name): the state's integer scalars", "#define KTENV_STATE_SCALARS(X) \\"]
    lines += [f"  X({n}) \\" for n in _SCALARS]
    lines += ["", "// X(name): the statistics, in their saved order", "#define KTENV_STATS(X) \\"]
    lines += [f"  X({n}) \\" for n in STAT_KEYS]
    lines += ["", "namespace ktenv {", ""]
    enums: dict[str, type] = {}
    for cls in FRAMES.values():
        for f in dataclasses.fields(cls):
            if isinstance(f.default, IntEnum):
                enums[type(f.default).__name__] = type(f.default)
    for name, enum in enums.items():
        lines.append(f"enum class {name} : std::int32_t {{")
        lines += [f"  {m.name} = {int(m)}," for m in enum]
        lines += ["};", ""]
    lines += ["}  // namespace ktenv", "", "// F(class, saved name): the procedure frames, outermost first",
              "#define KTENV_FRAMES(F) \\"]
    lines += [f'  F({cls.__name__}, "{name}") \\' for name, cls in FRAMES.items()]
    lines.append("")
    for cls in FRAMES.values():
        lines.append(f"// X(name, type, default): the fields of {cls.__name__}")
        lines.append(f"#define KTENV_FIELDS_{cls.__name__}(X) \\")
        for f in dataclasses.fields(cls):
            ctype, default = _field_type(cls, f)
            lines.append(f"  X({f.name}, {ctype}, {default}) \\")
        lines.append("")
    lines.append("// X(class, field, kind): the frame fields that refer to counters (procedures.THING_REFS;")
    lines.append("// kind: thing, flags or action), which a sampled world leaves in place "
                 "(ktenv/kings_and_things/worlds.py)")
    lines.append("#define KTENV_FRAME_THINGS(X) \\")
    lines += [f"  X({cls.__name__}, {name}, {kind}) \\" for cls in FRAMES.values() for name, kind in THING_REFS[cls]]
    lines += ["", "// X(name): the per-Thing arrays a counter's slot holds, in GameState's order (worlds.THING_FIELDS)",
              "#define KTENV_THING_FACTS(X) \\"]
    lines += [f"  X({name}) \\" for name in GameState.__slots__ if name.startswith("thing_")]
    lines.append("")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    text = header()
    if check:
        if not HEADER.is_file() or HEADER.read_text() != text:
            print(f"{HEADER} is out of date: run python -m ktenv.kings_and_things.dev.gen", file=sys.stderr)
            return 1
        return 0
    HEADER.write_text(text)
    print(f"wrote {HEADER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

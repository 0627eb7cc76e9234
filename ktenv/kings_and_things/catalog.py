"""Static counter data: every Thing, hero, fort and terrain, loaded from ``ktenv/kings_and_things/data/*.csv``.

The CSVs are the package copy of the counter manifest (``data/SOURCES.md``). They are read and
validated once at import; the results are read-only numpy arrays indexed by id, so state arrays
elsewhere only ever hold small integers.

Ids:
- Thing id: one per physical counter that starts in the cup (R1.3), in this order: creatures,
  income counters (cities, villages and special income, as ordered in income.csv), treasures,
  magic items, events; each block in CSV row order, copies of one design consecutive.
- Hero face id: faces ``2k`` and ``2k + 1`` are the two sides of hero counter ``k``
  (``heroes.csv`` ``counter_pair`` ``H{k+1:02d}``), so ``face // 2`` is the counter and
  ``face ^ 1`` the other side.
- Fort level 0..4 (0 = no fort) and terrain codes from ``ktenv.kings_and_things.constants``.

Games and their catalogs (`catalog_for(n_players, house)`): ids are laid out so that an id means
the same counter in every game: the box's Things ``0..195``, then the R22 house Things (`with_house`,
``196..201``, `HOUSE_THING_IDS`), then the second box's copies (six players only, R20.1: "the Things
of both boxes are mixed in one cup", `two_boxes`); hero faces: the box's, then the house faces.
- 2-4 players: `CATALOG` (the box alone), or `HOUSE` (box + house block) with house_content. A
  default game's sizes (state arrays, actions, observation) therefore never include house counters.
- six players: `TWO_BOXES` = box + house block + second box, with or without house_content (house
  counters exist once; without the option they stay out of play), so the second box's ids are fixed.
A game's Things are always ids ``0 .. N_THINGS - 1`` of its catalog. The module-level per-id arrays
and name lookups (``THING_KIND``, ``HERO_COMBAT``, ``hero_id`` ...) cover every id of every game,
while the module-level counts and id lists (``N_THINGS``, ``N_HERO_FACES``, ``CREATURE_IDS`` ...) are
the box's: code that combines per-id arrays with state arrays uses ``state.cat``.

Every data problem raises ``CatalogError`` whose message names the file, the row (line number in
the file; the header is row 1) and the field.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType

import numpy as np

from ktenv.kings_and_things.constants import (
    CITY,
    CREATURE,
    DESERT,
    EVENT,
    FOREST,
    FROZEN_WASTE,
    JUNGLE,
    LAND_TERRAINS,
    MAGIC,
    MOUNTAIN,
    N_TERRAINS,
    PLAINS,
    SEA,
    SPECIAL_INCOME,
    SWAMP,
    TERRAIN_NAMES,
    TREASURE,
    VILLAGE,
)

DATA_DIR = Path(__file__).parent / "data"


class CatalogError(ValueError):
    """A data file is missing or malformed."""


# Exact header of each file (column order is free).
COLUMNS = {
    "creatures.csv": (
        "name", "terrain", "combat", "flying", "magic", "ranged", "charge", "count", "notes",
    ),
    "income.csv": ("name", "kind", "terrain", "value", "combat", "count", "notes"),
    "treasures.csv": ("name", "value", "count", "notes"),
    "magic.csv": ("name", "count", "effect", "notes"),
    "events.csv": ("name", "count", "effect", "notes"),
    "heroes.csv": (
        "name", "combat", "ability_summary", "counter_pair", "notes",
        "flying", "magic", "ranged", "charge", "special_star",
    ),
    "forts.csv": ("level", "name", "combat", "kind", "count", "notes"),
    "terrain.csv": ("terrain", "hex_count", "movement_cost", "notes"),
    "house.csv": ("kind", "name", "combat", "flying", "magic", "ranged", "charge", "counter_pair", "notes"),
}
HOUSE_FILE = "house.csv"  # in data/house/: R22, not part of the box

FLAGS = ("flying", "magic", "ranged", "charge")
INCOME_KINDS = {"special": SPECIAL_INCOME, "city": CITY, "village": VILLAGE}
FORT_KINDS = ("melee", "ranged", "magic")

# Terrain lords (rules A.10, names as in heroes.csv per rules "RM ... Names"). The heroes whose
# ability_summary starts with "Terrain lord" must be exactly these keys; matching on "Lord"/"King"
# in the name would wrongly catch Elf Lord, Lord of the Eagles and Dwarf King.
LORD_TERRAIN = {
    "Desert Master": DESERT,
    "Forest King": FOREST,
    "Ice Lord": FROZEN_WASTE,
    "Jungle Lord": JUNGLE,
    "Mountain King": MOUNTAIN,
    "Plains Lord": PLAINS,
    "Swamp King": SWAMP,
}

# A hero with two printed values (the Marksman: "ARCHER VALUES: 2 (ranged) / 5"); combat holds
# the second value, the first becomes HERO_ALT_VALUE.
_ALT_VALUES = re.compile(r"ARCHER VALUES:\s*(\d+)\s*\(ranged\)\s*/\s*(\d+)")
_INT8_MAX = 127  # every number ends up in an int8 array


def _error(file: str, line: int, field: str, message: str) -> CatalogError:
    return CatalogError(f"{file}: row {line}: field {field!r}: {message}")


class _Row:
    """One data row; its getters validate a cell and raise CatalogError naming file/row/field."""

    def __init__(self, file: str, line: int, cells: dict[str, str]):
        self.file, self.line, self.cells = file, line, cells

    def error(self, field: str, message: str) -> CatalogError:
        return _error(self.file, self.line, field, message)

    def text(self, field: str) -> str:
        value = self.cells[field].strip()
        if not value:
            raise self.error(field, "expected a non-empty value")
        return value

    def int(self, field: str, lo: int, hi: int = _INT8_MAX) -> int:
        value = self.cells[field].strip()
        if not re.fullmatch(r"[0-9]+", value) or not lo <= int(value) <= hi:
            wanted = f"{lo}" if lo == hi else f"an integer {lo}-{hi}"
            raise self.error(field, f"expected {wanted}, got {value!r}")
        return int(value)

    def flag(self, field: str) -> bool:
        value = self.cells[field].strip()
        if value not in ("0", "1"):
            raise self.error(field, f"expected 0 or 1, got {value!r}")
        return value == "1"

    def choice(self, field: str, allowed) -> str:
        value = self.cells[field].strip()
        if value not in allowed:
            raise self.error(field, f"expected one of {', '.join(map(repr, allowed))}, got {value!r}")
        return value

    def terrain(self, field: str, land_only: bool) -> int:
        allowed = TERRAIN_NAMES[:SEA] if land_only else TERRAIN_NAMES
        return TERRAIN_NAMES.index(self.choice(field, allowed))


def _read(data_dir: Path, file: str) -> list[_Row]:
    """Rows of one CSV after checking the header; the csv module handles quoted commas."""
    path = data_dir / file
    if not path.is_file():
        raise CatalogError(f"{file}: missing file (looked in {data_dir})")
    expected = COLUMNS[file]
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader, [])]
        for column in expected:
            if column not in header:
                raise _error(file, 1, column, "missing column")
        for column in header:
            if column not in expected or header.count(column) > 1:
                raise _error(file, 1, column, "unexpected or repeated column")
        rows = []
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue  # tolerate blank lines
            if len(cells) < len(header):
                raise _error(file, line, header[len(cells)], "missing cell")
            if len(cells) > len(header):
                raise _error(file, line, header[-1], "extra cells after it")
            rows.append(_Row(file, line, dict(zip(header, cells))))
    return rows


def _unique_names(rows: list[_Row]) -> None:
    seen: set[str] = set()
    for r in rows:
        name = r.text("name")
        if name in seen:
            raise r.error("name", f"duplicate name {name!r}")
        seen.add(name)


def _frozen(values, dtype) -> np.ndarray:
    a = np.array(values, dtype=dtype)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class Catalog:
    """All static counter data; field names are the module-level constant names."""

    N_THINGS: int
    THING_NAME: tuple[str, ...]
    THING_KIND: np.ndarray  # int8, constants.CREATURE ... EVENT
    THING_TERRAIN: np.ndarray  # int8 terrain code for creatures and special income; -1 otherwise
    THING_COMBAT: np.ndarray  # int8; cities 2, villages 1, 0 when the counter has no combat value
    THING_FLYING: np.ndarray  # bool
    THING_MAGIC: np.ndarray  # bool
    THING_RANGED: np.ndarray  # bool
    THING_CHARGE: np.ndarray  # bool
    THING_INCOME: np.ndarray  # int8 income of special/city/village counters, else 0
    THING_GOLD: np.ndarray  # int8 treasure value, else 0
    THING_DESIGN: np.ndarray  # int16 row index within the Thing's own CSV (copies share it)
    THING_IS_MINE: np.ndarray  # bool: special income restricted to Mountains (rules D.3)
    THING_ORIGINAL: np.ndarray  # int16: id of the same counter in the first box (itself there)
    THING_BOX: np.ndarray  # int8: 0 first box, 1 second box (R20.1)
    THING_IDS_BY_NAME: Mapping[str, tuple[int, ...]]
    CREATURE_IDS: np.ndarray  # int16
    INCOME_IDS: np.ndarray  # int16: special income, cities and villages
    TREASURE_IDS: tuple[int, ...]
    MAGIC_IDS: np.ndarray  # int16
    EVENT_IDS: np.ndarray  # int16
    MAGIC_ID: Mapping[str, int]
    EVENT_ID: Mapping[str, int]
    N_HERO_FACES: int
    N_HERO_COUNTERS: int
    HERO_NAME: tuple[str, ...]
    HERO_COMBAT: np.ndarray  # int8
    HERO_FLYING: np.ndarray  # bool
    HERO_MAGIC: np.ndarray  # bool
    HERO_RANGED: np.ndarray  # bool
    HERO_CHARGE: np.ndarray  # bool
    HERO_SPECIAL: np.ndarray  # bool: the counter carries the `*` (special ability)
    HERO_LORD_TERRAIN: np.ndarray  # int8 terrain of a terrain lord, -1 for other heroes
    HERO_ALT_VALUE: np.ndarray  # int8 second printed value (Marksman: ranged 2), else 0
    HERO_COUNTER: np.ndarray  # int8 counter of each face (= face // 2)
    HERO_ID: Mapping[str, int]
    FORT_NAME: tuple[str, ...]  # by level 0..4, "" for level 0
    FORT_COUNT: np.ndarray  # int8[5] default supply per level, [0] = 0
    FORT_KIND: tuple[str, ...]  # by level: "", "melee", "melee", "ranged", "magic"
    TERRAIN_HEX_COUNT: np.ndarray  # int8[8] by terrain code
    MOVE_COST: np.ndarray  # int8[8] movement points to enter; see _terrain for Sea
    SUMMARY: dict  # the box's counters only (the house block below is not in SOURCES.md)
    # R22 house content (data/house/house.csv, `with_house`): Things right after the box's Things,
    # hero faces after the box's faces. Empty in a catalog without the house block.
    HOUSE_THING_IDS: np.ndarray  # int16
    HOUSE_HERO_FACES: np.ndarray  # int16
    HOUSE_ITEM_VALUE: Mapping[str, int]  # assumed combat value of a house magic item [M7]

    def thing_ids(self, name: str) -> tuple[int, ...]:
        """All physical copies named ``name`` (over every design of that name)."""
        if name not in self.THING_IDS_BY_NAME:
            raise KeyError(f"unknown Thing name {name!r}")
        return self.THING_IDS_BY_NAME[name]

    def hero_id(self, name: str) -> int:
        if name not in self.HERO_ID:
            raise KeyError(f"unknown hero name {name!r}")
        return self.HERO_ID[name]


def _things(data_dir: Path) -> dict:
    """Thing arrays; one entry per physical counter (R1.3)."""
    # name, kind, terrain, combat, flying, magic, ranged, charge, income, gold, design
    things: list[tuple] = []

    def add(r: _Row, design: int, kind: int, terrain=-1, combat=0, flags=(False,) * 4, income=0, gold=0):
        copies = r.int("count", 1)
        things.extend([(r.text("name"), kind, terrain, combat, *flags, income, gold, design)] * copies)

    for design, r in enumerate(_read(data_dir, "creatures.csv")):
        flags = tuple(r.flag(f) for f in FLAGS)
        add(r, design, CREATURE, r.terrain("terrain", land_only=True), r.int("combat", 1, 6), flags)

    for design, r in enumerate(_read(data_dir, "income.csv")):
        kind_name = r.choice("kind", INCOME_KINDS)
        kind, income = INCOME_KINDS[kind_name], r.int("value", 1)
        if kind == SPECIAL_INCOME:  # restricted to one land terrain, no combat value (R1.9.1)
            if r.cells["combat"].strip():
                raise r.error("combat", "a special income counter has no combat value (leave empty)")
            add(r, design, kind, r.terrain("terrain", land_only=True), income=income)
        else:  # cities and villages go on any land terrain and fight (R1.9.2)
            r.choice("terrain", ("any",))
            add(r, design, kind, combat=r.int("combat", 1, 6), income=income)

    for design, r in enumerate(_read(data_dir, "treasures.csv")):
        add(r, design, TREASURE, gold=r.int("value", 1))

    for file, kind in (("magic.csv", MAGIC), ("events.csv", EVENT)):
        rows = _read(data_dir, file)
        _unique_names(rows)
        for design, r in enumerate(rows):
            # MAGIC_ID / EVENT_ID name a single counter, so more copies would be silently lost.
            r.int("count", 1, 1)
            add(r, design, kind)

    cols = list(zip(*things))
    names = tuple(cols[0])
    kind = _frozen(cols[1], np.int8)
    terrain = _frozen(cols[2], np.int8)
    return {
        **_thing_lists(names, kind),
        "THING_TERRAIN": terrain,
        "THING_COMBAT": _frozen(cols[3], np.int8),
        "THING_FLYING": _frozen(cols[4], bool),
        "THING_MAGIC": _frozen(cols[5], bool),
        "THING_RANGED": _frozen(cols[6], bool),
        "THING_CHARGE": _frozen(cols[7], bool),
        "THING_INCOME": _frozen(cols[8], np.int8),
        "THING_GOLD": _frozen(cols[9], np.int8),
        "THING_DESIGN": _frozen(cols[10], np.int16),
        "THING_IS_MINE": _frozen((kind == SPECIAL_INCOME) & (terrain == MOUNTAIN), bool),
        "THING_ORIGINAL": _frozen(np.arange(len(names)), np.int16),
        "THING_BOX": _frozen(np.zeros(len(names)), np.int8),
    }


def _thing_lists(names: tuple[str, ...], kind: np.ndarray) -> dict:
    """The id lists and name lookups of a Thing table (names may repeat: copies of one design)."""

    def ids_of(*kinds: int) -> np.ndarray:
        return _frozen(np.flatnonzero(np.isin(kind, kinds)), np.int16)

    by_name: dict[str, tuple[int, ...]] = {}
    for i, name in enumerate(names):
        by_name[name] = by_name.get(name, ()) + (i,)
    return {
        "N_THINGS": len(names),
        "THING_NAME": names,
        "THING_KIND": kind,
        "THING_IDS_BY_NAME": MappingProxyType(by_name),
        "CREATURE_IDS": ids_of(CREATURE),
        "INCOME_IDS": ids_of(SPECIAL_INCOME, CITY, VILLAGE),
        "TREASURE_IDS": tuple(int(i) for i in ids_of(TREASURE)),
        "MAGIC_IDS": ids_of(MAGIC),
        "EVENT_IDS": ids_of(EVENT),
        "MAGIC_ID": MappingProxyType({names[i]: int(i) for i in ids_of(MAGIC) if by_name[names[i]][0] == i}),
        "EVENT_ID": MappingProxyType({names[i]: int(i) for i in ids_of(EVENT) if by_name[names[i]][0] == i}),
    }


def _heroes(data_dir: Path) -> dict:
    rows = _read(data_dir, "heroes.csv")
    _unique_names(rows)
    by_counter: dict[int, list[_Row]] = {}
    for r in rows:
        pair = r.text("counter_pair")
        m = re.fullmatch(r"H(\d\d)", pair)
        if not m or m[1] == "00":
            raise r.error("counter_pair", f"expected H01, H02, ..., got {pair!r}")
        by_counter.setdefault(int(m[1]) - 1, []).append(r)
    for k, pair_rows in sorted(by_counter.items()):
        if len(pair_rows) != 2:
            raise pair_rows[-1].error("counter_pair", f"H{k + 1:02d} on {len(pair_rows)} rows, expected 2")
        if k > 0 and k - 1 not in by_counter:  # face 2k must be counter k: numbers without gaps
            raise pair_rows[0].error("counter_pair", f"H{k:02d} is missing; counters must be H01..Hnn")
    faces = [r for k in sorted(by_counter) for r in by_counter[k]]  # csv order within a pair

    cols: dict[str, list] = {key: [] for key in ("combat", "special", "lord", "alt", *FLAGS)}
    for r in faces:
        name, combat = r.text("name"), r.int("combat", 1, 6)
        if r.text("ability_summary").startswith("Terrain lord") != (name in LORD_TERRAIN):
            raise r.error("ability_summary", f"'Terrain lord' here disagrees with LORD_TERRAIN for {name!r}")
        alt = 0
        if m := _ALT_VALUES.search(r.cells["notes"]):
            alt = int(m[1])
            if int(m[2]) != combat or not 1 <= alt <= 6:
                raise r.error("notes", f"archer values {m[0]!r} do not match combat {combat}")
        cols["combat"].append(combat)
        cols["special"].append(r.flag("special_star"))
        cols["lord"].append(LORD_TERRAIN.get(name, -1))
        cols["alt"].append(alt)
        for f in FLAGS:
            cols[f].append(r.flag(f))
    missing = set(LORD_TERRAIN) - {r.text("name") for r in faces}
    if missing:
        raise rows[-1].error("name", f"terrain lords missing from the file: {sorted(missing)}")

    names = tuple(r.text("name") for r in faces)
    return {
        "N_HERO_FACES": len(faces),
        "N_HERO_COUNTERS": len(by_counter),
        "HERO_NAME": names,
        "HERO_COMBAT": _frozen(cols["combat"], np.int8),
        "HERO_FLYING": _frozen(cols["flying"], bool),
        "HERO_MAGIC": _frozen(cols["magic"], bool),
        "HERO_RANGED": _frozen(cols["ranged"], bool),
        "HERO_CHARGE": _frozen(cols["charge"], bool),
        "HERO_SPECIAL": _frozen(cols["special"], bool),
        "HERO_LORD_TERRAIN": _frozen(cols["lord"], np.int8),
        "HERO_ALT_VALUE": _frozen(cols["alt"], np.int8),
        "HERO_COUNTER": _frozen(np.arange(len(faces)) // 2, np.int8),
        "HERO_ID": MappingProxyType({name: i for i, name in enumerate(names)}),
    }


def _forts(data_dir: Path) -> dict:
    rows = _read(data_dir, "forts.csv")
    name, kind, count = [""] * 5, [""] * 5, [0] * 5
    for r in rows:
        level = r.int("level", 1, 4)
        if name[level]:
            raise r.error("level", f"duplicate level {level}")
        r.int("combat", level, level)  # level = combat value = income (R1.10)
        name[level], kind[level] = r.text("name"), r.choice("kind", FORT_KINDS)
        count[level] = r.int("count", 1)
    if not all(name[1:]):
        missing = [lvl for lvl in range(1, 5) if not name[lvl]]
        line = rows[-1].line if rows else 1
        raise _error("forts.csv", line, "level", f"levels must be exactly 1-4, missing {missing}")
    return {"FORT_NAME": tuple(name), "FORT_COUNT": _frozen(count, np.int8), "FORT_KIND": tuple(kind)}


def _terrain(data_dir: Path) -> dict:
    rows = _read(data_dir, "terrain.csv")
    hexes, cost = [0] * N_TERRAINS, [0] * N_TERRAINS
    for r in rows:
        t = r.terrain("terrain", land_only=False)
        if hexes[t]:
            raise r.error("terrain", f"duplicate terrain {TERRAIN_NAMES[t]!r}")
        hexes[t] = r.int("hex_count", 1)
        if t == SEA:
            # Non-flyers can never enter Sea (the csv says "impassable"; the engine enforces it);
            # a flyer pays 1 per hex, Sea included (R11.1.2), so the table holds 1.
            if r.cells["movement_cost"].strip() != "impassable":
                raise r.error("movement_cost", "expected 'impassable' for Sea")
            cost[t] = 1
        else:
            cost[t] = r.int("movement_cost", 1, 4)
    if not all(hexes):
        missing = [TERRAIN_NAMES[t] for t in range(N_TERRAINS) if not hexes[t]]
        line = rows[-1].line if rows else 1
        raise _error("terrain.csv", line, "terrain", f"expected all 8 terrains, missing {missing}")
    return {"TERRAIN_HEX_COUNT": _frozen(hexes, np.int8), "MOVE_COST": _frozen(cost, np.int8)}


def _summary(d: dict) -> dict:
    kind, hexes = d["THING_KIND"], d["TERRAIN_HEX_COUNT"]
    creature_terrain = d["THING_TERRAIN"][d["CREATURE_IDS"]]
    return {
        "creatures": len(d["CREATURE_IDS"]),
        "creature_designs": len(set(d["THING_DESIGN"][d["CREATURE_IDS"]].tolist())),
        "special_income": int(np.sum(kind == SPECIAL_INCOME)),
        "cities": int(np.sum(kind == CITY)),
        "villages": int(np.sum(kind == VILLAGE)),
        "treasures": len(d["TREASURE_IDS"]),
        "magic": len(d["MAGIC_IDS"]),
        "events": len(d["EVENT_IDS"]),
        "things": d["N_THINGS"],
        "hero_faces": d["N_HERO_FACES"],
        "hero_counters": d["N_HERO_COUNTERS"],
        "forts": int(d["FORT_COUNT"].sum()),
        "hexes": int(hexes.sum()),
        "sea_hexes": int(hexes[SEA]),
        "land_hexes": int(hexes[:SEA].sum()),
        "creatures_per_terrain": {
            TERRAIN_NAMES[t]: int(np.sum(creature_terrain == t)) for t in LAND_TERRAINS
        },
    }


def _house(data_dir: Path, d: dict) -> dict:
    """The box's fields `d` with the R22 house block (``house/house.csv``) appended: heroes in pairs
    X01, X02, ... after the box's faces, then the house events and magic items (one copy each)
    after every Thing of the box. Ids are computed from the box's sizes, never written down."""
    rows = _read(data_dir, HOUSE_FILE)
    _unique_names(rows)
    names = set(d["THING_IDS_BY_NAME"]) | set(d["HERO_ID"])
    for r in rows:
        if r.text("name") in names:
            raise r.error("name", f"{r.text('name')!r} is already a counter of the box")
    heroes = [r for r in rows if r.choice("kind", ("hero", "event", "magic")) == "hero"]
    items = [r for r in rows if r.cells["kind"].strip() != "hero"]
    pairs: dict[str, list[_Row]] = {}
    for r in heroes:
        pair = r.text("counter_pair")
        if not re.fullmatch(r"X\d\d", pair):
            raise r.error("counter_pair", f"expected X01, X02, ..., got {pair!r}")
        pairs.setdefault(pair, []).append(r)
    faces = []
    for pair in sorted(pairs):
        if len(pairs[pair]) != 2:
            raise pairs[pair][-1].error("counter_pair", f"{pair} on {len(pairs[pair])} rows, expected 2")
        faces += pairs[pair]
    out = dict(d)

    def grow(key: str, values, dtype) -> None:
        out[key] = _frozen(np.concatenate((d[key], np.asarray(values, dtype))), dtype)

    n0, f0, k0 = d["N_THINGS"], d["N_HERO_FACES"], d["N_HERO_COUNTERS"]
    kinds = [MAGIC if r.cells["kind"].strip() == "magic" else EVENT for r in items]
    k = len(items)
    ids = list(range(n0, n0 + k))
    grow("THING_TERRAIN", [-1] * k, np.int8)
    for key in ("THING_COMBAT", "THING_INCOME", "THING_GOLD", "THING_BOX"):
        grow(key, [0] * k, np.int8)  # an item's value is HOUSE_ITEM_VALUE (the engine reads it there)
    for key in (*(f"THING_{f.upper()}" for f in FLAGS), "THING_IS_MINE"):
        grow(key, [False] * k, bool)
    grow("THING_DESIGN", list(range(k)), np.int16)
    grow("THING_ORIGINAL", ids, np.int16)
    names = d["THING_NAME"] + tuple(r.text("name") for r in items)
    out.update(_thing_lists(names, _frozen(np.concatenate((d["THING_KIND"], kinds)), np.int8)))
    out.update(HOUSE_THING_IDS=_frozen(ids, np.int16),
               HOUSE_ITEM_VALUE=MappingProxyType({r.text("name"): r.int("combat", 1, 6) for r in items
                                                  if r.cells["combat"].strip()}))
    grow("HERO_COMBAT", [r.int("combat", 1, 6) for r in faces], np.int8)
    for f in FLAGS:
        grow(f"HERO_{f.upper()}", [r.flag(f) for r in faces], bool)
    grow("HERO_SPECIAL", [True] * len(faces), bool)
    grow("HERO_LORD_TERRAIN", [-1] * len(faces), np.int8)
    grow("HERO_ALT_VALUE", [0] * len(faces), np.int8)
    grow("HERO_COUNTER", (f0 + np.arange(len(faces))) // 2, np.int8)
    hero_id = dict(d["HERO_ID"])
    hero_id.update({r.text("name"): f0 + i for i, r in enumerate(faces)})
    out.update(
        N_HERO_FACES=f0 + len(faces), N_HERO_COUNTERS=k0 + len(faces) // 2,
        HERO_NAME=d["HERO_NAME"] + tuple(r.text("name") for r in faces), HERO_ID=MappingProxyType(hero_id),
        HOUSE_HERO_FACES=_frozen(range(f0, f0 + len(faces)), np.int16),
    )
    return out


def load_catalog(data_dir: Path = DATA_DIR) -> Catalog:
    """Read and validate every CSV of the box in ``data_dir``; raise CatalogError on the first problem."""
    data_dir = Path(data_dir)
    d = {**_things(data_dir), **_heroes(data_dir), **_forts(data_dir), **_terrain(data_dir)}
    no_house = _frozen((), np.int16)
    return Catalog(**d, SUMMARY=_summary(d), HOUSE_THING_IDS=no_house, HOUSE_HERO_FACES=no_house,
                   HOUSE_ITEM_VALUE=MappingProxyType({}))


def with_house(box: Catalog, data_dir: Path = DATA_DIR) -> Catalog:
    """The box plus the R22 house block read from ``data_dir/house`` (see `_house`)."""
    d = {f.name: getattr(box, f.name) for f in fields(Catalog)}
    return Catalog(**_house(Path(data_dir) / "house", d))


# R20.1 six players: the tile pool of both boxes, by terrain code (79 tiles: 61 laid, 18 left).
TWO_BOX_TILES: tuple[int, ...] = tuple(
    {DESERT: 9, FOREST: 9, FROZEN_WASTE: 7, JUNGLE: 7, MOUNTAIN: 11, PLAINS: 11, SWAMP: 11, SEA: 14}[t]
    for t in range(N_TERRAINS))
# Kinds of Thing the second box adds to the cup (R20.1); see `two_boxes`.
SECOND_BOX_KINDS = (CREATURE, SPECIAL_INCOME, CITY, VILLAGE, TREASURE, MAGIC, EVENT)
_THING_FIELDS = ("THING_TERRAIN", "THING_COMBAT", "THING_FLYING", "THING_MAGIC", "THING_RANGED",
                 "THING_CHARGE", "THING_INCOME", "THING_GOLD", "THING_DESIGN", "THING_IS_MINE", "THING_ORIGINAL")


def two_boxes(box: Catalog, single: tuple[str, ...] = ()) -> Catalog:
    """The catalog of a six-player game (R20.1, [FV§17.1]): two boxes, one cup.

    Doubled: every Thing (R1.3: the kinds in `SECOND_BOX_KINDS`: creatures, special income
    counters, cities, villages, treasures, magic items, events) gets a second copy with ids
    ``box.N_THINGS + k``, in the box's order (``THING_ORIGINAL`` gives the first-box id,
    ``THING_BOX`` is 1; `EVENT_ID` / `MAGIC_ID` name the first copy). The engine resolves a
    second-box event or reaction as its original, and plays a second-box magic item under its
    original's id (`engine.common.as_original`) [DECISION: at most one copy of each magic item in
    play at a time, so one Balloon flight per round; two Lucky Charm holders are asked in turn
    order]. Also doubled: the fort supply (R14.5: the bank holds the forts of both boxes,
    [ASSUMPTION: the page only names tiles and Things]); the tile pool is the page's 79 tiles
    (`TWO_BOX_TILES`). There is still one black cloud (B.10): a second Weather Control moves it,
    as a replayed one does.
    Not doubled: heroes (not Things, R1.4: they wait in the hero pool, not the cup; the page mixes
    only the Things, and the hero rules name single heroes: R7.10, Appendix A), and the Things
    named in `single` (e.g. optional counters that exist once). Gold and control markers are
    unlimited anyway (RD1.3).
    """
    n = box.N_THINGS
    extra = np.flatnonzero(np.isin(box.THING_KIND, SECOND_BOX_KINDS) & ~np.isin(box.THING_NAME, single))
    names = box.THING_NAME + tuple(box.THING_NAME[i] for i in extra)
    kind = _frozen(np.concatenate((box.THING_KIND, box.THING_KIND[extra])), np.int8)
    d = {f.name: getattr(box, f.name) for f in fields(Catalog)}
    d.update(_thing_lists(names, kind))
    for key in _THING_FIELDS:
        a = getattr(box, key)
        d[key] = _frozen(np.concatenate((a, a[extra])), a.dtype)
    d["THING_BOX"] = _frozen(np.arange(len(names)) >= n, np.int8)
    d["FORT_COUNT"] = _frozen(box.FORT_COUNT * 2, np.int8)
    d["TERRAIN_HEX_COUNT"] = _frozen(TWO_BOX_TILES, np.int8)
    d["SUMMARY"] = _summary(d)
    return Catalog(**d)


CATALOG = load_catalog(DATA_DIR)  # one box: a 2-4 player game without house content
HOUSE = with_house(CATALOG)  # R22: a 2-4 player game with house_content
# R20.1: a six-player game, with or without house content (the house counters exist once; without
# house_content they stay out of play), so that the second box's ids do not depend on the option.
TWO_BOXES = two_boxes(HOUSE, single=tuple(HOUSE.THING_NAME[i] for i in HOUSE.HOUSE_THING_IDS))


def catalog_for(n_players: int, house: bool = False) -> Catalog:
    """The catalog of a game: two boxes with six players (R20.1), else one box, with the R22 house
    block when `house` (GameConfig.house_content). A default 2-4 player game has the box alone."""
    if n_players == 6:
        return TWO_BOXES
    return HOUSE if house else CATALOG


# Module-level constants so callers can import them directly. Per-id arrays, names and name
# lookups cover every id of every game (TWO_BOXES: box, house block, second box; an id means the same
# counter in every game); counts and id lists are the box's (CATALOG). A game's own sizes and lists:
# catalog_for(n_players, house) / state.cat.
N_THINGS = CATALOG.N_THINGS
THING_NAME = TWO_BOXES.THING_NAME
THING_KIND = TWO_BOXES.THING_KIND
THING_TERRAIN = TWO_BOXES.THING_TERRAIN
THING_COMBAT = TWO_BOXES.THING_COMBAT
THING_FLYING = TWO_BOXES.THING_FLYING
THING_MAGIC = TWO_BOXES.THING_MAGIC
THING_RANGED = TWO_BOXES.THING_RANGED
THING_CHARGE = TWO_BOXES.THING_CHARGE
THING_INCOME = TWO_BOXES.THING_INCOME
THING_GOLD = TWO_BOXES.THING_GOLD
THING_DESIGN = TWO_BOXES.THING_DESIGN
THING_IS_MINE = TWO_BOXES.THING_IS_MINE
THING_ORIGINAL = TWO_BOXES.THING_ORIGINAL
THING_BOX = TWO_BOXES.THING_BOX
THING_IDS_BY_NAME = HOUSE.THING_IDS_BY_NAME
CREATURE_IDS = CATALOG.CREATURE_IDS
INCOME_IDS = CATALOG.INCOME_IDS
TREASURE_IDS = CATALOG.TREASURE_IDS
MAGIC_IDS = CATALOG.MAGIC_IDS
EVENT_IDS = CATALOG.EVENT_IDS
MAGIC_ID = HOUSE.MAGIC_ID
EVENT_ID = HOUSE.EVENT_ID
N_HERO_FACES = CATALOG.N_HERO_FACES
N_HERO_COUNTERS = CATALOG.N_HERO_COUNTERS
HERO_NAME = HOUSE.HERO_NAME
HERO_COMBAT = HOUSE.HERO_COMBAT
HERO_FLYING = HOUSE.HERO_FLYING
HERO_MAGIC = HOUSE.HERO_MAGIC
HERO_RANGED = HOUSE.HERO_RANGED
HERO_CHARGE = HOUSE.HERO_CHARGE
HERO_SPECIAL = HOUSE.HERO_SPECIAL
HERO_LORD_TERRAIN = HOUSE.HERO_LORD_TERRAIN
HERO_ALT_VALUE = HOUSE.HERO_ALT_VALUE
HERO_COUNTER = HOUSE.HERO_COUNTER
HERO_ID = HOUSE.HERO_ID
FORT_NAME = CATALOG.FORT_NAME
FORT_COUNT = CATALOG.FORT_COUNT
FORT_KIND = CATALOG.FORT_KIND
TERRAIN_HEX_COUNT = CATALOG.TERRAIN_HEX_COUNT
MOVE_COST = CATALOG.MOVE_COST
SUMMARY = CATALOG.SUMMARY
HOUSE_THING_IDS = HOUSE.HOUSE_THING_IDS
HOUSE_HERO_FACES = HOUSE.HOUSE_HERO_FACES
HOUSE_ITEM_VALUE = HOUSE.HOUSE_ITEM_VALUE

thing_ids = HOUSE.thing_ids
hero_id = HOUSE.hero_id


def other_face(face: int) -> int:
    """The hero on the back of the same counter."""
    return face ^ 1

"""Tests of ktenv.kings_and_things.catalog against the rules page (R1, Appendix A.10, Appendix D) and SOURCES.md."""

import csv
import dataclasses
import filecmp
import shutil
from pathlib import Path

import numpy as np
import pytest

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.catalog import CatalogError, load_catalog
from ktenv.kings_and_things.constants import (
    CITY,
    CREATURE,
    DESERT,
    EVENT,
    FOREST,
    FROZEN_WASTE,
    JUNGLE,
    MAGIC,
    MOUNTAIN,
    PLAINS,
    SEA,
    SPECIAL_INCOME,
    SWAMP,
    TREASURE,
    VILLAGE,
)

SHARED_DATA = Path("/work/shared/data/kings-and-things")


def one(name: str) -> int:
    """Id of a Thing that has exactly one copy."""
    (i,) = cat.thing_ids(name)
    return i


# --- Totals (R1; SOURCES.md §2 "Per file" and §3 "Totals") -------------------------------------


def test_r1_totals_match_sources_md():
    s = cat.SUMMARY
    assert (s["creatures"], s["creature_designs"]) == (147, 123)
    assert s["creatures_per_terrain"] == {
        "Desert": 22, "Forest": 21, "Frozen Waste": 17, "Jungle": 16,
        "Mountain": 21, "Plains": 25, "Swamp": 25,
    }
    assert s["special_income"] == 10  # R1.9.1
    assert (s["cities"], s["villages"]) == (6, 6)  # 12 in all (R1.9.2); 6/6 split reconstructed
    assert (s["treasures"], s["magic"], s["events"]) == (6, 11, 10)
    # R1.3: 184 blank-back Things + 12 cities/villages = 196 counters in the cup.
    assert s["things"] == cat.N_THINGS == 196
    assert s["things"] - s["cities"] - s["villages"] == 184
    assert (s["hero_faces"], s["hero_counters"]) == (22, 11) == (cat.N_HERO_FACES, cat.N_HERO_COUNTERS)
    assert s["forts"] == 32 and cat.FORT_COUNT.tolist() == [0, 10, 8, 8, 6]
    assert (s["hexes"], s["sea_hexes"], s["land_hexes"]) == (48, 8, 40)  # R1.1


def test_r1_3_thing_id_order_and_array_shapes():
    # Blocks in order: creatures, income counters (city, village, special), treasures, magic, events.
    block = {CREATURE: 0, CITY: 1, VILLAGE: 1, SPECIAL_INCOME: 1, TREASURE: 2, MAGIC: 3, EVENT: 4}
    box = cat.CATALOG  # one box (the module-level per-id arrays also cover the house block and second box)
    kinds = box.THING_KIND.tolist()
    assert [block[k] for k in kinds] == sorted(block[k] for k in kinds)
    assert kinds.count(CREATURE) == 147 and kinds.count(TREASURE) == 6
    assert kinds.count(MAGIC) == 11 and kinds.count(EVENT) == 10
    for arr in (box.THING_KIND, box.THING_TERRAIN, box.THING_COMBAT, box.THING_INCOME, box.THING_GOLD,
                box.THING_DESIGN, box.THING_FLYING, box.THING_MAGIC, box.THING_RANGED,
                box.THING_CHARGE, box.THING_IS_MINE):
        assert arr.shape == (196,)
    assert len(box.THING_NAME) == 196 and cat.N_THINGS == 196
    assert cat.CREATURE_IDS.tolist() == list(range(147))
    assert cat.INCOME_IDS.tolist() == list(range(147, 169))
    assert cat.TREASURE_IDS == tuple(range(169, 175))
    assert cat.MAGIC_IDS.tolist() == list(range(175, 186))
    assert cat.EVENT_IDS.tolist() == list(range(186, 196))
    # Income block in income.csv row order: City x6, Village x6, then the special counters.
    assert [cat.THING_KIND[i] for i in cat.INCOME_IDS[:12]] == [CITY] * 6 + [VILLAGE] * 6
    assert (cat.THING_TERRAIN[cat.INCOME_IDS[:12]] == -1).all()
    assert (cat.THING_TERRAIN[cat.INCOME_IDS[12:]] >= 0).all()
    assert (cat.THING_TERRAIN[cat.TREASURE_IDS[0]:cat.N_THINGS] == -1).all()


def test_copies_are_consecutive_and_share_a_design():
    goblins = cat.thing_ids("Goblins")
    assert goblins == tuple(range(goblins[0], goblins[0] + 4))
    assert len(set(cat.THING_DESIGN[list(goblins)].tolist())) == 1
    # Two designs share the name "Giant Wasp" (values 2 and 4): thing_ids returns both.
    wasps = cat.thing_ids("Giant Wasp")
    assert sorted(cat.THING_COMBAT[list(wasps)].tolist()) == [2, 4]
    assert cat.THING_DESIGN[0] == 0 and cat.THING_DESIGN[cat.TREASURE_IDS[0]] == 0
    with pytest.raises(KeyError):
        cat.thing_ids("Ice Rats")  # flavour text only (D.5)


def test_named_magic_and_event_ids():
    assert cat.THING_KIND[cat.MAGIC_ID["Dust of Defense"]] == MAGIC
    assert cat.THING_KIND[cat.EVENT_ID["Big Juju"]] == EVENT
    assert len(cat.MAGIC_ID) == 11 + 1 and len(cat.EVENT_ID) == 10 + 1  # + the Boat and the Portal (R22)
    assert [cat.THING_NAME[i] for i in cat.TREASURE_IDS] == [
        "Diamond", "Emerald", "Pearl", "Ruby", "Sapphire", "Treasure Chest",
    ]
    assert [cat.THING_GOLD[i] for i in cat.TREASURE_IDS] == [5, 10, 5, 10, 5, 20]
    assert cat.THING_GOLD[cat.CREATURE_IDS].sum() == 0


# --- Appendix D data points -------------------------------------------------------------------


def test_d1_forts():
    assert cat.FORT_NAME == ("", "Tower", "Keep", "Castle", "Citadel")
    assert cat.FORT_KIND == ("", "melee", "melee", "ranged", "magic")
    assert cat.FORT_COUNT[0] == 0


def test_d2_cities_and_villages():
    village, city = cat.thing_ids("Village"), cat.thing_ids("City")
    assert len(village) == len(city) == 6
    assert (cat.THING_COMBAT[list(village)] == 1).all() and (cat.THING_INCOME[list(village)] == 1).all()
    assert (cat.THING_COMBAT[list(city)] == 2).all() and (cat.THING_INCOME[list(city)] == 2).all()


def test_d3_special_income_counters():
    assert cat.THING_TERRAIN[one("Oil Field")] == FROZEN_WASTE
    assert cat.THING_TERRAIN[one("Farmlands")] == PLAINS
    assert cat.THING_TERRAIN[one("Diamond Field")] == DESERT
    assert cat.THING_TERRAIN[one("Elephants' Graveyard")] == JUNGLE
    gold_mine = one("Gold Mine")
    assert cat.THING_INCOME[gold_mine] == 3 and cat.THING_IS_MINE[gold_mine]
    assert cat.THING_KIND[gold_mine] == SPECIAL_INCOME and cat.THING_COMBAT[gold_mine] == 0
    # Mines = special income counters restricted to Mountains (D.3).
    mines = {cat.THING_NAME[i] for i in np.flatnonzero(cat.CATALOG.THING_IS_MINE)}
    assert mines == {"Copper Mine", "Silver Mine", "Gold Mine"}
    assert cat.CATALOG.THING_IS_MINE.sum() == 4  # Silver Mine x2
    assert not cat.THING_IS_MINE[one("Oil Field")]


def test_d5_creatures():
    walrus, knight, roc = one("Walrus"), one("White Knight"), one("Giant Roc")
    assert (cat.THING_COMBAT[walrus], cat.THING_TERRAIN[walrus]) == (4, FROZEN_WASTE)
    assert cat.THING_COMBAT[knight] == 3 and cat.THING_CHARGE[knight]
    assert (cat.THING_COMBAT[roc], cat.THING_TERRAIN[roc]) == (3, MOUNTAIN) and cat.THING_FLYING[roc]
    assert (cat.THING_COMBAT[one("Ogre")], cat.THING_TERRAIN[one("Ogre")]) == (2, MOUNTAIN)
    assert (cat.THING_COMBAT[list(cat.thing_ids("Goblins"))] == 1).all()


# --- Heroes (R1.11, Appendix A, Appendix D) ---------------------------------------------------


def test_hero_faces_pair_up():
    assert len(cat.HERO_NAME) == 22 + len(cat.HOUSE_HERO_FACES)  # the R22 house faces follow the box's
    assert cat.HERO_COUNTER.tolist() == [f // 2 for f in range(len(cat.HERO_NAME))]
    assert cat.HERO_NAME[:2] == ("Baron Munchausen", "Desert Master")  # H01, csv order
    for face in range(22):
        assert cat.other_face(cat.other_face(face)) == face
        assert cat.HERO_COUNTER[cat.other_face(face)] == cat.HERO_COUNTER[face]
    assert cat.HERO_NAME[cat.other_face(cat.hero_id("Marksman"))] == "Forest King"
    assert cat.hero_id("Ahasuerus") >= 22  # house hero (R22): data/house/house.csv, not the box's data
    with pytest.raises(KeyError):
        cat.hero_id("Ahashverus")


def test_dwarf_king_and_marksman_values():
    assert cat.HERO_COMBAT[cat.hero_id("Dwarf King")] == 5
    marksman = cat.hero_id("Marksman")
    assert cat.HERO_COMBAT[marksman] == 5 and cat.HERO_ALT_VALUE[marksman] == 2
    assert cat.HERO_RANGED[marksman] and cat.HERO_SPECIAL[marksman]
    assert cat.HERO_ALT_VALUE.sum() == 2  # nobody else has a second value


def test_a10_exactly_seven_terrain_lords():
    lords = {cat.HERO_NAME[f]: int(cat.HERO_LORD_TERRAIN[f]) for f in range(22) if cat.HERO_LORD_TERRAIN[f] >= 0}
    assert lords == {
        "Desert Master": DESERT, "Forest King": FOREST, "Ice Lord": FROZEN_WASTE,
        "Jungle Lord": JUNGLE, "Mountain King": MOUNTAIN, "Plains Lord": PLAINS, "Swamp King": SWAMP,
    }
    for name in ("Elf Lord", "Lord of the Eagles", "Dwarf King"):
        assert cat.HERO_LORD_TERRAIN[cat.hero_id(name)] == -1
    # The inferred pairing never puts two terrain lords on one counter (SOURCES.md §2).
    assert not ((cat.HERO_LORD_TERRAIN[0::2] >= 0) & (cat.HERO_LORD_TERRAIN[1::2] >= 0)).any()


def test_a11_plain_heroes_flags():
    assert cat.HERO_FLYING[cat.hero_id("Ghaog II")] and cat.HERO_FLYING[cat.hero_id("Lord of the Eagles")]
    cleric = cat.hero_id("Arch Cleric")
    assert cat.HERO_MAGIC[cleric] and cat.HERO_COMBAT[cleric] == 5
    assert ((cat.HERO_COMBAT >= 4) & (cat.HERO_COMBAT <= 6)).all()  # R1.11


# --- Terrain (R1.1, R11.1.2) ------------------------------------------------------------------


def test_terrain_hex_counts_and_move_costs():
    assert cat.TERRAIN_HEX_COUNT.tolist() == [6, 6, 5, 5, 6, 6, 6, 8]
    # R11.1.2: Swamp, Mountains, Forest, Jungle cost 2; Plains, Desert, Frozen Waste 1; Sea 1 (flyers only).
    assert cat.MOVE_COST.tolist() == [1, 2, 1, 2, 2, 1, 2, 1]
    assert cat.MOVE_COST[SEA] == 1


# --- Package data and immutability ------------------------------------------------------------


def test_package_data_equals_shared_manifest():
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} not present")
    shared = sorted(p.name for p in SHARED_DATA.glob("*.csv"))
    assert shared == sorted(p.name for p in cat.DATA_DIR.glob("*.csv"))
    for name in shared:
        assert filecmp.cmp(SHARED_DATA / name, cat.DATA_DIR / name, shallow=False), name


def test_arrays_are_read_only():
    fields = dataclasses.fields(cat.CATALOG)
    arrays = [getattr(cat.CATALOG, f.name) for f in fields if isinstance(getattr(cat.CATALOG, f.name), np.ndarray)]
    assert len(arrays) >= 25
    for arr in arrays:
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[0] = 0
    with pytest.raises(TypeError):
        cat.MAGIC_ID["Golem"] = 0  # mappings are read-only too
    with pytest.raises(dataclasses.FrozenInstanceError):
        cat.CATALOG.N_THINGS = 0


def test_module_constants_are_the_catalog_fields():
    """Per-id arrays, names and name lookups cover every id of every game (box, R22 house block,
    R20.1 second box); counts, id lists and the rest are the one box's."""
    per_id = {"THING_NAME", "THING_KIND", "THING_TERRAIN", "THING_COMBAT", "THING_FLYING", "THING_MAGIC",
              "THING_RANGED", "THING_CHARGE", "THING_INCOME", "THING_GOLD", "THING_DESIGN", "THING_IS_MINE",
              "THING_ORIGINAL", "THING_BOX"}
    per_face = {f.name for f in dataclasses.fields(cat.CATALOG) if f.name.startswith("HERO_") and f.name != "HERO_ID"}
    lookups = {"THING_IDS_BY_NAME", "MAGIC_ID", "EVENT_ID", "HERO_ID", "HOUSE_THING_IDS", "HOUSE_HERO_FACES",
               "HOUSE_ITEM_VALUE"}
    for f in dataclasses.fields(cat.CATALOG):
        source = cat.TWO_BOXES if f.name in per_id else cat.HOUSE if f.name in per_face | lookups else cat.CATALOG
        assert getattr(cat, f.name) is getattr(source, f.name), f.name
    for name in per_id | per_face:  # an id means the same counter in every catalog
        full = getattr(cat, name)
        for game in (cat.CATALOG, cat.HOUSE, cat.TWO_BOXES):
            part = getattr(game, name)
            assert tuple(full[:len(part)]) == tuple(part), name


def test_r22_house_counters_only_in_house_catalogs():
    """Default games keep the box's sizes; the house block has the same ids in every game that has it."""
    assert cat.catalog_for(2) is cat.catalog_for(4) is cat.CATALOG and not cat.CATALOG.HOUSE_THING_IDS.size
    assert cat.catalog_for(3, house=True) is cat.HOUSE
    assert cat.catalog_for(6) is cat.catalog_for(6, house=True) is cat.TWO_BOXES
    house = list(range(196, 198))
    assert cat.HOUSE.HOUSE_THING_IDS.tolist() == cat.TWO_BOXES.HOUSE_THING_IDS.tolist() == house
    assert cat.HOUSE.N_THINGS == 198 and cat.TWO_BOXES.N_THINGS == 198 + 196  # house Things are never doubled
    assert (cat.TWO_BOXES.N_HERO_FACES, cat.HOUSE.N_HERO_FACES, cat.CATALOG.N_HERO_FACES) == (26, 26, 22)
    assert (cat.THING_BOX[house] == 0).all() and (cat.THING_ORIGINAL[198:] == np.arange(196)).all()


def test_load_catalog_on_a_copy_gives_the_same_data(tmp_path):
    data = shutil.copytree(cat.DATA_DIR, tmp_path / "data")
    c = load_catalog(data)
    assert c.THING_NAME == cat.CATALOG.THING_NAME and c.SUMMARY == cat.SUMMARY
    assert np.array_equal(c.THING_COMBAT, cat.CATALOG.THING_COMBAT)
    assert c.thing_ids("Goblins") == cat.thing_ids("Goblins")


# --- Corrupt data -> CatalogError naming file, row and field -----------------------------------


@pytest.fixture
def data(tmp_path) -> Path:
    return shutil.copytree(cat.DATA_DIR, tmp_path / "data")


def edit(data: Path, file: str, change) -> None:
    """Rewrite ``file`` after ``change(rows)`` edits its list of rows (row 0 is the header)."""
    path = data / file
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    change(rows)
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def set_cell(data: Path, file: str, line: int, field: str, value: str) -> None:
    """Set the cell of column ``field`` on line ``line`` of the file (header = line 1)."""
    def change(rows):
        rows[line - 1][rows[0].index(field)] = value
    edit(data, file, change)


def assert_error(data: Path, *parts: str) -> None:
    with pytest.raises(CatalogError) as info:
        load_catalog(data)
    for part in parts:
        assert part in str(info.value)


@pytest.mark.parametrize(
    ("file", "line", "field", "value"),
    [
        ("creatures.csv", 5, "combat", "x"),  # not an integer
        ("creatures.csv", 5, "combat", "7"),  # out of 1-6
        ("creatures.csv", 7, "flying", "2"),  # flags are 0/1
        ("creatures.csv", 9, "count", "0"),  # at least one copy
        ("creatures.csv", 12, "terrain", "Atlantis"),  # unknown terrain
        ("creatures.csv", 12, "terrain", "Sea"),  # creatures live on land
        ("creatures.csv", 3, "name", ""),
        ("income.csv", 6, "value", "0"),
        ("income.csv", 6, "terrain", "Moon"),
        ("income.csv", 3, "terrain", "Plains"),  # villages go on any terrain
        ("income.csv", 2, "combat", ""),  # a city fights
        ("income.csv", 4, "combat", "1"),  # special income counters do not
        ("income.csv", 4, "kind", "mine"),
        ("treasures.csv", 3, "value", "ten"),
        ("magic.csv", 2, "count", "2"),  # MAGIC_ID names one counter
        ("heroes.csv", 4, "combat", "0"),
        ("heroes.csv", 4, "special_star", "yes"),
        ("heroes.csv", 4, "counter_pair", "Hx"),
        ("heroes.csv", 4, "ability_summary", "Terrain lord: elves"),  # Elf Lord is no terrain lord
        ("heroes.csv", 3, "ability_summary", "Special ability"),  # Desert Master is one
        ("heroes.csv", 14, "notes", "ARCHER VALUES: 2 (ranged) / 4"),  # Marksman's combat is 5
        ("forts.csv", 3, "level", "5"),
        ("forts.csv", 3, "combat", "3"),  # a Keep's combat is its level, 2
        ("forts.csv", 3, "kind", "catapult"),
        ("terrain.csv", 4, "movement_cost", "0"),
        ("terrain.csv", 9, "movement_cost", "1"),  # Sea stays 'impassable' in the file
        ("terrain.csv", 4, "terrain", "Lava"),
    ],
)
def test_bad_cell(data, file, line, field, value):
    set_cell(data, file, line, field, value)
    assert_error(data, f"{file}: row {line}: field '{field}'")


@pytest.mark.parametrize(
    ("file", "line", "field", "value", "where"),
    [
        ("heroes.csv", 4, "counter_pair", "H01", "row 4"),  # H01 on three rows
        ("heroes.csv", 5, "counter_pair", "H12", "row 4"),  # H02 on one row (Elf Lord, row 4)
        ("heroes.csv", 5, "name", "Elf Lord", "row 5"),  # duplicate hero name
        ("magic.csv", 3, "name", "Balloon", "row 3"),  # duplicate magic item
        ("events.csv", 11, "name", "Big Juju", "row 11"),  # duplicate event
        ("forts.csv", 4, "level", "2", "row 4"),  # two level-2 forts
        ("terrain.csv", 3, "terrain", "Desert", "row 3"),  # Desert twice
    ],
)
def test_bad_cross_row_data(data, file, line, field, value, where):
    set_cell(data, file, line, field, value)
    assert_error(data, file, where, f"field '{field}'")


def test_missing_hero_pair_number(data):
    # Renumber H11 as H12: counters must run H01..H11 so that face 2k belongs to counter k.
    for line in (22, 23):
        set_cell(data, "heroes.csv", line, "counter_pair", "H12")
    assert_error(data, "heroes.csv: row 22: field 'counter_pair'")


def test_dropped_column(data):
    edit(data, "creatures.csv", lambda rows: [r.pop(2) for r in rows])  # 'combat'
    assert_error(data, "creatures.csv: row 1: field 'combat'", "missing column")


def test_extra_column(data):
    edit(data, "treasures.csv", lambda rows: [r.append("x") for r in rows])
    assert_error(data, "treasures.csv: row 1: field 'x'")


def test_short_row(data):
    edit(data, "events.csv", lambda rows: rows[3].pop())  # drops 'notes' on line 4
    assert_error(data, "events.csv: row 4: field 'notes'")


def test_deleted_file(data):
    (data / "magic.csv").unlink()
    assert_error(data, "magic.csv", "missing file")


def test_missing_fort_level(data):
    edit(data, "forts.csv", lambda rows: rows.pop(4))  # no Citadel
    assert_error(data, "forts.csv: row 4: field 'level'", "[4]")


def test_missing_terrain(data):
    edit(data, "terrain.csv", lambda rows: rows.pop(3))  # no Frozen Waste
    assert_error(data, "terrain.csv: row 8: field 'terrain'", "Frozen Waste")


def test_unknown_terrain_row(data):
    edit(data, "terrain.csv", lambda rows: rows.append(["Lava", "2", "1", ""]))
    assert_error(data, "terrain.csv: row 10: field 'terrain'", "'Lava'")


def test_quoted_commas_in_notes_are_fine(data):
    # creatures.csv notes contain commas inside quotes; a rewrite by the csv module keeps them valid.
    edit(data, "creatures.csv", lambda rows: rows[1].__setitem__(8, "a, b, c"))
    assert load_catalog(data).N_THINGS == cat.N_THINGS

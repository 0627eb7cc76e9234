"""Static tables of Kingsburg: goods, the 20 buildings of the province sheet (K12), the 18 advisors
(K11) and the enemy deck (K13, loaded from ``data/enemies.json`` and validated at import).

The enemy cards are provisional (K0.3, K13.3, K17.1): the data file says so in its ``status`` field and
can be corrected without a code change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

import numpy as np

GOODS = ("gold", "wood", "stone")  # K1.4: goods are these three only
GOLD, WOOD, STONE = 0, 1, 2
ROWS, COLUMNS = 5, 4
N_BUILDINGS = ROWS * COLUMNS
N_ADVISORS = 18
YEARS = 5

# K12.2, row by row from the left: name, cost gold/wood/stone, VP, battle modifier (K12.3, general part)
_BUILDINGS = (
    ("Statue", (2, 0, 0), 3, 0), ("Chapel", (3, 0, 1), 5, 0), ("Church", (3, 1, 2), 7, 0),
    ("Cathedral", (5, 0, 3), 9, 0),
    ("Inn", (1, 1, 0), 0, 0), ("Market", (2, 2, 0), 1, 0), ("Farms", (2, 3, 1), 2, -1),
    ("Merchants' Guild", (3, 1, 2), 4, 0),
    ("Guard Tower", (1, 0, 1), 1, 1), ("Blacksmith", (1, 2, 0), 2, 1), ("Barracks", (2, 2, 1), 4, 0),
    ("Wizards' Guild", (3, 2, 2), 6, 2),
    ("Palisade", (0, 2, 0), 0, 1), ("Stable", (1, 1, 1), 2, 0), ("Stone Wall", (2, 0, 2), 2, 1),
    ("Fortress", (3, 0, 2), 4, 1),
    ("Barricade", (0, 1, 0), 0, 0), ("Crane", (0, 1, 1), 1, 0), ("Town Hall", (2, 1, 1), 2, 0),
    ("Embassy", (2, 2, 2), 4, 0),
)
BUILDING_NAMES = tuple(b[0] for b in _BUILDINGS)
BUILDING_COST = np.array([b[1] for b in _BUILDINGS], np.int32).reshape(ROWS, COLUMNS, 3)
BUILDING_VP = np.array([b[2] for b in _BUILDINGS], np.int32).reshape(ROWS, COLUMNS)
BUILDING_BATTLE = np.array([b[3] for b in _BUILDINGS], np.int32).reshape(ROWS, COLUMNS)


def _at(name: str) -> tuple[int, int]:
    return divmod(BUILDING_NAMES.index(name), COLUMNS)


STATUE, CHAPEL, CHURCH, CATHEDRAL = (_at(n) for n in ("Statue", "Chapel", "Church", "Cathedral"))
INN, MARKET, FARMS, MERCHANTS_GUILD = (_at(n) for n in ("Inn", "Market", "Farms", "Merchants' Guild"))
GUARD_TOWER, BLACKSMITH, BARRACKS, WIZARDS_GUILD = (_at(n) for n in ("Guard Tower", "Blacksmith", "Barracks",
                                                                       "Wizards' Guild"))
PALISADE, STABLE, STONE_WALL, FORTRESS = (_at(n) for n in ("Palisade", "Stable", "Stone Wall", "Fortress"))
BARRICADE, CRANE, TOWN_HALL, EMBASSY = (_at(n) for n in ("Barricade", "Crane", "Town Hall", "Embassy"))

# K11, advisors 1-18 (index 0 unused)
ADVISOR_NAMES = ("", "Jester", "Squire", "Architect", "Merchant", "Sergeant", "Alchemist", "Astronomer",
                 "Treasurer", "Master Hunter", "General", "Swordsmith", "Duchess", "Champion", "Smuggler",
                 "Inventor", "Wizard", "Queen", "King")

ENEMY_TYPES = ("Barbarians", "Goblins", "Orcs", "Zombies", "Demons", "Dragons")
REWARD_KEYS = ("gold", "wood", "stone", "goods", "vp")
LOSS_KEYS = ("gold", "wood", "stone", "goods", "buildings", "vp")  # K9.7's order


@dataclass(frozen=True)
class EnemyCard:
    """One enemy card (K13.1): its year I-V, type, strength, victory reward and defeat losses."""

    year: int
    enemy: str
    strength: int
    reward: tuple[int, ...]  # REWARD_KEYS
    losses: tuple[int, ...]  # LOSS_KEYS
    note: str = ""

    def text(self) -> str:
        def part(keys, values):
            return ", ".join(f"{v} {k}" for k, v in zip(keys, values) if v) or "nothing"

        return (f"{self.enemy} {self.strength} (year {self.year}; victory: {part(REWARD_KEYS, self.reward)}; "
                f"defeat: lose {part(LOSS_KEYS, self.losses)})")


def _card(raw: dict, i: int) -> EnemyCard:
    where = f"enemies.json card {i}"
    try:
        year, enemy, strength = int(raw["year"]), str(raw["enemy"]), int(raw["strength"])
        reward, losses = dict(raw.get("reward", {})), dict(raw.get("losses", {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: malformed ({exc})") from None
    if not 1 <= year <= YEARS or enemy not in ENEMY_TYPES or strength < 0:
        raise ValueError(f"{where}: year 1-5, enemy one of {ENEMY_TYPES} and strength >= 0 needed")
    for keys, table, what in ((REWARD_KEYS, reward, "reward"), (LOSS_KEYS, losses, "losses")):
        unknown = set(table) - set(keys)
        if unknown or any(not isinstance(v, int) or v < 0 for v in table.values()):
            raise ValueError(f"{where}: {what} keys must be {keys} with whole numbers >= 0")
    return EnemyCard(year, enemy, strength, tuple(reward.get(k, 0) for k in REWARD_KEYS),
                     tuple(losses.get(k, 0) for k in LOSS_KEYS), str(raw.get("note", "")))


def load_enemy_deck(text: str | None = None) -> tuple[str, tuple[EnemyCard, ...]]:
    """(status, cards) from the enemy data file (or from `text`); 5 cards for each year, in year order."""
    if text is None:
        text = resources.files(__package__).joinpath("data/enemies.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    status = doc.get("status")
    if status not in ("provisional", "verified"):
        raise ValueError("enemies.json: status must be 'provisional' or 'verified'")
    cards = tuple(_card(c, i) for i, c in enumerate(doc.get("cards", [])))
    counts = [sum(c.year == y for c in cards) for y in range(1, YEARS + 1)]
    if counts != [5] * YEARS or [c.year for c in cards] != sorted(c.year for c in cards):
        raise ValueError(f"enemies.json: 5 cards per year in year order needed, got {counts}")
    return status, cards


ENEMY_STATUS, ENEMY_CARDS = load_enemy_deck()
N_ENEMY_CARDS = len(ENEMY_CARDS)
CARDS_OF_YEAR = tuple(tuple(i for i, c in enumerate(ENEMY_CARDS) if c.year == y) for y in range(1, YEARS + 1))

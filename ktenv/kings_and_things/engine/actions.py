"""The one flat action space (design.md "Actions"): a few blocks of atomic choices.

Every decision of the game is a short sequence of these choices; the pending decision says what
a block means right now (a HEX is "claim this hex" in setup and "build here" in construction).

| block     | size            | meaning                                                      |
|-----------|-----------------|--------------------------------------------------------------|
| PASS      | 1               | done / pass / decline                                        |
| YES       | 1               | confirm / accept                                             |
| NUMBER    | 16              | an amount 0-15 (paid Things, hero bonus in steps of 5 gold)  |
| HEX       | hexes on board  | a hex, by its index in spiral order (R3.1.4): 37, 19 or 61   |
| THING     | 196 / 198 / 394 | a Thing, by catalog id (screen counter, income counter, ...) |
| HERO      | 22 / 26 / 26    | a hero face, by catalog id                                   |
| CASH      | 6 / 6 / 12      | cash this treasure now (R18.3, offered at every decision)    |
| PLAYER    | 4 / 4 / 6       | a player relative to the actor (victims and targets)         |
| DIRECTION | 6               | E, SE, SW, W, NW, NE (movement steps)                        |

Sizes a / b / c: the game's catalog (`catalog.catalog_for`): a, a 2-4 player game (the box);
b, with house_content (R22: 2 house Things, 4 house hero faces); c, six players (R20.1: two boxes
and the house block, whose counters stay out of play without house_content). 2-4 player games have
four PLAYER actions, so their action space depends on the player count only through the board.

C++ twin: native/src/game.hpp (ActionLayout: the layout is built here and handed over, native/bridge.py)
"""

from __future__ import annotations

from functools import cache

from .. import catalog as cat
from ..board import board_radius, geometry
from ..state import GameState

N_NUMBERS = 16
PASS = 0
YES = 1
NUMBER = 2


SEATS = 4  # PLAYER block of a 2-4 player game (relative to the actor)


class ActionLayout:
    """First action of each block (plain ints: read in hot loops).

    `ActionLayout(n_hexes)` is the one-box layout of a 2-4 player game on a board of `n_hexes`;
    `action_layout(n_players, house)` the layout of any game (its catalog, max(4, n) seats, R20.1, R22).
    """

    __slots__ = ("n_hexes", "n_things", "n_hero_faces", "n_treasures", "n_seats", "treasure_ids", "hex", "thing",
                 "hero", "cash", "player", "direction", "size")

    def __init__(self, n_hexes: int, catalog: cat.Catalog = cat.CATALOG, n_seats: int = SEATS) -> None:
        self.n_hexes = n_hexes
        self.n_things = catalog.N_THINGS
        self.n_hero_faces = catalog.N_HERO_FACES
        self.treasure_ids = catalog.TREASURE_IDS  # CASH action i cashes treasure treasure_ids[i]
        self.n_treasures = len(catalog.TREASURE_IDS)
        self.n_seats = n_seats
        self.hex = NUMBER + N_NUMBERS
        self.thing = self.hex + n_hexes
        self.hero = self.thing + self.n_things
        self.cash = self.hero + self.n_hero_faces
        self.player = self.cash + self.n_treasures
        self.direction = self.player + n_seats
        self.size = self.direction + 6

    def blocks(self) -> list[tuple[str, int, int]]:
        """(name, first action, size) of every block, in order."""
        return [
            ("PASS", PASS, 1), ("YES", YES, 1), ("NUMBER", NUMBER, N_NUMBERS),
            ("HEX", self.hex, self.n_hexes), ("THING", self.thing, self.n_things),
            ("HERO", self.hero, self.n_hero_faces), ("CASH", self.cash, self.n_treasures),
            ("PLAYER", self.player, self.n_seats), ("DIRECTION", self.direction, 6),
        ]

    def split(self, action: int) -> tuple[str, int]:
        """The block of an action and the index inside it."""
        for name, start, size in self.blocks():
            if start <= action < start + size:
                return name, action - start
        raise ValueError(f"action {action} is outside the action space 0..{self.size - 1}")


@cache
def action_layout(n_players: int, house: bool = False) -> ActionLayout:
    """The action layout of a game of `n_players` (its board, its catalog, max(4, n) seats); `house`:
    house_content (R22: the house Things and hero faces join the THING and HERO blocks)."""
    return ActionLayout(geometry(board_radius(n_players)).n_hexes, cat.catalog_for(n_players, house),
                        max(SEATS, n_players))


def layout(s: GameState) -> ActionLayout:
    """The action layout of the game `s`."""
    return action_layout(s.n_players, s.cfg.house_content)

"""The one flat action space (design.md "Actions"): a few blocks of atomic choices.

Every decision of the game is a short sequence of these choices; the pending decision says what
a block means right now (a HEX is "claim this hex" in setup and "build here" in construction).

| block     | size            | meaning                                                      |
|-----------|-----------------|--------------------------------------------------------------|
| PASS      | 1               | done / pass / decline                                        |
| YES       | 1               | confirm / accept                                             |
| NUMBER    | 16              | an amount 0-15 (paid Things, hero bonus in steps of 5 gold)  |
| HEX       | hexes on board  | a hex, by its index in spiral order (R3.1.4): 37 or 19       |
| THING     | 198             | a Thing, by catalog id (screen counter, income counter, ...) |
| HERO      | 26              | a hero face, by catalog id (22 of the box, 4 house heroes)   |
| CASH      | 6               | cash this treasure now (R18.3, offered at every decision)    |
| PLAYER    | 4               | a player (victims and targets)                               |
| DIRECTION | 6               | E, SE, SW, W, NW, NE (movement steps)                        |
"""

from __future__ import annotations

from .. import catalog as cat

N_NUMBERS = 16
PASS = 0
YES = 1
NUMBER = 2


class ActionLayout:
    """First action of each block for a board of `n_hexes` hexes (plain ints: read in hot loops)."""

    __slots__ = ("n_hexes", "hex", "thing", "hero", "cash", "player", "direction", "size")

    def __init__(self, n_hexes: int) -> None:
        self.n_hexes = n_hexes
        self.hex = NUMBER + N_NUMBERS
        self.thing = self.hex + n_hexes
        self.hero = self.thing + cat.N_THINGS
        self.cash = self.hero + cat.N_HERO_FACES
        self.player = self.cash + len(cat.TREASURE_IDS)
        self.direction = self.player + 4
        self.size = self.direction + 6

    def blocks(self) -> list[tuple[str, int, int]]:
        """(name, first action, size) of every block, in order."""
        return [
            ("PASS", PASS, 1), ("YES", YES, 1), ("NUMBER", NUMBER, N_NUMBERS),
            ("HEX", self.hex, self.n_hexes), ("THING", self.thing, cat.N_THINGS),
            ("HERO", self.hero, cat.N_HERO_FACES), ("CASH", self.cash, len(cat.TREASURE_IDS)),
            ("PLAYER", self.player, 4), ("DIRECTION", self.direction, 6),
        ]

    def split(self, action: int) -> tuple[str, int]:
        """The block of an action and the index inside it."""
        for name, start, size in self.blocks():
            if start <= action < start + size:
                return name, action - start
        raise ValueError(f"action {action} is outside the action space 0..{self.size - 1}")

"""Board construction (R3): hex geometry, start positions, laying tiles, Sea replacement, hex stack.

Pure functions over plain data. Hexes are indices 0..H-1 in the spiral order of R3.1.4; tiles are
terrain codes (ktenv.kings_and_things.constants). Geometry arrays are computed once per radius and are read-only.
Every random choice comes from the `Dice` passed in (RD1.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

import numpy as np

from ktenv.kings_and_things.constants import N_TERRAINS, PLAYER_COUNTS, SEA
from ktenv.rng import Dice

# R3.1.2: axial directions, clockwise from E.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES = ("E", "SE", "SW", "W", "NW", "NE")
_DIR_INDEX = {name: i for i, name in enumerate(DIRECTION_NAMES)}

# Clockwise board order of the outer-ring corners, starting at NE (R3.3.1, R4.4.2).
CLOCKWISE_CORNERS = ("NE", "E", "SE", "SW", "W", "NW")

# R3.4.1 / RX X1: default end condition "at least two land neighbours" (option: 3).
DEFAULT_LAND_NEIGHBOURS = 2


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Geometry:
    """Precomputed hex geometry of a board of the given radius (R3.1). Build via `geometry()`."""

    radius: int
    n_hexes: int
    coords: np.ndarray  # int8[H, 2] axial (q, r), spiral order (R3.1.4)
    index_of: Mapping[tuple[int, int], int]  # (q, r) -> index; read-only mapping
    neighbours: np.ndarray  # int8[H, 6] index per direction (R3.1.2), -1 off board
    distance: np.ndarray  # int8[H, H] hex distance (R3.1.1)
    ring: np.ndarray  # int8[H] distance from the centre (R3.1.3)
    adjacent: tuple[tuple[int, ...], ...]  # on-board neighbours as Python ints (fast in loops)

    def corner(self, k: int, direction: str) -> int:
        """Index of the hex k·DIR, a corner of ring k (R3.1.3)."""
        d = _DIR_INDEX.get(direction)
        if d is None:
            raise ValueError(f"unknown direction {direction!r}; expected one of {DIRECTION_NAMES}")
        if not 0 <= k <= self.radius:
            raise ValueError(f"ring {k} is outside a board of radius {self.radius}")
        dq, dr = DIRECTIONS[d]
        return self.index_of[(k * dq, k * dr)]


def spiral_coords(radius: int) -> list[tuple[int, int]]:
    """Axial coordinates in spiral order (R3.1.4): centre, then each ring from k·NW clockwise."""
    out = [(0, 0)]
    for k in range(1, radius + 1):
        q, r = 0, -k  # k·NW
        for dq, dr in DIRECTIONS:  # E, SE, SW, W, NW, NE
            for _ in range(k):
                out.append((q, r))
                q, r = q + dq, r + dr
    return out


@cache
def geometry(radius: int) -> Geometry:
    """The cached, read-only geometry of a hexagonal board with rings 0..radius (R3.1)."""
    if not isinstance(radius, (int, np.integer)) or not 0 <= radius <= 20:
        raise ValueError(f"board radius must be an integer in 0..20, got {radius!r}")
    radius = int(radius)
    cells = spiral_coords(radius)
    index_of = {c: i for i, c in enumerate(cells)}
    coords = np.array(cells, dtype=np.int64).reshape(-1, 2)
    nb = np.full((len(cells), 6), -1, dtype=np.int64)
    for i, (q, r) in enumerate(cells):
        for d, (dq, dr) in enumerate(DIRECTIONS):
            nb[i, d] = index_of.get((q + dq, r + dr), -1)
    dq = coords[:, None, 0] - coords[None, :, 0]
    dr = coords[:, None, 1] - coords[None, :, 1]
    dist = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))  # R3.1.1
    ring = dist[0].copy()
    return Geometry(
        radius=radius,
        n_hexes=len(cells),
        coords=_readonly(coords.astype(np.int8)),
        index_of=MappingProxyType(index_of),
        neighbours=_readonly(nb.astype(np.int8)),
        distance=_readonly(dist.astype(np.int8)),
        ring=_readonly(ring.astype(np.int8)),
        adjacent=tuple(tuple(int(j) for j in row if j >= 0) for row in nb),
    )


def hex_label(geo: Geometry, index: int) -> str:
    """Short human label of a hex, e.g. 'h12 (q=1,r=-2)'."""
    if not 0 <= index < geo.n_hexes:
        return f"h{index} (off board)"
    q, r = geo.coords[index]
    return f"h{index} (q={int(q)},r={int(r)})"


# ---------------------------------------------------------------- start positions (R3.3, R4.4)


def _check_players(n_players: int) -> None:
    if n_players not in PLAYER_COUNTS:
        raise ValueError(f"Kings & Things needs 2-4 players, or 6 with two boxes (R20.1), got {n_players!r}")


def board_radius(n_players: int) -> int:
    """Radius 3 (37 hexes) for four players, 2 (19 hexes) for two or three (R3.2), 4 (61 hexes)
    for six (R20.1)."""
    _check_players(n_players)
    return {6: 4, 4: 3}.get(n_players, 2)


def _rotations(names: Sequence[str]) -> list[tuple[str, ...]]:
    """Each rotation of a clockwise-ordered corner set: first player's pick, then clockwise."""
    return [tuple(names[i:]) + tuple(names[:i]) for i in range(len(names))]


def start_position_choices(n_players: int) -> list[tuple[int, ...]]:
    """The first player's options (R3.3.1, R4.4.2, RD2.1), each the start hexes in turn order.

    Options are listed by the first player's corner in clockwise order from NE.
    4 players: 3·NE/SE/SW/NW, others clockwise (4 options). 3 players: any corner, picking set
    A = {NE, SE, W} or B = {E, SW, NW}, others clockwise within it (6). 2 players: any corner, the
    second player opposite (6). 6 players (R20.1, DATA M13, ASSUMPTION): the six corners of ring 4,
    the first player picks one, the others follow clockwise (6).
    """
    k = board_radius(n_players)
    geo = geometry(k)
    if n_players == 4:
        options = _rotations(("NE", "SE", "SW", "NW"))
    elif n_players == 6:
        options = _rotations(CLOCKWISE_CORNERS)
    else:
        step = 2 if n_players == 3 else 3  # alternate corners / opposite corner
        options = [
            tuple(CLOCKWISE_CORNERS[(i + j * step) % 6] for j in range(n_players))
            for i in range(6)
        ]
    return [tuple(geo.corner(k, name) for name in opt) for opt in options]


# ---------------------------------------------------------------- laying the board (R3.2)


def _validate_counts(counts: Sequence[int]) -> list[int]:
    if len(counts) != N_TERRAINS:
        raise ValueError(f"terrain_counts needs {N_TERRAINS} entries (by terrain code), got {len(counts)}")
    out = [int(c) for c in counts]
    if any(c < 0 or c != v for c, v in zip(out, counts)):
        raise ValueError(f"terrain_counts must be non-negative integers, got {list(counts)}")
    return out


def _set_aside_tiles(n_players: int) -> list[int]:
    """Tiles kept off the board: 4 Sea (R3.2.1), or 2 of each land terrain + 5 Sea (R3.2.2);
    none with six players (R20.1: the 79-tile pool is shuffled, 61 laid, 18 left)."""
    if n_players == 6:
        return []
    if n_players == 4:
        return [SEA] * 4
    return [t for t in range(SEA) for _ in range(2)] + [SEA] * 5


def lay_board(
    n_players: int, terrain_counts: Sequence[int], dice: Dice
) -> tuple[np.ndarray, list[int], list[int]]:
    """Lay the board (R3.2): returns (hex_terrain int8[H], provisional stack, set-aside tiles).

    Set aside the mode's tiles, shuffle the rest, lay H tiles in spiral order; the remainder is
    the provisional stack (R3.2.1: 37 laid / 7 left / 4 aside; R3.2.2: 19 / 10 / 19;
    R20.1: 61 / 18 / 0, the pool `catalog.TWO_BOX_TILES`).
    """
    n_hexes = geometry(board_radius(n_players)).n_hexes
    counts = _validate_counts(terrain_counts)
    set_aside = _set_aside_tiles(n_players)
    remaining = list(counts)
    for t in set_aside:
        remaining[t] -= 1
    if min(remaining) < 0:
        raise ValueError(
            f"terrain_counts {counts} cannot supply the {n_players}-player set-aside tiles "
            f"({'4 Sea' if n_players >= 4 else '2 of each land terrain and 5 Sea'}, R3.2)"
        )
    if sum(remaining) < n_hexes:
        raise ValueError(
            f"terrain_counts {counts} leave {sum(remaining)} tiles after setting aside "
            f"{len(set_aside)}; the {n_players}-player board needs {n_hexes} (R3.2)"
        )
    pool = [t for t in range(N_TERRAINS) for _ in range(remaining[t])]
    dice.shuffle(pool)
    hex_terrain = np.array(pool[:n_hexes], dtype=np.int8)
    return hex_terrain, pool[n_hexes:], set_aside


# ---------------------------------------------------------------- Sea at a start hex (R3.4)


def _land_neighbours(hex_terrain: np.ndarray, start: int, geo: Geometry) -> int:
    return sum(1 for j in geo.adjacent[start] if hex_terrain[j] != SEA)


def start_hex_needs_replacement(hex_terrain: np.ndarray, start: int, geo: Geometry) -> bool:
    """Trigger of R3.4.1: the start hex is Sea or has >= 2 Sea neighbours (off-board: neither)."""
    if hex_terrain[start] == SEA:
        return True
    return sum(1 for j in geo.adjacent[start] if hex_terrain[j] == SEA) >= 2


def start_hex_settled(hex_terrain: np.ndarray, start: int, geo: Geometry, land_needed: int) -> bool:
    """End condition of R3.4.1 / X1: the start hex is land with >= land_needed land neighbours."""
    return hex_terrain[start] != SEA and _land_neighbours(hex_terrain, start, geo) >= land_needed


def replace_sea_at_start(
    hex_terrain: np.ndarray,
    start: int,
    provisional: list[int],
    removed: list[int],
    geo: Geometry,
    land_neighbours_needed: int = DEFAULT_LAND_NEIGHBOURS,
    dice: Dice | None = None,
) -> int:
    """Replace Sea at or beside a start hex (R3.4, RD2.2); returns the number of tiles replaced.

    Mutates `hex_terrain`, `provisional` and `removed` in place. Fixed order (R3.4.2): the start
    hex, then its Sea neighbours E, SE, SW, W, NW, NE; each Sea tile goes to `removed` and is
    replaced by a uniform draw from `provisional` (a drawn Sea is replaced again). Stops as soon
    as the end condition holds, when no Sea is left to replace, or when the stack is empty.
    `dice` is required (it follows the optional neighbour count only to keep the argument order).
    """
    if dice is None:
        raise TypeError("replace_sea_at_start() needs the game's Dice (RD1.1)")
    if not 0 <= land_neighbours_needed <= 6:
        raise ValueError(f"land_neighbours_needed must be 0..6, got {land_neighbours_needed!r}")
    if not start_hex_needs_replacement(hex_terrain, start, geo):
        return 0
    replaced = 0
    for h in (start, *geo.adjacent[start]):  # adjacent[] is already in direction order
        while hex_terrain[h] == SEA:
            if start_hex_settled(hex_terrain, start, geo, land_neighbours_needed) or not provisional:
                return replaced
            removed.append(int(hex_terrain[h]))  # kept apart, never redrawn (R3.4.2)
            hex_terrain[h] = provisional.pop(dice.below(len(provisional)))
            replaced += 1
    return replaced


# ---------------------------------------------------------------- the hex stack (R3.5)


def form_hex_stack(
    provisional: Sequence[int], removed: Sequence[int], set_aside: Sequence[int], dice: Dice
) -> list[int]:
    """Hex stack (R3.5.1, RD2.3): provisional + removed Sea + set-aside tiles, shuffled."""
    stack = [int(t) for t in (*provisional, *removed, *set_aside)]
    dice.shuffle(stack)
    return stack

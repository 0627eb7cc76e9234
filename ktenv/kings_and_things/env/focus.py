"""The moving stack's surroundings, as extra inputs of a policy network (`policy.focus` in a training config).

A multilayer network reads the `hexes` table by absolute position: to step a stack east (a DIRECTION action)
it must learn, for each hex of the board separately, which row lies east of it. The focus gathers the hexes
around the stack in an order relative to it: the 6 neighbours (E, SE, SW, W, NW, NE: the DIRECTION block's
order), then the 6 hexes two steps straight on, then the 6 between them (d then d+1). The same weights then
serve a stack anywhere on the board.

The anchor is the hex of the moving stack (`reg_mv_hex`), else the hex whose counters are being chosen for a
move (`reg_mv_sel`). Each gathered position holds the hex's public and own columns (not the per-hex
registers) and a flag that it lies on the board. It is a pure function of the observation, so it sees
what the seat sees and nothing more.
"""

from __future__ import annotations

from ...gamekit.focus import OFF, ONE, FocusTable
from .. import board
from ..config import GameConfig
from .observation import build_layout

ANCHORS = ("reg_mv_hex", "reg_mv_sel")  # the first of these set in the observation places the focus


def offsets() -> list[tuple[int, int]]:
    """The 18 gathered positions as axial offsets from the anchor, in the order described above."""
    steps = board.DIRECTIONS
    near = list(steps)
    straight = [(2 * q, 2 * r) for q, r in steps]
    between = [(q + steps[(d + 1) % 6][0], r + steps[(d + 1) % 6][1]) for d, (q, r) in enumerate(steps)]
    return near + straight + between


def focus_table(cfg: GameConfig) -> FocusTable:
    """The gather table of a game's observation (it depends on the board and the layout, so on the config)."""
    geo = board.geometry(board.board_radius(cfg.n_players))
    layout = build_layout(cfg.n_players, geo.n_hexes, cfg.house_content, cfg.mysterious_kadab)
    hexes = layout.section("hexes")
    gathered = [c.name for c in hexes.columns if not c.name.startswith("reg_")]
    anchor: list[int] = []
    gather: list[list[int]] = []
    for name in ANCHORS:
        for h in range(geo.n_hexes):
            q, r = (int(v) for v in geo.coords[h])
            row: list[int] = []
            for dq, dr in offsets():
                there = geo.index_of.get((q + dq, r + dr))
                if there is None:
                    row += [OFF] * (1 + len(gathered))
                else:
                    row += [ONE] + [hexes.offset(c) + there for c in gathered]
            anchor.append(hexes.offset(name) + h)
            gather.append(row)
    return FocusTable(anchor=tuple(anchor), gather=tuple(tuple(r) for r in gather))

"""The hexes, Things and heroes a policy network scores row by row (`policy.rows` in a training config).

The HEX, THING and HERO actions name a row of the observation's `hexes`, `things` and `heroes` tables, in the
same order (the hex's spiral index, the Thing's and the hero face's catalog id): where to build, which counter
joins a moving stack, which battle to fight first. Row scores (ktenv.gamekit.rows) give each such action a
score from its own row, by weights the rows share. With `steps`, the DIRECTION actions (a moving stack's
steps, R11.2) are scored too, from the rows of the hexes they lead to: one step on and two steps straight on
from the moving stack's hex (`reg_mv_hex`), by the hexes' embedding. A pure function of the observation: the
rows hold what the seat sees and nothing more.
"""

from __future__ import annotations

from ...gamekit.rows import RowBlock, RowTable, StepBlock
from .. import board
from ..config import GameConfig
from ..engine.actions import action_layout
from .observation import build_layout

BLOCKS = (("hex", "hexes"), ("thing", "things"), ("hero", "heroes"))  # (action block, observation table)


def row_table(cfg: GameConfig, steps: bool = False) -> RowTable:
    """The row table of a game's observation and actions (they depend on the board and the catalog); `steps`: with
    the moving stack's steps scored from the hexes they lead to."""
    geo = board.geometry(board.board_radius(cfg.n_players))
    layout = build_layout(cfg.n_players, geo.n_hexes, cfg.house_content, cfg.mysterious_kadab)
    actions = action_layout(cfg.n_players, cfg.house_content)
    sizes = {name.lower(): size for name, _, size in actions.blocks()}
    blocks = []
    for block, table in BLOCKS:
        section = layout.section(table)
        if section.rows != sizes[block]:  # never for a consistent layout: each action names its own row
            raise ValueError(f"row scores: {sizes[block]} {block.upper()} actions, {section.rows} rows of {table}")
        blocks.append(RowBlock(getattr(actions, block), section.start, section.rows, section.n_columns))
    if not steps:
        return RowTable(tuple(blocks))
    hexes = layout.section("hexes")
    anchor = tuple(hexes.offset("reg_mv_hex") + h for h in range(geo.n_hexes))
    return RowTable(tuple(blocks), step_blocks=(StepBlock(actions.direction, 0, anchor, _ahead(geo)),))


def _ahead(geo) -> tuple:
    """[hex][direction]: (the hex one step on, the hex two steps straight on), -1 off the board (R3.1.2)."""
    def on(h: int, d: int) -> int:
        return -1 if h < 0 else int(geo.neighbours[h, d])

    return tuple(tuple((on(h, d), on(on(h, d), d)) for d in range(6)) for h in range(geo.n_hexes))

"""The moving stack's destination, as a choice a policy network can make (`policy.steer` in a training config).

A stack moves a hex at a time (MOVE_STACK: a DIRECTION action, or PASS to end the move), but a player moves it
towards a hex chosen when the move starts. With the steer, the network names that destination with logits of
its own, one per hex after the actions (the HEX logits would do, but they also choose where a move starts):
each hex's probability goes to the directions of a shortest step towards it (split evenly where two are), the
stack's own hex to PASS (stay here), and every direction and PASS gets the log of what it was sent added to
its own logit (ktenv.gamekit.steer). The table depends only on the board.

Gated on the decision being MOVE_STACK; the anchor is the moving stack's hex (`reg_mv_hex`). A pure function
of the observation, so it sees what the seat sees and nothing more.
"""

from __future__ import annotations

from ...gamekit.steer import SteerTable
from .. import board
from ..config import GameConfig
from ..engine.actions import PASS, action_layout
from .observation import build_layout


def first_steps(geo: board.Geometry, here: int, there: int) -> list[int]:
    """The directions (DIRECTION order) of a first step on a shortest way from hex `here` to `there` that stays on
    the board; none when they are the same hex."""
    near = geo.distance[here, there] - 1
    return [d for d in range(6) if (y := int(geo.neighbours[here, d])) >= 0 and geo.distance[y, there] == near]


def steer_table(cfg: GameConfig) -> SteerTable:
    """The steer of a game's observation and actions (they depend on the board and the layout, so on the config)."""
    geo = board.geometry(board.board_radius(cfg.n_players))
    layout = build_layout(cfg.n_players, geo.n_hexes, cfg.house_content, cfg.mysterious_kadab)
    actions = action_layout(cfg.n_players, cfg.house_content)
    stay = 1 << 6  # PASS is the seventh target
    routes = []
    for here in range(geo.n_hexes):
        row = []
        for there in range(geo.n_hexes):
            row.append(stay if there == here else sum(1 << d for d in first_steps(geo, here, there)))
        routes.append(tuple(row))
    hexes = layout.section("hexes")
    return SteerTable(gate=layout.section("game").offset("decision_move_stack"),
                      anchor=tuple(hexes.offset("reg_mv_hex") + h for h in range(geo.n_hexes)),
                      sources=tuple(actions.size + h for h in range(geo.n_hexes)),
                      targets=tuple(actions.direction + d for d in range(6)) + (PASS,),
                      routes=tuple(routes), extra=geo.n_hexes)

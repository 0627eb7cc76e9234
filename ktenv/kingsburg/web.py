"""Kingsburg in the browser: a seat's page from its observation alone (`ktenv.agents.kingsburg.human_view`),
the whole table of a record from the state."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ktenv.agents.kingsburg import human_view as hv
from ktenv.agents.kingsburg.view import View
from ktenv.kingsburg import actions as A
from ktenv.kingsburg.observation import ObservationEncoder

BOARD_KIND = "text"  # the page shows the table as the terminal seat reads it
_encoders: dict[int, ObservationEncoder] = {}


def encode(state: Any, seat: int) -> np.ndarray:
    n = state.cfg.n_players
    if n not in _encoders:
        _encoders[n] = ObservationEncoder(n)
    return _encoders[n].encode(state, seat)


def agent_observation(agent: Any, state: Any, seat: int, mask: np.ndarray) -> Any:
    if not getattr(agent, "needs_observation", False):
        return None
    return {"observation": encode(state, seat), "action_mask": mask}


def _named(text: str, names: list[str], short: bool = False) -> str:
    """The terminal's relative names (opp1 ...) as the page's seat names; `short`: "seat N" alone, which fits
    the text table's columns."""
    for k in range(len(names) - 1, 0, -1):
        seat = re.search(r"seat \d+", names[k])
        text = re.sub(rf"\bopp{k}\b", seat.group(0) if short and seat else names[k], text)
    return text


def seat_view(obs: np.ndarray, mask: np.ndarray | None, names: list[str]) -> dict:
    view = hv.KingsburgSeatView()
    v = View(obs)
    out = {"kind": BOARD_KIND, "title": _named(view.decision(obs), names),
           "text": _named(view.board(obs), names, short=True),
           "players": [{"name": names[k], "VP": int(v.vp[k]), "gold": int(v.goods[k][0]), "wood": int(v.goods[k][1]),
                        "stone": int(v.goods[k][2]), "soldiers": int(v.soldiers[k])} for k in range(v.n)],
           "actions": []}
    if mask is not None:
        out["actions"] = [{"action": int(a), "label": hv.describe(v, int(a))} for a in np.flatnonzero(mask)]
    return out


def public_move(before: np.ndarray, actor: int, action: int, after: np.ndarray, names: list[str]) -> str:
    """Every Kingsburg move is made in the open (dice, advisors, buildings); the enemy deck is never named."""
    return f"{names[actor]}: {A.action_name(int(action))}"


def table_view(state: Any, names: list[str]) -> dict:
    from ktenv.kingsburg.arena import REPLAY_VIEW

    return {"kind": BOARD_KIND, "title": f"Kingsburg, {REPLAY_VIEW.when(state)} (whole table)",
            "text": REPLAY_VIEW.ansi(state), "players": [{"name": nm} for nm in names], "actions": []}

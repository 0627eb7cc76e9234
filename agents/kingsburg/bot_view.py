"""Kingsburg for bots and language models (the registry's optional part ``bot_view``): the seat's words
(`human_view.KingsburgSeatView`) and the layout that names the fields of an observation vector, both read from
the vector alone."""

from __future__ import annotations

import numpy as np

from ktenv.gamekit.layout import ObservationLayout

from .human_view import KingsburgSeatView
from .view import _layouts


def seat_view() -> KingsburgSeatView:
    return KingsburgSeatView()


def layout(observation: np.ndarray) -> ObservationLayout:
    """The layout of an observation vector of this length (the player count sets it)."""
    size = np.asarray(observation).size
    if size not in _layouts():
        raise ValueError(f"not a Kingsburg observation (size {size})")
    return _layouts()[size][1]


def players(observation: np.ndarray) -> int:
    """The number of players of the game an observation vector of this length is from."""
    layout(observation)  # a clear error for a vector of no Kingsburg length
    return _layouts()[np.asarray(observation).size][0]

"""Kings & Things for bots and language models (the registry's optional part ``bot_view``): the seat's words
(`human_view.KingsAndThingsSeatView`) and the layout that names the fields of an observation vector, both read
from the vector alone."""

from __future__ import annotations

import numpy as np

from ktenv.gamekit.layout import ObservationLayout

from .human_view import KingsAndThingsSeatView
from .view import _shape, variant_for


def seat_view() -> KingsAndThingsSeatView:
    return KingsAndThingsSeatView()


def layout(observation: np.ndarray) -> ObservationLayout:
    """The layout of an observation vector of this length (the player count and options set it)."""
    return _shape(*variant_for(np.asarray(observation).size))[0]


def players(observation: np.ndarray) -> int:
    """The number of players of the game an observation vector of this length is from."""
    return variant_for(np.asarray(observation).size)[0]

"""A seat's view for bots and language models, made from its observation vector and action mask alone.

- `seat_text`: the table as the seat sees it, the pending decision and the legal actions in English (the
  terminal seat's words: the game's ``bot_view`` part, `ktenv.agents.human.SeatView`), and `render` of it as
  one text with the actions numbered 1..k.
- `fields`: the vector's values by name (the game's observation layout): one entry per section, its rows
  by index, in each row the columns that are not zero. Lossless: a field left out is zero.
- `layout_doc`: what every section, row and column means, for a bot's hello.

Nothing here reads a game state, so what a seat receives holds no more than its observation (the leak rules;
tests/bots/test_fairness.py checks it on every hidden change the env's leak tests make).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import registry
from ..errors import ConfigError


def bot_view(game: str):
    """The game's ``bot_view`` part; a ConfigError for a game without one."""
    spec = registry.game(game)
    if not spec.has("bot_view"):
        raise ConfigError(f"{spec.title} has no view for bots and language models (registry part 'bot_view')")
    return spec.bot_view


def vector_of(observation) -> np.ndarray:
    """The observation vector of what the arena or the env gives (the dict with ``observation``, or the vector)."""
    if isinstance(observation, dict):
        observation = observation.get("observation")
    if observation is None:
        raise ValueError("this view needs the observation vector (an agent with needs_observation = True)")
    return np.asarray(observation, dtype=np.float32)


@dataclass(frozen=True)
class SeatText:
    """A seat's view in words: the table, the pending decision, and each legal action's id and label."""

    board: str
    decision: str
    choices: tuple[tuple[int, str], ...]


def seat_text(game: str, observation, mask: np.ndarray, board: bool = True) -> SeatText:
    """The seat's view in words; with ``board=False`` the table is left out ("": it costs the most to write)."""
    view, vector = bot_view(game).seat_view(), vector_of(observation)
    legal = [int(a) for a in np.flatnonzero(np.asarray(mask))]
    return SeatText(view.board(vector) if board else "", view.decision(vector),
                    tuple((a, view.describe(vector, a)) for a in legal))


def numbered(choices: tuple[tuple[int, str], ...]) -> str:
    """The actions as lines ``1. label``, one per line."""
    width = len(str(len(choices)))
    return "\n".join(f"{i:>{width}}. {label}" for i, (_, label) in enumerate(choices, 1))


def render(text: SeatText) -> str:
    """The whole view as one text: the table, the decision, the numbered actions."""
    return f"{text.board}\n\n{text.decision}\n\nLegal actions:\n{numbered(text.choices)}"


def _number(x: np.float32) -> int | float:
    """A whole value as an int; any other as the shortest decimal that reads back as the same float32."""
    return int(x) if float(x).is_integer() else float(str(np.float32(x)))


def fields(game: str, observation) -> dict:
    """The observation vector by name: ``{section: {row: {column: value}}}`` with only the non-zero values;
    a section of one row is ``{column: value}``."""
    vector = vector_of(observation)
    lay = bot_view(game).layout(vector)
    out: dict = {}
    for sec in lay.sections.values():
        table = lay.table(vector, sec.name)
        names = [c.name for c in sec.columns]
        rows: dict = {}
        where = np.nonzero(table)  # row by row, each row's columns in order
        values = table[where]
        whole = values == np.floor(values)
        for r, j, value, is_whole, exact in zip(*(w.tolist() for w in where), values.tolist(), whole.tolist(),
                                                 values):
            rows.setdefault(str(r), {})[names[j]] = int(value) if is_whole else _number(exact)
        out[sec.name] = rows.get("0", {}) if sec.rows == 1 else rows
    return out


def layout_doc(game: str, observation) -> dict:
    """Each section of the vector: its rows (how many, what one is) and its columns with their meaning."""
    lay = bot_view(game).layout(vector_of(observation))
    return {sec.name: {"rows": sec.rows, "row": sec.row_doc,
                       "columns": {c.name: c.doc for c in sec.columns}} for sec in lay.sections.values()}


__all__ = ["SeatText", "bot_view", "fields", "layout_doc", "numbered", "render", "seat_text", "vector_of"]

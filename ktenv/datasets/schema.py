"""The tables' columns and their Arrow types (documented in docs/datasets.md, which a test keeps in step).

`SCHEMA_VERSION` is stored in every Parquet file's metadata (``ktenv.dataset.schema_version``) and in the
manifest; a change of a column's name, type or meaning raises it. The `rounds` and `seats` tables end with
the game's own public figures (its reader's `figures`, all int64).
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 2  # 2: the games' figures gained running totals and face-down counts
TABLES = ("games", "seats", "rounds", "decisions", "events")

GAMES = (
    ("game", pa.int64()),  # the game's id: its index in the tournament, or in the records folder
    ("game_name", pa.string()),  # the registry name of the board game
    ("seed", pa.int64()),
    ("players", pa.int8()),
    ("config", pa.string()),  # the game's whole config as JSON (its options)
    ("agents", pa.list_(pa.string())),  # per seat, the agent's name (a short name when one was given)
    ("agent_specs", pa.list_(pa.string())),  # per seat, the spec that played it
    ("agent_files", pa.list_(pa.string())),  # per seat, SHA-256 of the model or bot file (null: none)
    ("winners", pa.list_(pa.int8())),
    ("reason", pa.string()),
    ("rounds", pa.int32()),
    ("decisions", pa.int32()),
    ("ktenv_version", pa.string()),  # the ktenv that played it (null: not known, no record)
    ("record", pa.string()),  # the record's file name (null: a stored game without a record)
)
SEATS = (
    ("game", pa.int64()),
    ("seat", pa.int8()),
    ("agent", pa.string()),
    ("agent_spec", pa.string()),
    ("won", pa.bool_()),  # among the winners (a shared win counts)
)
ROUNDS = (
    ("game", pa.int64()),
    ("round", pa.int32()),
    ("player", pa.int8()),
)
DECISIONS = (
    ("game", pa.int64()),
    ("index", pa.int32()),  # the decision's place in the game, from 0
    ("round", pa.int32()),
    ("phase", pa.string()),
    ("decision", pa.string()),  # the kind of decision pending, in the game's words
    ("actor", pa.int8()),
    ("agent", pa.string()),  # the actor's agent
    ("action", pa.int32()),
    ("block", pa.string()),  # the action's block of the flat action space
    ("text", pa.string()),  # the action in English
    ("legal", pa.int32()),  # how many actions were legal
)
OBSERVATION = (
    ("observation", pa.list_(pa.float32())),  # the actor's observation (with --observations)
    ("mask", pa.list_(pa.bool_())),  # the legal actions (with --observations)
)
EVENTS = (
    ("game", pa.int64()),
    ("decision", pa.int32()),  # the index of the decision whose action set it off
    ("round", pa.int32()),
    ("phase", pa.string()),
    ("kind", pa.string()),
    ("player", pa.int8()),  # who did it or whom it befell (-1: none)
    ("other", pa.int8()),  # the other side (-1: none, -2: the neutral side)
    ("place", pa.string()),
    ("amount", pa.int32()),
    ("detail", pa.string()),
)


def schemas(figures: tuple[str, ...], observations: bool) -> dict[str, pa.Schema]:
    """Every table's schema for a game whose reader has these `figures`."""
    extra = [(f, pa.int64()) for f in figures]
    columns = {"games": list(GAMES), "seats": [*SEATS, *extra], "rounds": [*ROUNDS, *extra],
               "decisions": [*DECISIONS, *(OBSERVATION if observations else ())], "events": list(EVENTS)}
    return {name: pa.schema(cols) for name, cols in columns.items()}


__all__ = ["SCHEMA_VERSION", "TABLES", "schemas"]

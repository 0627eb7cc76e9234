"""A finished Kingsburg game's result in the shape of the arena's game records (`ktenv.arena.records`):
``rounds`` = years played, ``income`` = VP, ``hexes`` = buildings (the store's Kings & Things names)."""

from __future__ import annotations

import hashlib

from .state import SCHEMA, KingsburgState

__all__ = ["SCHEMA", "result_of"]


def result_of(s: KingsburgState, decisions: int) -> dict:
    """The record's result block: winners, reason, years, VP (as ``income``), buildings (as ``hexes``)."""
    return {
        "winners": [int(w) for w in s.winners] if s.game_over else [],
        "reason": "game_end" if s.game_over else "step_limit",
        "rounds": int(s.year),
        "decisions": int(decisions),
        "income": [int(v) for v in s.vp],
        "hexes": [s.building_count(p) for p in range(s.n_players)],
        "state_sha256": hashlib.sha256(s.to_json().encode()).hexdigest(),
        "state_schema": SCHEMA,
    }

"""What the environments of ktenv's games share; each game supplies only what differs.

- `Engine`: a game's rules engine as the shared layers call it (its state type and four functions).
- `ReplayView`: what `ktenv replay` shows of a game's records.
- `ktenv.gamekit.aec`: `SeatedGameEnv`, the PettingZoo AEC base (seats as agents, rewards, ends,
  illegal actions, snapshots, rendering, pickling), the action-space check, the fast-forwarding
  wrappers and `wrap` (what ``env(**config)`` of every game returns).
- `ktenv.gamekit.single`: `LearnerSeatEnv`, the Gymnasium base (one seat learns, agents play the others).
- `ktenv.gamekit.checks`: the leak checker's harness (`random_play`, `check_no_leak`) and `check_mask_exact`.

Every game's environments build on it. This module stays light (no
PettingZoo, no Gymnasium) so that a game's engine can name its `Engine` without loading them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Engine:
    """One game's rules engine: ``new_game(cfg, seed)``, ``step(state, action)`` (raises
    IllegalActionError and changes nothing for a masked action), ``legal_mask(state)`` (int8) and
    ``describe_action(state, action)``; `state_type` has ``copy``, ``to_json`` and ``from_json``."""

    state_type: type
    new_game: Callable[..., Any]
    step: Callable[[Any, int], Any]
    legal_mask: Callable[[Any], Any]
    describe_action: Callable[[Any, int], str]


@dataclass(frozen=True)
class ReplayView:
    """What `ktenv replay` shows of one game's records: how a move is dated and told, the pictures, the summary."""

    when: Callable[[Any], str]  # state -> "round 3, Movement" / "year 2, Summer"
    describe_action: Callable[[Any, int], str]
    ansi: Callable[[Any], str]
    save_picture: Callable[[Any, str], None]  # (state, path) -> None
    summary: Callable[[Any], dict]
    format_summary: Callable[[dict], str]
    picture_word: str = "board"  # what `--render` wrote


__all__ = ["Engine", "ReplayView"]

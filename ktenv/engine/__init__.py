"""The rules engine: pure rules on state arrays, no RL library imported here (design.md)."""

from .common import IllegalActionError
from .machine import describe_action, layout, legal_actions, legal_mask, new_game, resume, step

__all__ = ["IllegalActionError", "describe_action", "layout", "legal_actions", "legal_mask", "new_game", "resume",
           "step"]

"""The rules engine: pure rules on state arrays, no RL library imported here.

`ENGINE` is this engine as the shared layers call it (`ktenv.gamekit.Engine`).
"""

from ...errors import IllegalActionError
from ...gamekit import Engine
from ..state import GameState
from .machine import describe_action, layout, legal_actions, legal_mask, new_game, resume, step

ENGINE = Engine(state_type=GameState, new_game=new_game, step=step, legal_mask=legal_mask,
                describe_action=describe_action)

__all__ = ["ENGINE", "IllegalActionError", "describe_action", "layout", "legal_actions", "legal_mask", "new_game",
           "resume", "step"]

"""Gymnasium single-agent Kingsburg (``gymnasium.make("ktenv/Kingsburg-v0", num_players=4)``): one seat
learns, the other seats are agents.

Observation: the flat ``Box(float32)`` of the AEC env; action ``Discrete(65)``; the mask behind
``action_masks()`` (MaskablePPO) and in ``info["action_mask"]``. Each ``step`` applies the learner's
action, then the opponents act until the learner must decide again or the game ends; the reward is the
learner's reward summed over those steps. Opponents: objects with ``act(observation, action_mask)`` or
Kingsburg agent names (``random``, ``greedy``, ``expert``, ``search``: `ktenv.agents.kingsburg`); default random.
``seat="random"`` draws the learner's seat at every reset. ``illegal_action="terminate"`` (default) ends
the episode with -1 on a masked action (the env checkers send random actions); ``"raise"`` raises.
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalActionError
from ..gamekit.single import LearnerSeatEnv, agent_maker
from .aec import raw_env
from .state import KingsburgState


class KingsburgSingleEnv(LearnerSeatEnv):
    aec_class = raw_env
    _named_agent = staticmethod(agent_maker("kingsburg"))

    @property
    def game_state(self) -> KingsburgState:
        return self.aec.game_state

    def _world_sampler(self) -> Any:
        from .worlds import WorldSampler

        return WorldSampler

    def _refuse(self, action: int) -> None:
        raise IllegalActionError(f"action {action} ({self.describe_action(action)}) is not legal now")

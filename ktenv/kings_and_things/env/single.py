"""Gymnasium single-agent view: one seat learns, the other seats are played by agents.

    import gymnasium, ktenv
    env = gymnasium.make("ktenv/KingsAndThings-v0", n_players=2, max_rounds=30)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().argmax())

Spaces: observation = the flat ``Box(float32)`` of the AEC env (docs/observation.md), action =
``Discrete(N)`` (docs/actions.md). The mask is not in the observation but behind
``action_masks()`` (bool), which is what sb3-contrib's MaskablePPO asks for; a plain Box keeps
the MlpPolicy simple. ``info["action_mask"]`` holds the same mask (int8) for other libraries.

Each ``step`` applies the learner's action, then lets the opponents act until it is the learner's
turn again or the game ends; the reward is the learner's reward summed over those steps
(``reward="win"`` or ``"shaped"``, as in the AEC env). ``terminated`` at a victory, ``truncated``
at the round limit or after ``max_steps`` decisions (all seats; default 100 000).

Opponents: any objects with ``act(observation, action_mask) -> int`` (the ``agents`` protocol),
or agent names (this game's agent table, `ktenv.agents.kings_and_things`); default one
RandomAgent per other seat. Opponent ``k`` plays the
``k``-th seat after the learner's, in seat order. They receive the flat observation of their
own seat, except agents with ``needs_observation = False`` (RandomAgent, `ktenv.gamekit.random_agent`), which get
None and cost nothing to feed; the flag is read at every reset, after the opponents' own
``reset`` (a training-league seat changes who it is between games), and ``info["opponents"]``
names them. ``seat="random"`` draws the learner's seat at every reset from the
env's generator (seeded by ``reset(seed=...)``).

Illegal actions: ``illegal_action="terminate"`` (default; the env checkers and unmasked
algorithms send random actions): the episode ends with reward -1 and ``info["illegal_action"]``,
the game state unchanged. ``"raise"``: ``IllegalActionError``. An action outside the action space
(``step(10**6)``, ``step(24.7)``, ``step("3")``) is no move at all: it raises ValueError or TypeError
naming the action and the space, in both modes, and changes nothing.

Keyword arguments: ``seat``, ``opponents``, ``render_mode`` (None, "human", "ansi", "rgb_array"),
``reward``, ``illegal_action``, ``max_steps`` and every GameConfig key (``num_players`` is read
as ``n_players``). The env pickles and deep-copies (Ray, multiprocessing).
"""

from __future__ import annotations

from typing import Any

from ...gamekit.single import LearnerSeatEnv, agent_maker
from ..state import GameState
from .aec import raw_env


class SingleAgentEnv(LearnerSeatEnv):
    """One learning seat against fixed agents (see the module docstring)."""

    aec_class = raw_env
    _named_agent = staticmethod(agent_maker("kings_and_things"))

    @property
    def game_state(self) -> GameState:
        return self.aec.game_state

    def _world_sampler(self) -> Any:
        from ktenv.kings_and_things.worlds import WorldSampler

        return WorldSampler

    def _table_info(self) -> dict:
        return {"opponents": [str(getattr(o, "name", type(o).__name__)) for o in self.opponents]}

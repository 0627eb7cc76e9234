"""Shared machinery of the rule-based agents (`greedy`, `expert`).

An agent gets ``act(observation, action_mask)``; ``observation`` is the AEC env's dict
(``{"observation": vector, "action_mask": mask}``) or the vector itself. The agent decodes the
vector by name (`agents.view.View`), scores every legal action with the handler of the pending
decision (``score_<decision name>``) and plays the best one; ties are broken by the agent's own
generator, never by the game's dice. A decision without a handler falls back to
`score_default`. Whatever a handler returns, the action played is always one the mask allows.
"""

from __future__ import annotations

import numpy as np

from ktenv.kings_and_things import decisions as D

from .view import View

# decision code -> handler method name ("score_" + the decision's constant name, lower case)
HANDLER_NAMES = {code: "score_" + name.lower() for name, code in vars(D).items()
                 if name.isupper() and isinstance(code, int) and name != "N_DECISIONS"}


def unpack(observation, action_mask) -> tuple[np.ndarray | None, np.ndarray]:
    """(vector or None, mask) from what an env gives: the AEC dict, or the vector alone."""
    if isinstance(observation, dict):
        mask = observation.get("action_mask") if action_mask is None else action_mask
        observation = observation.get("observation")
    else:
        mask = action_mask
    if mask is None:
        raise ValueError("agent: no action mask given")
    return observation, np.asarray(mask)


class RuleAgent:
    """Base class: decode, score, pick the best legal action."""

    name = "rules"
    needs_observation = True  # the arena encodes observations only for agents that say so

    def __init__(self, seed: int | None = None, n_players: int | None = None) -> None:
        self.n_players = n_players
        self.rng = np.random.default_rng(seed)
        self.memory: dict = {}

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.memory = {}

    # ----- protocol

    def act(self, observation, action_mask=None) -> int:
        obs, mask = unpack(observation, action_mask)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"{self.name} agent: the action mask allows no action")
        if legal.size == 1:
            return int(legal[0])
        if obs is None:  # nothing to read: play like the random agent
            return int(legal[self.rng.integers(legal.size)])
        v = View(obs, self.n_players)
        scores = self.scores(v, legal)
        scores = np.asarray(scores, dtype=np.float64) + self.rng.random(legal.size) * 1e-6
        return int(legal[int(np.argmax(scores))])

    def scores(self, v: View, legal: np.ndarray) -> np.ndarray:
        handler = getattr(self, HANDLER_NAMES.get(v.decision, ""), None) or self.score_default
        out = np.asarray(handler(v, legal), dtype=np.float64)
        cash = (legal >= v.actions.cash) & (legal < v.actions.player)
        if cash.any():  # a treasure may be cashed at any decision of its holder (R18.3)
            out = np.where(cash, self.cash_score(v), out)
        return out

    def cash_score(self, v: View) -> float:
        return 1e3  # gold now beats a counter that only holds a screen place

    def score_default(self, v: View, legal: np.ndarray) -> np.ndarray:
        return np.zeros(legal.size)

    # ----- helpers for handlers

    def blocks(self, v: View, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(block name per action, index inside the block per action)."""
        a = v.actions
        starts = np.array([0, 1, 2, a.hex, a.thing, a.hero, a.cash, a.player, a.direction])
        names = np.array(["PASS", "YES", "NUMBER", "HEX", "THING", "HERO", "CASH", "PLAYER", "DIRECTION"])
        k = np.searchsorted(starts, legal, side="right") - 1
        return names[k], legal - starts[k]

    @staticmethod
    def lowest(values: np.ndarray) -> np.ndarray:
        return -np.asarray(values, dtype=np.float64)

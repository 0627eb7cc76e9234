"""`search`: the expert's move, checked by paired evaluation over worlds its seat cannot tell apart.

At each of its decisions the arena hands the agent a `ktenv.kingsburg.worlds.WorldSampler` for its seat
(``observation["worlds"]``, `agents.base`); the agent never sees the true game. It

1. asks the expert (`heuristic.ExpertAgent`, reading the seat's observation) for its move and its order of the
   other legal actions: the candidates are the expert's move and its next ``candidates - 1`` choices;
2. evaluates them in native code without the GIL (``ktenv/kingsburg/native/src/search/search.hpp``): every
   round draws a world (this year's and later years' enemy cards that the seat cannot know, and future dice,
   drawn afresh) and plays each candidate in a copy of it to the end of the game with the same dice and the
   ``rollout`` policy (by default the native expert) for every seat; the seat's value is its share of the
   victory plus ``margin`` x its VP lead over the best other player, and the paired differences from the
   expert's move cancel most of the luck;
3. plays the candidate of the largest mean difference if it is positive and above ``z`` standard errors (two
   rounds at least), else the expert's move.

``search:OPTIONS`` (``search:seconds=0.1,candidates=4``) starts from these defaults (the bare name ``search``
plays them):

- ``seconds``: time budget per decision (default 0.1; 0: none, then ``playouts`` bounds it);
- ``playouts``: rollouts per decision, whole rounds of one per candidate (default 0: no limit); with a
  ``playouts`` budget and no ``seconds`` the decision depends on the seed alone, whatever ``threads``;
- ``candidates``: how many of the expert's best actions are compared (default 4, at least 2);
- ``rollout``: ``expert`` (default) or ``greedy`` (the native ports of those agents, every seat reading its own
  observation), ``plain`` (fixed greedy-like rules that read only what each player may know, `policy.hpp`:
  more than twice the rounds of ``expert`` in the same time) or ``random``;
- ``margin``: the weight of the VP lead in the value (default 0.05);
- ``z``: standard errors by which a candidate must beat the expert's move (default 1);
- ``threads``: native threads sharing the rounds (default 1);
- ``seed``: the agent's own generator (the arena passes one per seat).

A decision with a single legal action is played at once. The search needs the native engine (a game of the
Python engine is copied into it: the two are bit-exact).
"""

from __future__ import annotations

import numpy as np

from .. import base
from .heuristic import ExpertAgent

ROLLOUTS = ("random", "plain", "greedy", "expert")  # native codes 0-3 (search/policy.hpp)
_OPTIONS = {"seconds": float, "playouts": int, "candidates": int, "rollout": str, "margin": float, "z": float,
            "threads": int, "seed": int}


class SearchAgent:
    name = "search"
    needs_worlds = True  # the arena passes observation["worlds"], a WorldSampler for the seat
    needs_observation = True  # its expert reads the seat's observation

    def __init__(self, seconds: float = 0.1, playouts: int = 0, candidates: int = 4, rollout: str = "expert",
                 margin: float = 0.05, z: float = 1.0, threads: int = 1, seed: int | None = None) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"search: rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if not (np.isfinite(seconds) and seconds >= 0) or int(playouts) < 0 or (not seconds and not int(playouts)):
            raise ValueError(f"search: a budget of seconds > 0 or playouts >= 1 is needed (got seconds={seconds}, "
                             f"playouts={playouts})")
        if int(candidates) < 2:
            raise ValueError(f"search: candidates must be at least 2, got {candidates}")
        if not (np.isfinite(z) and z >= 0) or not np.isfinite(margin):
            raise ValueError(f"search: z must be a number >= 0 and margin a number (got z={z}, margin={margin})")
        if not 1 <= int(threads) <= 256:
            raise ValueError(f"search: threads must be 1-256, got {threads}")
        self.seconds, self.playouts, self.candidates = float(seconds), int(playouts), int(candidates)
        self.rollout, self.margin, self.z, self.threads = rollout, float(margin), float(z), int(threads)
        self.reset(seed)
        self.last_candidate = -1  # the index of the candidate played (0: the expert's move); -1: no search
        self.last_rounds = 0
        self.last_seconds = 0.0
        self.last_gains: list[float] = []
        self.last_choices: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.expert = ExpertAgent(seed=seed)

    def act(self, observation, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("search agent: the action mask allows no action")
        self.last_candidate, self.last_rounds, self.last_seconds, self.last_gains = -1, 0, 0.0, []
        if legal.size == 1:
            return int(legal[0])
        worlds = observation.get("worlds") if isinstance(observation, dict) else None
        if worlds is None:
            raise ValueError("search agent: needs observation['worlds'] (a WorldSampler, ktenv.kingsburg.worlds, "
                             "for its seat); the arena passes it to agents with needs_worlds")
        candidates = self.expert.ranked(observation["observation"], np.asarray(action_mask))[:self.candidates]
        self.last_choices = candidates
        from ktenv.kingsburg.native import core

        action, self.last_candidate, self.last_rounds, self.last_seconds, self.last_gains = core().search_paired(
            worlds.native, candidates, self.playouts, self.seconds, ROLLOUTS.index(self.rollout), self.margin,
            self.z, self.threads, int(self.rng.integers(2**63)))
        return int(action)


def parse_options(text: str) -> dict:
    """``seconds=0.1,candidates=4`` -> keyword arguments (each value checked)."""
    return base.parse_options(text, _OPTIONS, "search")


def make_with_options(argument: str, **kwargs) -> SearchAgent:
    """The factory for ``search:OPTIONS`` (options win over the caller's keyword arguments, e.g. seed)."""
    return SearchAgent(**{**kwargs, **parse_options(argument)})

"""`ismcts`: single-observer information-set Monte Carlo tree search.

SO-ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search"): the
agent never sees the true game. At each of its decisions the arena hands it a `WorldSampler`
(``observation["worlds"]``, see `agents.base`) for its seat; every iteration

1. samples a world its seat cannot tell from the true game (`ktenv.kings_and_things.worlds.sample_world`: the
   opponents' hidden counters, the cup, unseen tiles and future dice drawn afresh),
2. descends one tree of the agent's information sets, keyed by action, whose edges are the
   actions of whoever decides (all players' decisions share the tree, as in SO-ISMCTS); at a node
   only the children legal in this world are *available*: selection is UCB1 with availability
   counts, ``mean + c * sqrt(ln(availability) / visits)``, from the point of view of the player
   who decides there,
3. adds one child (an untried action legal in this world): with ``expand=greedy`` (default) or
   ``expand=expert`` the one that agent scores best for the player to act (its order is taken from
   the first world that reaches the node), and a node visited n times has at most
   widening x sqrt(n) + 1 children (progressive widening), so a small budget searches the policy's
   first choices; ``expand=random`` takes any untried action and expands every one before revisiting,
4. plays on with the rollout policy (``random``: uniform over the mask; ``greedy`` or ``expert``:
   that agent on the observation of the player to act) for at most ``cutoff`` decisions, and values
   the result: 1 shared by the winners of a finished game, else each player's share of a score from
   public facts (`public_value`: income, land, forts, Citadels, heroes, gold, and with ``race`` the
   race to a Citadel, `race_progress`),
5. adds that value to every node on the path, for the player who chose the edge into it.

The move played is the root's most visited child (ties: greedy's order, or the higher value). The
search touches the game only through the sampler, ``copy()``, `legal_mask` and `step` (and reads
public facts for `public_value`).

Two implementations, one algorithm: on a native game the arena hands over a
`ktenv.kings_and_things.worlds.NativeWorldSampler` and the whole search runs in C++ without the GIL
(``ktenv/kings_and_things/native/src/search/ismcts.cpp``: native worlds, native greedy, thousands of playouts per
decision); on a game of the Python engine (``backend="python"``), this Python code searches.
The two draw their random numbers differently, so their choices agree in kind, not move for move.

The bare name ``ismcts`` plays the strongest setting measured (`STRONGEST`: paired root evaluation,
``seconds=0.15,rollout=expert,cutoff=150,paired=3,z=2``; a time budget, so its choices depend on the
machine's speed). ``ismcts:OPTIONS`` (``ismcts:playouts=200,c=0.05,rollout=greedy,cutoff=50``) starts
from the defaults below, the first version's settings, chosen in short matches against ``expert``
(docs/arena.md says what each setting measured):

- ``playouts``: iterations per decision (default 200, or no limit when ``seconds`` is given);
- ``seconds``: time budget per decision (the search stops before an iteration that would likely
  overrun it, judged by the mean iteration time so far, and a rollout still under way when the
  time is up stops there and is valued as it stands; at least one iteration is made);
- ``c``: exploration constant (default 0.05: values are shares of a score, close together);
- ``rollout``: ``greedy`` (default), ``expert`` or ``random`` (in native games the native ports of the
  agents: the same choices as the Python ones);
- ``cutoff``: rollout length in decisions before the value estimate (default 50);
- ``horizon``: a round R: a rollout from before round R plays on to its start (or the game's end), past
  ``cutoff`` (default 0: ``cutoff`` alone), so the early race to a Citadel is played out rather than valued;
- ``expand``: ``greedy`` (default), ``expert`` or ``random``, see step 3;
- ``worlds``: 0 (default) samples a new world every iteration; k > 0 samples k worlds per
  decision and cycles through them;
- ``widening``: with ``expand=greedy``, a node visited n times has at most widening x sqrt(n) + 1
  children (default 2);
- ``citadel``, ``top``, ``race``: `public_value`'s weights of a Citadel (default 20), of each level of
  the player's highest fort (default 0) and of `race_progress` (default 0);
- ``standings``: in [0, 1], the weight of the round cap's standings (R19.3: the highest income wins) in
  `public_value` once two Citadels stand in the game and only a conquest or the cap can end it (default 0;
  not in rollouts that only reach two Citadels: there it would price the early race by income);
- ``outcome``: PATH of an outcome model (`outcome.py`, a JSON file such as ``models/outcome_2p.json``, fitted
  to the winners of native expert games of the table's player count): an unfinished rollout is valued by the
  model's win chances from the players' public facts instead of `public_value`'s share (``citadel``, ``top``
  and ``race`` then do not apply; ``standings`` still does; with ``policy``, give ``value=public``);
- ``outcome_when``: ``always`` (default) or ``two_citadels``: the outcome model only once the game itself has two
  Citadels (only a conquest or the round cap can end it, R16.3), the public share (with ``race``) before;
- ``follow`` (native search, ``rollout=expert``): 1 plays a stack's MOVE_SELECT and MOVE_STACK decisions
  by the expert's plan for the stack the search started (no tree nodes for them; the agent's own such
  decisions are played by its own native expert, so it reads its observation), default 0;
- ``margin`` (native search, ranked expansion): > 0 plays the policy's first choice unless the most
  visited child's mean value beats it by more than ``margin`` (default 0: the most visited child);
- ``paired`` (native search, ``rollout=expert``): K >= 2 replaces the tree by paired root evaluation
  (default 0: the tree). The candidates are the expert's K best actions for the seat (its scores of the
  seat's observation, the same in every world), candidate 0 the expert's own choice (the agent's own
  native expert decides it, tie-break draw and move plan included, as an ``expert`` seat would). Every
  round samples one world and plays each candidate in a copy of it, with the same future dice and the
  rollout experts in the same state, to ``cutoff`` decisions; the seat's paired differences
  d_k = value_k - value_0 cancel most of the dice and hidden-counter noise. The agent plays the candidate
  of the largest mean d_k if that mean is positive and above ``z`` standard errors (at least two rounds),
  else the expert's move. ``playouts`` and ``seconds`` bound the rollouts (whole rounds only: a round the
  time cuts short is dropped). Implies ``follow`` (the stack's move is carried out by the expert's plan);
  ``c``, ``worlds``, ``expand``, ``widening`` and ``margin`` do not apply. On a game of the Python engine,
  the tree search runs as without it;
- ``z``: with ``paired``, the standard errors by which a candidate must beat the expert's move (default 2);
- ``reject`` (with ``paired``): racing: every 8 whole rounds, a candidate whose mean d_k lies more than ``reject``
  standard errors below 0 gets no more rollouts, so the rounds go to the candidates still in the race (and a search
  whose every other candidate is out ends there, with the expert's move); default 0: every candidate every round;
- ``threads`` (with ``paired``): rounds played at once, one a thread (default 1); the choice is the same
  whatever the count for a ``playouts`` budget, while a ``seconds`` budget sees that many times the rounds
  where the cores are free;
- ``policy`` (with ``paired``): PATH of a trained model (a ``ktenv train`` zip of this game, for the table's
  player count; read weights-only, as ``ppo:PATH``) steers the paired search: the candidates are the model's K
  most likely legal actions for the seat (the masked logits of the seat's observation), candidate 0 the model's
  best, played unless another beats it by ``z`` standard errors; the rollouts stay the native expert's;
- ``value`` (with ``policy``): ``policy`` (default) values an unfinished rollout at its cutoff by the model's
  critic, its estimate from the seat's own observation of the rollout's state mapped to the win scale (a
  finished game keeps its exact value); ``public`` by `public_value`, as without ``policy``;
- ``candidates`` (with ``policy``): ``policy`` (default) as above; ``expert`` keeps the expert's K best (candidate
  0 its own move, as without ``policy``), so the model only values the rollouts' cutoffs; ``both``: the model's
  best (candidate 0, the fallback), the expert's own move where it differs, then the model's next best;
  ``expert+policy``: the expert's own move (candidate 0, the fallback, as without ``policy``), then the model's
  best and the expert's next in turn: the model's moves join the search without a model;
- ``moves`` (with ``policy``): who plays the seat's MOVE_SELECT and MOVE_STACK decisions, unsearched:
  ``policy`` (the default with the model's candidates) its most likely legal action, as ``ppo:PATH`` would;
  ``expert`` (the default with the expert's move first) the expert's plan for the stack the search started;
- ``seed``: the agent's own generator (the arena passes one per seat).

A decision with a single legal action is played at once, without search.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.engine.machine import legal_mask, step
from ktenv.kings_and_things.engine.victory import ranking_by_income
from ktenv.kings_and_things.env.observation import ObservationEncoder
from ktenv.kings_and_things.env.stats import CITADELS, FORT_LEVELS, GOLD, HEROES, HEXES, INCOME, player_stats
from ktenv.kings_and_things.worlds import NativeWorldSampler

from .. import base
from . import outcome as outcome_model
from .expert import ExpertAgent
from .greedy import GreedyAgent
from .view import View

W_INCOME, W_HEX, W_FORT, W_CITADEL, W_TOP, W_HERO, W_GOLD, W_RACE = 3.0, 1.5, 4.0, 20.0, 0.0, 2.0, 0.1, 0.0
CITADEL_INCOME = {6: 25.0, 4: 20.0}  # R14.3, R20.1; 15 otherwise (the 2-player default)


def public_value(s, citadel: float = W_CITADEL, top: float = W_TOP, race: float = W_RACE,
                 standings: float = 0.0, outcome: outcome_model.OutcomeModel | None = None) -> np.ndarray:
    """Per player, a value in [0, 1]: 1 shared by the winners of a finished game; otherwise the
    player's share of 3 x income + 1.5 x land hexes + 4 x fort levels + `citadel` x Citadels + `top` x
    the level of their highest fort (the race to a Citadel, R14.3) + 2 x heroes + 0.1 x gold (players
    out of the game count 0). Once two Citadels stand in a game with a round cap, only a conquest or the
    cap ends it (R16.3, R16.7): then `standings` (in [0, 1]) of the value goes to the cap's winners now
    (R19.3), the rest is the share. With an `outcome` model its win chances replace the share (and its
    weights the others)."""
    n = s.n_players
    if s.game_over:
        out = np.zeros(n)
        if s.winners:
            out[list(s.winners)] = 1.0 / len(s.winners)
        return out
    if outcome is not None:
        share = outcome_model.value(s, outcome)
        return _with_standings(s, share, standings)
    st = player_stats(s)
    score = (W_INCOME * st[:, INCOME] + W_HEX * st[:, HEXES] + W_FORT * st[:, FORT_LEVELS]
             + citadel * st[:, CITADELS] + W_HERO * st[:, HEROES] + W_GOLD * st[:, GOLD]).astype(np.float64)
    if top:
        highest = np.zeros(n)
        own = (s.hex_owner >= 0) & (s.hex_owner < n)
        np.maximum.at(highest, s.hex_owner[own].astype(np.int64), s.hex_fort[own])
        score += top * highest
    if race:
        score += race * race_progress(s, st)
    score *= s.alive
    total = score.sum()
    share = score / total if total > 0 else np.full(n, 1.0 / n)
    return _with_standings(s, share, standings)


def _with_standings(s, share: np.ndarray, standings: float) -> np.ndarray:
    """`standings` of the value to the cap's winners now (R19.3) where only a conquest or the cap ends the game."""
    if standings and cap_decides(s):
        leaders = ranking_by_income(s)
        share = share * (1.0 - standings)
        share[leaders] += standings / len(leaders)
    return share


def cap_decides(s) -> bool:
    """Two Citadels on the board of a standard game with a round cap: only a conquest (R16.3) or the cap (R16.7)
    can end it."""
    return s.cfg.max_rounds is not None and s.cfg.victory == "standard" and s.citadel_hexes().size >= 2


def race_progress(s, st: np.ndarray | None = None) -> np.ndarray:
    """Per player, the race to a Citadel (R14.3: a Castle, the Citadel income, 5 gold): the level of the
    highest fort (0-4), plus, on a Castle, income / Citadel income and gold / 5 (each at most 1), or 2 on
    a Citadel."""
    n = s.n_players
    st = player_stats(s) if st is None else st
    highest = np.zeros(n)
    own = (s.hex_owner >= 0) & (s.hex_owner < n)
    np.maximum.at(highest, s.hex_owner[own].astype(np.int64), s.hex_fort[own])
    income = np.minimum(1.0, st[:, INCOME] / CITADEL_INCOME.get(n, 15.0))
    gold = np.minimum(1.0, st[:, GOLD] / 5.0)
    ready = np.where(highest == 4, 2.0, np.where(highest == 3, income + gold, 0.0))
    return highest + ready


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "player", "rank")

    def __init__(self, player: int) -> None:
        self.children: dict[int, _Node] = {}
        self.rank: dict[int, int] | None = None  # expand=greedy: the actions in greedy's order
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.player = player  # who chose the edge into this node


ROLLOUTS = ("random", "greedy", "expert")  # native codes 0, 1, 2 (search/ismcts.hpp Policy)
EXPANSIONS = ("random", "greedy", "expert")
WIDENING = 2.0  # expand=greedy: a node visited n times has at most WIDENING * sqrt(n) + 1 children (default)


class ISMCTSAgent:
    name = "ismcts"
    needs_worlds = True  # the arena passes observation["worlds"], a WorldSampler for the seat
    needs_observation = False

    def __init__(self, playouts: int | None = None, seconds: float | None = None, c: float = 0.05,
                 rollout: str = "greedy", cutoff: int = 50, horizon: int = 0, worlds: int = 0, expand: str = "greedy",
                 widening: float = WIDENING, citadel: float = W_CITADEL, top: float = W_TOP,
                 race: float = W_RACE, standings: float = 0.0, follow: int = 0, margin: float = 0.0,
                 paired: int = 0, z: float = 2.0, reject: float = 0.0,
                 policy: str | None = None, value: str | None = None, candidates: str | None = None,
                 moves: str | None = None, threads: int = 1, outcome: str | None = None,
                 outcome_when: str = "always", seed: int | None = None) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"ismcts: rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if expand not in EXPANSIONS:
            raise ValueError(f"ismcts: expand must be one of {', '.join(EXPANSIONS)}, got {expand!r}")
        self.expand = expand
        if playouts is None and not seconds:
            playouts = 200
        if playouts is not None and int(playouts) < 1:
            raise ValueError(f"ismcts: playouts must be at least 1, got {playouts}")
        if seconds is not None and float(seconds) < 0:
            raise ValueError(f"ismcts: seconds must not be negative, got {seconds}")
        if int(cutoff) < 0 or int(horizon) < 0 or int(worlds) < 0:
            raise ValueError("ismcts: cutoff, horizon and worlds must not be negative")
        if not float(widening) > 0:
            raise ValueError(f"ismcts: widening must be positive, got {widening}")
        self.widening = float(widening)
        self.w_citadel, self.w_top, self.w_race = float(citadel), float(top), float(race)  # public_value's weights
        if not 0.0 <= float(standings) <= 1.0:
            raise ValueError(f"ismcts: standings is a weight in [0, 1], got {standings}")
        self.w_standings = float(standings)
        self._standings_now = 0.0  # w_standings where the game itself has two Citadels, else 0 (see act)
        self.outcome_path = outcome
        self._outcome = outcome_model.load(outcome) if outcome else None
        if outcome_when not in OUTCOME_WHEN or (outcome_when != "always" and not outcome):
            raise ValueError(f"ismcts: outcome_when is one of {', '.join(OUTCOME_WHEN)} and needs outcome=PATH "
                             f"(got {outcome_when!r})")
        self.outcome_when = outcome_when
        self._outcome_now = self._outcome  # the model where in force at this decision (see act)
        if int(follow) not in (0, 1) or (int(follow) and rollout != "expert"):
            raise ValueError(f"ismcts: follow is 0 or 1, and 1 needs rollout=expert (got follow={follow!r}, "
                             f"rollout={rollout!r})")
        if int(paired) < 0 or int(paired) == 1 or (int(paired) and rollout != "expert"):
            raise ValueError(f"ismcts: paired is 0 (the tree) or the number of candidates K >= 2, and K needs "
                             f"rollout=expert (got paired={paired!r}, rollout={rollout!r})")
        if not (math.isfinite(float(z)) and float(z) >= 0):
            raise ValueError(f"ismcts: z must be a finite number >= 0, got {z}")
        self.paired, self.z = int(paired), float(z)
        if not (math.isfinite(float(reject)) and float(reject) >= 0) or (float(reject) and not self.paired):
            raise ValueError(f"ismcts: reject is a finite number >= 0, and > 0 needs paired (got reject={reject!r})")
        self.reject = float(reject)
        if int(threads) < 1 or (int(threads) > 1 and not self.paired):
            raise ValueError(f"ismcts: threads is at least 1, and more than 1 needs paired (got threads={threads!r})")
        self.threads = int(threads)
        self.policy, self.value, self.candidates = _policy_options(policy, value, candidates, self.paired)
        self.moves = _moves_option(moves, self.policy, self.candidates)
        if outcome and self.value == "policy":
            raise ValueError("ismcts: outcome= and the model's critic (value=policy, the default with policy=) both "
                             "value the rollouts' cutoffs: add value=public to use the outcome model")
        self._model = _load_model(self.policy) if self.policy else None  # (ActorNetwork, meta)
        self._critic = None  # value=policy: the native network with its critic (made on first use)
        self.follow = bool(int(follow)) or self.paired > 0
        if not float(margin) >= 0:
            raise ValueError(f"ismcts: margin must not be negative, got {margin}")
        self.margin = float(margin)
        self.needs_observation = self.follow  # its own expert reads the observation (see act)
        self._own = None  # follow: the native expert that carries out its moves
        self.playouts = None if playouts is None else int(playouts)
        self.seconds = float(seconds) if seconds else None
        self.c = float(c)
        self.rollout = rollout
        self.cutoff, self.horizon = int(cutoff), int(horizon)
        self.n_worlds = int(worlds)
        self.rng = np.random.default_rng(seed)
        self._greedy: dict[str, list] | None = None  # the rollout and expansion agents by kind
        self._encoder = None
        self.last_iterations = 0  # iterations of the last search (for measurements)
        self.last_nodes = 0  # tree nodes of the last search (native search only)
        self.last_seconds = 0.0  # its time, measured in native code (native search only)
        self.last_candidate = -1  # paired: the index of the candidate played (0: the expert's move); else -1
        self.last_rounds = 0  # paired: the whole rounds of the last search
        self.last_gains: list[float] = []  # paired: per candidate, the mean paired difference from the expert's move
        self.last_choices: list[int] = []  # paired: the candidates (the expert's move first)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self._greedy = None
        self._own = None

    # ----- protocol

    def act(self, observation, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        self.last_candidate, self.last_rounds, self.last_gains, self.last_choices = -1, 0, [], []  # none weighed yet
        if legal.size == 0:
            raise ValueError("ismcts agent: the action mask allows no action")
        if legal.size == 1:
            self.last_iterations = 0
            return int(legal[0])
        worlds = observation.get("worlds") if isinstance(observation, dict) else None
        if worlds is None:
            raise ValueError("ismcts agent: needs observation['worlds'] (a WorldSampler, "
                             "ktenv.kings_and_things.worlds, for its seat); the arena, `ktenv play` and the "
                             "single-agent env pass it to agents with needs_worlds")
        # standings= (and outcome_when=two_citadels) only once the game itself is in the two-Citadel regime
        # (Citadels are public: any world shows them): a rollout from an earlier round that reaches two Citadels
        # is still valued by the share, since the cap's standings there would price the early race by income
        late = self._outcome is not None and self.outcome_when == "two_citadels"
        world = worlds.sample(0) if self.w_standings or late else None
        self._standings_now = self.w_standings if self.w_standings and cap_decides(world) else 0.0
        two = late and world.citadel_hexes().size >= 2  # R16.3: from now on only a conquest (or the cap) decides
        self._outcome_now = None if late and not two else self._outcome
        if self._outcome is not None and self._outcome.n_players != worlds.cfg.n_players:
            raise ValueError(f"ismcts: outcome={self.outcome_path} was fitted to {self._outcome.n_players}-player "
                             f"games; this table has {worlds.cfg.n_players} players")
        if not isinstance(worlds, NativeWorldSampler):
            if self._model is not None:
                raise ValueError("ismcts: policy= steers the native paired search; this game runs on the Python "
                                 "engine (play it with the native backend)")
            return self.search(worlds, legal)
        if not self.follow:
            return self.native_search(worlds, legal)
        # follow: a move's counters and steps are its expert's plan for the stack the search started
        obs, mask = observation["observation"], np.asarray(action_mask)
        if self._model is not None:
            _check_table(self.policy, self._model[1], worlds.cfg, np.shape(obs))
        own = self._own_expert()
        decision = View(obs).decision
        if decision in (D.MOVE_SELECT, D.MOVE_STACK):
            self.last_iterations, self.last_nodes, self.last_seconds = 0, 0, 0.0
            if self.moves == "policy":
                return int(legal[np.argmax(self._model[0].logits(obs)[0][legal])])  # the first of equals, as ppo:
            return int(own.act(obs, mask))
        if self.paired:
            return self.paired_search(worlds, own, obs, mask)
        a = self.native_search(worlds, legal)
        if decision == D.MOVE_START:
            own.scores(obs, mask)
            own.follow(a)
        return a

    def _own_expert(self):
        if self._own is None:
            from ktenv.kings_and_things.native.expert import NativeExpertAgent

            self._own = NativeExpertAgent(seed=int(self.rng.integers(2**63)))
        return self._own

    # ----- search

    def native_search(self, worlds: NativeWorldSampler, legal: np.ndarray) -> int:
        """The same search in C++ (the game's native/src/search/ismcts.cpp), on the sampler's native worlds."""
        from ktenv.kings_and_things.native import core
        from ktenv.kings_and_things.native.expert import expert_plan_for
        from ktenv.kings_and_things.native.observation import stats_encoder

        action, self.last_iterations, self.last_nodes, self.last_seconds = core().ismcts_search(
            worlds.handle, stats_encoder(worlds.cfg).plan, expert_plan_for(worlds.cfg), legal.tolist(),
            self.playouts or 0, self.seconds or 0.0, self.c, ROLLOUTS.index(self.rollout), self.cutoff,
            self.n_worlds, EXPANSIONS.index(self.expand), self.widening, self.w_citadel, self.w_top, self.w_race,
            self.follow, self.margin, int(self.rng.integers(2**63)), **self._native_options())
        return int(action)

    def played(self, action: int) -> None:
        """The action played where this agent was last asked (another player's choice): the expert that carries out
        its moves follows the stack chosen (ExpertAgent.played)."""
        if self._own is not None:
            self._own.played(action)

    def paired_candidates(self, own, obs, mask: np.ndarray) -> list[int]:
        """The paired search's candidates: with ``policy``, the model's K most likely legal actions (ties: the
        lower action first); with ``expert``, the expert's K best, its own choice first (its tie-break draw and move
        plan); with ``both``, the model's best, the expert's own choice, then the model's next; with ``expert+policy``,
        the expert's own choice, then the model's best and the expert's next in turn."""
        if self.candidates in EXPERT_FIRST:
            legal, scores = own.scores(obs, mask)
            choice = int(own.act(obs, mask))  # what an expert seat plays: its tie-break draw, its move plan
            order = np.argsort(-scores, kind="stable")  # the expert's best first (ties: the lower action)
            expert = [int(a) for a in legal[order] if a != choice]
            if self.candidates == "expert":
                return [choice] + expert[:self.paired - 1]
            return _alternate(choice, self._ranked(obs, mask), expert, self.paired)
        own.scores(obs, mask)  # its move plans, should a candidate start a move (see paired_search)
        ranked = self._ranked(obs, mask)
        if self.candidates == "both":
            expert = int(own.act(obs, mask))
            ranked = ranked[:1] + [expert] + [a for a in ranked[1:] if a != expert] if expert != ranked[0] else ranked
        return ranked[:self.paired]

    def _ranked(self, obs, mask: np.ndarray) -> list[int]:
        """The legal actions, the model's most likely first (ties: the lower action)."""
        legal = np.flatnonzero(mask)
        logits = self._model[0].logits(obs)[0][legal]
        return [int(a) for a in legal[np.argsort(-logits, kind="stable")]]

    def _native_critic(self):
        """The model as a native network with its critic (value=policy), or None (value=public)."""
        if self.value != "policy":
            return None
        if self._critic is None:
            from ktenv.kings_and_things.vector import native_policy

            self._critic = native_policy(self._model[0], False, f"ismcts policy {self.policy}", value=True)
        return self._critic

    def paired_search(self, worlds: NativeWorldSampler, own, obs, mask: np.ndarray) -> int:
        """Paired root evaluation (option ``paired``) of the expert's (or with ``policy``, the model's) best
        actions, in C++ (Search::decide_paired); `own`: the agent's native expert, which carries out the move
        chosen (and without ``policy`` decides candidate 0)."""
        from ktenv.kings_and_things.native import core
        from ktenv.kings_and_things.native.expert import expert_plan_for
        from ktenv.kings_and_things.native.observation import stats_encoder

        candidates = self.last_choices = self.paired_candidates(own, obs, mask)
        critic = self._native_critic()
        # the optional arguments only when given: bench/playout_speed.py runs this against older builds too
        extra = {"critic": critic} if critic is not None else {}
        if self.threads > 1:
            extra["threads"] = self.threads
        if self.reject:
            extra["reject"] = self.reject
        extra.update(self._native_options())
        (a, self.last_candidate, self.last_rounds, self.last_iterations, self.last_seconds,
         self.last_gains) = core().ismcts_paired(
            worlds.handle, stats_encoder(worlds.cfg).plan, expert_plan_for(worlds.cfg), candidates,
            self.playouts or 0, self.seconds or 0.0, self.cutoff, self.w_citadel, self.w_top, self.w_race, self.z,
            int(self.rng.integers(2**63)), **extra)
        self.last_nodes = 0
        expert_choice = self.candidates in EXPERT_FIRST and a == candidates[0]  # the expert's own act made its plan
        if not expert_choice and View(obs).decision == D.MOVE_START:
            own.follow(a)  # its expert carries out the move of the stack chosen (scored above)
        return int(a)

    def search(self, worlds, legal: np.ndarray) -> int:
        t0 = time.perf_counter()
        rng = self.rng
        root = _Node(-1)
        fixed = [worlds.sample(rng) for _ in range(self.n_worlds)]
        deadline = t0 + self.seconds if self.seconds is not None else math.inf
        i = 0
        while True:
            if self.playouts is not None and i >= self.playouts:
                break
            if self.seconds is not None and i > 0:
                spent = time.perf_counter() - t0
                if spent + spent / i > self.seconds:
                    break
            world = fixed[i % len(fixed)].copy() if fixed else worlds.sample(rng)
            self._iterate(root, world, deadline)
            i += 1
        self.last_iterations = i
        best, key = int(legal[0]), (-1, -math.inf)
        rank = root.rank or {}
        for a in legal.tolist():
            child = root.children.get(a)
            # most visits; ties: greedy's order (expand=greedy), else the higher total value
            tie = -rank.get(a, len(rank)) if rank else child.total if child is not None else 0.0
            if child is not None and (child.visits, tie) > key:
                best, key = a, (child.visits, tie)
        return best

    def _iterate(self, root: _Node, w, deadline: float) -> None:
        rng, c = self.rng, self.c
        node, path = root, []
        while not w.game_over:
            legal = np.flatnonzero(legal_mask(w)).tolist()
            actor = int(w.actor)
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried and self.expand != "random":
                if node.rank is None:
                    node.rank = self._greedy_rank(w, legal)
                if len(children) >= self.widening * math.sqrt(node.visits) + 1 and len(untried) < len(legal):
                    untried = []  # progressive widening: search the children there are
                else:
                    rank = node.rank
                    untried = [min(untried, key=lambda x: rank.get(x, len(rank)))]
            if untried:
                a = untried[int(rng.integers(len(untried)))]
                children[a] = _Node(actor)
                for b in legal:  # availability of the children legal in this world (the new one included)
                    ch = children.get(b)
                    if ch is not None:
                        ch.avail += 1
                child = children[a]
                step(w, a)
                path.append(child)
                break
            best, best_score = None, -math.inf
            for b in legal:
                ch = children.get(b)
                if ch is None:
                    continue
                ch.avail += 1
                score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = b, score
            node = children[best]
            step(w, best)
            path.append(node)
        value = self._rollout(w, deadline)
        root.visits += 1
        for node in path:
            node.visits += 1
            node.total += value[node.player]

    def _rollout(self, w, deadline: float) -> np.ndarray:
        """Play on for `cutoff` decisions or to round `horizon`, whichever is later (less when the time budget runs
        out), and value the result."""
        rng = self.rng
        policy = self.rollout != "random"
        clock = time.perf_counter
        i = 0
        while i < self.cutoff or w.round < self.horizon:
            if w.game_over or clock() > deadline:
                break
            i += 1
            mask = legal_mask(w)
            if policy:
                a = self._policy_act(w, mask)
            else:
                legal = np.flatnonzero(mask)
                a = int(legal[rng.integers(legal.size)])
            step(w, a)
        return public_value(w, self.w_citadel, self.w_top, self.w_race, self._standings_now, self._outcome_now)

    def _native_options(self) -> dict:
        """The native searches' optional arguments (horizon, standings, the outcome model), only when in force
        (older builds lack them)."""
        out = {"w_standings": self._standings_now} if self._standings_now else {}
        if self.horizon:
            out["horizon"] = self.horizon
        if self._outcome_now is not None:
            out.update(w_outcome=self._outcome_now.weights.tolist(), outcome_gold_cap=self._outcome_now.gold_cap)
        return out

    def _greedy_rank(self, w, legal: list[int]) -> dict[int, int]:
        """The legal actions in the order the expansion policy (greedy or expert) prefers them for the player
        to act (its score of each)."""
        p = int(w.actor)
        agent = self._agents_for(w, self.expand)[p]
        scores = agent.scores(View(self._encoder.encode(w, p), w.n_players), np.asarray(legal))
        scores = np.asarray(scores, np.float64) + self.rng.random(len(legal)) * 1e-6
        return {legal[i]: r for r, i in enumerate(np.argsort(-scores, kind="stable").tolist())}

    def _agents_for(self, w, kind: str) -> list:
        """One Python agent of `kind` ("greedy" or "expert") per player of w's game (made on first use)."""
        if self._greedy is None or self._encoder is None or self._encoder.cfg != w.cfg:
            self._encoder = ObservationEncoder(w.cfg, w.geo.n_hexes)
            self._greedy = {}
        if kind not in self._greedy:
            make = ExpertAgent if kind == "expert" else GreedyAgent
            self._greedy[kind] = [make(seed=int(self.rng.integers(2**31)), n_players=w.n_players)
                                  for _ in range(w.n_players)]
        return self._greedy[kind]

    def _policy_act(self, w, mask: np.ndarray) -> int:
        p = int(w.actor)
        agent = self._agents_for(w, self.rollout)[p]
        return agent.act({"observation": self._encoder.encode(w, p), "action_mask": mask}, mask)


_OPTIONS = {"playouts": int, "seconds": float, "c": float, "rollout": str, "cutoff": int, "horizon": int, "worlds": int,
            "expand": str, "widening": float, "citadel": float, "top": float, "race": float, "standings": float,
            "follow": int, "margin": float, "paired": int, "z": float, "reject": float, "policy": str, "value": str,
            "candidates": str, "moves": str, "threads": int, "outcome": str, "outcome_when": str, "seed": int}
VALUES = ("policy", "public")  # option value: the cutoff value of the policy-guided search
CANDIDATES = ("policy", "expert", "both", "expert+policy")  # option candidates: who proposes the paired candidates
OUTCOME_WHEN = ("always", "two_citadels")  # option outcome_when: where the outcome model values the cutoffs
MOVES = ("policy", "expert")  # option moves: who plays the seat's moving counters and steps
EXPERT_FIRST = ("expert", "expert+policy")  # candidate 0 the expert's own move


def _alternate(choice: int, model: list[int], expert: list[int], k: int) -> list[int]:
    """``candidates=expert+policy``: the expert's move, then the model's best and the expert's next in turn."""
    out = [choice]
    for a in [x for pair in zip(model, expert) for x in pair] + model + expert:  # (then the longer list's rest)
        if a not in out:
            out.append(a)
    return out[:k]


def _policy_options(policy: str | None, value: str | None, candidates: str | None,
                    paired: int) -> tuple[str | None, str | None, str]:
    """The checked ``policy``, ``value`` and ``candidates`` options (value and candidates default to ``policy``
    where a model is given; without one the candidates are the expert's)."""
    if not policy:
        for key, given in (("value", value), ("candidates", candidates)):
            if given is not None:
                raise ValueError(f"ismcts: {key}={given} needs policy=PATH (a trained model)")
        return None, None, "expert"
    if paired < 2:
        raise ValueError(f"ismcts: policy= steers the paired search: it needs paired=K >= 2 (got paired={paired})")
    value, candidates = value or "policy", candidates or "policy"
    if value not in VALUES:
        raise ValueError(f"ismcts: value must be one of {', '.join(VALUES)}, got {value!r}")
    if candidates not in CANDIDATES:
        raise ValueError(f"ismcts: candidates must be one of {', '.join(CANDIDATES)}, got {candidates!r}")
    if candidates == "expert" and value != "policy":
        raise ValueError("ismcts: candidates=expert with value=public is the search without policy=")
    return policy, value, candidates


def _moves_option(moves: str | None, policy: str | None, candidates: str) -> str:
    """The checked ``moves`` option: who plays the seat's moving counters and steps (default: the model where it
    proposes the candidates, else the expert)."""
    if moves is None:
        return "policy" if policy and candidates not in EXPERT_FIRST else "expert"
    if moves not in MOVES:
        raise ValueError(f"ismcts: moves must be one of {', '.join(MOVES)}, got {moves!r}")
    if moves == "policy" and not policy:
        raise ValueError("ismcts: moves=policy needs policy=PATH (a trained model)")
    return moves


def _load_model(path: str):
    """(ActorNetwork with its critic, meta) of a Kings & Things model zip, weights-only (agents.network); a
    one-line ValueError for a missing or unreadable file, a model of another game, or one without a critic."""
    from ktenv.kings_and_things.spec import GAME
    from ktenv.registry import default

    from ..network import ModelFileError
    from ..ppo import load_cached

    try:
        network, meta = load_cached(path)
    except ModelFileError as exc:
        raise ValueError(f"ismcts: policy={path}: {exc}") from None
    game = str(meta["game"].get("game") or default().name)  # a file that names no game: the default game's
    if game != GAME.name:
        raise ValueError(f"ismcts: policy={path} is a model of {game}; this search plays {GAME.name}")
    if network.critic is None:
        raise ValueError(f"ismcts: policy={path} has no value head after the actor's first layer")
    return network, meta


def _check_table(path: str, meta: dict, cfg, shape: tuple) -> None:
    """The model fits the table: its player count and observation size, naming both sides."""
    players = int(meta["game"].get("n_players", 0))
    if players != cfg.n_players or shape != (meta["observation_size"],):
        raise ValueError(f"ismcts: policy={path} is a model for {players} players and observations of "
                         f"{meta['observation_size']} entries; this table has {cfg.n_players} players and "
                         f"observations of {shape[0] if shape else 0}")


def parse_options(text: str) -> dict:
    """``playouts=200,c=0.05,rollout=greedy`` -> keyword arguments (each value checked)."""
    return base.parse_options(text, _OPTIONS, "ismcts")


# What the bare name ``ismcts`` plays: the strongest setting measured, paired root evaluation over the expert's
# three best moves (172 of 200 two-player games against ``expert``, 86.0% [80.5, 90.1]; docs/arena.md).
# ``ismcts:OPTIONS`` starts from the class defaults (the first version's tree) instead.
STRONGEST = "seconds=0.15,rollout=expert,cutoff=150,paired=3,z=2"


def make_strongest(**kwargs) -> ISMCTSAgent:
    """The factory for the bare name ``ismcts`` (`STRONGEST`)."""
    return make_with_options(STRONGEST, **kwargs)


def make_with_options(argument: str, **kwargs) -> ISMCTSAgent:
    """The factory for ``ismcts:OPTIONS`` (options win over the caller's keyword arguments, e.g. seed)."""
    return ISMCTSAgent(**{**kwargs, **parse_options(argument)})

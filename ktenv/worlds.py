"""Worlds a player cannot tell apart (issue 16.1): sampling the hidden part of a game.

`sample_world(state, player, rng)` returns a full `GameState` that agrees with everything
`player` may know (rules RI) and redraws, at random, everything they may not:

Redrawn (RI.2 for the other players, RI.3 for everybody):

- **Counters of unknown identity.** Every counter whose identity `player` cannot see is an
  *unknown slot*: the opponents' face-down creatures on the board never revealed (RI.4, RI.7),
  the counters behind the opponents' screens, and the cup. The identities found in those slots
  are dealt again uniformly at random over the same slots, so counts are conserved everywhere
  (stack sizes, screen sizes, cup size): a board slot receives a creature (only creatures stand
  face down on the board), a screen or cup slot any counter. A slot keeps its own facts (place,
  owner, hex, movement points and status, ...): the counter dealt to it takes them all, as
  `ktenv.env.testing.swap_identities` does for two counters.
- **The cup's order** and **future dice**: the world's generator is reseeded from `rng` (the
  true generator's state is hidden from everybody); scripted dice are dropped.
- **Face-down tiles** (R20.3 Mysterious Kadab) that `player` has not looked at (R22.4,
  `kadab.seen`): their terrains are dealt again over the same hexes; the hex stack's order is
  shuffled (its multiset is public, RI.1).
- **Secret choices of other players** (RI.6: the battle target each side named, RD7.7): redrawn
  among the targets that side could name.

Kept: everything public (RI.1: board, owners, forts, income counters, heroes, gold, face-up and
revealed counters (`thing_public`, RI.4), counters out of the game, trade sets being declared,
the pending decision), everything `player` owns or has seen (their screen, their counters on the
board, the face-down tiles they looked at), and every counter a procedure under way refers to
(`referenced_things`: a register or procedure frame value, or a Bow/Sword bearer link), so that
the procedure keeps working in the world. The last is conservative: a frame value is treated as a
counter id whenever it could be one, so a few hidden counters may stay where they truly are.

Not modelled (the state keeps no record of it): the Master Thief's victim knows the counter
taken (RI.5) and a player knows which counters they returned in the setup exchange; in a sampled
world those counters are unknown slots like any other. Nor are deductions from history: a
face-down stack that crossed water could only be flyers, but its slots take any creature (with
the slots' movement points left, whatever the creature dealt to them).

The draw depends only on what `player` knows: two states that differ only in hidden facts give the
same world for the same `rng` (slots are ordered by their own facts, identities by id). Every
world passes `check_invariants`; `ObservationEncoder.encode(world, player)` equals the true
state's, and so does the legal mask when `player` is the actor (tests/test_worlds.py).

`WorldSampler` is the handle the arena gives to agents that search (`needs_worlds`): it holds the
true state privately and exposes only `seat` and `sample(rng)`.
"""

from __future__ import annotations

import numpy as np

from .constants import BOARD, CREATURE, CUP, NEUTRAL, SCREEN
from .engine import kadab
from .engine.battle_sides import active_sides
from .procedures import Battle
from .rng import Dice
from .state import RECRUIT, GameState

THING_FIELDS = tuple(name for name in GameState.__slots__ if name.startswith("thing_"))

__all__ = ["THING_FIELDS", "WorldSampler", "referenced_things", "sample_world", "unknown_slots"]


def referenced_things(s: GameState) -> np.ndarray:
    """Per counter: named by the engine's registers, procedure frames or bearer links (left in place
    by every redraw, so that the procedure under way keeps working)."""
    out = np.zeros(s.n_things, bool)
    values: list = []
    for frame in s.frames:  # every number a procedure holds may name a counter
        for v in frame.to_dict().values():
            values += v if isinstance(v, list) else [v]
    for v in values:
        if isinstance(v, int) and 0 <= v < s.n_things:
            out[v] = True
    bearer = getattr(s, "thing_bearer", None)
    if bearer is not None:
        out[bearer[bearer >= 0]] = True
        out[bearer >= 0] = True
    return out


def unknown_slots(s: GameState, player: int) -> tuple[np.ndarray, np.ndarray]:
    """The slots `sample_world` deals again: (board slots, which take creatures only; screen and
    cup slots, which take any counter). Counter ids, ascending."""
    n = s.n_players
    place, owner = s.thing_place, s.thing_owner
    creature = s.cat.THING_KIND[:s.n_things] == CREATURE
    free = ~referenced_things(s) & ~s.thing_in_play
    other = (owner >= 0) & (owner < n) & (owner != player)
    board = (place == BOARD) & other & ~s.thing_public & ~s.thing_face_up & creature & free
    trade = s.thing_selected if s.phase == RECRUIT else np.zeros_like(s.thing_selected)  # public (R8.1.1)
    loose = (((place == SCREEN) & other & ~trade) | (place == CUP)) & free
    return np.flatnonzero(board), np.flatnonzero(loose)


def sample_world(state: GameState, player: int, rng: np.random.Generator | int | None = None) -> GameState:
    """A full game state `player` cannot tell from `state`, its hidden part drawn at random (see the
    module's docstring for what is redrawn and what is kept). `state` is not changed."""
    rng = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    if type(state) is not GameState:
        state = state.to_python()  # a native game: the worlds are drawn on its Python twin
    world = state.copy()
    board, loose = unknown_slots(state, player)
    ids = np.concatenate([board, loose])  # the identities to deal, by id
    if ids.size > 1:
        # Slots in an order fixed by their own facts, not by who sits in them, and identities by id:
        # states the player cannot tell apart give the same worlds for the same `rng`.
        slots = np.concatenate([_by_facts(state, board), _by_facts(state, loose)])
        ids.sort()
        creature = state.cat.THING_KIND[ids] == CREATURE
        creatures = rng.permutation(ids[creature])
        rest = rng.permutation(np.concatenate([creatures[board.size:], ids[~creature]]))
        dealt = np.concatenate([creatures[:board.size], rest])  # dealt[i] takes the slot of slots[i]
        for name in THING_FIELDS:
            getattr(world, name)[dealt] = getattr(state, name)[slots]
    down = np.flatnonzero(state.hex_down & ~kadab.seen(state, player))
    if down.size > 1:
        world.hex_terrain[down] = rng.permutation(np.sort(state.hex_terrain[down]))
    if len(state.hex_stack) > 1:
        world.hex_stack = [int(t) for t in rng.permutation(sorted(state.hex_stack))]
    _redraw_secret_choices(world, player, rng)
    world.rng = Dice(seed=int(rng.integers(2**63)))
    world._mask = None
    return world


def _by_facts(s: GameState, slots: np.ndarray) -> np.ndarray:
    """`slots` ordered by their facts (every `thing_*` array), whichever counters sit in them."""
    if slots.size < 2:
        return slots
    return slots[np.lexsort([getattr(s, name)[slots].astype(np.int64) for name in THING_FIELDS])]


def _redraw_secret_choices(w: GameState, player: int, rng: np.random.Generator) -> None:
    """RI.6: another side's battle target, named before `player` chose, is redrawn among the sides
    it could name (`battle.legal_target`: active sides other than itself, not neutral)."""
    battle = w.frame(Battle)
    if battle is None or all(v < 0 for side, v in enumerate(battle.targets) if side != player):
        return
    live = active_sides(w)
    targets = list(battle.targets)
    for side, value in enumerate(targets):
        if side == player or value < 0:
            continue  # the player's own choice is known; -1: not chosen yet
        options = [o for o in live if o != side and o != NEUTRAL]
        if options:
            targets[side] = int(options[rng.integers(len(options))])
    battle.targets = targets


class WorldSampler:
    """What an agent with ``needs_worlds`` gets at each of its decisions (``observation["worlds"]``):
    worlds its seat cannot tell from the true game, never the true game itself.

    ``seat``: the player it decides for; ``sample(rng)``: a new world (`sample_world`)."""

    __slots__ = ("__state", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self.__state = state.copy() if type(state) is GameState else state.to_python().copy()
        self.seat = int(seat)

    def sample(self, rng: np.random.Generator | int | None = None) -> GameState:
        return sample_world(self.__state, self.seat, rng)

    def __repr__(self) -> str:
        return f"WorldSampler(seat={self.seat})"

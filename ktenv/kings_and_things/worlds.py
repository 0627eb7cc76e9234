"""Worlds a player cannot tell apart: sampling the hidden part of a game.

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
  `ktenv.kings_and_things.env.testing.swap_identities` does for two counters.
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
the procedure keeps working in the world. Only the frame fields declared to hold counters are read
(`procedures.THING_REFS`: a Thing id, a list of flags by Thing id, or an action naming a Thing);
any other number a frame holds (a hex, a round, a count) says nothing of the counters.

Not modelled (the state keeps no record of it): the Master Thief's victim knows the counter
taken (RI.5) and a player knows which counters they returned in the setup exchange; in a sampled
world those counters are unknown slots like any other. Nor are deductions from history: a
face-down stack that crossed water could only be flyers, but its slots take any creature (with
the slots' movement points left, whatever the creature dealt to them).

The draws: one SplitMix64 generator (`ktenv.rng.Dice`, the game's own) seeded from `rng`, used in
this order: the creatures of the pool are shuffled (Fisher-Yates from the top, `Dice.shuffle`) and
the first ones go to the board slots, the rest of the pool is shuffled and fills the screen and cup
slots; then the unseen face-down terrains, the hex stack (each in ascending order, then shuffled);
then each other side's secret target (`Dice.below`); last, the world's own dice are seeded with the
next draw (`Dice(seed=next64())`). The native engine draws a native game's worlds with the same
algorithm in C++ (`ktenv/kings_and_things/native/src/search/worlds.cpp`): the same world for the same seed
(tests/rules/test_worlds.py checks it).

The draw depends only on what `player` knows: two states that differ only in hidden facts give the
same world for the same `rng` (slots are ordered by their own facts, identities by id). Every
world passes `check_invariants`; `ObservationEncoder.encode(world, player)` equals the true
state's, and so does the legal mask when `player` is the actor (tests/rules/test_worlds.py).

`WorldSampler` is the handle the arena gives to agents that search (`needs_worlds`): it holds the
true state privately and exposes only `seat` and `sample(rng)`. For a native game it is a
`NativeWorldSampler`, whose true state lives in native memory, out of Python's reach.
"""

from __future__ import annotations

import numpy as np

from ..rng import Dice, world_dice
from .constants import BOARD, CREATURE, CUP, NEUTRAL, SCREEN
from .engine import kadab
from .engine.actions import layout
from .engine.battle_sides import active_sides
from .procedures import ACTION, FLAGS, THING_REFS, Battle
from .state import RECRUIT, GameState

THING_FIELDS = tuple(name for name in GameState.__slots__ if name.startswith("thing_"))

__all__ = ["THING_FIELDS", "NativeWorldSampler", "WorldSampler", "referenced_things", "sample_world", "unknown_slots",
           "world_dice"]


def referenced_things(s: GameState) -> np.ndarray:
    """Per counter: named by a procedure frame's declared counter fields (`THING_REFS`) or a bearer
    link (left in place by every redraw, so that the procedure under way keeps working)."""
    n = s.n_things
    out = np.zeros(n, bool)
    lay = layout(s)
    for frame in s.frames:
        for name, kind in THING_REFS[type(frame)]:
            value = getattr(frame, name)
            values = value if isinstance(value, list) else [value]
            if kind == FLAGS:
                values = [i for i, flag in enumerate(values) if flag]
            elif kind == ACTION:
                values = [v - lay.thing for v in values if lay.thing <= v < lay.thing + n]
            for v in values:
                if 0 <= v < n:
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



def sample_world(state: GameState, player: int, rng: Dice | np.random.Generator | int | None = None):
    """A full game state `player` cannot tell from `state`, its hidden part drawn at random (see the
    module's docstring for what is redrawn and what is kept). `state` is not changed. A native game
    gets a native world, drawn in native code (the same world as its Python twin's for the same seed)."""
    dice = world_dice(rng)
    if type(state) is not GameState:
        if native_sampling(state.cfg):
            return NativeWorldSampler(state, player).sample(dice)
        state = state.to_python()  # the optional content's worlds are drawn by this, the reference sampler
    world = state.copy()
    board, loose = unknown_slots(state, player)
    ids = np.concatenate([board, loose])  # the identities to deal, by id
    if ids.size > 1:
        # Slots in an order fixed by their own facts, not by who sits in them, and identities by id:
        # states the player cannot tell apart give the same worlds for the same `rng`.
        slots = np.concatenate([_by_facts(state, board), _by_facts(state, loose)])
        ids.sort()
        creature = state.cat.THING_KIND[ids] == CREATURE
        creatures = ids[creature].tolist()
        dice.shuffle(creatures)
        rest = creatures[board.size:] + ids[~creature].tolist()
        dice.shuffle(rest)
        dealt = np.array(creatures[:board.size] + rest, np.int64)  # dealt[i] takes the slot of slots[i]
        for name in THING_FIELDS:
            getattr(world, name)[dealt] = getattr(state, name)[slots]
    down = np.flatnonzero(state.hex_down & ~kadab.seen(state, player))
    if down.size > 1:
        terrains = sorted(state.hex_terrain[down].tolist())
        dice.shuffle(terrains)
        world.hex_terrain[down] = terrains
    if len(state.hex_stack) > 1:
        world.hex_stack = sorted(int(t) for t in state.hex_stack)
        dice.shuffle(world.hex_stack)
    _redraw_secret_choices(world, player, dice)
    world.rng = Dice(seed=dice.next64())
    world._mask = None
    return world


def _by_facts(s: GameState, slots: np.ndarray) -> np.ndarray:
    """`slots` ordered by their facts (every `thing_*` array), whichever counters sit in them."""
    if slots.size < 2:
        return slots
    return slots[np.lexsort([getattr(s, name)[slots].astype(np.int64) for name in THING_FIELDS])]


def _redraw_secret_choices(w: GameState, player: int, dice: Dice) -> None:
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
            targets[side] = int(options[dice.below(len(options))])
    battle.targets = targets


def native_sampling(cfg) -> bool:
    """Whether native code draws this game's worlds: the base game at 2-4 players, the configs its sampler
    is tested on against this one; the optional content (R20-R22) is drawn here, on the Python twin."""
    return cfg.n_players <= 4 and not (cfg.where_will_they_stop or cfg.mysterious_kadab or cfg.encounter_powers
                                       or cfg.house_content)


class WorldSampler:
    """What an agent with ``needs_worlds`` gets at each of its decisions (``observation["worlds"]``):
    worlds its seat cannot tell from the true game, never the true game itself.

    ``seat``: the player it decides for; ``sample(rng)``: a new world (`sample_world`). For a native
    game, ``WorldSampler(game, seat)`` is a `NativeWorldSampler`."""

    __slots__ = ("__state", "seat")

    def __new__(cls, state, seat: int):
        if type(state) is not GameState and native_sampling(state.cfg):
            return NativeWorldSampler(state, seat)
        return super().__new__(cls)

    def __init__(self, state, seat: int) -> None:
        self.__state = state.copy() if type(state) is GameState else state.to_python().copy()
        self.seat = int(seat)

    def sample(self, rng: Dice | np.random.Generator | int | None = None) -> GameState:
        return sample_world(self.__state, self.seat, rng)

    def __reduce__(self):
        raise TypeError("a WorldSampler holds the true game: it cannot be pickled")

    def __repr__(self) -> str:
        return f"WorldSampler(seat={self.seat})"


class NativeWorldSampler:
    """The handle of a native game's worlds: the true state is copied into a native object
    (`_core.WorldSampler`) that offers only ``seat`` and ``sample(seed)``; ``sample(rng)`` here
    returns a `NativeGame`. The native search (`agents.ismcts`) takes it whole."""

    __slots__ = ("cfg", "handle")

    def __init__(self, game, seat: int) -> None:
        from .native import core

        native = getattr(game, "native", None)
        if native is None:
            raise TypeError(f"NativeWorldSampler needs a native game, not {type(game).__name__}")
        n = game.cfg.n_players
        if not 0 <= int(seat) < n:
            raise ValueError(f"seat {seat} is not a player of this {n}-player game")
        self.cfg = game.cfg
        self.handle = core().WorldSampler(native, int(seat))

    @property
    def seat(self) -> int:
        return self.handle.seat

    def sample(self, rng: Dice | np.random.Generator | int | None = None):
        from .native.game import NativeGame

        dice = world_dice(rng)
        world, after = self.handle.sample(str(dice.state))
        dice.state = int(after)  # past the draws made, as the Python sampler leaves it
        return NativeGame(self.cfg, world)

    def __reduce__(self):
        raise TypeError("a WorldSampler holds the true game: it cannot be pickled")

    def __repr__(self) -> str:
        return f"NativeWorldSampler(seat={self.seat})"

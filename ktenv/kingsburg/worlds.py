"""Worlds a Kingsburg seat cannot tell apart: sampling the hidden part of a game, for agents that search.

Hidden from a seat (K1.5, D20, D21), hence redrawn in a world:

- **the enemy cards still unknown**: every later year's card, and this year's unless it was revealed
  (winter) or the seat peeked at it (advisors 10 and 17): each is drawn again uniformly among that year's five
  (the cards of each year are public, K1.5);
- **future dice**: the world's generator is reseeded (the true generator's state is hidden from everybody;
  scripted dice are dropped).

Everything else is public in Kingsburg (goods, tokens, VP, soldiers, buildings, dice and their placements, who
peeked), so a world keeps it. Not modelled: what an opponent's play might reveal of the card it peeked at.

The draws: one SplitMix64 generator (`ktenv.rng.Dice`, the game's own) seeded from `rng`: the hidden cards in
year order (`Dice.below(5)` into `catalog.CARDS_OF_YEAR`), then the world's own dice are seeded with the next
draw (`Dice(seed=next64())`). A native game's worlds are drawn with the same algorithm in C++
(``native/src/search/worlds.cpp``): the same world for the same seed. The draw reads only what the seat knows,
so two states that differ only in hidden facts give the same world for the same `rng`.

`WorldSampler` is the handle the arena gives to agents that search (``needs_worlds``, `ktenv.agents.base`): it
holds the true game privately and exposes only ``seat`` and ``sample(rng)``. Its ``native`` handle (the true
game copied into native memory) is what the native search (`agents.kingsburg.search`) takes.
"""

from __future__ import annotations

import numpy as np

from ..rng import Dice, world_dice
from . import catalog as cat
from .state import KingsburgState

__all__ = ["WorldSampler", "card_hidden", "sample_world", "world_dice"]



def card_hidden(s: KingsburgState, seat: int, y: int) -> bool:
    """Whether `seat` cannot know the enemy card of year index `y` (0-4) at `s`."""
    if s.game_over or y < s.year - 1:
        return False  # past years' cards were revealed (K9.1)
    if y > s.year - 1:
        return True
    return s.enemy < 0 and not bool(s.peeked[seat])  # D20


def sample_world(state: KingsburgState, seat: int, rng: Dice | np.random.Generator | int | None = None):
    """A full game `seat` cannot tell from `state`, its hidden part drawn at random (see the module's docstring).
    `state` is not changed; a native game gets a native world, drawn in native code."""
    if not 0 <= int(seat) < state.n_players:
        raise ValueError(f"seat {seat} is not a player of this {state.n_players}-player game")
    dice = world_dice(rng)
    if type(state) is not KingsburgState:  # a native game
        from .native.game import NativeKingsburg

        world, after = _native_sampler(state, seat).sample(dice.state)
        dice.state = int(after)
        return NativeKingsburg(state.cfg, world)
    world = state.copy()
    for y in range(cat.YEARS):
        if card_hidden(state, seat, y):
            world.enemy_deck[y] = cat.CARDS_OF_YEAR[y][dice.below(5)]
    world.rng = Dice(seed=dice.next64())
    return world


def _native_sampler(game, seat: int):
    from .native import core
    from .native.game import NativeKingsburg

    native = game if isinstance(game, NativeKingsburg) else NativeKingsburg.from_python(game)
    return core().SeatWorlds(native.native, int(seat))


class WorldSampler:
    """What an agent with ``needs_worlds`` gets at each of its decisions (``observation["worlds"]``): worlds its
    seat cannot tell from the true game, never the true game itself. ``seat``; ``sample(rng)``: a new world
    (`sample_world`, a game of the same engine as the true one); ``native``: the native handle (the true game
    copied into native memory, which offers only its seat and worlds), made on first use."""

    __slots__ = ("__state", "__native", "seat")

    def __init__(self, state: KingsburgState, seat: int) -> None:
        if not 0 <= int(seat) < state.n_players:
            raise ValueError(f"seat {seat} is not a player of this {state.n_players}-player game")
        self.__state = state.copy()
        self.__native = None
        self.seat = int(seat)

    @property
    def cfg(self):
        return self.__state.cfg

    def sample(self, rng: Dice | np.random.Generator | int | None = None) -> KingsburgState:
        return sample_world(self.__state, self.seat, rng)

    @property
    def native(self):
        """The native `WorldSampler` of the true game (needs the native engine: NativeUnavailableError else)."""
        if self.__native is None:
            self.__native = _native_sampler(self.__state, self.seat)
        return self.__native

    def __reduce__(self):
        raise TypeError("a WorldSampler holds the true game: it cannot be pickled")

    def __repr__(self) -> str:
        return f"WorldSampler(seat={self.seat})"

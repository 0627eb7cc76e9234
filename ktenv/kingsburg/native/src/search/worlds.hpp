// Worlds a seat cannot tell apart, for native games: ktenv/kingsburg/worlds.py's sample_world in C++, the same
// algorithm and the same draws (the game's SplitMix64 `Dice`), hence the same world for the same seed.
//
// Hidden from a seat (K1.5, D20, D21): the enemy card of every year still to come, this year's card unless it is
// revealed or the seat peeked at it, and the generator (future dice). A world redraws each hidden card uniformly
// among that year's five, in year order, then reseeds the world's generator with the next draw.
#pragma once

#include "state.hpp"

namespace ktenv::kingsburg::search {

// Whether `seat` cannot know the enemy card of year index `y` (0-4) at `s`.
bool card_hidden(const State& s, int seat, int y);

// Writes into `world` a world `seat` cannot tell from `truth`, drawn with `dice` (which advances past the draws
// made). Throws std::invalid_argument for a seat out of range.
void sample_world(const State& truth, int seat, Dice& dice, State& world);

}  // namespace ktenv::kingsburg::search

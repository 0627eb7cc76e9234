// Worlds a player cannot tell apart for native games: ktenv/kings_and_things/worlds.py's sample_world in C++,
// the same algorithm and the same draws (SplitMix64 `Dice`), hence the same world for the same seed.
//
// A world keeps everything public and everything `player` owns or has seen, and deals again the
// identities of the counters `player` cannot see (the opponents' face-down creatures on the board, their
// screens, the cup) over the same slots; the hex stack is shuffled, the other sides' secret battle
// targets are redrawn, and the world's own dice are reseeded. Counters a procedure under way refers to
// (the frame fields declared in procedures.THING_REFS, generated into KTENV_FRAME_THINGS) and bearer
// links stay in place. Face-down tiles (Mysterious Kadab) are not handled: the native engine does not
// play that option.
#pragma once

#include <array>
#include <vector>

#include "rng.hpp"
#include "state.hpp"

namespace ktenv::search {

using ThingFlags = std::array<bool, kMaxThings>;

// Per counter: named by a declared frame field or a bearer link (worlds.referenced_things).
void referenced_things(const State& s, ThingFlags& out);

// The slots a world deals again (worlds.unknown_slots): board slots (creatures only) and screen and cup
// slots (any counter), counter ids ascending.
void unknown_slots(const State& s, int player, std::vector<int>& board, std::vector<int>& loose);

// Writes into `world` a world `player` cannot tell from `truth`, drawn with `dice` (which advances past
// the draws made). Throws std::invalid_argument for a player out of range or face-down tiles.
void sample_world(const State& truth, int player, Dice& dice, State& world);

}  // namespace ktenv::search

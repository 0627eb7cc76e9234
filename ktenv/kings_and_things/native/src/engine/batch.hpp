// Many games per call, inside native code: random playouts for search and benchmarks.
#pragma once

#include "core.hpp"

namespace ktenv::batch {

// Play `s` to its end (or `max_decisions` more decisions) choosing uniformly among the legal actions
// with a generator of its own (seeded by `seed`, never the game's dice); returns the decisions played.
int play_random(State& s, std::uint64_t seed, int max_decisions);

}  // namespace ktenv::batch

// Many games per call, inside native code: random playouts for search and benchmarks.
#pragma once

#include "core.hpp"

namespace ktenv::batch {

// Play `s` to its end (or `max_decisions` more decisions) choosing uniformly among the legal actions
// with a generator of its own (seeded by `seed`, never the game's dice); returns the decisions played.
// check_index: after every decision, the Things' index must equal one built from scratch (a debug check
// for the tests; InvariantViolation names the first decision where it differs).
int play_random(State& s, std::uint64_t seed, int max_decisions, bool check_index = false);

// InvariantViolation unless s.things is what the arrays say (index_of).
void check_things_index(const State& s);

}  // namespace ktenv::batch

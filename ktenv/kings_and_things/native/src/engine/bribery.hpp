// ktenv/kings_and_things/engine/bribery.py: R12.2.5 bribery: before the battle of an exploration the explorer may buy off neutral defenders.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::bribery {

int bribe_price(const State& s, int hx, int c);
Ids bribable(const State& s, int player, int hx, const Ids& defenders);
void bribe(State& s, int player, int hx, int c);

}  // namespace ktenv::bribery

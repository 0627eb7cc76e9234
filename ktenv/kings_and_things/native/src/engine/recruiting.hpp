// ktenv/kings_and_things/engine/recruiting.py: R8 phase 3: recruit Things. Declare paid draws and a trade set, draw, pay, return the trades,
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::recruiting {

int free_count(const State& s, int player);  // R8.1.1

}  // namespace ktenv::recruiting

// ktenv/engine/setup.py: R4 setup: first player, start positions, Sea replacement, starting kingdoms, the Tower,
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::setup {

void start_game(State& s);

}  // namespace ktenv::setup

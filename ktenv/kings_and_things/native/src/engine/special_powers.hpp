// ktenv/kings_and_things/engine/special_powers.py: R15.1 phase 8: the Master Thief (A.5) and the Assassin Primus (A.7), each usable once per
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::special_powers {

Ids assassin_hexes(const State& s, int player);  // RD10.5

}  // namespace ktenv::special_powers

// ktenv/engine/battle_sides.py: Who fights in a battle and with what: the sides' counters, their values, the step each one
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::battle_sides {

}  // namespace ktenv::battle_sides

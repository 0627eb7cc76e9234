// ktenv/engine/heroes.py: R7 phase 2: recruit heroes. Dismiss, choose, gold before the roll, 2d6, gold after, place.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::heroes {

}  // namespace ktenv::heroes

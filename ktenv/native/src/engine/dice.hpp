// ktenv/engine/dice.py: Roll events (R18.5.1) and the Lucky Charm (C.6).
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::dice {

}  // namespace ktenv::dice

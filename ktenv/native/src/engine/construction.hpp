// ktenv/engine/construction.py: R14 phase 7: build Towers and raise forts, 5 gold a level, one level per hex per round.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::construction {

}  // namespace ktenv::construction

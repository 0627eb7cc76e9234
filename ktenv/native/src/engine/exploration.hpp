// ktenv/engine/exploration.py: R12.2 exploration: the roll, the defenders drawn by the player to the right, what the drawn
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::exploration {

}  // namespace ktenv::exploration

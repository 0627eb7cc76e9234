// ktenv/engine/movement.py: R11 phase 5: movement, with the moving-stack model of R11.2 / RD4.1.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::movement {

}  // namespace ktenv::movement

// ktenv/engine/support.py: R9 support and bluffs, R7.11 hero losses: shared by movement, battles and events.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::support {

}  // namespace ktenv::support

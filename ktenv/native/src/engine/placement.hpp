// ktenv/engine/placement.py: R8.3: where a Thing from the screen may be placed (setup, recruiting, after a conquest).
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::placement {

}  // namespace ktenv::placement

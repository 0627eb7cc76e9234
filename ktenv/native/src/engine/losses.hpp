// ktenv/engine/losses.py: The shared "take N losses in a hex" procedure: Terrain Disaster (B.2), Plague (B.4), Teenie Pox
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::losses {

}  // namespace ktenv::losses

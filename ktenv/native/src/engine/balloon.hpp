// ktenv/engine/balloon.py: C.2 the Balloon (and the Fan against it, C.3). A Balloon blown onto a full hex leaves a stack over
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::balloon {

}  // namespace ktenv::balloon

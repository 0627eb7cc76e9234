// ktenv/engine/deerhunter.py: A.3 Deerhunter / RD4.5: cost bookkeeping of the counters that move with him.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::deerhunter {

}  // namespace ktenv::deerhunter

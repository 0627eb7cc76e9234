// ktenv/engine/events.py: R10 phase 4: play events (Appendix B, RP-4).
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::events {

}  // namespace ktenv::events

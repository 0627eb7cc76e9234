// ktenv/engine/placement_turn.py: The placing decision (RP-S5, RP-S7, RP-3.4, RP-6.13): pick a Thing, then its hex; PASS ends.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::placement_turn {

}  // namespace ktenv::placement_turn

// ktenv/engine/combat.py: R12 phase 6: exploration and battles, organised in player segments (R12.1).
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::combat {

}  // namespace ktenv::combat

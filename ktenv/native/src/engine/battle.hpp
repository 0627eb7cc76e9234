// ktenv/engine/battle.py: R13 battles: reveal, the item windows and heroes before the first round, rounds of magic /
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::battle {

}  // namespace ktenv::battle

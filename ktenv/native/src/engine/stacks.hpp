// ktenv/engine/stacks.py: R11.4 the stack limit (10 creatures and heroes of one player in a hex; a Citadel has none) and
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::stacks {

}  // namespace ktenv::stacks

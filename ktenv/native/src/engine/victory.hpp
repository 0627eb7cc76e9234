// ktenv/engine/victory.py: R16 victory, R19 alternative victory conditions, R16.6 elimination, R16.7 the round cap,
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::victory {

}  // namespace ktenv::victory

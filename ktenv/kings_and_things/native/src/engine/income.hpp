// ktenv/kings_and_things/engine/income.py: R6 phase 1: every player takes their current income (R6.2) from the bank, in turn order.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::income {

void run(State& s);  // R6 phase 1

}  // namespace ktenv::income

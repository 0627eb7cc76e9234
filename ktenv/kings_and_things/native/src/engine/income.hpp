// Phase 1 (R6): every player takes their current income (R6.2) from the bank, in turn order.
// Python twin: engine/income.py (the same functions under the same names, in namespace ktenv::income).
#pragma once

#include "core.hpp"

namespace ktenv::income {

void run(State& s);  // R6 phase 1

}  // namespace ktenv::income

// Phase 3 (R8): recruit Things. Declare paid draws and a trade set, draw, pay, return the trades, place
// (R8.2, R8.3), then get down to the screen limit (R17.1).
// Python twin: engine/recruiting.py (the same functions under the same names, in namespace ktenv::recruiting).
#pragma once

#include "core.hpp"

namespace ktenv::recruiting {

int free_count(const State& s, int player);  // R8.1.1

}  // namespace ktenv::recruiting

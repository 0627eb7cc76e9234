// Phase 8 (R15.1): the Master Thief (A.5) and the Assassin Primus (A.7), each usable once per round by its
// owner, in the order the owner chooses.
// Python twin: engine/special_powers.py (the same functions under the same names, in namespace ktenv::special_powers).
#pragma once

#include "core.hpp"

namespace ktenv::special_powers {

Ids assassin_hexes(const State& s, int player);  // RD10.5

}  // namespace ktenv::special_powers

// Phase 7 (R14): build Towers and raise forts, 5 gold a level, one level per hex per round.
// Python twin: engine/construction.py (the same functions under the same names, in namespace ktenv::construction).
#pragma once

#include "core.hpp"

namespace ktenv::construction {

bool supply_left(const State& s, int level);  // R14.5
bool may_build_citadel(const State& s, int player);  // R14.3
HexFlags buildable(const State& s, int player);
void raise_fort(State& s, int hx, bool paid);

}  // namespace ktenv::construction

// Phase 2 (R7): recruit heroes. Dismiss, choose, gold before the roll, 2d6, gold after, place.
// Python twin: engine/heroes.py (the same functions under the same names, in namespace ktenv::heroes).
#pragma once

#include "core.hpp"

namespace ktenv::heroes {

int target(const State& s, int face);  // A.0.1 / R7.5
int bonus_cap(const State& s, int face);  // R7.6 / RD5.2
Ids pool_faces(const State& s);  // R7.3
Ids room_hexes(const State& s, int player);  // R7.7
Ids recruitable(const State& s, int player);
void dismiss(State& s, int face);  // R7.2

}  // namespace ktenv::heroes

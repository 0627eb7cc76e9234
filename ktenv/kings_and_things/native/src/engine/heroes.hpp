// ktenv/kings_and_things/engine/heroes.py: R7 phase 2: recruit heroes. Dismiss, choose, gold before the roll, 2d6, gold after, place.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
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

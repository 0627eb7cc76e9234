// ktenv/kings_and_things/engine/construction.py: R14 phase 7: build Towers and raise forts, 5 gold a level, one level per hex per round.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::construction {

bool supply_left(const State& s, int level);  // R14.5
bool may_build_citadel(const State& s, int player);  // R14.3
HexFlags buildable(const State& s, int player);
void raise_fort(State& s, int hx, bool paid);

}  // namespace ktenv::construction

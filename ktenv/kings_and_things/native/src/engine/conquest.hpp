// ktenv/kings_and_things/engine/conquest.py: R13.11 conquest (any way of taking a hex), fort reduction, and what an emptied hex leaves.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::conquest {

void conquer(State& s, int hx, int player);  // R13.11.1
void reduce_fort(State& s, int hx);  // RD7.8, R19.2.2
void leftovers_to_cup(State& s, int hx);  // RD6.3

}  // namespace ktenv::conquest

// Conquest (R13.11: any way of taking a hex), fort reduction, and what an emptied hex leaves.
// Python twin: engine/conquest.py (the same functions under the same names, in namespace ktenv::conquest).
#pragma once

#include "core.hpp"

namespace ktenv::conquest {

void conquer(State& s, int hx, int player);  // R13.11.1
void reduce_fort(State& s, int hx);  // RD7.8, R19.2.2
void leftovers_to_cup(State& s, int hx);  // RD6.3

}  // namespace ktenv::conquest

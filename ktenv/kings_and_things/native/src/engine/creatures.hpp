// Creature rules that every part of the turn asks: which Things fly.
// Python twin: engine/creatures.py (the same functions under the same names, in namespace ktenv::creatures).
#pragma once

#include "core.hpp"

namespace ktenv::creatures {

ThingFlags flying(const State& s);  // per Thing: moves as a flyer now (the printed flag; R21.2 the Aviator's creature)

}  // namespace ktenv::creatures

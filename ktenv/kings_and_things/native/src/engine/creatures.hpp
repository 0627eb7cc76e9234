// ktenv/kings_and_things/engine/creatures.py: Creature rules that every part of the turn asks: which Things fly.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::creatures {

ThingFlags flying(const State& s);  // per Thing: moves as a flyer now (the printed flag; R21.2 the Aviator's creature)

}  // namespace ktenv::creatures

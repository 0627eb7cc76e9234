// ktenv/kings_and_things/engine/interrupts.py: Choices the rules insert wherever play pauses: turning a lost hero over (R7.11, RP-2.6) and
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::interrupts {

bool pending(State& s);
void discard_done(State& s);

}  // namespace ktenv::interrupts

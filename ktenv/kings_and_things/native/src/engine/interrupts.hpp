// Choices the rules insert wherever play pauses: turning a lost hero over (R7.11, RP-2.6) and getting a
// screen back down to 10 (R17.1.2). The machine asks these before resuming a phase.
// Python twin: engine/interrupts.py (the same functions under the same names, in namespace ktenv::interrupts).
#pragma once

#include "core.hpp"

namespace ktenv::interrupts {

bool pending(State& s);
void discard_done(State& s);

}  // namespace ktenv::interrupts

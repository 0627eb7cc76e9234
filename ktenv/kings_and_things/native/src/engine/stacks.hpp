// The stack limit (R11.4: 10 creatures and heroes of one player in a hex; a Citadel has none) and stacks
// over it (RP-5.9, RD10.2): who may be over the limit for now, and the trim at the end of the owner's
// movement turn.
// Python twin: engine/stacks.py (the same functions under the same names, in namespace ktenv::stacks).
#pragma once

#include "core.hpp"

namespace ktenv::stacks {

void allow_overflow(State& s, int p);  // RD10.2
bool overflow_allowed(const State& s, int p);
void overflow_trimmed(State& s, int p);  // RP-5.9
void retreat_overflow(State& s, bool on);  // R13.8.4
int over_limit(const State& s, int p);  // a hex where p is over 10, or -1
bool trim(State& s, int p);  // false when nothing is over any more

}  // namespace ktenv::stacks

// ktenv/kings_and_things/engine/stacks.py: R11.4 the stack limit (10 creatures and heroes of one player in a hex; a Citadel has none) and
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
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

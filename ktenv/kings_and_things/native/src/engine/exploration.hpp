// ktenv/kings_and_things/engine/exploration.py: R12.2 exploration: the roll, the defenders drawn by the player to the right, what the drawn
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::exploration {

void begin(State& s, int hx, int player);
void run(State& s);  // the stage of the exploration under way
Ids neutral_defenders(const State& s, int hx);
void legal_tie(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_tie(State& s, const ActionLayout& lay, int action);
void legal_bribe(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_bribe(State& s, const ActionLayout& lay, int action);

}  // namespace ktenv::exploration

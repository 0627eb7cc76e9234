// Exploration (R12.2): the roll, the defenders drawn by the player to the right, what the drawn counters
// do, bribery (its decision; the rules of R12.2.5 are in bribery.hpp), and the battle against the
// defenders (R12.2.6).
// Python twin: engine/exploration.py (the same functions under the same names, in namespace ktenv::exploration).
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

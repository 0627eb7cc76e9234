// The placing decision (RP-S5, RP-S7, RP-3.4, RP-6.13): pick a Thing, then its hex; PASS ends.
// Python twin: engine/placement_turn.py (the same functions under the same names, in namespace ktenv::placement_turn).
#pragma once

#include "core.hpp"

namespace ktenv::placement_turn {

void begin_placement(State& s, int player, bool only_new, int only_hex, bool allow_remove);
void legal_place(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_place(State& s, const ActionLayout& lay, int action);
void legal_place_hex(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_place_hex(State& s, const ActionLayout& lay, int action);
int placeable_count(const State& s, int player);

}  // namespace ktenv::placement_turn

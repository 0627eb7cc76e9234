// ktenv/kings_and_things/engine/placement_turn.py: The placing decision (RP-S5, RP-S7, RP-3.4, RP-6.13): pick a Thing, then its hex; PASS ends.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
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

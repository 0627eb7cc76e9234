// ktenv/kings_and_things/engine/combat.py: R12 phase 6: exploration and battles, organised in player segments (R12.1).
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::combat {

// bool[player][hex]: the player has counters there (R12.1.1)
using Presence = std::array<HexFlags, kMaxPlayers>;
// the hexes with a pending battle, exploration or contest (ascending), and who is present
struct Pending { Ids items; Presence here; };

Presence presence(const State& s);
Pending pending_items(const State& s);
void run(State& s);  // the COMBAT phase runner
void legal_segment(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_segment(State& s, const ActionLayout& lay, int action);

}  // namespace ktenv::combat

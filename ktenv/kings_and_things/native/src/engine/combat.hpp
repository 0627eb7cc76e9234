// Phase 6 (R12): exploration and battles, organised in player segments (R12.1).
// Python twin: engine/combat.py (the same functions under the same names, in namespace ktenv::combat).
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

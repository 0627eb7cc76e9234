// Phase 5 (R11): movement, with the moving-stack model of R11.2 / RD4.1.
// Python twin: engine/movement.py (the same functions under the same names, in namespace ktenv::movement).
#pragma once

#include "core.hpp"

namespace ktenv::movement {

// Creatures and heroes of one player, each list ascending (Python: a pair of index arrays).
struct Members {
  Ids things, heroes;
};

// The movement turn / the move under way (nullptr when none).
MovementTurn* turn(State& s);
Move* move(State& s);
// Per hex: enemy face-down or face-up combat counters stop and pin there (R11.3.2, R11.5.1).
HexFlags enemy_presence(const State& s, int player);
// Creatures and heroes of `player` per hex, leaving out the moving stack (R11.4).
HexCounts army_counts_still(const State& s, int player);
// R11.7.1: every pin-causing enemy counter in `hx` is a face-down creature (and one is).
bool pin_challengeable(const State& s, int player, int hx);
// R11.8.1 / RD4.4: the enemy hexes taken by movement at the end of `player`'s turn.
Ids conquer_by_movement(State& s, int player);
// The order in which players entered an unexplored hex (R12.3.2 option second_to_enter).
Ids entry_order(const State& s, int hx);
// The move from `hx` begins: a bluff challenge against the pin (R11.7) or the selection.
void start_from(State& s, int hx);
// Counters in `hx` that may join the move (unmoved or chosen; unpinned, flyers, or all with the Deerhunter).
Members selectable(const State& s, int hx);
// The phase runner (RUNNERS[MOVEMENT]).
void run(State& s);

}  // namespace ktenv::movement

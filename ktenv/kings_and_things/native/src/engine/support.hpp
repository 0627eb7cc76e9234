// Support and bluffs (R9) and hero losses (R7.11): shared by movement, battles and events.
// Python twin: engine/support.py (the same functions under the same names, in namespace ktenv::support).
#pragma once

#include "core.hpp"

namespace ktenv::support {

ThingFlags supported_mask(const State& s, int player);  // per Thing: a supported creature of `player` on the board
bool supported(const State& s, int c);  // R9.1
Ids remove_revealed_bluffs(State& s);  // R9.5: the creatures sent to the cup
bool reveal(State& s, int c);  // R9.6: false if it was a bluff and left
void lose_hero(State& s, int face);  // R7.11
void clear_hero_turn(State& s, int face);

}  // namespace ktenv::support

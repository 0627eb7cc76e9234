// Small moves every part of the turn uses: drawing from the cup, returning, cashing, paying; face-down
// tiles (R20.3: never face down in the base game); forts and towns that change hex.
// Python twin: engine/common.py (the same functions under the same names, in namespace ktenv::common).
#pragma once

#include "core.hpp"

namespace ktenv::common {

int draw(State& s, int player);  // one Thing from the cup to the screen; -1 if the cup is empty (R8.1.5)
void to_cup(State& s, int c);    // RI.4
bool playable_copy(const State& s, int c);  // R20.1
int as_original(State& s, int c);           // R20.1
void used_up(State& s, int c);              // R17.2
void cash(State& s, int player, int c);     // R18.3
int treasure_value(const State& s, int player);
void put_on_board(State& s, int c, int player, int hx);  // R8.3
Ids own_income_counters(const State& s, int player);     // R18.4
void remove_income_counter(State& s, int c);             // R8.2.2 / R18.4
inline bool known_sea(const State& s, int hx) { return s.hex_terrain[hx] == SEA && !s.hex_down[hx]; }
inline bool known_land(const State& s, int hx) { return s.hex_terrain[hx] != SEA && !s.hex_down[hx]; }
bool turn_up(State& s, int hx);  // True when it is Sea
void move_town(State& s, int c, int src, int dest);  // R21.10, R22.3
void move_fort(State& s, int src, int dest);         // R21.10, R22.3

}  // namespace ktenv::common

// Mysterious Kadab (R20.3, option mysterious_kadab): the tiles laid face down. What a face-down tile
// hides for everybody (known_sea, known_land, turn_up) is in common; the face-down cost of entering a hex
// is in movement::step. Here: the hook implementations (hooks.hpp calls them behind the option) and the
// send-back of the counters on a tile that turned out Sea.
// Python twin: engine/kadab.py (the same functions under the same names, in namespace ktenv::kadab).
#pragma once

#include <cstdint>
#include <span>

#include "core.hpp"

namespace ktenv::kadab {

bool on(const State& s);
void lay_face_down(State& s);
void turn_up_starts(State& s);
void record_from(State& s, const Ids& things, const Ids& heroes, int dest);
void send_back(State& s, int hx);
bool turn_up_on_entry(State& s, int hx);
bool entered(State& s, const Ids& things, const Ids& heroes, int hx);
void clear_from(State& s, int hx);
bool turn_up_for_combat(State& s, int hx);
void look(State& s, int p, std::span<const std::int8_t> hexes);  // R22.4 Tycho Brahe (-1: off the board)

}  // namespace ktenv::kadab

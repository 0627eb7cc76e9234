// The Balloon (C.2) and the Fan against it (C.3): a flight of its own for up to three passengers. A Balloon
// blown onto a full hex leaves a stack over 10 that its owner trims at the end of their next movement turn
// (RP-5.9: stacks.hpp).
// Python twin: engine/balloon.py (the same functions under the same names, in namespace ktenv::balloon).
#pragma once

#include "core.hpp"

namespace ktenv::balloon {

constexpr int MAX_LOAD = 3;   // X21: up to three passengers
constexpr int MAX_VALUE = 3;  // value 4 or more (heroes included) may not ride
constexpr int RANGE = 3;

BalloonFlight* flight(State& s);  // this round's flight (under way or flown), or nullptr
bool flying(const State& s);      // a flight waits for its reactions or choices
Series passengers(const State& s);
int held(const State& s, int p);     // the Balloon behind p's screen (either box, R20.1), or -1
bool can_fly(const State& s, int p);  // RP-5.1
void begin(State& s, int c);          // Python's default c: magic::BALLOON
void legal_load(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_load(State& s, const ActionLayout& lay, int action);
Ids destinations(const State& s, int p);
void legal_dest(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_dest(State& s, const ActionLayout& lay, int action);
void run(State& s);  // after the reactions (movement's runner calls it while flying)
void legal_fan(State& s, const ActionLayout& lay, std::int8_t* mask);      // FAN_HEX (events registers it)
void apply_fan(State& s, const ActionLayout& lay, int action);
Ids escape_hexes(const State& s);
void legal_escape(State& s, const ActionLayout& lay, std::int8_t* mask);   // ESCAPE_HEX (events registers it)
void apply_escape(State& s, const ActionLayout& lay, int action);
void land(State& s, int hx);               // Python's _land (reactions::resume_flight's `land`)
void clear(State& s, bool keep_flight);    // Python's _clear (reactions::resume_flight's `clear`)
Ids riding(const State& s, int side);      // C.2: passengers in play with side's Balloon, ascending
void end_of_round(State& s);               // C.2

}  // namespace ktenv::balloon

// Setup (R4): first player, start positions, Sea replacement, starting kingdoms, the Tower, the initial
// draw and placement, the one-time 1-for-1 exchange, and the hex stack.
// Python twin: engine/setup.py (the same functions under the same names, in namespace ktenv::setup).
#pragma once

#include "core.hpp"

namespace ktenv::setup {

void start_game(State& s);
void run(State& s);
int initial_draw(const State& s);  // R4.7, R20.1, R20.2
HexFlags claimable(const State& s, int player);  // R4.5.3 with RD2.4
void legal_start(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_start(State& s, const ActionLayout& lay, int action);
void legal_sea(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_sea(State& s, const ActionLayout& lay, int action);
void legal_claim(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_claim(State& s, const ActionLayout& lay, int action);
void legal_tower(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_tower(State& s, const ActionLayout& lay, int action);
void legal_exchange(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_exchange(State& s, const ActionLayout& lay, int action);

}  // namespace ktenv::setup

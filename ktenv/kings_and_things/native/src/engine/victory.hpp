// Victory (R16), the alternative victory conditions (R19), elimination (R16.6), the round cap (R16.7), and
// phase 9 (R15.2): the change of turn order that closes a round.
// Python twin: engine/victory.py (the same functions under the same names, in namespace ktenv::victory).
#pragma once

#include <string>
#include <vector>

#include "core.hpp"

namespace ktenv::victory {

void declare(State& s, const std::vector<int>& winners, const std::string& reason);
void after_citadel_change(State& s);
void citadel_captured(State& s, int hx);  // R13.11.1 / R16.1
void check_sole_citadel(State& s);  // R16.2
std::vector<int> ranking_by_income(const State& s);  // R19.3 / RD9.3
void check_land_conquest(State& s);  // R19.4
void check_eliminations(State& s);  // R16.6 / RD9.1
void run_change_order(State& s);  // phase 9 (R15.2)

}  // namespace ktenv::victory

// ktenv/kings_and_things/engine/income.py: R6 phase 1: every player takes their current income (R6.2), in turn order.
#include "income.hpp"

#include "hooks.hpp"
#include "machine.hpp"

namespace ktenv::income {

void run(State& s) {
  if (s.stage == 0) {
    for (int player : turn_order(s)) s.gold[player] += income_of(s, player);
    s.stage = 1;
    if (hooks::phase_end_question(s)) return;  // R21.7: the Tax Farmer marks a hex at the end of the phase
  }
  s.phase = PHASE_HEROES;
  s.stage = 0;
  s.turn = 0;
}

void register_rules(Registry& r) { r.runner[PHASE_INCOME] = run; }

}  // namespace ktenv::income

// Bribery (R12.2.5): before the battle of an exploration the explorer may buy off neutral defenders.
// Python twin: engine/bribery.py (the same functions under the same names, in namespace ktenv::bribery).
#pragma once

#include "core.hpp"

namespace ktenv::bribery {

int bribe_price(const State& s, int hx, int c);
Ids bribable(const State& s, int player, int hx, const Ids& defenders);
void bribe(State& s, int player, int hx, int c);

}  // namespace ktenv::bribery

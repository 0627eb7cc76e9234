// ktenv/kings_and_things/engine/creatures.py: which Things fly (RD4.7, R11.5, R11.6).
#include "creatures.hpp"

#include "hooks.hpp"

namespace ktenv::creatures {

// The printed flag, plus what the optional rules add (hooks.flyers: R21.2 the Aviator's creature).
ThingFlags flying(const State& s) {
  if (!s.cfg->encounter_powers) return s.t->THING_FLYING;  // hooks::flyers adds nothing then: one copy, no loop
  return hooks::flyers(s, s.t->THING_FLYING);
}

}  // namespace ktenv::creatures

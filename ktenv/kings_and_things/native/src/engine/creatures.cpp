// ktenv/kings_and_things/engine/creatures.py: which Things fly (RD4.7, R11.5, R11.6).
#include "creatures.hpp"

#include "hooks.hpp"

namespace ktenv::creatures {

// The printed flag, plus what the optional rules add (hooks.flyers: R21.2 the Aviator's creature).
ThingFlags flying(const State& s) {
  ThingFlags out{};
  for (int c = 0; c < s.n.Things; ++c) out[c] = s.t->THING_FLYING[c];
  return hooks::flyers(s, out);
}

}  // namespace ktenv::creatures

// ktenv/engine/creatures.py: which Things fly (RD4.7, R11.5, R11.6).
#include "creatures.hpp"

namespace ktenv::creatures {

// The printed flag; the optional rules' flyers (R21.2 the Aviator, hooks.flyers) are issue 17.
ThingFlags flying(const State& s) {
  ThingFlags out{};
  for (int c = 0; c < s.n.Things; ++c) out[c] = s.t->THING_FLYING[c];
  return out;
}

}  // namespace ktenv::creatures

#include "batch.hpp"

#include "machine.hpp"

namespace ktenv::batch {

int play_random(State& s, std::uint64_t seed, int max_decisions) {
  Dice chooser = Dice::seeded(seed);
  std::array<std::int8_t, kMaxActions> mask{};
  std::array<std::int16_t, kMaxActions> legal{};
  int n = 0;
  while (s.phase != PHASE_GAME_OVER && n < max_decisions) {
    machine::legal_mask(s, mask.data());
    int count = 0;
    for (int a = 0; a < s.t->layout.size; ++a)
      if (mask[a]) legal[count++] = static_cast<std::int16_t>(a);
    if (count == 0) throw InvariantViolation("no legal action at a decision");
    machine::step_legal(s, legal[chooser.below(count)]);
    ++n;
  }
  return n;
}

}  // namespace ktenv::batch

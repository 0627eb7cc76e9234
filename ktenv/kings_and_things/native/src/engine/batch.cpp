#include "batch.hpp"

#include "machine.hpp"

namespace ktenv::batch {

void check_things_index(const State& s) {
  if (index_of(s) == s.things) return;
  throw InvariantViolation("the Things' index differs from the arrays (round " + std::to_string(s.round) + ", phase " +
                           std::to_string(s.phase) + ", decision " + std::to_string(s.decision) + ")");
}

int play_random(State& s, std::uint64_t seed, int max_decisions, bool check_index) {
  Dice chooser = Dice::seeded(seed);
  std::array<std::int8_t, kMaxActions> mask{};
  std::array<std::int16_t, kMaxActions> legal{};
  int n = 0;
  while (s.phase != PHASE_GAME_OVER && n < max_decisions) {
    machine::legal_mask(s, mask.data());
    const int count = allowed(mask.data(), s.t->layout.size, legal.data());
    if (count == 0) throw InvariantViolation("no legal action at a decision");
    machine::step_legal(s, legal[chooser.below(count)]);
    ++n;
    if (check_index) check_things_index(s);
  }
  return n;
}

}  // namespace ktenv::batch

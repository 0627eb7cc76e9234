// The phase machine: stops at a decision point, exposes the legal actions, resumes on one. Each part of
// the turn registers its phase runners and decision rules in `Registry` from its `register_rules`
// function, as the Python modules fill RUNNERS and DECISIONS.
// Python twin: engine/machine.py (the same functions under the same names, in namespace ktenv::machine).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "core.hpp"

namespace ktenv {

using MaskRule = void (*)(State&, const ActionLayout&, std::int8_t*);
using ApplyRule = void (*)(State&, const ActionLayout&, int);
using Runner = void (*)(State&);

constexpr int kDecisions = decision::N_DECISIONS;
constexpr int kMaxActions = 1024;  // the largest action space (six players, two boxes) fits

// The actions a mask allows (its nonzero bytes in [0, size)), ascending, into `out`: at most `limit`;
// returns how many. Eight bytes at a time, since a mask of hundreds of actions allows a few.
template <class T>
int allowed(const std::int8_t* mask, int size, T* out, int limit = kMaxActions) {
  int n = 0, a = 0;
  for (; a + 8 <= size; a += 8) {
    std::uint64_t w;
    std::memcpy(&w, mask + a, 8);
    while (w) {
      const int b = __builtin_ctzll(w) >> 3;
      if (n == limit) return n;
      out[n++] = static_cast<T>(a + b);
      w &= ~(std::uint64_t{0xFF} << (8 * b));
    }
  }
  for (; a < size; ++a)
    if (mask[a]) {
      if (n == limit) return n;
      out[n++] = static_cast<T>(a);
    }
  return n;
}
constexpr int kPhases = PHASE_GAME_OVER + 1;

struct Registry {
  std::array<MaskRule, kDecisions> mask{};
  std::array<ApplyRule, kDecisions> apply{};
  std::array<Runner, kPhases> runner{};
  void decision(int code, MaskRule m, ApplyRule a) {
    mask[code] = m;
    apply[code] = a;
  }
};

// The modules that register rules (machine.py's PARTS), in the same order.
#define KTENV_PARTS(X) \
  X(setup)             \
  X(income)            \
  X(heroes)            \
  X(recruiting)        \
  X(placement_turn)    \
  X(events)            \
  X(movement)          \
  X(balloon)           \
  X(combat)            \
  X(construction)      \
  X(special_powers)    \
  X(victory)           \
  X(interrupts)        \
  X(powers)            \
  X(house)             \
  X(boat)

#define KTENV_DECLARE_REGISTER(module) \
  namespace module {                   \
  void register_rules(Registry& r);    \
  }
KTENV_PARTS(KTENV_DECLARE_REGISTER)
#undef KTENV_DECLARE_REGISTER

const Registry& registry();

namespace machine {

// A new game at its first decision (Python: new_game(config, seed)).
State new_game(std::shared_ptr<const Rules> rules, std::uint64_t seed);
// The int8 mask over the whole action space into `out` (layout.size entries); all zeros once over.
void legal_mask(State& s, std::int8_t* out);
// Apply one action of the current actor and run on to the next decision; an illegal action throws
// IllegalAction and changes nothing.
void step(State& s, int action);
// step() for an action known to be legal (taken from this decision's mask): no second mask.
void step_legal(State& s, int action);
// Say that the state was changed by other means than the machine: the cached mask is dropped and the
// Things' index rebuilt from the arrays.
void edited(State& s);
// Run the automatic rules until someone must choose between at least two actions.
void advance(State& s);

// The machine's smaller steps, for the differential tests (Python: machine._apply, one pass of
// _advance's inner loop).
void apply(State& s, int action);
void run_once(State& s);  // if no interrupt is pending: the phase's runner

}  // namespace machine
}  // namespace ktenv

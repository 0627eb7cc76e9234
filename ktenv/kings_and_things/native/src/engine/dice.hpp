// Roll events (R18.5.1) and the Lucky Charm (C.6). Every roll goes through roll(s, code, n); the rule reads
// its dice with take(s, code) in its next stage, after any Lucky Charm window (dice::pending, asked by
// interrupts). The game's generator itself is ../rng.hpp.
// Python twin: engine/dice.py (the same functions under the same names, in namespace ktenv::dice).
#pragma once

#include "core.hpp"

namespace ktenv {
struct Registry;
}

namespace ktenv::dice {

// Codes of the rolls (Rolls.code). Battle sides use BATTLE + side.
constexpr int HERO = 0, EXPLORE = 1, DAMAGE = 2, SAVE = 3, FIREWALL = 4, WARLORD = 5, DUEL_A = 6, DUEL_B = 7,
              STRIKE = 8, EVENT = 9, EVENT_B = 10;
constexpr int BATTLE = 20;
constexpr int SHOWN = 16;  // the Lucky Charm's holder sees (and may change) the first 16 dice of a roll
constexpr int LUCKY_CHARM = magic::LUCKY_CHARM;

// The dice of one roll, in order (Python: a list of ints).
using Thrown = Ids;

// R18.5.2: for table rolls (1/6 results, saves, 6-8) a 0 counts as 1 and a 7 as 6.
inline int table(int value) { return std::min(6, std::max(1, value)); }
// Python's sum(...) of a roll.
inline int sum(const Thrown& d) {
  int t = 0;
  for (int x : d) t += x;
  return t;
}

void roll(State& s, int code, int n);
bool held(const State& s, int code);
Thrown take(State& s, int code);
Thrown peek(const State& s, int code);
void set_die(State& s, int code, int i, int value);
int holder(const State& s);
bool pending(State& s);
void legal_die(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_die(State& s, const ActionLayout& lay, int action);
void legal_sign(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_sign(State& s, const ActionLayout& lay, int action);
// DECISIONS (LUCKY_DIE, LUCKY_SIGN): interrupts' register_rules calls it, as interrupts.py merges them
void register_rules(Registry& r);

}  // namespace ktenv::dice

// ktenv/kings_and_things/engine/dice.py: roll events (R18.5.1) and the Lucky Charm (C.6). The dice of every roll wait in
// the Rolls frame; a LuckyCharm window asks each holder in turn order (R18.6.1) before they are read.
#include "dice.hpp"

#include "common.hpp"
#include "machine.hpp"

namespace ktenv::dice {
namespace {

// Where the dice of roll `code` lie in rolls.dice: (first, count).
struct Span {
  int first, n;
};
Span span(const Rolls& rolls, int code) {
  int k = index_of(rolls.code, code);
  if (k < 0) throw InvariantViolation("dice: no roll " + std::to_string(code));
  int first = 0;
  for (int i = 0; i < k; ++i) first += rolls.count[i];
  return {first, rolls.count[k]};
}

Thrown slice(const Rolls& rolls, Span sp, int limit) {
  Thrown out;
  for (int i = 0; i < std::min(sp.n, limit); ++i) out.push_back(rolls.dice[sp.first + i]);
  return out;
}

Thrown remove(Rolls& rolls, int code) {
  Span sp = span(rolls, code);
  int k = index_of(rolls.code, code);
  Thrown out = slice(rolls, sp, sp.n);
  rolls.dice.erase(rolls.dice.begin() + sp.first, rolls.dice.begin() + sp.first + sp.n);
  rolls.code.erase(rolls.code.begin() + k);
  rolls.count.erase(rolls.count.begin() + k);
  return out;
}

// The holder sees the dice it may change (observation registers, actor only).
void show(const State& s, LuckyCharm& window) {
  const Rolls* rolls = s.frame<Rolls>();
  Thrown d = slice(*rolls, span(*rolls, window.code), SHOWN);
  window.shown.assign(d.begin(), d.end());
}

// R20.1: one Lucky Charm per box; a second-box copy acts as the original.
template <class F>
void each_charm(const State& s, F f) {
  for (int c = 0; c < s.n.Things; ++c)
    if (s.t->THING_ORIGINAL[c] == LUCKY_CHARM) f(c);
}

// The Lucky Charm behind p's screen (either box), or -1.
int charm_of(const State& s, int p) {
  int out = -1;
  each_charm(s, [&](int c) {
    if (out < 0 && s.thing_place[c] == SCREEN && s.thing_owner[c] == p) out = c;
  });
  return out;
}

// The asked holder is done with this roll; the window stays open for another holder.
void next_holder(State& s) {
  LuckyCharm* window = s.frame<LuckyCharm>();
  window->asked |= 1 << s.actor;
  window->die = -1;
  show(s, *window);
}

}  // namespace

void roll(State& s, int code, int n) {
  Thrown rolled;
  for (int i = 0; i < n; ++i) rolled.push_back(s.rng.d6());
  Rolls* rolls = s.frame<Rolls>();
  if (rolls == nullptr) rolls = &s.push(Rolls{});
  if (contains(rolls->code, code)) remove(*rolls, code);  // a roll never read gives way to the new one
  rolls->code.push_back(code);
  rolls->count.push_back(n);
  rolls->dice.insert(rolls->dice.end(), rolled.begin(), rolled.end());
  if (n && holder(s) >= 0) {
    auto& window = s.push(LuckyCharm{});
    window.code = code;
    show(s, window);
  }
}

bool held(const State& s, int code) {
  const Rolls* rolls = s.frame<Rolls>();
  return rolls != nullptr && contains(rolls->code, code);
}

Thrown take(State& s, int code) {
  Rolls* rolls = s.frame<Rolls>();
  if (rolls == nullptr) throw InvariantViolation("dice: no roll to take");
  Thrown out = remove(*rolls, code);
  if (rolls->code.empty()) s.drop<Rolls>();
  return out;
}

Thrown peek(const State& s, int code) {
  const Rolls* rolls = s.frame<Rolls>();
  if (rolls == nullptr) throw InvariantViolation("dice: no roll to peek");
  Span sp = span(*rolls, code);
  return slice(*rolls, sp, sp.n);
}

void set_die(State& s, int code, int i, int value) {
  Rolls* rolls = s.frame<Rolls>();
  rolls->dice[span(*rolls, code).first + i] = value;
}

int holder(const State& s) {
  const LuckyCharm* window = s.frame<LuckyCharm>();
  int asked = window != nullptr ? window->asked : 0;
  int holders = 0;  // bit set of players
  each_charm(s, [&](int c) {
    if (s.thing_place[c] == SCREEN) holders |= 1 << s.thing_owner[c];
  });
  if (holders == 0) return -1;
  for (int p : turn_order(s))
    if ((holders >> p & 1) && !(asked >> p & 1)) return p;
  return -1;
}

bool pending(State& s) {
  LuckyCharm* window = s.frame<LuckyCharm>();
  if (window == nullptr) return false;
  int p = holder(s);
  if (p < 0) {
    s.drop<LuckyCharm>();
    return false;
  }
  s.decision = window->die >= 0 ? decision::LUCKY_SIGN : decision::LUCKY_DIE;
  s.actor = p;
  return true;
}

void legal_die(State& s, const ActionLayout&, std::int8_t* mask) {
  int n = peek(s, s.frame<LuckyCharm>()->code).size();
  for (int i = 0; i < std::min(n, SHOWN); ++i) mask[NUMBER + i] = 1;
  mask[PASS] = 1;
}

void apply_die(State& s, const ActionLayout&, int action) {
  s.decision = decision::NONE;
  if (action == PASS)
    next_holder(s);
  else
    s.frame<LuckyCharm>()->die = action - NUMBER;
}

void legal_sign(State& s, const ActionLayout&, std::int8_t* mask) {
  const LuckyCharm* window = s.frame<LuckyCharm>();
  int die = peek(s, window->code)[window->die];
  if (die > 0) mask[NUMBER] = 1;      // -1
  if (die < 7) mask[NUMBER + 1] = 1;  // +1
}

// C.6: one die +1 or -1 (R18.5.2: it may leave 1-6); then the charm goes to the cup.
void apply_sign(State& s, const ActionLayout&, int action) {
  LuckyCharm* window = s.frame<LuckyCharm>();
  int value = peek(s, window->code)[window->die];
  set_die(s, window->code, window->die, value + (action == NUMBER + 1 ? 1 : -1));
  common::used_up(s, charm_of(s, s.actor));
  next_holder(s);
  s.stats.magic_played += 1;
  s.decision = decision::NONE;
}

void register_rules(Registry& r) {
  r.decision(decision::LUCKY_DIE, legal_die, apply_die);
  r.decision(decision::LUCKY_SIGN, legal_sign, apply_sign);
}

}  // namespace ktenv::dice

// ktenv/kings_and_things/engine/bribery.py: R12.2.5 bribery of neutral defenders before the battle of an exploration.
#include "bribery.hpp"

#include "common.hpp"

namespace ktenv::bribery {

// Combat value, doubled when the hex holds a treasure, a magic item or an income counter (RD6.1).
int bribe_price(const State& s, int hx, int c) {
  bool guarded = false;
  each_board_thing_at(s, hx, [&](int t) {
    int kind = s.t->THING_KIND[t];
    guarded |= kind == TREASURE || kind == MAGIC;
  });
  int income = s.hex_income[hx];
  bool doubles = guarded || (income >= 0 && (s.t->THING_KIND[income] == SPECIAL_INCOME || s.cfg->bribe_double_on_city));
  return s.t->THING_COMBAT[c] * (doubles ? 2 : 1);
}

Ids bribable(const State& s, int player, int hx, const Ids& defenders) {
  int gold = s.gold[player];
  Ids out;
  for (int c : defenders)
    if (bribe_price(s, hx, c) <= gold) out.push_back(c);
  return out;
}

// A bribed creature goes back to the cup; a bribed city or village is neutralized but stays.
void bribe(State& s, int player, int hx, int c) {
  s.gold[player] -= bribe_price(s, hx, c);
  s.stats.bribes += 1;
  if (s.t->THING_KIND[c] == CREATURE)
    common::to_cup(s, c);
  else
    s.thing_damage[c] = s.t->THING_COMBAT[c];
}

}  // namespace ktenv::bribery

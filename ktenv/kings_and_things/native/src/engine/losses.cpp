// ktenv/kings_and_things/engine/losses.py: take N losses in a hex (B.2 Terrain Disaster, B.4 Plague, B.7 Teenie Pox,
// B.3 the excess of an escape). The procedure's state is the Losses frame.
#include "losses.hpp"

#include "common.hpp"
#include "conquest.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "support.hpp"

namespace ktenv::losses {
namespace {

// What the owner may lose next.
struct Offer {
  Ids creatures, heroes;
  int town = -1, fort = 0;
};

Offer offer(const State& s) {
  const Losses* ls = s.frame<Losses>();
  int hx = ls->hex, q = ls->owner;
  Offer o;
  o.creatures = where_on_board_at(s, hx, [&](int c) { return s.thing_owner[c] == q && s.t->THING_KIND[c] == CREATURE; });
  if (ls->heroes) o.heroes = where(s.n.Faces, [&](int f) { return s.hero_owner[f] == q && s.hero_hex[f] == hx; });
  bool army_left = !o.creatures.empty() || !o.heroes.empty();
  if (!ls->army_only && s.hex_owner[hx] == q && !(ls->creatures_first && army_left)) {
    int c = s.hex_income[hx];
    o.town = (c >= 0 && (s.t->THING_KIND[c] == CITY || s.t->THING_KIND[c] == VILLAGE)) ? c : -1;
    o.fort = s.hex_fort[hx];
    if (o.fort == 4 && !ls->citadel) o.fort = 0;  // R14.4: a Citadel is never reduced
  }
  return o;
}

// Take forced losses; ask when there is a choice; finish when done.
void settle(State& s) {
  Losses* ls = s.frame<Losses>();
  while (true) {
    int left = ls->left;
    Offer o = offer(s);
    int cap = o.creatures.size() + o.heroes.size() + (o.town >= 0 ? 1 : 0) + o.fort;
    if (left <= 0 || cap == 0 || (ls->until_no_creature && o.creatures.empty())) {
      s.drop<Losses>();
      s.decision = decision::NONE;
      return;
    }
    bool only_creatures = o.heroes.empty() && o.town < 0 && o.fort == 0;
    if (left < cap || (ls->until_no_creature && !only_creatures)) {
      s.decision = decision::LOSS;
      s.actor = ls->owner;
      return;
    }
    for (int c : o.creatures) hooks::eliminate(s, c);  // everything offered must go: no choice (R21.4 Brute)
    for (int f : o.heroes) support::lose_hero(s, f);
    if (o.town >= 0) common::to_cup(s, o.town);
    for (int i = 0; i < o.fort; ++i) conquest::reduce_fort(s, ls->hex);
    ls->left = left - cap;
  }
}

}  // namespace

void start(State& s, int hx, int owner, int n, int flags) {
  auto& ls = s.push(Losses{});
  ls.hex = hx;
  ls.owner = owner;
  ls.left = n;
  ls.heroes = flags & HEROES;
  ls.creatures_first = flags & FIRST;
  ls.until_no_creature = flags & UNTIL_NO_CREATURE;
  ls.citadel = flags & CITADEL;
  ls.army_only = flags & ARMY;
  settle(s);
}

// Flags of B.2 / B.7 losses: heroes count; event_losses option; Citadels per R19.2.2.
int event_flags(const State& s, bool disaster) {
  int flags = HEROES | (s.cfg->event_losses == option::event_losses_creatures_first ? FIRST : 0);
  if (disaster && s.cfg->victory == option::victory_unique_b &&
      (s.cfg->unique_b_vulnerable == option::unique_b_vulnerable_combat_and_disaster || citadel_hexes(s).size() >= 2))
    flags |= CITADEL;
  return flags;
}

void legal_loss(State& s, const ActionLayout& lay, std::int8_t* mask) {
  Offer o = offer(s);
  for (int c : o.creatures) mask[lay.thing + c] = 1;
  for (int f : o.heroes) mask[lay.hero + f] = 1;
  if (o.town >= 0) mask[lay.thing + o.town] = 1;
  if (o.fort) mask[lay.hex + s.frame<Losses>()->hex] = 1;
}

// One loss: a creature, city or village to the cup, a hero to the pool, or a fort level.
void apply_loss(State& s, const ActionLayout& lay, int action) {
  if (action < lay.thing)
    conquest::reduce_fort(s, action - lay.hex);  // a Tower goes back to the bank
  else if (action < lay.hero)
    hooks::eliminate(s, action - lay.thing);  // to the cup (R21.4 Brute)
  else
    support::lose_hero(s, action - lay.hero);
  s.frame<Losses>()->left -= 1;
  settle(s);
}

void register_rules(Registry& r) { r.decision(decision::LOSS, legal_loss, apply_loss); }

}  // namespace ktenv::losses

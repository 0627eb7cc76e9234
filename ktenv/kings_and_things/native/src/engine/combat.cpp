// ktenv/kings_and_things/engine/combat.py: R12 phase 6: exploration and battles, organised in player segments (R12.1).
#include "combat.hpp"

#include <vector>

#include "battle.hpp"
#include "exploration.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "movement.hpp"

namespace ktenv::combat {
namespace {

// X12: the player who chose the contest, or (option) the second player to have moved in.
int contest_attacker(const State& s, int hx, int chooser, const std::vector<int>& present) {
  if (s.cfg->contest_attacker == option::contest_attacker_second_to_enter) {
    std::vector<int> entered;
    for (int p : movement::entry_order(s, hx))
      if (std::find(present.begin(), present.end(), p) != present.end()) entered.push_back(p);
    if (entered.size() >= 2) return entered[1];
  }
  return chooser;
}

// R12.3: the nearest player to the attacker's right who is present defends.
int contest_defender(const State& s, int attacker, const std::vector<int>& present) {
  Order order = turn_order(s);
  int n = static_cast<int>(order.size());
  int i = static_cast<int>(std::find(order.begin(), order.end(), attacker) - order.begin());
  if (i == n) throw std::logic_error("contest_defender: the attacker is not in the turn order");
  for (int k = 1; k < n; ++k) {
    int candidate = order[floor_mod(i - k, n)];
    if (std::find(present.begin(), present.end(), candidate) != present.end()) return candidate;
  }
  return attacker;
}

void battle_done(State& s) {
  const Battle& b = *s.frame<Battle>();
  BattleKind kind = b.kind;
  int hx = b.hex, won = b.winner;
  s.drop<Battle>();
  if (kind == BattleKind::CONTEST && won >= 0 && won != NEUTRAL) {
    exploration::begin(s, hx, won);  // R12.3.1: the survivor explores in the same segment
    return;
  }
  s.turn += 1;
}

void item_done(State& s) {
  s.drop<Exploration>();
  s.turn += 1;
}

bool involved(const Pending& pending, int player) {
  for (int h : pending.items)
    if (pending.here[player][h]) return true;
  return false;
}

}  // namespace

// bool[player, hex]: the player has combat counters or face-down counters there (R12.1.1); the hex
// owner's forts, cities and villages count as the owner's.
Presence presence(const State& s) {
  int n = s.n.Players;
  Presence out{};
  s.things.board.each([&](int c) {
    int owner = s.thing_owner[c];
    if (s.t->THING_KIND[c] == CREATURE && owner < n)
      out[owner < 0 ? owner + n : owner][s.thing_hex[c]] = true;  // numpy's negative index, as Python
  });
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] >= 0) out[s.hero_owner[f]][s.hero_hex[f]] = true;
  for (int h = 0; h < s.n.Hexes; ++h) {
    int owner = s.hex_owner[h], inc = s.hex_income[h];
    bool town = inc >= 0 && (s.t->THING_KIND[inc] == CITY || s.t->THING_KIND[inc] == VILLAGE);
    if (owner >= 0 && (s.hex_fort[h] > 0 || town)) out[owner][h] = true;
  }
  return out;
}

Pending pending_items(const State& s) {
  Pending out;
  out.here = presence(s);
  int n = s.n.Players;
  out.items = where(s.n.Hexes, [&](int h) {
    int count = 0;
    for (int p = 0; p < n; ++p) count += out.here[p][h];
    bool owned = s.hex_owner[h] >= 0;
    bool land = s.hex_terrain[h] != SEA || s.hex_down[h];  // R20.3: a face-down tile is explored (and turned up)
    return (owned && count >= 2) || (!owned && land && count >= 1);
  });
  return out;
}

void run(State& s) {
  if (Exploration* x = s.frame<Exploration>()) {
    if (x->done)
      item_done(s);
    else
      exploration::run(s);
    return;
  }
  if (Battle* b = s.frame<Battle>()) {
    if (b->done)
      battle_done(s);
    else
      battle::run(s);
    return;
  }
  Pending pending = pending_items(s);
  if (pending.items.empty()) {  // R12.1.4
    s.drop<Entries>();          // entry orders matter only until the contests are fought
    s.phase = PHASE_CONSTRUCTION;
    s.stage = 0;
    s.turn = 0;
    return;
  }
  Order order = turn_order(s);
  int player = order[floor_mod(static_cast<int>(s.turn), static_cast<int>(order.size()))];
  if (involved(pending, player)) {  // R12.1.3: choosing is mandatory when involved
    s.decision = decision::SEGMENT;
    s.actor = player;
  } else {
    s.turn += 1;
  }
}

void legal_segment(State& s, const ActionLayout& lay, std::int8_t* mask) {
  Pending pending = pending_items(s);
  for (int h : pending.items)
    if (pending.here[s.actor][h]) mask[lay.hex + h] = 1;
}

void apply_segment(State& s, const ActionLayout& lay, int action) {
  int hx = action - lay.hex;
  int player = static_cast<int>(s.actor);
  s.decision = decision::NONE;
  Presence here = presence(s);
  std::vector<int> present;
  for (int p : turn_order(s))
    if (here[p][hx]) present.push_back(p);
  if (hooks::combat_hex_chosen(s, hx)) {  // R20.3 / RD10.15: Sea: everybody there goes back
    s.turn += 1;
    return;
  }
  if (s.hex_owner[hx] != NOBODY) {  // R12.1.5: the owner defends, every other player attacks
    battle::begin(s, hx, battle::OWNED, player, present, s.hex_owner[hx], NOBODY);
  } else if (present.size() == 1) {
    exploration::begin(s, hx, player);
  } else {  // R12.3 contest: the chooser attacks; the nearest player to the right defends
    int attacker = contest_attacker(s, hx, player, present);
    battle::begin(s, hx, battle::CONTEST, attacker, present,
                  contest_defender(s, attacker, present), NOBODY);
  }
}

void register_rules(Registry& r) {
  r.runner[PHASE_COMBAT] = run;
  r.decision(decision::SEGMENT, legal_segment, apply_segment);
  battle::register_rules(r);  // Python: **battle.DECISIONS (with battle_items')
  r.decision(decision::INCOME_TIE, exploration::legal_tie, exploration::apply_tie);
  r.decision(decision::BRIBE, exploration::legal_bribe, exploration::apply_bribe);
}

}  // namespace ktenv::combat

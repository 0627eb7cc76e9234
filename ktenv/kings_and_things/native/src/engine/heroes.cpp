// ktenv/kings_and_things/engine/heroes.py: R7 phase 2, recruit heroes. Dismiss, choose, gold before the roll, 2d6,
// gold after, place.
#include "heroes.hpp"

#include "common.hpp"
#include "dice.hpp"
#include "hooks.hpp"
#include "machine.hpp"

namespace ktenv::heroes {
namespace {

bool unlimited_attempts(const State& s) {
  return s.cfg->hero_attempts_per_round == option::hero_attempts_per_round_unlimited;
}

// The player's hero recruiting turn (a bare one outside the phase: nothing tried yet).
HeroRecruit turn_of(const State& s) {
  const auto* turn = s.frame<HeroRecruit>();
  return turn != nullptr ? *turn : HeroRecruit{};
}

void end_turn(State& s) {
  s.drop<HeroRecruit>();
  s.decision = decision::NONE;
  s.turn += 1;
}

// RD5.2 as `bonus_cap`, with the optional rules' target and roll bonus (R21.2 / R21.9 / R21.13).
int gold_cap(const State& s, int player, int face) {
  return std::max(0, hooks::hero_target(s, player, face) - 2 - hooks::hero_roll_bonus(s, player, face));
}

void after_attempt(State& s) {
  if (auto* turn = s.frame<HeroRecruit>()) turn->hero = -1;
  if (unlimited_attempts(s))
    s.decision = decision::HERO_CHOOSE;  // X6 option: more attempts in the same turn
  else
    end_turn(s);
}

// R7.5-R7.6: success at twice the value; short: offer the minimum post-roll payment.
void rolled(State& s) {
  auto* turn = s.frame<HeroRecruit>();
  int face = turn->hero;
  s.actor = turn_order(s)[s.turn];  // a Lucky Charm window may have asked another player meanwhile
  int player = static_cast<int>(s.actor);
  int total = turn->bonus;
  for (int d : dice::take(s, dice::HERO)) total += d;  // R18.5.2: modified dice as they are
  turn->bonus = -1;
  total += hooks::hero_roll_bonus(s, player, face);     // R21.2 / R21.9
  int short_by = hooks::hero_target(s, player, face) - total;  // R21.13 Recruiter
  if (short_by <= 0) {
    s.decision = decision::HERO_PLACE;
    return;
  }
  int per10 = s.cfg->hero_post_roll_bonus_per_10 + 1;  // choices (1, 2)
  int cost = 10 * -floor_div(-short_by, per10);
  if (s.gold[player] + common::treasure_value(s, player) >= cost) {
    turn->cost = cost;
    s.decision = decision::HERO_PAY;
  } else {
    after_attempt(s);  // R7.8: failure, gold paid is spent
  }
}

void run(State& s) {
  const auto* turn = s.frame<HeroRecruit>();
  if (turn != nullptr && turn->bonus >= 0) {  // the recruitment roll was made (and the Lucky Charm offered)
    rolled(s);
    return;
  }
  auto order = turn_order(s);
  if (s.turn >= static_cast<int>(order.size())) {
    s.phase = PHASE_RECRUIT;
    s.stage = s.turn = 0;
    return;
  }
  s.drop<HeroRecruit>();
  s.push(HeroRecruit{});
  s.decision = decision::HERO_CHOOSE;
  s.actor = order[s.turn];
}

void legal_choose(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int player = static_cast<int>(s.actor);
  for (int f : heroes_of(s, player)) mask[lay.hero + f] = 1;  // R7.2 dismiss
  for (int f : recruitable(s, player)) mask[lay.hero + f] = 1;
  mask[PASS] = 1;
}

void apply_choose(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    end_turn(s);
    return;
  }
  int face = action - lay.hero;
  if (s.hero_owner[face] == s.actor) {
    dismiss(s, face);
    return;
  }
  auto* turn = s.frame<HeroRecruit>();
  if (turn == nullptr) turn = &s.push(HeroRecruit{});
  turn->hero = face;
  turn->attempts += 1;
  s.decision = decision::HERO_BONUS;
}

void legal_bonus(State& s, const ActionLayout&, std::int8_t* mask) {
  int player = static_cast<int>(s.actor);
  int top = std::min<std::int64_t>(gold_cap(s, player, s.frame<HeroRecruit>()->hero),
                                   floor_div(static_cast<int>(s.gold[player]), 5));  // R21.2/R21.9/R21.13
  for (int i = 0; i <= top; ++i) mask[NUMBER + i] = 1;
}

// R7.4: pay 5 per +1 before the roll; then 2d6 (a roll event, R18.5).
void apply_bonus(State& s, const ActionLayout&, int action) {
  int bonus = action - NUMBER;
  s.gold[s.actor] -= 5 * bonus;
  s.frame<HeroRecruit>()->bonus = bonus;
  dice::roll(s, dice::HERO, 2);
  s.decision = decision::NONE;
}

void legal_pay(State& s, const ActionLayout&, std::int8_t* mask) {
  mask[PASS] = 1;
  if (s.gold[s.actor] >= s.frame<HeroRecruit>()->cost) mask[YES] = 1;
}

void apply_pay(State& s, const ActionLayout&, int action) {
  auto* turn = s.frame<HeroRecruit>();
  int cost = turn->cost;
  turn->cost = 0;
  if (action == YES) {
    s.gold[s.actor] -= cost;
    s.decision = decision::HERO_PLACE;
  } else {
    after_attempt(s);
  }
}

void legal_place(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : room_hexes(s, static_cast<int>(s.actor))) mask[lay.hex + h] = 1;
}

// R7.7: the hero is placed at once, face up, on an own land hex with room.
void apply_place(State& s, const ActionLayout& lay, int action) {
  int face = s.frame<HeroRecruit>()->hero;
  s.hero_owner[face] = s.actor;
  s.hero_hex[face] = action - lay.hex;
  s.stats.heroes_recruited += 1;
  after_attempt(s);
}

}  // namespace

int target(const State& s, int face) { return 2 * s.t->HERO_COMBAT[face]; }

int bonus_cap(const State& s, int face) { return std::max(0, target(s, face) - 2); }

// R7.3: the face-up side of every unowned counter (R22: house heroes only when in play).
Ids pool_faces(const State& s) {
  Ids out;
  for (int k = 0; k < s.n.Counters; ++k) {
    int face = 2 * k + s.hero_up[k];
    if (s.hero_owner[face] == NOBODY && hooks::hero_counters_in_play(s, k)) out.push_back(face);
  }
  return out;
}

Ids room_hexes(const State& s, int player) {
  HexCounts room = room_for(s, player);
  return where(s.n.Hexes, [&](int h) { return s.hex_owner[h] == player && room[h] > 0; });
}

Ids recruitable(const State& s, int player) {
  if (!unlimited_attempts(s) && turn_of(s).attempts >= 1) return {};  // one attempt a round (R7.1)
  if (room_hexes(s, player).empty()) return {};  // RD5.3
  Ids faces = pool_faces(s);
  bool owns_lord = false;
  for (int f : heroes_of(s, player)) owns_lord = owns_lord || s.t->HERO_LORD_TERRAIN[f] >= 0;
  if (!owns_lord) return faces;
  Ids out;  // R7.3: one terrain lord at a time
  for (int f : faces)
    if (s.t->HERO_LORD_TERRAIN[f] < 0) out.push_back(f);
  return out;
}

// R7.2: off the board, counter turned over (mandatory), the other side available at once.
void dismiss(State& s, int face) {
  s.hero_owner[face] = NOBODY;
  s.hero_hex[face] = -1;
  if (hooks::hero_may_turn(s, face)) s.hero_up[face / 2] ^= 1;  // R22.4: Tycho Brahe without Kadab
  s.stats.heroes_dismissed += 1;
}

void register_rules(Registry& r) {
  r.decision(decision::HERO_CHOOSE, legal_choose, apply_choose);
  r.decision(decision::HERO_BONUS, legal_bonus, apply_bonus);
  r.decision(decision::HERO_PAY, legal_pay, apply_pay);
  r.decision(decision::HERO_PLACE, legal_place, apply_place);
  r.runner[PHASE_HEROES] = run;
}

}  // namespace ktenv::heroes

// ktenv/kings_and_things/engine/construction.py: R14 phase 7, build Towers and raise forts, 5 gold a level, one level
// per hex per round.
#include "construction.hpp"

#include "common.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "victory.hpp"

namespace ktenv::construction {
namespace {

constexpr int BUILD_COST = 5;  // R14.1

void run(State& s) {
  auto order = turn_order(s);
  if (s.turn >= static_cast<int>(order.size())) {
    victory::check_sole_citadel(s);  // R14.7 / R16.2
    if (!game_over(s)) {
      s.phase = PHASE_SPECIAL;
      s.stage = s.turn = 0;
    }
    return;
  }
  s.decision = decision::BUILD;
  s.actor = order[s.turn];
}

void legal_build(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int player = static_cast<int>(s.actor);
  HexFlags ok = buildable(s, player);
  for (int h = 0; h < s.n.Hexes; ++h)
    if (ok[h]) mask[lay.hex + h] = 1;
  for (int c : common::own_income_counters(s, player)) mask[lay.thing + c] = 1;  // R18.4 / RD8.4
  mask[PASS] = 1;
}

void apply_build(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    s.decision = decision::NONE;
    s.turn += 1;
    return;
  }
  if (action >= lay.thing) {
    common::remove_income_counter(s, action - lay.thing);
    return;
  }
  raise_fort(s, action - lay.hex, true);
}

}  // namespace

// R14.5: a level can be built only while one of its counters is in the bank.
bool supply_left(const State& s, int level) {
  return s.cfg->fort_supply == option::fort_supply_unlimited || fort_in_use(s, level) < s.t->fort_count[level];
}

// R14.3: owns no Citadel, income at least 20 (15 with 2-3 players); R19.2.1: only the first.
bool may_build_citadel(const State& s, int player) {
  if (!citadel_hexes(s, player).empty()) return false;
  if (s.cfg->victory == option::victory_unique_a && !citadel_hexes(s).empty()) return false;
  int n = s.n.Players;
  int needed = n == 6 ? 25
               : n == 4 ? 20
               : n == 2 ? (s.cfg->citadel_income_2p == option::citadel_income_2p_20 ? 20 : 15)
                        : 15;  // GameConfig.citadel_income
  return income_of(s, player) >= needed;
}

// Hexes where `player` may build now (R14.2).
HexFlags buildable(const State& s, int player) {
  HexFlags ok{};
  if (s.gold[player] < hooks::build_cost(s, player, BUILD_COST) || (s.cfg->no_construction_round_1 && s.round == 1))
    return ok;
  for (int h = 0; h < s.n.Hexes; ++h)
    ok[h] = s.hex_owner[h] == player && s.hex_fort[h] < 4 && s.hex_fort_round[h] != s.round;
  auto drop_level = [&](int fort) {  // no hex may go from `fort` to fort + 1
    for (int h = 0; h < s.n.Hexes; ++h)
      if (s.hex_fort[h] == fort) ok[h] = false;
  };
  auto any_at = [&](int fort) {
    for (int h = 0; h < s.n.Hexes; ++h)
      if (ok[h] && s.hex_fort[h] == fort) return true;
    return false;
  };
  for (int level = 1; level < 5; ++level)  // the level a build would reach: fort + 1
    if (any_at(level - 1) && !supply_left(s, level)) drop_level(level - 1);
  if (any_at(3) && !may_build_citadel(s, player)) drop_level(3);
  return ok;
}

// One level up (a Tower on an empty hex); the fort counter below returns to the bank.
void raise_fort(State& s, int hx, bool paid) {
  if (paid) {
    int owner = s.hex_owner[hx];
    s.gold[owner] -= hooks::build_cost(s, owner, BUILD_COST);  // R21.3 Builder
  }
  s.hex_fort[hx] += 1;
  s.hex_fort_round[hx] = static_cast<std::int16_t>(s.round);
  s.stats.forts_built += 1;
  if (s.hex_fort[hx] == 4) {
    s.hex_citadel_round[hx] = static_cast<std::int16_t>(s.round);
    s.hex_citadel_seq[hx] = static_cast<std::int16_t>(s.citadel_seq);
    s.citadel_seq += 1;
    s.hex_citadel_built[hx] = true;
    victory::after_citadel_change(s);
  }
}

void register_rules(Registry& r) {
  r.decision(decision::BUILD, legal_build, apply_build);
  r.runner[PHASE_CONSTRUCTION] = run;
}

}  // namespace ktenv::construction

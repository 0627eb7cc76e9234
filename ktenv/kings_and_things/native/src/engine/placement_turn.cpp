// ktenv/kings_and_things/engine/placement_turn.py: the placing decision (RP-S5, RP-S7, RP-3.4, RP-6.13): pick a Thing,
// then its hex; PASS ends. In the Recruit Things turn it also removes own income counters (R8.2.2).
#include "placement_turn.hpp"

#include "common.hpp"
#include "machine.hpp"
#include "placement.hpp"

namespace ktenv::placement_turn {
namespace {

using placement::PlacementTargets;

Placement& placement_of(State& s) { return *s.frame<Placement>(); }

void end_placement(State& s) {
  s.drop<Placement>();
  s.decision = decision::NONE;
}

Ids candidates(State& s, const PlacementTargets& targets) {
  Ids mine = screen(s, s.actor);
  if (placement_of(s).only_new) {
    Ids fresh;
    for (int c : mine)
      if (s.thing_new[c]) fresh.push_back(c);
    mine = fresh;
  }
  return targets.placeable(s, mine);
}

}  // namespace

void begin_placement(State& s, int player, bool only_new, int only_hex, bool allow_remove) {
  s.drop<Placement>();
  auto& f = s.push(Placement{});
  f.only_new = only_new;
  f.hex = only_hex;
  f.may_remove = allow_remove;
  s.decision = decision::PLACE;
  s.actor = player;
}

void legal_place(State& s, const ActionLayout& lay, std::int8_t* mask) {
  PlacementTargets targets(s, s.actor, placement_of(s).hex);
  for (int c : candidates(s, targets)) mask[lay.thing + c] = 1;
  if (placement_of(s).may_remove)
    for (int c : common::own_income_counters(s, s.actor)) mask[lay.thing + c] = 1;
  mask[PASS] = 1;
}

void apply_place(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    end_placement(s);
    return;
  }
  int c = action - lay.thing;
  if (s.thing_place[c] == BOARD) {  // only own income counters are offered from the board
    common::remove_income_counter(s, c);
    return;
  }
  placement_of(s).thing = c;
  s.decision = decision::PLACE_HEX;
}

void legal_place_hex(State& s, const ActionLayout& lay, std::int8_t* mask) {
  Placement& f = placement_of(s);
  PlacementTargets targets(s, s.actor, f.hex);
  HexFlags ok = targets.hexes_for(s, f.thing);
  for (int h = 0; h < s.n.Hexes; ++h)
    if (ok[h]) mask[lay.hex + h] = 1;
}

void apply_place_hex(State& s, const ActionLayout& lay, int action) {
  Placement& f = placement_of(s);
  int c = f.thing;
  f.thing = -1;
  common::put_on_board(s, c, static_cast<int>(s.actor), action - lay.hex);
  s.decision = decision::PLACE;
}

int placeable_count(const State& s, int player) {  // for agents and tests
  return PlacementTargets(s, player, -1).placeable(s, screen(s, player)).size();
}

void register_rules(Registry& r) {
  r.decision(decision::PLACE, legal_place, apply_place);
  r.decision(decision::PLACE_HEX, legal_place_hex, apply_place_hex);
}

}  // namespace ktenv::placement_turn

// ktenv/kings_and_things/engine/battle_sides.py: who fights in a battle and with what (R13.1, R13.4, R13.5, C.5, C.7, C.10, C.11).
#include "battle_sides.hpp"

#include "hooks.hpp"

namespace ktenv::battle_sides {
namespace {

const Battle& battle_of(const State& s) { return *s.frame<Battle>(); }

int step_of_thing(const State& s, int c) {
  return s.t->THING_MAGIC[c] ? MAGIC_STEP : s.t->THING_RANGED[c] ? RANGED_STEP : MELEE_STEP;
}

int step_of_hero(const State& s, int f) {
  return s.t->HERO_MAGIC[f] ? MAGIC_STEP : s.t->HERO_RANGED[f] ? RANGED_STEP : MELEE_STEP;
}

int carried(const State& s, int item, int side) { return in_play(s, side, item) ? s.thing_bearer[item] : -1; }

// numpy's index of a hex number: a negative one counts from the end
int np_hex(const State& s, int h) { return h < 0 ? h + s.n.Hexes : h; }

}  // namespace

const Series& order(const State& s) { return battle_of(s).order; }

int defender(const State& s) { return battle_of(s).defender; }

int controller(const State& s, int side) { return side == NEUTRAL ? battle_of(s).controller : side; }

Ids creatures(const State& s, int side, int hx) {
  return where_on_board_at(s, hx, [&](int c) { return s.thing_owner[c] == side && s.t->THING_KIND[c] == CREATURE; });
}

Ids heroes(const State& s, int side, int hx) {
  if (side == NEUTRAL) return {};
  return where(s.n.Faces, [&](int f) { return s.hero_owner[f] == side && s.hero_hex[f] == hx; });
}

bool in_play(const State& s, int side, int item) {
  if (item >= s.n.Things) return false;  // not in this game's catalog (the Boat without house content, R22.6)
  return s.thing_in_play[item] && s.thing_owner[item] == side && s.thing_hex[item] == battle_of(s).hex;
}

int town(const State& s, int side, int hx) {
  int c = s.hex_income[hx];
  int kind = c >= 0 ? s.t->THING_KIND[c] : -1;
  if (c >= 0 && (kind == CITY || kind == VILLAGE) && s.thing_owner[c] == side) return c;
  return -1;
}

int town_value(const State& s, int c) {
  return c >= 0 ? std::max(0, static_cast<int>(s.t->THING_COMBAT[c]) - s.thing_damage[c]) : 0;
}

int fort_value(const State& s, int side, int hx) {
  if (side == NEUTRAL || s.hex_owner[hx] != side) return 0;
  return std::max(0, static_cast<int>(s.hex_fort[hx]) - s.hex_fort_damage[hx]);
}

int firewall_value(const State& s, int side) {
  if (!in_play(s, side, FIREWALL)) return 0;
  return std::max(0, battle_of(s).firewall - s.thing_damage[FIREWALL]);
}

bool has_golem(const State& s, int side) { return in_play(s, side, GOLEM) && !s.thing_damage[GOLEM]; }

bool active(const State& s, int side, int hx) {
  return !creatures(s, side, hx).empty() || !heroes(s, side, hx).empty() || fort_value(s, side, hx) ||
         town_value(s, town(s, side, hx)) || firewall_value(s, side) || has_golem(s, side);
}

Ids active_sides(const State& s) {
  const Battle& b = battle_of(s);
  Ids out;
  for (int side : b.order)
    if (active(s, side, b.hex)) out.push_back(side);
  return out;
}

std::optional<Ids> balloon_riders(const State& s, int side) {
  if (!(in_play(s, side, BALLOON) && !s.thing_damage[BALLOON])) return std::nullopt;
  Ids out;
  if (const BalloonFlight* f = s.frame<BalloonFlight>())
    for (int c : f->passengers)
      if (!out.contains(c)) out.push_back(c);
  return out;
}

Attacks attackers(const State& s, int side, int step) {
  const Battle& b = battle_of(s);
  int hx = b.hex;
  int penalty = (s.cloud_hex == hx && s.hex_owner[hx] == side) ? 1 : 0;  // B.10 black cloud
  bool dispelled = side != NEUTRAL ? (b.dispelled >> side & 1) : false;  // C.8
  dispelled = dispelled || hooks::magic_to_melee(s, side);                // R21.9 Magician
  int bow = carried(s, BOW, side), sword = carried(s, SWORD, side);
  std::optional<Ids> riders = balloon_riders(s, side);
  hooks::Riders sail = hooks::battle_riders(s, side);  // R22.6: the Boat's passengers fire as Ranged
  if (!sail.things.empty()) {
    if (!riders) riders = Ids{};
    for (int c : sail.things)
      if (!riders->contains(c)) riders->push_back(c);
  }
  bool any_riders = riders && !riders->empty();
  Attacks out;
  int ones = 0;  // R21.12 Populous: value-1 creatures attacking with one die
  if (step == RANGED_STEP && balloon_riders(s, side)) out.push_back({BALLOON_VALUE, 1, -1});  // C.2 / RD7.1
  if (step == RANGED_STEP)
    for (const auto& e : hooks::extra_ranged_attacks(s, side)) out.push_back({e.a, e.b, e.c});  // R22.6
  for (int c : creatures(s, side, hx)) {
    int value = s.t->THING_COMBAT[c];
    bool charge = s.t->THING_CHARGE[c];
    int own_step;
    if (any_riders && riders->contains(c)) {  // C.2: passengers fire as ranged attackers, one die each
      own_step = RANGED_STEP;
      charge = false;
    } else if (c == bow) {  // C.10: ranged, +1, one die
      own_step = RANGED_STEP;
      value += 1;
      charge = false;
    } else if (c == sword) {  // C.11: charge in melee, +1, two dice
      own_step = MELEE_STEP;
      value += 1;
      charge = true;
    } else {
      own_step = step_of_thing(s, c);
      if (own_step == MAGIC_STEP && dispelled) own_step = MELEE_STEP;
    }
    if (own_step == step) {
      bool two = charge && step == MELEE_STEP;
      out.push_back({value - penalty, two ? 2 : 1, -1});
      ones += value == 1 && !two;
    }
  }
  for (int f : heroes(s, side, hx)) {
    int own_step = step_of_hero(s, f);
    if (own_step == MAGIC_STEP && dispelled) own_step = MELEE_STEP;
    bool sailing = sail.heroes.contains(f);
    if (sailing) own_step = RANGED_STEP;  // R22.6: heroes aboard attack as Ranged, one die
    if (own_step != step) continue;
    int value = s.t->HERO_COMBAT[f], tag = -1;
    if (f == MARKSMAN && b.marksman == 2) {  // A.6
      value = s.t->HERO_ALT_VALUE[f];
      tag = f;
    }
    out.push_back({value - penalty, (s.t->HERO_CHARGE[f] && step == MELEE_STEP && !sailing) ? 2 : 1, tag});
  }
  if (step == MELEE_STEP) {
    int value = town_value(s, town(s, side, hx));
    if (value) out.push_back({value - penalty, 1, -1});
    if (has_golem(s, side)) out.push_back({GOLEM_VALUE, 1, -1});  // no counter of the hex: no cloud penalty
  }
  int level = fort_value(s, side, hx);
  if (level && FORT_STEP[s.hex_fort[hx]] == step) out.push_back({level - penalty, 1, -1});
  if (step == MAGIC_STEP && firewall_value(s, side)) out.push_back({firewall_value(s, side) - penalty, 1, -1});
  if (ones && hooks::fights_as_populous(s, side)) return populous_dice(out, ones, penalty);  // R21.12, R22.2
  return out;
}

Attacks populous_dice(const Attacks& out, int ones, int penalty) {
  Attack single{1 - penalty, 1, -1};
  Attacks kept;
  int dropped = 0;
  for (const Attack& entry : out) {  // equal entries are interchangeable: drop n one-die value-1 attacks
    if (dropped < ones && entry == single)
      ++dropped;
    else
      kept.push_back(entry);
  }
  kept.push_back({1 - penalty, 3 * ones - 1, -1});
  return kept;
}

Ids hit_targets(const State& s, int side, int hex_base, int thing_base, int hero_base) {
  const Battle& b = battle_of(s);
  int hx = b.hex, step = b.step;
  Ids acts;
  for (int c : creatures(s, side, hx))
    if (s.thing_damage[c] == 0) acts.push_back(thing_base + c);
  int c = town(s, side, hx);
  if (town_value(s, c)) acts.push_back(thing_base + c);
  for (int f : heroes(s, side, hx))
    if (s.hero_damage[f] == 0) acts.push_back(hero_base + f);
  if (fort_value(s, side, hx)) acts.push_back(hex_base + hx);
  if (firewall_value(s, side)) acts.push_back(thing_base + FIREWALL);
  if (has_golem(s, side) && step != RANGED_STEP) acts.push_back(thing_base + GOLEM);  // C.7: no ranged hits
  for (int item : {BOW, SWORD, BALLOON, BOAT})  // R13.5.3 / R22.6: one hit eliminates the item
    if (in_play(s, side, item) && !s.thing_damage[item]) acts.push_back(thing_base + item);
  return acts;
}

Ids retreat_hexes(const State& s, int side) {
  int hx = battle_of(s).hex;
  if (side == NEUTRAL) return {};  // R13.8.5: neutral defenders never retreat
  Ids around;
  for (int d = 0; d < 6; ++d)
    if (s.t->neighbours[hx][d] >= 0) around.push_back(s.t->neighbours[hx][d]);
  std::optional<Ids> riders = balloon_riders(s, side);
  Ids here = creatures(s, side, hx);
  Ids here_heroes = heroes(s, side, hx);
  if (riders && !riders->empty() && here_heroes.empty()) {
    bool all_aboard = true;
    for (int c : here) all_aboard = all_aboard && riders->contains(c);
    if (all_aboard) {  // C.2: with the Balloon
      int reach = s.cfg->balloon_retreat == option::balloon_retreat_within_3 ? 3 : 99;
      around = where(s.n.Hexes, [&](int h) { return s.t->distance[hx][h] <= reach && h != hx; });
    }
  }
  hooks::Riders sail = hooks::battle_riders(s, side);
  if (!sail.things.empty() || !sail.heroes.empty()) {
    bool aboard = true;
    for (int c : here) aboard = aboard && sail.things.contains(c);
    for (int f : here_heroes) aboard = aboard && sail.heroes.contains(f);
    if (aboard) {  // R22.6: by Boat across one Sea hex (np.union1d: sorted, unique)
      HexFlags in{};
      for (int h : around) in[h] = true;
      for (int h : hooks::rider_retreat_hexes(s, side, hx)) in[h] = true;
      around = where(s.n.Hexes, [&](int h) { return in[h]; });
    }
  }
  Ids own;
  for (int h : around)
    if (s.hex_owner[h] == side) own.push_back(h);
  if (own.empty()) return own;
  HexFlags blocked{};
  s.things.board.each([&](int c) {
    if (s.t->THING_KIND[c] == CREATURE && s.thing_owner[c] != side) blocked[np_hex(s, s.thing_hex[c])] = true;
  });
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] != side && s.hero_owner[f] != NOBODY) blocked[np_hex(s, s.hero_hex[f])] = true;
  Ids out;
  for (int h : own)
    if (!blocked[h]) out.push_back(h);
  return out;
}

}  // namespace ktenv::battle_sides

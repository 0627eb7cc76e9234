// Where a Thing from the screen may be placed (R8.3: setup, recruiting, after a conquest).
// PlacementTargets is small and used by several modules, so it is defined here in full (inline).
// Python twin: engine/placement.py (the same functions under the same names, in namespace ktenv::placement).
#pragma once

#include "core.hpp"

namespace ktenv::placement {

// Legal hexes per kind of Thing for one player, computed once per decision.
struct PlacementTargets {
  HexFlags creature{};                  // R8.3.5: at most 10 (Citadel: no limit)
  HexFlags city{};                      // R8.3.3: one income counter per hex
  std::array<HexFlags, 7> by_terrain{};  // R8.3.4: a special income counter on its terrain
  int n_hexes = 0;

  PlacementTargets(const State& s, int player, int only_hex) : n_hexes(s.n.Hexes) {
    HexCounts room = room_for(s, player);
    for (int h = 0; h < s.n.Hexes; ++h) {
      bool own = s.hex_owner[h] == player && (only_hex < 0 || h == only_hex);  // R8.3.1, R13.11.2
      creature[h] = own && room[h] > 0;
      city[h] = own && s.hex_income[h] < 0;
      for (int t = 0; t < 7; ++t) by_terrain[t][h] = city[h] && s.hex_terrain[h] == t;
    }
  }

  // The hexes where Thing `c` may go (all false: it stays behind the screen, R8.3.2).
  HexFlags hexes_for(const State& s, int c) const {
    int kind = s.t->THING_KIND[c];
    if (kind == CREATURE) return creature;
    if (kind == CITY || kind == VILLAGE) return city;
    if (kind == SPECIAL_INCOME) return by_terrain[s.t->THING_TERRAIN[c]];
    return HexFlags{};
  }

  bool any(const HexFlags& f) const {
    for (int h = 0; h < n_hexes; ++h)
      if (f[h]) return true;
    return false;
  }

  // The subset of `things` (in their order) that has at least one legal hex.
  Ids placeable(const State& s, const Ids& things) const {
    Ids out;
    bool creature_ok = any(creature), city_ok = any(city);
    for (int c : things) {
      int kind = s.t->THING_KIND[c];
      bool ok = false;
      if (kind == CREATURE) ok = creature_ok;
      else if (kind == CITY || kind == VILLAGE) ok = city_ok;
      else if (kind == SPECIAL_INCOME) ok = any(by_terrain[s.t->THING_TERRAIN[c]]);
      if (ok) out.push_back(c);
    }
    return out;
  }
};

}  // namespace ktenv::placement

// ktenv/kings_and_things/engine/support.py: R9 support and bluffs, R7.11 hero losses.
#include "support.hpp"

#include "common.hpp"
#include "hooks.hpp"

namespace ktenv::support {

// R9.1 for one creature on the board (neutral defenders need no support, R9.2).
bool supported(const State& s, int c) {
  int owner = s.thing_owner[c];
  if (owner == NEUTRAL) return true;
  int terrain = s.t->THING_TERRAIN[c];
  for (int h = 0; h < s.n.Hexes; ++h)
    if (s.hex_owner[h] == owner && s.hex_terrain[h] == terrain) return true;
  for (int f = 0; f < s.n.Faces; ++f)  // the first such terrain lord decides
    if (s.hero_owner[f] == owner && s.t->HERO_LORD_TERRAIN[f] == terrain) return s.hero_hex[f] == s.thing_hex[c];
  return false;
}

ThingFlags supported_mask(const State& s, int player) {
  std::array<bool, N_TERRAINS> own_terrains{};
  for (int h = 0; h < s.n.Hexes; ++h)
    if (s.hex_owner[h] == player) own_terrains[s.hex_terrain[h]] = true;
  ThingFlags ok{};
  Ids mine = where_on_board(s, [&](int c) { return s.thing_owner[c] == player && s.t->THING_KIND[c] == CREATURE; });
  for (int c : mine) ok[c] = own_terrains[std::max<int>(s.t->THING_TERRAIN[c], 0)];
  for (int f = 0; f < s.n.Faces; ++f) {  // R9.1: the terrain lord supports its terrain's creatures in its hex
    if (s.hero_owner[f] != player || s.t->HERO_LORD_TERRAIN[f] < 0) continue;
    for (int c : mine)
      ok[c] = ok[c] || (s.t->THING_TERRAIN[c] == s.t->HERO_LORD_TERRAIN[f] && s.thing_hex[c] == s.hero_hex[f]);
  }
  return ok;
}

// R9.5: every face-up unsupported creature of a player goes to the cup (not a casualty, R9.7).
Ids remove_revealed_bluffs(State& s) {
  Ids removed;
  Ids face_up = where_on_board(s, [&](int c) {
    return s.thing_face_up[c] && s.t->THING_KIND[c] == CREATURE && s.thing_owner[c] != NEUTRAL;
  });
  std::array<bool, kSides + 1> present{};  // np.unique: owners ascending (index owner + 1: NOBODY too)
  for (int c : face_up) present[s.thing_owner[c] + 1] = true;
  for (int owner = NOBODY; owner < kSides; ++owner) {
    if (!present[owner + 1]) continue;
    ThingFlags ok = supported_mask(s, owner);
    for (int c : face_up) {
      if (s.thing_owner[c] != owner || ok[c]) continue;
      common::to_cup(s, c);
      removed.push_back(c);
    }
  }
  return removed;
}

// R9.6, RI.4: turn a creature face up for all to see; false if it was a bluff and left.
bool reveal(State& s, int c) {
  s.thing_face_up[c] = true;
  s.thing_public[c] = true;
  if (s.thing_owner[c] != NEUTRAL && !supported(s, c)) {
    common::to_cup(s, c);
    return false;
  }
  return true;
}

// R7.11: an eliminated hero returns to the pool; its former owner may turn the counter over (RP-2.6),
// asked at the next pause in the rules (interrupts).
void lose_hero(State& s, int face) {
  int owner = s.hero_owner[face];
  s.hero_owner[face] = NOBODY;
  s.hero_hex[face] = -1;
  s.hero_status[face] = 0;
  s.hero_pinned[face] = false;
  s.hero_moved[face] = false;
  if (owner == NOBODY || !hooks::hero_may_turn(s, face)) return;  // R22.4
  HeroTurnOver* turning = s.frame<HeroTurnOver>();
  if (turning == nullptr) turning = &s.push(HeroTurnOver{});
  int at = index_of(turning->faces, face);
  if (at >= 0) {
    turning->owners[at] = owner;
    return;
  }
  int i = 0;  // kept lowest first
  for (int f : turning->faces) i += f < face;
  turning->faces.insert(turning->faces.begin() + i, face);
  turning->owners.insert(turning->owners.begin() + i, owner);
}

// The turning-over question for `face` is settled (asked, or decided by a rule).
void clear_hero_turn(State& s, int face) {
  HeroTurnOver* turning = s.frame<HeroTurnOver>();
  if (turning == nullptr) return;
  int i = index_of(turning->faces, face);
  if (i >= 0) {
    turning->faces.erase(turning->faces.begin() + i);
    turning->owners.erase(turning->owners.begin() + i);
  }
  if (turning->face == face) turning->face = -1;
  if (turning->faces.empty() && turning->face < 0) s.drop<HeroTurnOver>();
}

}  // namespace ktenv::support

// ktenv/kings_and_things/engine/kadab.py: R20.3 Mysterious Kadab, bit for bit (see kadab.hpp).
#include "kadab.hpp"

#include "common.hpp"
#include "heroes.hpp"
#include "stacks.hpp"

namespace ktenv::kadab {

bool on(const State& s) { return s.cfg->mysterious_kadab; }

// R20.3: every tile goes on the board face down (hook game_setup).
void lay_face_down(State& s) {
  if (!on(s)) return;
  for (int h = 0; h < s.n.Hexes; ++h) s.hex_down[h] = true;
}

// RD10.15: start hexes and their neighbours are turned up before R3.4 applies (hook start_hexes_chosen).
void turn_up_starts(State& s) {
  if (!on(s)) return;
  for (int p = 0; p < s.n.Players; ++p) {
    int hx = s.start_hex[p];
    if (hx < 0) continue;
    s.hex_down[hx] = false;
    for (int y : s.t->neighbours[hx])
      if (y >= 0) s.hex_down[y] = false;
  }
}

// RD10.15: counters entering face-down `dest` remember the land hex they stood on.
void record_from(State& s, const Ids& things, const Ids& heroes, int dest) {
  if (!s.hex_down[dest]) return;
  for (int c : things) s.thing_from[c] = s.thing_hex[c];
  for (int f : heroes) s.hero_from[f] = s.hero_hex[f];
}

// R20.3: the tile of `hx` turned out Sea: every creature and hero there returns to the hex it came from
// (none recorded, or a Sea: eliminated, as Python does), stacks may overflow until their owner's next move.
void send_back(State& s, int hx) {
  Ids things = where(s.n.Things, [&](int c) { return s.thing_place[c] == BOARD && s.thing_hex[c] == hx; });
  Ids heroes = where(s.n.Faces, [&](int f) { return s.hero_owner[f] != NOBODY && s.hero_hex[f] == hx; });
  for (int c : things) {
    int back = s.thing_from[c];
    if (back >= 0 && s.hex_terrain[back] != SEA)
      set_hex(s, c, back);
    else
      common::to_cup(s, c);
  }
  for (int f : heroes) {
    int back = s.hero_from[f];
    if (back >= 0 && s.hex_terrain[back] != SEA)
      s.hero_hex[f] = static_cast<std::int8_t>(back);
    else
      heroes::dismiss(s, f);
  }
  for (int p = 0; p < s.n.Players; ++p) {
    HexCounts room = room_for(s, p);
    for (int h = 0; h < s.n.Hexes; ++h)
      if (room[h] < 0) {
        stacks::allow_overflow(s, p);  // RD10.2: trimmed by the owner at their next move (RP-5.9)
        break;
      }
  }
  for (int c : things) s.thing_from[c] = -1;
  for (int f : heroes) s.hero_from[f] = -1;
  clear_from(s, hx);
}

// [ER] mysterious_flip=on_entry: counters entering a face-down tile turn it up; a Sea sends back every
// counter already there (the caller sends back the ones entering). True when the tile was Sea.
bool turn_up_on_entry(State& s, int hx) {
  if (s.cfg->mysterious_flip != option::mysterious_flip_on_entry || !s.hex_down[hx]) return false;
  if (common::turn_up(s, hx)) {
    send_back(s, hx);
    return true;
  }
  return false;
}

// hook entered_face_down: the stack remembers where it came from; [ER] the tile may turn up.
bool entered(State& s, const Ids& things, const Ids& heroes, int hx) {
  record_from(s, things, heroes, hx);
  return turn_up_on_entry(s, hx);
}

// Forget the origins of the counters in `hx` and of those that came from it.
void clear_from(State& s, int hx) {
  for (int c = 0; c < s.n.Things; ++c)
    if (s.thing_hex[c] == hx || s.thing_from[c] == hx) s.thing_from[c] = -1;
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_hex[f] == hx || s.hero_from[f] == hx) s.hero_from[f] = -1;
}

// hook combat_hex_chosen, RD10.15: an exploration or contest hex is turned up before the roll / the
// contest battle. True when it was Sea (the counters went back and the segment is over).
bool turn_up_for_combat(State& s, int hx) {
  if (!s.hex_down[hx]) return false;
  if (common::turn_up(s, hx)) {
    send_back(s, hx);
    return true;
  }
  for (int c = 0; c < s.n.Things; ++c)
    if (s.thing_hex[c] == hx) s.thing_from[c] = -1;
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_hex[f] == hx) s.hero_from[f] = -1;
  return false;
}

// R22.4 Tycho Brahe: player p now knows the terrain of these face-down hexes (private).
void look(State& s, int p, std::span<const std::int8_t> hexes) {
  for (int hx : hexes)
    if (hx >= 0 && s.hex_down[hx]) s.seen[p][hx] = true;
}

}  // namespace ktenv::kadab

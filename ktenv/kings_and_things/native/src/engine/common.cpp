#include "common.hpp"

#include <string_view>

namespace ktenv::common {

int draw(State& s, int player) {
  Ids c_up = cup(s);
  if (c_up.empty()) return -1;
  int c = c_up[static_cast<int>(s.rng.below(c_up.size()))];
  set_place(s, c, SCREEN);
  set_owner(s, c, player);
  if (c_up.size() == 1) s.cup_ran_dry = 1;  // R17.2.1: true elimination from the last draw on
  return c;
}

void to_cup(State& s, int c) {
  if (s.thing_place[c] == BOARD && s.hex_income[s.thing_hex[c]] == c) s.hex_income[s.thing_hex[c]] = -1;
  set_place(s, c, CUP);
  set_owner(s, c, NOBODY);
  set_hex(s, c, -1);
  s.thing_face_up[c] = false;
  s.thing_public[c] = false;
  s.thing_selected[c] = false;
  s.thing_in_play[c] = false;
  s.thing_bearer[c] = -1;
  s.thing_damage[c] = 0;
  set_mp(s, c, 0);
  set_status(s, c, 0);  // a counter that leaves the board no longer moves
  s.thing_pinned[c] = false;
  s.thing_moved[c] = false;
}

bool playable_copy(const State& s, int c) {
  int o = s.t->THING_ORIGINAL[c];
  return o == c || !s.thing_in_play[o];
}

int as_original(State& s, int c) {
  int o = s.t->THING_ORIGINAL[c];
  if (o != c) {
    unindex_thing(s, s.things, c);
    unindex_thing(s, s.things, o);
#define KTENV_SWAP_THING(name, type, size) \
  if constexpr (std::string_view(#name).starts_with("thing_")) std::swap(s.name[c], s.name[o]);
    KTENV_STATE_ARRAYS(KTENV_SWAP_THING)
#undef KTENV_SWAP_THING
    index_thing(s, s.things, c);
    index_thing(s, s.things, o);
  }
  return o;
}

void used_up(State& s, int c) {
  to_cup(s, c);
  if (s.cup_ran_dry) set_place(s, c, OUT);
}

void cash(State& s, int player, int c) {
  s.gold[player] += s.t->THING_GOLD[c];
  s.stats.treasures_cashed += 1;
  used_up(s, c);
}

int treasure_value(const State& s, int player) {
  int total = 0;
  for (int c : screen(s, player)) total += s.t->THING_GOLD[c];
  return total;
}

void put_on_board(State& s, int c, int player, int hx) {
  set_place(s, c, BOARD);
  set_owner(s, c, player);
  set_hex(s, c, hx);
  s.thing_selected[c] = false;
  int kind = s.t->THING_KIND[c];
  if (kind == SPECIAL_INCOME || kind == CITY || kind == VILLAGE) {
    s.hex_income[hx] = c;
    s.thing_face_up[c] = true;
    s.thing_public[c] = true;
  } else {
    s.thing_face_up[c] = false;
  }
}

Ids own_income_counters(const State& s, int player) {
  Ids out;
  for (int h = 0; h < s.n.Hexes; ++h)
    if (s.hex_owner[h] == player && s.hex_income[h] >= 0) out.push_back(s.hex_income[h]);
  return out;
}

void remove_income_counter(State& s, int c) {
  to_cup(s, c);
  s.stats.income_counters_removed += 1;
}

bool turn_up(State& s, int hx) {
  s.hex_down[hx] = false;
  return s.hex_terrain[hx] == SEA;
}

void move_town(State& s, int c, int src, int dest) {
  set_hex(s, c, dest);
  s.hex_income[src] = -1;
  s.hex_income[dest] = c;
}

void move_fort(State& s, int src, int dest) {
  s.hex_fort[dest] = s.hex_fort[src];
  s.hex_fort[src] = 0;
  s.hex_fort_round[dest] = s.hex_fort_round[src];
  s.hex_fort_round[src] = -1;
}

}  // namespace ktenv::common

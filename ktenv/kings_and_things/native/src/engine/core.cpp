#include "core.hpp"

namespace ktenv {

int n_players(const State& s) { return s.n.Players; }

Order turn_order(const State& s) {
  Order out;
  int n = s.n.Players;
  for (int i = 0; i < n; ++i) {
    int q = static_cast<int>((s.first_player + i) % n);
    if (s.alive[q]) out.push_back(q);
  }
  return out;
}

int right_of(const State& s, int player) {
  auto order = turn_order(s);
  int i = static_cast<int>(std::find(order.begin(), order.end(), player) - order.begin());
  if (i == static_cast<int>(order.size())) throw std::logic_error("right_of: player is not in the turn order");
  return order[floor_mod(i - 1, static_cast<int>(order.size()))];
}

Ids screen(const State& s, int player) {
  if (player >= 0 && player < kMaxPlayers) return ids_of(s.things.screen_of[player]);
  return where(s.n.Things, [&](int c) { return s.thing_place[c] == SCREEN && s.thing_owner[c] == player; });
}

int screen_size(const State& s, int player) {
  if (player >= 0 && player < kMaxPlayers) return s.things.screen_size[player];
  return count_where(s.n.Things, [&](int c) { return s.thing_place[c] == SCREEN && s.thing_owner[c] == player; });
}

Ids cup(const State& s) { return ids_of(s.things.cup); }

Ids owned_hexes(const State& s, int player) {
  return where(s.n.Hexes, [&](int h) { return s.hex_owner[h] == player; });
}

int land_hex_count(const State& s, int player) {
  return count_where(s.n.Hexes, [&](int h) { return s.hex_owner[h] == player; });
}

Ids heroes_of(const State& s, int player) {
  return where(s.n.Faces, [&](int f) { return s.hero_owner[f] == player; });
}

HexCounts army_counts(const State& s, int player) {
  HexCounts counts{};
  s.things.board.each([&](int c) {
    if (s.thing_owner[c] == player && s.t->THING_KIND[c] == CREATURE) ++counts[s.thing_hex[c]];
  });
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] == player) ++counts[s.hero_hex[f]];
  return counts;
}

HexCounts room_for(const State& s, int player) { return room_for(s, player, army_counts(s, player)); }

HexCounts room_for(const State& s, int player, const HexCounts& counts) {
  (void)player;
  HexCounts room{};
  for (int h = 0; h < s.n.Hexes; ++h) room[h] = s.hex_fort[h] == 4 ? 10'000 : STACK_LIMIT - counts[h];
  return room;
}

int income_of(const State& s, int player) {
  int total = 0;
  bool dwarf = s.hero_owner[hero::DWARF_KING] == player;
  int mark = s.power_hex[player];
  bool marked = mark >= 0 && s.hex_owner[mark] == player && s.hex_income[mark] >= 0;
  for (int h = 0; h < s.n.Hexes; ++h) {
    if (s.hex_owner[h] != player) continue;
    total += 1 + s.hex_fort[h];
    int c = s.hex_income[h];
    if (c < 0) continue;
    int value = s.t->THING_INCOME[c];
    if (dwarf && s.t->THING_IS_MINE[c]) value *= 2;                   // A.9
    if (marked && c == s.hex_income[mark]) value *= 2;               // R21.7 Tax Farmer
    total += value;
  }
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] == player) ++total;
  return total;
}

Ids citadel_hexes(const State& s, int player) {
  return where(s.n.Hexes, [&](int h) { return s.hex_fort[h] == 4 && (player == -2 || s.hex_owner[h] == player); });
}

int fort_in_use(const State& s, int level) {
  return count_where(s.n.Hexes, [&](int h) { return s.hex_fort[h] == level; });
}

int open_screen(const State& s) {
  if (const auto* d = s.frame<Discard>()) return d->player;
  const auto* r = s.frame<RecruitTurn>();
  return r == nullptr ? -1 : r->open_screen;
}

}  // namespace ktenv

// agents/kingsburg/view.py's View in C++: a seat's observation vector decoded by name (what the seat may know,
// nothing more), as the native agents read it. Seats are relative: index 0 is the observer. The layout is that of
// observation.hpp's encode (each section stored column by column).
#pragma once

#include <array>

#include "observation.hpp"

namespace ktenv::kingsburg::agents {

using Card = std::array<double, ENEMY_COLUMNS>;  // known, strength, type one-hot, reward, losses (float64 as View's)

struct View {
  int n = 0;
  std::array<std::array<int, 3>, kMaxPlayers> goods{};
  std::array<int, kMaxPlayers> tokens{}, soldiers{};
  std::array<std::array<std::array<bool, COLUMNS>, ROWS>, kMaxPlayers> built{};
  std::array<std::array<bool, 5>, kMaxPlayers> flags{};
  std::array<std::array<int, DIE_SLOTS>, kMaxPlayers> dice{}, die_on{};
  std::array<bool, kMaxPlayers> peeked{};
  std::array<int, N_ADVISORS + 1> advisor_group{};  // relative seat, -2 neutral, -1 none
  int year = 1, phase = 1, decision = 0, target = 0;
  bool has_revealed = false, has_peeked_card = false;
  Card revealed{}, peeked_card{};
  std::array<Card, 5> options{};

  bool owns(int building, int seat = 0) const { return built[seat][building / COLUMNS][building % COLUMNS]; }
  int built_in_row(int row, int seat = 0) const;
  int seasons_left() const;
  int battles_left() const;
  // the rows this year's enemy may be: the peeked card alone when the observer looked, else the five options
  int enemy_rows(const Card** out) const;
  int battle_bonus(int enemy_type = -1, int seat = 0) const;  // enemy_type -1: none
};

int enemy_type(const Card& row);  // index in catalog.ENEMY_TYPES (first of the one-hot's maxima)

// The player count whose observation has `size` floats, 0 for none.
int players_of_size(int size);
// Decodes `obs` (observation_size(n) floats) into `v`.
void decode(const float* obs, int n, View& v);

}  // namespace ktenv::kingsburg::agents

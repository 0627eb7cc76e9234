// ktenv/kingsburg/construction.py: construction (K5.5, K12, K15.D2, D19; decisions P8 and P9).
#include <algorithm>

#include "engine.hpp"

namespace ktenv::kingsburg::construction {

int next_column(const State& s, int p, int row) {
  int column = 0;
  for (bool b : s.built[p][row]) column += b;
  return column;
}

std::array<int, 3> cost(const State& s, int p, int row, int column) {
  const int* c = &BUILDING_COST[(row * COLUMNS + column) * 3];
  std::array<int, 3> price{c[0], c[1], c[2]};
  if (column >= 2 && s.owns(p, B_CRANE)) price[GOLD] = std::max(0, price[GOLD] - 1);  // K12.4
  return price;
}

int buildable_rows(const State& s, int p) {
  int limit = s.cfg.building_token_limit;
  if (limit >= 0 && s.building_count(p) >= limit) return 0;  // K5.5.3
  int out = 0;
  for (int row = 0; row < ROWS; ++row) {
    int column = next_column(s, p, row);
    if (column >= COLUMNS) continue;
    auto price = cost(s, p, row, column);
    if (s.goods[p][0] >= price[0] && s.goods[p][1] >= price[1] && s.goods[p][2] >= price[2]) out |= 1 << row;
  }
  return out;
}

void build(State& s, int p, int row) {
  int column = next_column(s, p, row);
  auto price = cost(s, p, row, column);
  for (int k = 0; k < 3; ++k) s.goods[p][k] -= price[k];
  s.built[p][row][column] = true;
  s.vp[p] += BUILDING_VP[row * COLUMNS + column];
}

void run(State& s) {
  while (s.cursor < s.n) {
    int p = s.order[s.cursor];
    s.cursor += 1;
    if (buildable_rows(s, p)) {
      ask(s, D_BUILD_TURN, p);
      return;
    }
  }
  enter(s, S_SEASON_END);
}

void build_legal(const State& s, Mask& mask) {
  mask[PASS] = 1;
  int rows = buildable_rows(s, static_cast<int>(s.actor));
  for (int row = 0; row < ROWS; ++row)
    if (rows >> row & 1) mask[BUILD + row] = 1;
}

void build_apply(State& s, int action) {
  int p = static_cast<int>(s.actor);
  if (action == PASS) {
    done(s);
    return;
  }
  build(s, p, action - BUILD);
  if (s.decision == D_BUILD_TURN && s.envoy_holder == p && buildable_rows(s, p)) {
    s.decision = D_ENVOY_BUILD;  // P9: a second build with the Envoy, or keep it
    return;
  }
  if (s.decision == D_ENVOY_BUILD) s.envoy_holder = -1;  // D19: consumed only when the second build is made
  done(s);
}

}  // namespace ktenv::kingsburg::construction

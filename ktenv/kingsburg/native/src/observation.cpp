// ktenv/kingsburg/observation.py: ObservationEncoder.encode, value for value (tests/kingsburg/
// test_kingsburg_native_vector.py compares the two on many states).
#include "observation.hpp"

#include <algorithm>

namespace ktenv::kingsburg {

namespace {

void card_row(int card, float* rows, int row) {  // observation._card_row, into row `row` of the enemies section
  const EnemyCard& c = deck().cards[card];
  auto at = [&](int column) -> float& { return rows[column * ENEMY_ROWS + row]; };
  at(0) = 1.0f;
  at(1) = static_cast<float>(c.strength);
  at(2 + c.enemy) = 1.0f;
  for (int k = 0; k < 5; ++k) at(8 + k) = static_cast<float>(c.reward[k]);
  for (int k = 0; k < 6; ++k) at(13 + k) = static_cast<float>(c.losses[k]);
}

}  // namespace

void encode(const State& s, int observer, float* out) {
  const int n = s.n;
  std::fill(out, out + observation_size(n), 0.0f);
  int rel[kMaxPlayers], place[kMaxPlayers];
  for (int k = 0; k < n; ++k) rel[(observer + k) % n] = k;
  for (int i = 0; i < n; ++i) place[s.order[i]] = i;
  // players: row k = relative seat k, stored column by column
  float* players = out;
  for (int k = 0; k < n; ++k) {
    int p = (observer + k) % n, c = 0;
    auto put = [&](double v) { players[(c++) * n + k] = static_cast<float>(v); };
    for (int g = 0; g < 3; ++g) put(s.goods[p][g]);
    put(s.tokens[p]);
    put(s.vp[p]);
    put(s.soldiers[p]);
    for (int row = 0; row < ROWS; ++row)
      for (int column = 0; column < COLUMNS; ++column) put(s.built[p][row][column]);
    put(s.envoy_holder == p);
    put(s.aid_player == p);
    put(s.passed[p]);
    for (bool f : s.flags[p]) put(f);
    put(static_cast<double>(place[p]) / std::max(1, n - 1));
    for (auto d : s.dice[p]) put(d);
    for (auto a : s.die_advisor[p]) put(std::max<int>(a, 0));
    put(s.peeked[p]);
    put(s.strength[p]);
    put(s.result[p]);
  }
  // advisors: row a - 1, columns: the original group's relative seat (or neutral), then the Envoy group's
  float* advisors = players + n * PLAYER_COLUMNS;
  for (int a = 1; a <= N_ADVISORS; ++a) {
    int g = s.advisor_group[a], e = s.advisor_envoy[a];
    if (g != -1) advisors[(g == NEUTRAL ? n : rel[g]) * N_ADVISORS + a - 1] = 1.0f;
    if (e >= 0) advisors[(n + 1 + rel[e]) * N_ADVISORS + a - 1] = 1.0f;
  }
  // game
  float* game = advisors + N_ADVISORS * (2 * n + 1);
  game[s.year - 1] = 1.0f;
  game[YEARS + s.phase - 1] = 1.0f;
  int base = YEARS + 8;
  game[base + s.stage] = 1.0f;
  base += N_STAGES;
  game[base + s.decision] = 1.0f;
  base += N_DECISIONS;
  if (s.actor >= 0 && s.actor < n && !s.game_over) game[base + rel[s.actor]] = 1.0f;
  base += n;
  game[base] = static_cast<float>(std::max<std::int64_t>(s.target, 0));
  game[base + 1] = static_cast<float>(s.picks_left);
  game[base + 2] = static_cast<float>(s.reinforcement);
  for (int k = 0; k < 3; ++k) game[base + 3 + k] = static_cast<float>(s.pick_kinds >> k & 1);
  // enemies: the revealed card, the peeked card, this year's five
  float* enemies = game + base + 6;
  if (s.enemy >= 0) card_row(static_cast<int>(s.enemy), enemies, 0);
  if (s.peeked[observer] && !s.game_over) card_row(s.enemy_deck[s.year - 1], enemies, 1);  // D20: private
  for (int i = 0; i < 5; ++i) card_row(deck().of_year[s.year - 1][i], enemies, 2 + i);
}

}  // namespace ktenv::kingsburg

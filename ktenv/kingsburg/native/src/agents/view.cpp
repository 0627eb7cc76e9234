// The View of view.hpp (agents/kingsburg/view.py).
#include "agents/view.hpp"

#include <cmath>

namespace ktenv::kingsburg::agents {

namespace {

int whole(float x) { return static_cast<int>(std::nearbyint(x)); }  // View's .round().astype(int)

int argmax(const float* x, int count) {  // numpy.argmax: the first maximum
  int best = 0;
  for (int i = 1; i < count; ++i)
    if (x[i] > x[best]) best = i;
  return best;
}

void card(const float* enemies, int row, Card& out) {
  for (int c = 0; c < ENEMY_COLUMNS; ++c) out[c] = static_cast<double>(enemies[c * ENEMY_ROWS + row]);
}

}  // namespace

int View::built_in_row(int row, int seat) const {
  int count = 0;
  for (bool b : built[seat][row]) count += b;
  return count;
}

int View::seasons_left() const {
  static constexpr int kDone[9] = {0, 0, 1, 1, 2, 2, 3, 3, 3};  // phase -> seasons done this year
  int done = (year - 1) * 3 + kDone[phase];
  return done < 15 ? 15 - done : 0;
}

int View::battles_left() const { return YEARS - year + ((phase < 8 || !has_revealed) ? 1 : 0); }

int View::enemy_rows(const Card** out) const {
  if (has_peeked_card) {
    out[0] = &peeked_card;
    return 1;
  }
  for (int i = 0; i < 5; ++i) out[i] = &options[i];
  return 5;
}

int View::battle_bonus(int type, int seat) const {
  int bonus = 0;
  for (int b = 0; b < ROWS * COLUMNS; ++b)
    if (owns(b, seat)) bonus += BUILDING_BATTLE[b];
  int special = type == E_GOBLINS ? B_BARRICADE : type == E_ZOMBIES ? B_PALISADE : type == E_DEMONS ? B_CHURCH : -1;
  if (special >= 0 && owns(special, seat)) bonus += 1;
  return bonus;
}

int enemy_type(const Card& row) {
  int best = 0;
  for (int t = 1; t < 6; ++t)
    if (row[2 + t] > row[2 + best]) best = t;
  return best;
}

int players_of_size(int size) {
  for (int n = 2; n <= kMaxPlayers; ++n)
    if (observation_size(n) == size) return n;
  return 0;
}

void decode(const float* obs, int n, View& v) {
  v.n = n;
  const float* players = obs;  // [column * n + seat]
  auto at = [&](int column, int k) { return players[column * n + k]; };
  for (int k = 0; k < n; ++k) {
    for (int g = 0; g < 3; ++g) v.goods[k][g] = whole(at(g, k));
    v.tokens[k] = whole(at(3, k));
    v.soldiers[k] = whole(at(5, k));
    for (int b = 0; b < ROWS * COLUMNS; ++b) v.built[k][b / COLUMNS][b % COLUMNS] = at(6 + b, k) != 0.0f;
    for (int f = 0; f < 5; ++f) v.flags[k][f] = at(29 + f, k) != 0.0f;
    for (int j = 0; j < DIE_SLOTS; ++j) {
      v.dice[k][j] = whole(at(35 + j, k));
      v.die_on[k][j] = whole(at(40 + j, k));
    }
    v.peeked[k] = at(45, k) != 0.0f;
  }
  const float* advisors = players + n * PLAYER_COLUMNS;  // [column * 18 + advisor - 1]
  v.advisor_group.fill(-1);
  for (int a = 0; a < N_ADVISORS; ++a) {
    int group = -1;
    for (int k = 0; k < n && group == -1; ++k)
      if (advisors[k * N_ADVISORS + a] != 0.0f) group = k;
    if (group == -1 && advisors[n * N_ADVISORS + a] != 0.0f) group = NEUTRAL;
    v.advisor_group[a + 1] = group;
  }
  const float* game = advisors + N_ADVISORS * (2 * n + 1);
  v.year = argmax(game, YEARS) + 1;
  v.phase = argmax(game + YEARS, 8) + 1;
  int base = YEARS + 8 + N_STAGES;
  v.decision = argmax(game + base, N_DECISIONS);
  base += N_DECISIONS + n;
  v.target = whole(game[base]);
  const float* enemies = game + base + 6;
  v.has_revealed = enemies[0] != 0.0f;
  v.has_peeked_card = enemies[1] != 0.0f;
  card(enemies, 0, v.revealed);
  card(enemies, 1, v.peeked_card);
  for (int i = 0; i < 5; ++i) card(enemies, 2 + i, v.options[i]);
}

}  // namespace ktenv::kingsburg::agents

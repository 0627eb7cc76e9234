// ktenv/kingsburg/common.py and state.py's derived facts.
#include "engine.hpp"

namespace ktenv::kingsburg {

State::State(const Config& c, std::uint64_t rng_state) : cfg(c), n(c.n_players) {
  rng.state = rng_state;
  for (auto& row : die_advisor) row.fill(-1);
  for (int p = 0; p < kMaxPlayers; ++p) order[p] = static_cast<std::int8_t>(p);
  result.fill(-2);  // -2: no battle yet this year
  advisor_group.fill(-1);
  advisor_envoy.fill(-1);
  neutral_advisor.fill(-1);
}

int State::building_count(int p) const {
  int count = 0;
  for (const auto& row : built[p])
    for (bool b : row) count += b;
  return count;
}

void enter(State& s, int stage, int phase) {
  s.stage = stage;
  s.cursor = 0;
  s.sub = 0;
  if (phase >= 0) s.phase = phase;
}

void ask(State& s, int decision, int player, int picks, int kinds) {
  s.decision = decision;
  s.actor = player;
  s.picks_left = picks;
  s.pick_kinds = kinds;
}

void done(State& s) {
  s.decision = D_NONE;
  s.actor = -1;
  s.picks_left = 0;
  s.pick_kinds = 0;
}

int owned_kinds(const State& s, int player) {
  int kinds = 0;
  for (int k = 0; k < 3; ++k)
    if (s.goods[player][k] > 0) kinds |= 1 << k;
  return kinds;
}

void pick_legal(const State& s, Mask& mask, bool paying) {
  int kinds = static_cast<int>(s.pick_kinds) & (paying ? owned_kinds(s, static_cast<int>(s.actor)) : ALL_KINDS);
  for (int k = 0; k < 3; ++k)
    if (kinds >> k & 1) mask[PICK_GOOD + k] = 1;
}

int stable_bonus(const State& s, int player) { return s.owns(player, B_STABLE) ? 1 : 0; }

Deck& deck() {
  static Deck d;
  return d;
}

void set_deck(const std::vector<EnemyCard>& cards) {
  Deck d;
  d.cards = cards;
  std::array<int, YEARS> filled{};
  for (int i = 0; i < static_cast<int>(cards.size()); ++i) {
    int y = cards[i].year - 1;
    if (y < 0 || y >= YEARS || filled[y] >= 5) throw std::invalid_argument("the enemy deck needs 5 cards a year");
    d.of_year[y][filled[y]++] = i;
  }
  for (int y = 0; y < YEARS; ++y)
    if (filled[y] != 5) throw std::invalid_argument("the enemy deck needs 5 cards a year");
  deck() = d;
}

}  // namespace ktenv::kingsburg

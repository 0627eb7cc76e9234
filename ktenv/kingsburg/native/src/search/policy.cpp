// The search's rollout policies (policy.hpp).
#include "search/policy.hpp"

#include <algorithm>
#include <array>

#include "observation.hpp"

namespace ktenv::kingsburg::search {
namespace {

constexpr double kVp = 1.5, kSoldier = 0.8, kToken = 0.5;  // greedy's prices (agents/kingsburg/heuristic.py)

struct Prices {
  std::array<double, 3> goods{1.0, 1.0, 1.0};
};

Prices prices_of(const State& s, int p) {
  Prices out;
  const auto& g = s.goods[p];
  const int least = std::min({g[0], g[1], g[2]});
  for (int k = 0; k < 3; ++k) out.goods[k] += 0.1 * (g[k] == least);  // a slight wish for the good it lacks
  return out;
}

// agents/kingsburg/values.py's help_value at PLAIN's prices (K11)
double help_value(const State& s, int p, int advisor, const Prices& pr) {
  const auto& g = pr.goods;
  const double best = std::max({g[0], g[1], g[2]}), sum = g[0] + g[1] + g[2];
  const double extra = s.owns(p, B_STABLE) ? kSoldier : 0.0;
  switch (advisor) {
    case 1: return kVp;
    case 2: return g[GOLD];
    case 3: return g[WOOD];
    case 4: return std::max(g[GOLD], g[WOOD]);
    case 5: return kSoldier + extra;
    case 6: {
      double out = 0.0;
      bool any = false;
      for (int k = 0; k < 3; ++k)
        if (s.goods[p][k] > 0) out = any ? std::max(out, sum - 2 * g[k]) : sum - 2 * g[k], any = true;
      return out;
    }
    case 7: return best + kToken;
    case 8: return 2 * g[GOLD];
    case 9: return g[WOOD] + std::max(g[GOLD], g[STONE]);
    case 10: return 2 * kSoldier + extra;
    case 11: return g[STONE] + std::max(g[WOOD], g[GOLD]);
    case 12: return 2 * best + kToken;
    case 13: return 3 * g[STONE];
    case 14: return -kVp + 3 * best;
    case 15: return sum;
    case 16: return 4 * g[GOLD];
    case 17: return 2 * best + 3 * kVp;
    default: return sum + kSoldier + extra;  // 18
  }
}

// the mean strength of this year's enemy as `p` may know it: the card it peeked at, else the five possible
double expected_enemy(const State& s, int p) {
  if (s.peeked[p]) return deck().cards[s.enemy_deck[s.year - 1]].strength;
  double total = 0.0;
  for (int c : deck().of_year[s.year - 1]) total += deck().cards[c].strength;
  return total / 5.0;
}

int battle_bonus(const State& s, int p) {
  int bonus = 0;
  for (int b = 0; b < ROWS * COLUMNS; ++b) bonus += s.owns(p, b) ? BUILDING_BATTLE[b] : 0;
  return bonus;
}

int influence(const State& s, int p, const Mask& mask) {
  const Prices pr = prices_of(s, p);
  int best = -1;
  double best_value = 0.0;
  for (int a = 1; a <= N_ADVISORS; ++a) {
    if (!mask[TARGET + a - 1]) continue;
    const double v = help_value(s, p, a, pr);
    if (best < 0 || v >= best_value) best = a, best_value = v;  // ties: the higher advisor
  }
  return best < 0 ? PASS : TARGET + best - 1;
}

int group_dice(const State& s, int p, const Mask& mask) {
  // fewest dice, then the lowest pips: the rest stay for later (subsets as actions.SUBSETS: c bits, then w bits)
  int best = -1, best_count = 0, best_pips = 0;
  for (int i = 0; i < N_SUBSETS; ++i) {
    if (!mask[DICE + i]) continue;
    const int c = i / 4 + 1, w = i % 4;
    int count = 0, pips = 0;
    for (int j = 0; j < 3; ++j)
      if (c >> j & 1) ++count, pips += s.dice[p][j];
    for (int j = 0; j < 2; ++j)
      if (w >> j & 1) ++count, pips += s.dice[p][3 + j];
    if (best < 0 || count < best_count || (count == best_count && pips < best_pips))
      best = i, best_count = count, best_pips = pips;
  }
  return DICE + best;
}

int build(const State& s, int p, const Mask& mask) {
  int best = -1, best_vp = -1;
  for (int row = 0; row < ROWS; ++row) {
    if (!mask[BUILD + row]) continue;
    int column = 0;
    while (column < COLUMNS && s.built[p][row][column]) ++column;
    const int vp = column < COLUMNS ? BUILDING_VP[row * COLUMNS + column] : -1;
    if (vp > best_vp) best = row, best_vp = vp;  // ties: the upper row
  }
  return best < 0 ? PASS : BUILD + best;
}

// the good by price among the actions base + 0..2; ties: the later kind when paying, the earlier when taking
// (greedy's sort); -1: none legal
int pick(const State& s, int p, const Mask& mask, bool lowest, int base = PICK_GOOD) {
  const Prices pr = prices_of(s, p);
  int best = -1;
  for (int k = 0; k < 3; ++k) {
    if (!mask[base + k]) continue;
    if (best < 0 || (lowest ? pr.goods[k] <= pr.goods[best] : pr.goods[k] > pr.goods[best])) best = k;
  }
  return best < 0 ? -1 : base + best;
}

int first_legal(const Mask& mask) {
  for (int a = 0; a < N_ACTIONS; ++a)
    if (mask[a]) return a;
  return PASS;
}

int plain_choice(const State& s, int p, const Mask& mask) {
  switch (s.decision) {
    case D_INFLUENCE: return influence(s, p, mask);
    case D_GROUP_DICE: return group_dice(s, p, mask);
    case D_MODIFIER: return MOD_MARKET;  // keep the token
    case D_BUILD_TURN:
    case D_ENVOY_BUILD: return build(s, p, mask);
    case D_RECRUIT_TURN:
      return expected_enemy(s, p) - (s.soldiers[p] + battle_bonus(s, p) + 3.5) > 0 ? RECRUIT : PASS;
    case D_REROLL:
      if (mask[CHAPEL]) return CHAPEL;
      return mask[STATUE_COLOURED] && s.dice[p][0] <= 3 ? STATUE_COLOURED : PASS;
    case D_TOWN_HALL_TURN:
      if (mask[TOWN_HALL + 3]) return TOWN_HALL + 3;  // a token is worth less than a VP
      {
        const int good = pick(s, p, mask, true, TOWN_HALL);  // the cheapest good for 1 VP
        return good < 0 ? PASS : good;
      }
    case D_RECRUIT_PAY:
    case D_LOSS_GOOD:
    case D_ALCHEMIST: return pick(s, p, mask, true);
    default: return pick(s, p, mask, false);  // goods taken: aid, help, reward, Merchants' Guild
  }
}

}  // namespace

int plain_act(const State& s, const Mask& mask) {
  const int a = plain_choice(s, static_cast<int>(s.actor), mask);
  return a >= 0 && a < N_ACTIONS && mask[a] ? a : first_legal(mask);
}

Rollout::Rollout(int policy, int n_players) : policy_(policy) {
  if (policy == GREEDY || policy == EXPERT) {
    obs_.resize(static_cast<std::size_t>(observation_size(n_players)));
    for (int p = 0; p < n_players; ++p) seats_.emplace_back(policy == GREEDY ? agents::Kind::GREEDY : agents::Kind::EXPERT);
  }
}

int Rollout::act(const State& s, const Mask& mask, Dice& dice) {
  if (policy_ == PLAIN) return plain_act(s, mask);
  if (policy_ == GREEDY || policy_ == EXPERT) {
    const int p = static_cast<int>(s.actor);
    encode(s, p, obs_.data());
    return seats_[static_cast<std::size_t>(p)].act(obs_.data(), s.n, mask.data());
  }
  int legal[N_ACTIONS], n = 0;
  for (int a = 0; a < N_ACTIONS; ++a)
    if (mask[a]) legal[n++] = a;
  return legal[dice.below(n)];
}

}  // namespace ktenv::kingsburg::search

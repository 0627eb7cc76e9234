// The agents of heuristic.hpp. Each function names its Python original; the float64 sums keep the Python
// order (built with -ffp-contract=off: no fused multiply-adds), so every price and score is the same number.
#include "agents/heuristic.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine.hpp"

namespace ktenv::kingsburg::agents {

namespace {

constexpr double DISCOUNT = 0.7;  // ExpertAgent.DISCOUNT

using influence::SUBSETS;  // actions.SUBSETS[i]: the die slots of subset i

double max3(const std::array<double, 3>& g) { return std::max(std::max(g[0], g[1]), g[2]); }
double min3(const std::array<double, 3>& g) { return std::min(std::min(g[0], g[1]), g[2]); }
double sum3(const std::array<double, 3>& g) { return g[0] + g[1] + g[2]; }  // numpy's sum of three: left to right
double pymax(double a, double b) { return b > a ? b : a; }  // Python's max(a, b): a unless b is greater

// values.help_value: the worth of advisor `advisor`'s help (K11)
double help_value(int advisor, const Prices& p, const std::array<int, 3>& goods, bool stable) {
  const auto& g = p.goods;
  const double best = max3(g), sold = p.soldier, extra = stable ? sold : 0.0;  // K15.D5
  switch (advisor) {
    case 1: return p.vp;
    case 2: return g[GOLD];
    case 3: return g[WOOD];
    case 4: return pymax(g[GOLD], g[WOOD]);
    case 5: return sold + extra;
    case 6: {
      double out = 0.0;
      bool any = false;
      for (int k = 0; k < 3; ++k)
        if (goods[k] > 0) {
          double value = sum3(g) - 2 * g[k];
          out = any ? pymax(out, value) : value;
          any = true;
        }
      return out;
    }
    case 7: return best + p.token;
    case 8: return 2 * g[GOLD];
    case 9: return g[WOOD] + pymax(g[GOLD], g[STONE]);
    case 10: return 2 * sold + extra + p.peek;
    case 11: return g[STONE] + pymax(g[WOOD], g[GOLD]);
    case 12: return 2 * best + p.token;
    case 13: return 3 * g[STONE];
    case 14: return -p.vp + 3 * best;
    case 15: return sum3(g);
    case 16: return 4 * g[GOLD];
    case 17: return 2 * best + p.peek + 3 * p.vp;
    default: return sum3(g) + sold + extra;  // 18
  }
}

// values.effect_value: a rough worth of a building's effect over the rest of the game, in VP
double effect_value(int row, int column, const View& v) {
  const int seasons = v.seasons_left(), battles = v.battles_left();
  const int b = row * COLUMNS + column;
  const double battle = static_cast<double>(BUILDING_BATTLE[b]) * 0.9 * battles;
  double bonus = 0.0;
  switch (b) {
    case B_STATUE: case B_CHAPEL: bonus = 0.2 * seasons / 3; break;
    case B_CHURCH: bonus = 0.3 * battles; break;
    case B_CATHEDRAL: bonus = 1.5; break;
    case B_INN: bonus = 0.35 * seasons / 3; break;
    case B_MARKET: bonus = 0.12 * seasons; break;
    case B_FARMS: bonus = 0.45 * seasons; break;
    case B_MERCHANTS_GUILD: bonus = 0.4 * seasons; break;
    case B_BARRACKS: bonus = 0.4 * battles; break;
    case B_PALISADE: bonus = 0.3 * battles; break;
    case B_STABLE: bonus = 0.15 * seasons; break;
    case B_STONE_WALL: bonus = 0.3 * battles; break;
    case B_FORTRESS: bonus = 0.5 * battles; break;
    case B_BARRICADE: bonus = 0.4 * battles; break;
    case B_CRANE: bonus = 0.15 * seasons; break;
    case B_TOWN_HALL: bonus = 0.35 * seasons; break;
    case B_EMBASSY: bonus = 1.0 * seasons; break;
    default: break;
  }
  return battle + bonus;
}

int last_building_vp(const View& v) {  // values.last_building_vp (K9.7)
  for (int column = COLUMNS - 1; column >= 0; --column)
    for (int row = 0; row < ROWS; ++row)
      if (v.built[0][row][column]) return BUILDING_VP[row * COLUMNS + column];
  return 0;
}

// values.card_outcome_value: the worth of fighting `row` at `strength` (K9.4-K9.7), against a draw = 0
double card_outcome_value(const View& v, const Card& row, int strength, const Prices& p) {
  const int e = static_cast<int>(std::nearbyint(row[1]));
  const double* reward = &row[8];
  const double* losses = &row[13];
  const bool won = strength > e || (strength == e && v.owns(B_STONE_WALL));
  if (won) {
    double gain = reward[0] * p.goods[0] + reward[1] * p.goods[1] + reward[2] * p.goods[2] + reward[3] * max3(p.goods) +
                  reward[4] * p.vp;
    return gain + p.vp * (static_cast<int>(v.owns(B_FORTRESS)) + 0.5);
  }
  if (strength == e) return 0.0;
  double lost[3], left[3];
  for (int k = 0; k < 3; ++k) {
    double have = v.goods[0][k];
    lost[k] = std::min(have, losses[k]);
    left[k] = have - lost[k];
  }
  double left_sum = left[0] + left[1] + left[2];
  double value = lost[0] * p.goods[0] + lost[1] * p.goods[1] + lost[2] * p.goods[2] +
                 (left_sum < losses[3] ? left_sum : losses[3]) * min3(p.goods);
  value += losses[4] * (p.vp * last_building_vp(v) + 1.0) + losses[5] * p.vp;
  return -value;
}

// values.battle_value: the expected worth of this year's battle with `extra` more soldiers
double battle_value(const View& v, int extra, const Prices& p) {
  const Card* rows[5];
  int count = v.enemy_rows(rows);
  double total = 0.0;
  for (int i = 0; i < count; ++i) {
    int base = v.soldiers[0] + extra + v.battle_bonus(enemy_type(*rows[i]));
    double sum = 0.0;
    for (int r = 1; r <= 6; ++r) sum += card_outcome_value(v, *rows[i], base + r, p);
    total += sum / 6;
  }
  return total / count;
}

std::array<int, 3> build_cost(const View& v, int row, int column) {  // heuristic.build_cost
  const int b = row * COLUMNS + column;
  std::array<int, 3> price = {BUILDING_COST[3 * b], BUILDING_COST[3 * b + 1], BUILDING_COST[3 * b + 2]};
  if (column >= 2 && v.owns(B_CRANE)) price[GOLD] = std::max(0, price[GOLD] - 1);
  return price;
}

int pips(const View& v, int subset) {  // KingsburgHeuristic._pips
  int total = 0;
  for (int j = 0; j < SUBSETS[subset].size; ++j) total += v.dice[0][SUBSETS[subset].slots[j]];
  return total;
}

// KingsburgHeuristic.pick: sorted by (price, -kind), the first (lowest price, the highest kind among equals) or the
// last (highest price, the lowest kind among equals)
int pick(const Prices& p, const std::int8_t* mask, bool lowest) {
  int chosen = -1;
  for (int k = 0; k < 3; ++k) {
    if (!mask[PICK_GOOD + k]) continue;
    if (chosen < 0 || (lowest ? p.goods[k] <= p.goods[chosen] : p.goods[k] > p.goods[chosen])) chosen = k;
  }
  if (chosen < 0) throw std::invalid_argument("kingsburg agent: no good to pick");
  return PICK_GOOD + chosen;
}

int town_hall(const Prices& p, const std::int8_t* mask) {  // KingsburgHeuristic.town_hall
  if (mask[TOWN_HALL + 3] && p.token < p.vp) return TOWN_HALL + 3;
  int kind = -1;
  for (int k = 0; k < 3; ++k)
    if (mask[TOWN_HALL + k] && (kind < 0 || p.goods[k] < p.goods[kind])) kind = k;
  if (kind >= 0 && p.goods[kind] < p.vp) return TOWN_HALL + kind;
  return PASS;
}

// ExpertAgent._free_dice: the observer's unplaced dice as codes pips * 2 + coloured, in slot order
int free_dice(const View& v, int* dice, int* slots) {
  int count = 0;
  for (int j = 0; j < DIE_SLOTS; ++j)
    if (v.dice[0][j] && v.die_on[0][j] == 0) {
      if (slots) slots[count] = j;
      dice[count++] = v.dice[0][j] * 2 + (j < 3);
    }
  return count;
}

}  // namespace

int Agent::act(const float* obs, int n_players, const std::int8_t* mask) {
  int legal[N_ACTIONS], count = 0;
  for (int a = 0; a < N_ACTIONS; ++a)
    if (mask[a]) legal[count++] = a;
  if (count == 0)
    throw std::invalid_argument(std::string(kind_ == Kind::RANDOM ? "random agent" : "kingsburg agent") +
                                ": the action mask allows no action");
  if (kind_ == Kind::RANDOM) return legal[rng_.integers(static_cast<std::uint64_t>(count))];
  if (count == 1) return legal[0];
  if (obs == nullptr) throw std::invalid_argument("kingsburg agent: it needs the observation");
  View v;
  decode(obs, n_players, v);
  int a = heuristic(v, mask);
  return mask[a] ? a : legal[0];
}

// KingsburgHeuristic.act: the decision's method
int Agent::heuristic(const View& v, const std::int8_t* mask) {
  plans_.clear();
  const Prices p = prices(v);
  switch (v.decision) {
    case D_INFLUENCE: return influence(v, p, mask);
    case D_GROUP_DICE: return group_dice(v, p, mask);
    case D_MODIFIER: return MOD_MARKET;  // keep the token
    case D_BUILD_TURN: case D_ENVOY_BUILD: return build(v, mask);
    case D_RECRUIT_TURN: return recruit(v, p) ? RECRUIT : PASS;
    case D_REROLL:
      if (mask[CHAPEL]) return CHAPEL;
      if (mask[STATUE_COLOURED] && v.dice[0][0] <= (kind_ == Kind::EXPERT ? 4 : 3)) return STATUE_COLOURED;
      return PASS;
    case D_TOWN_HALL_TURN: return town_hall(p, mask);
    case D_RECRUIT_PAY: case D_LOSS_GOOD: case D_ALCHEMIST: return pick(p, mask, true);
    default: return pick(p, mask, false);  // goods taken: aid, help, reward, Merchants' Guild
  }
}

Prices Agent::prices(const View& v) const {
  Prices p;
  if (kind_ == Kind::GREEDY) {  // GreedyAgent.prices: a slight wish for the good it lacks
    int least = std::min(std::min(v.goods[0][0], v.goods[0][1]), v.goods[0][2]);
    for (int k = 0; k < 3; ++k) p.goods[k] = 1.0 + 0.1 * (v.goods[0][k] == least ? 1.0 : 0.0);
    p.vp = 1.5, p.soldier = 0.8, p.token = 0.5;
    return p;
  }
  // ExpertAgent.prices: from a building plan and the coming battle
  const bool late = v.year == YEARS && v.phase >= 7;
  p.goods.fill(late ? 0.35 : 0.9);
  if (v.owns(B_CATHEDRAL) && late) p.goods.fill(0.5);
  if (!late) {
    // wish_list: the next building of every row not complete, by worth per good spent, best first (stable)
    struct Wish {
      int row, column;
      double worth;
    };
    Wish wishes[ROWS];
    int count = 0;
    for (int row = 0; row < ROWS; ++row) {
      int column = v.built_in_row(row);
      if (column >= COLUMNS) continue;
      auto cost = build_cost(v, row, column);
      wishes[count++] = {row, column, building_score(v, row, column) / std::max(1, cost[0] + cost[1] + cost[2])};
    }
    std::stable_sort(wishes, wishes + count, [](const Wish& a, const Wish& b) { return a.worth > b.worth; });
    double have[3] = {static_cast<double>(v.goods[0][0]), static_cast<double>(v.goods[0][1]),
                      static_cast<double>(v.goods[0][2])};
    for (int i = 0; i < std::min(count, 2); ++i) {
      auto cost = build_cost(v, wishes[i].row, wishes[i].column);
      for (int k = 0; k < 3; ++k) {
        p.goods[k] += 0.35 * ((cost[k] - have[k]) > 0 ? 1.0 : 0.0);
        have[k] = std::max(0.0, have[k] - cost[k]);
      }
    }
  }
  p.vp = 1.0, p.token = 0.45, p.peek = v.peeked[0] ? 0.0 : 0.15;
  if (v.phase <= 7) p.soldier = pymax(0.05, battle_value(v, 1, p) - battle_value(v, 0, p));
  else p.soldier = 0.0;
  return p;
}

double Agent::building_score(const View& v, int row, int column) const {
  double vp = BUILDING_VP[row * COLUMNS + column];
  return kind_ == Kind::EXPERT ? vp + effect_value(row, column, v) : vp;
}

int Agent::build(const View& v, const std::int8_t* mask) const {  // KingsburgHeuristic.build
  int best = -1;
  double best_score = 0.0;
  for (int row = 0; row < ROWS; ++row) {  // the most worth, the lowest row among equals
    if (!mask[BUILD + row]) continue;
    double score = building_score(v, row, v.built_in_row(row));
    if (best < 0 || score > best_score) best = row, best_score = score;
  }
  return best < 0 ? PASS : BUILD + best;
}

bool Agent::recruit(const View& v, const Prices& p) const {
  if (kind_ == Kind::GREEDY) {  // KingsburgHeuristic.recruit: soldiers to an average enemy
    const Card* rows[5];
    int count = v.enemy_rows(rows);
    long total = 0;
    for (int i = 0; i < count; ++i) total += static_cast<int>(std::nearbyint((*rows[i])[1]));
    double mean = static_cast<double>(total) / count;
    return mean - (v.soldiers[0] + v.battle_bonus() + 3.5) > 0;
  }
  // ExpertAgent.recruit: a soldier when its battle worth beats the cheapest goods it costs
  int price = v.owns(B_BARRACKS) ? 1 : 2;
  double cheapest[2];
  int taken = 0;
  double kinds[3] = {p.goods[0], p.goods[1], p.goods[2]};
  int owned[3] = {v.goods[0][0], v.goods[0][1], v.goods[0][2]};
  while (taken < price) {  // the `price` lowest prices among the goods owned, ascending
    int k = -1;
    for (int j = 0; j < 3; ++j)
      if (owned[j] > 0 && (k < 0 || kinds[j] < kinds[k])) k = j;
    if (k < 0) break;
    cheapest[taken++] = kinds[k];
    owned[k] -= 1;
  }
  double cost = 0.0;
  for (int i = 0; i < taken; ++i) cost += cheapest[i];
  double gain = battle_value(v, 1, p) - battle_value(v, 0, p);
  return gain > cost;
}

int Agent::influence(const View& v, const Prices& p, const std::int8_t* mask) {
  const bool stable = v.owns(B_STABLE);
  if (kind_ == Kind::GREEDY) {  // KingsburgHeuristic.influence: the most help now, the highest advisor among equals
    int best = -1;
    double best_value = 0.0;
    for (int a = 1; a <= N_ADVISORS; ++a) {
      if (!mask[TARGET + a - 1]) continue;
      double value = help_value(a, p, v.goods[0], stable);
      if (best < 0 || value >= best_value) best = a, best_value = value;
    }
    return TARGET + best - 1;
  }
  // ExpertAgent.influence: a look-ahead over the own unplaced dice
  double best_value = 0.05;
  int best = -1;
  for (int a = 1; a <= N_ADVISORS; ++a) {
    if (!mask[TARGET + a - 1]) continue;
    double value = target_value(v, p, a);
    if (value > best_value) best_value = value, best = a;
  }
  return best < 0 ? PASS : TARGET + best - 1;
}

double Agent::target_value(const View& v, const Prices& p, int target) {  // ExpertAgent._target_value
  const double here = help_value(target, p, v.goods[0], v.owns(B_STABLE));
  int dice[DIE_SLOTS];
  const int count = free_dice(v, dice, nullptr);
  // _groups_for: dice groups with a coloured die whose pips reach `target` with the own modifiers
  const bool token = v.tokens[0] > 0 && !v.flags[0][TOKEN_USED];
  const bool market = v.owns(B_MARKET) && !v.flags[0][MARKET_USED];
  double best_rest = 0.0;
  bool any = false;
  for (int bits = 1; bits < (1 << count); ++bits) {
    int sum = 0, rest[DIE_SLOTS], left = 0;
    bool coloured = false;
    for (int j = 0; j < count; ++j)
      if (bits >> j & 1) sum += dice[j] >> 1, coloured |= dice[j] & 1;
      else rest[left++] = dice[j];
    const int diff = target - sum;
    const bool reach = diff == 0 || (market && (diff == -1 || diff == 1)) || (token && diff == 2) ||
                       (token && market && (diff == 1 || diff == 3));
    if (!coloured || !reach) continue;
    double value = plan(v, p, rest, left, target);
    best_rest = any ? pymax(best_rest, value) : value;
    any = true;
  }
  return here + DISCOUNT * best_rest;
}

int Agent::group_dice(const View& v, const Prices& p, const std::int8_t* mask) {
  if (kind_ == Kind::GREEDY) {  // KingsburgHeuristic.group_dice: the fewest dice, then the lowest pips
    int best = -1;
    for (int i = 0; i < N_SUBSETS; ++i) {
      if (!mask[DICE + i]) continue;
      if (best < 0 || SUBSETS[i].size < SUBSETS[best].size ||
          (SUBSETS[i].size == SUBSETS[best].size && pips(v, i) < pips(v, best)))
        best = i;
    }
    return DICE + best;
  }
  // ExpertAgent.group_dice: what the dice left can still do, a little less for every die used
  int dice[DIE_SLOTS], slots[DIE_SLOTS];
  const int count = free_dice(v, dice, slots);
  double best = -1e9;
  int choice = -1;
  for (int i = 0; i < N_SUBSETS; ++i) {
    if (!mask[DICE + i]) continue;
    bool used[DIE_SLOTS] = {};
    for (int k = 0; k < SUBSETS[i].size; ++k) {
      int* at = std::find(slots, slots + count, SUBSETS[i].slots[k]);
      if (at == slots + count) throw std::invalid_argument("kingsburg expert: a legal group holds a placed die");
      used[at - slots] = true;
    }
    int rest[DIE_SLOTS], left = 0;
    for (int j = 0; j < count; ++j)
      if (!used[j]) rest[left++] = dice[j];
    double value = plan(v, p, rest, left, v.target) - 0.01 * (count - left);
    if (value > best) best = value, choice = DICE + i;
  }
  return choice;
}

// ExpertAgent._plan: the best worth of placing `dice` on the advisors free now but `taken`
double Agent::plan(const View& v, const Prices& p, const int* dice, int count, int taken) {
  std::uint32_t free = 0;
  for (int a = 1; a <= N_ADVISORS; ++a)
    if (v.advisor_group[a] == -1 && a != taken) free |= 1u << a;
  const bool stable = v.owns(B_STABLE);
  for (int a = 1; a <= N_ADVISORS; ++a) values_[a - 1] = help_value(a, p, v.goods[0], stable);
  int sorted[DIE_SLOTS];
  std::copy(dice, dice + count, sorted);
  for (int i = 1; i < count; ++i)  // Python's sorted((pips, coloured)): pips, then white first
    for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; --j) std::swap(sorted[j - 1], sorted[j]);
  return best_plan(sorted, count, free);
}

// heuristic._best_plan: one group at a time (at most three dice, one coloured) on a free advisor of exactly its
// pips, each later group discounted. The help values are those of the decision under way, so a result is kept
// by (dice, free advisors) for the rest of the decision.
double Agent::best_plan(const int* dice, int count, std::uint32_t free) {
  bool coloured = false;
  std::uint64_t key = static_cast<std::uint64_t>(count);
  for (int j = 0; j < count; ++j) coloured |= dice[j] & 1, key = key << 4 | static_cast<std::uint64_t>(dice[j]);
  if (!coloured) return 0.0;
  key = key << 19 | free;
  auto found = plans_.find(key);
  if (found != plans_.end()) return found->second;
  double best = 0.0;
  for (int bits = 1; bits < (1 << count); ++bits) {
    int size = 0, target = 0, rest[DIE_SLOTS], left = 0;
    bool has_coloured = false;
    for (int j = 0; j < count; ++j)
      if (bits >> j & 1) ++size, target += dice[j] >> 1, has_coloured |= dice[j] & 1;
      else rest[left++] = dice[j];
    if (size > 3 || !has_coloured || target > N_ADVISORS || !(free >> target & 1)) continue;
    double value = values_[target - 1] + DISCOUNT * best_plan(rest, left, free & ~(1u << target));
    best = pymax(best, value);
  }
  plans_.emplace(key, best);
  return best;
}

}  // namespace ktenv::kingsburg::agents

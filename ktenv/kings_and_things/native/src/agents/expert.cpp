// agents/kings_and_things/expert.py (ExpertAgent) in C++ (see expert.hpp). Every score is computed with the Python code's
// operations in its order and in its numpy dtypes, as in greedy.cpp: float32 where a float32 column meets
// a Python scalar (NEP 50), float64 where a float64 array or an int64 array takes part. No fused
// multiply-add (bit-exactness).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "agents/expert.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>

#include "engine/machine.hpp"
#include "generated.hpp"

namespace ktenv::agents {
namespace {

constexpr double W_INCOME = 3.0;
constexpr double EXPLORE_STRENGTH = 5.0, EXPECTED_DEFENCE = 5.5;
constexpr double ATTACK_RATIO = 1.6, CITADEL_ATTACK_RATIO = 1.3, RETREAT_FACTOR = 1.1, EXPLORE_MARGIN = 1.0;
constexpr int BUY_EXTRA = 5;
constexpr double HERO_PAY_MAX = 10.0;
constexpr std::int64_t FAR = 1000000;  // agents/kings_and_things/expert.py paths: unreachable

enum Block : int { B_PASS, B_YES, B_NUMBER, B_HEX, B_THING, B_HERO, B_CASH, B_PLAYER, B_DIRECTION };

struct Choice {
  int block;
  int i;
};

Choice split(const GreedyPlan& P, int a) {  // RuleAgent.blocks
  const int starts[] = {0, 1, 2, P.a_hex, P.a_thing, P.a_hero, P.a_cash, P.a_player, P.a_direction};
  int b = B_DIRECTION;
  while (starts[b] > a) --b;
  return {b, a - starts[b]};
}

// numpy's floor division of two float32 (npy_divmodf), for `spare // 5`
float floor_divide(float a, float b) {
  float mod = std::fmod(a, b);
  if (b == 0.0f) return a / b;
  float div = (a - mod) / b;
  if (mod != 0.0f) {
    if ((b < 0) != (mod < 0)) div -= 1.0f;
  }
  float floordiv;
  if (div != 0.0f) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5f) floordiv += 1.0f;
  } else {
    floordiv = std::copysign(0.0f, a / b);
  }
  return floordiv;
}

// numpy's pairwise sum of a float32 array (ndarray.sum of a contiguous float32 vector)
float pairwise_sum(const float* a, std::size_t n) {
  if (n < 8) {
    float res = -0.0f;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    float r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    float res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

struct Target {  // ExpertAgent.move_targets
  int hex = -1;
  double value = 0.0;
  int need = 0;
};

class Scorer {
 public:
  Scorer(View& v, const ExpertPlan& E, Expert::MovePlan& move, std::vector<std::pair<int, Expert::MovePlan>>& started,
         const int* legal, int n, double* out)
      : v(v), E(E), P(*E.base), move(move), started(started), legal(legal), n(n), out(out) {}
  void run(int decision);

 private:
  Choice at(int k) const { return split(P, legal[k]); }
  bool is_hex(int i) const { return i >= 0 && i < P.h; }
  void when_action(int action, double yes, double no) {
    for (int k = 0; k < n; ++k) out[k] = legal[k] == action ? yes : no;
  }
  void greedy() { greedy_handler_scores(v, legal, n, out); }
  float raw(int offset) const { return v.reg_scalar(offset); }
  std::int64_t steps(int a, int b) const { return E.steps[static_cast<std::size_t>(a) * P.h + b]; }
  template <class F>
  int count_adjacent(int x, F&& f) const {
    int c = 0;
    for (int j = P.adjacent_start[x]; j < P.adjacent_start[x + 1]; ++j) c += f(P.adjacent[j]) ? 1 : 0;
    return c;
  }

  // ----- the plan's anchors
  int home();
  double threat_near(int x, int radius);
  int leader();
  int war_target();
  int staging(int target);
  double reserve() { return home() >= 0 && v.fort(home()) < 4 ? 5.0 : 0.0; }
  int want(double less, int most);
  // ----- handlers
  void claim();
  void tower();
  void recruit_paid();
  void recruit_trade();
  void exchange();
  void place();
  double frontier_score(int x);
  void frontier();
  void place_hex();
  void hero_choose();
  void hero_bonus();
  void hero_pay();
  void build();
  int garrison(int x);
  void paths(int x, double mp);
  Target move_targets(int x, std::vector<double>& values);
  void move_start();
  void moving_members(std::vector<int>& things, std::vector<int>& heroes);
  void move_select();
  void move_stack();
  void segment();
  void bribe();
  void retreat();
  void target();
  void item_window();
  void react();
  void event_play();
  void event_hex();
  void event_player();
  void loss(double home_bonus);
  void special_hex();

  View& v;
  const ExpertPlan& E;
  const GreedyPlan& P;
  Expert::MovePlan& move;
  std::vector<std::pair<int, Expert::MovePlan>>& started;
  const int* legal;
  int n;
  double* out;
  int home_ = -2, leader_ = -2, war_ = -2;
  std::vector<std::int64_t> dist_;
  std::vector<int> first_;
};

int Scorer::home() {  // the hex the Citadel is (or will be) built on: highest fort, then least exposed
  if (home_ != -2) return home_;
  home_ = -1;
  std::int64_t best = 0;
  for (int x = 0; x < P.h; ++x) {
    if (v.owner(x) != 0) continue;
    const int exposure = count_adjacent(x, [&](int y) { return v.owner(y) != 0; });
    const std::int64_t key = v.fort(x) * 100 - exposure;
    if (home_ < 0 || key > best) home_ = x, best = key;
  }
  return home_;
}

double Scorer::threat_near(int x, int radius) {
  // strength of enemy counters (not neutrals) within `radius` steps of x, summed in float32 in BFS order
  if (x < 0) return 0.0;
  auto strength = [&](int y) {
    float s = v.side_strength(1, y);
    for (int side = 2; side < P.n; ++side) s += v.side_strength(side, y);
    return s;
  };
  std::vector<char> seen(static_cast<std::size_t>(P.h), 0);
  std::vector<int> frontier{x}, next;
  seen[x] = 1;
  float total = 0.0f;
  for (int r = 0; r < radius; ++r) {
    next.clear();
    for (int a : frontier)
      for (int j = P.adjacent_start[a]; j < P.adjacent_start[a + 1]; ++j) {
        const int b = P.adjacent[j];
        if (seen[b]) continue;
        seen[b] = 1;
        next.push_back(b);
        total += strength(b);
      }
    frontier.swap(next);
  }
  return static_cast<double>(total + strength(x));
}

int Scorer::leader() {  // the opponent closest to winning: income + 15 x Citadels + 3 x (fort levels >= 3)
  if (leader_ != -2) return leader_;
  double best = 0.0;
  for (int p = 0; p < P.n; ++p) {
    const float public_score = v.income(p) + 15.0f * raw(E.p_citadels + p);
    const double score = p == 0 ? -1e9 : static_cast<double>(public_score) + (raw(E.p_fort_levels + p) >= 3 ? 3.0 : 0.0);
    if (p == 0 || score > best) leader_ = p, best = score;
  }
  return leader_;
}

int Scorer::war_target() {  // the nearest enemy Citadel (R16.2, R16.3), or -1
  if (war_ != -2) return war_;
  war_ = -1;
  const int h0 = home();
  std::int64_t best = 0;
  for (int x = 0; x < P.h; ++x) {
    if (!(v.owner(x) > 0 && v.fort(x) == 4)) continue;
    const std::int64_t near = h0 >= 0 ? steps(h0, x) : 0;
    if (war_ < 0 || near < best) war_ = x, best = near;
  }
  return war_;
}

int Scorer::staging(int target) {  // the own land hex nearest to target (most counters on ties)
  int best = -1;
  double best_key = 0.0;
  for (int x = 0; x < P.h; ++x) {
    if (v.owner(x) != 0 || !v.land(x)) continue;
    const float crowd = v.own_counters(x) * 0.1f;
    const double key = static_cast<double>(steps(x, target) * 10) - static_cast<double>(crowd);
    if (best < 0 || key < best_key) best = x, best_key = key;
  }
  return best;
}

// int(np.clip((gold - reserve - less) // 5, 0, most)), in float32 as numpy computes it
int Scorer::want(double less, int most) {
  const float spare = (v.gold(0) - static_cast<float>(reserve())) - static_cast<float>(less);
  const float q = floor_divide(spare, 5.0f);
  return static_cast<int>(std::min(std::max(q, 0.0f), static_cast<float>(most)));
}

// ----- setup

void Scorer::claim() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    out[k] = is_hex(i) ? static_cast<double>(v.hex_room(i)) : 0.0;
  }
}

void Scorer::tower() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    const int exposure = is_hex(i) ? count_adjacent(i, [&](int y) { return v.owner(y) != 0 && v.land(y); }) : 0;
    out[k] = -static_cast<double>(exposure);
  }
}

// ----- economy

void Scorer::recruit_paid() {
  const int round = static_cast<int>(raw(E.g_round));
  const int w = want(round <= 3 ? 0.0 : BUY_EXTRA, 5);
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_NUMBER ? static_cast<double>(-std::abs(c.i - w)) : -10.0;
  }
}

void Scorer::recruit_trade() {
  int selected = 0, junk = 0;
  v.each_on_my_screen([&](int t) {
    if (!(raw(E.t_mine_screen + t) > 0)) return;
    if (raw(E.t_selected + t) > 0)
      ++selected;
    else if (v.thing_value(t) < 1.0)
      ++junk;
  });
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block == B_THING) {
      const double value = v.thing_value(c.i);
      if (selected % 2 == 1)  // must make the set even: the cheapest
        out[k] = 5.0 - value;
      else if (junk >= 2 && value < 1.0)
        out[k] = 1.0 - value;
      else
        out[k] = -1.0;
    }
  }
}

void Scorer::exchange() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING ? 1.2 - v.thing_value(c.i) : 0.0;
  }
}

void Scorer::place() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_THING) continue;
    const int t = c.i, kind = P.thing_kind[t];
    if (v.on_board(t) && v.thing_owner(t) == 0) {
      out[k] = -10.0;  // never remove an own income counter
    } else if (kind == CITY || kind == VILLAGE || P.thing_income[t] > 0) {
      out[k] = 5.0 + static_cast<double>(P.thing_income[t]);
    } else if (kind == CREATURE) {
      const int terrain = P.thing_terrain[t];
      const bool supported = terrain < 0 || v.own_terrain(terrain);
      out[k] = supported ? 1.0 + P.thing_combat[t] : 0.5;
    }
  }
}

double Scorer::frontier_score(int x) {
  // next to unexplored or enemy land, in a stack not yet full; home while threatened
  const int unexplored = count_adjacent(x, [&](int y) { return v.unexplored(y); });
  const int enemy = count_adjacent(x, [&](int y) { return v.owner(y) > 0 && v.land(y); });
  const double room = static_cast<double>(unexplored) + 1.5 * static_cast<double>(enemy);
  const float own = v.own_counters(x);
  const double base = std::min(room, 3.0) + (0 < own && own < 6 ? 1.0 : 0.0);
  const float over = own - 6.0f;
  // max(own - 6, 0) is the int 0 (a float64 result) or the float32 excess (a float32 result)
  double score = 0 > over ? base - 0.0 : static_cast<double>(static_cast<float>(base) - 0.3f * over);
  const int h0 = home();
  if (x == h0 && threat_near(h0, 2) > v.own_strength()[h0]) score += 3.0;
  return score;
}

void Scorer::frontier() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    out[k] = is_hex(i) ? frontier_score(i) : 0.0;
  }
}

void Scorer::place_hex() {
  const int t = v.reg_thing(E.t_reg_thing);
  if (t >= 0 && P.thing_kind[t] != CREATURE) {  // an income counter: the hex least likely to be lost
    for (int k = 0; k < n; ++k) {
      const int i = at(k).i;
      out[k] = is_hex(i) ? -static_cast<double>(count_adjacent(i, [&](int y) { return v.owner(y) > 0; })) : 0.0;
    }
    return;
  }
  frontier();
}

void Scorer::hero_choose() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_HERO) continue;
    if (v.hero_owner(c.i) == 0) {
      out[k] = -10.0;
    } else {
      const double special = E.special_hero[c.i] ? 1.0 : 0.0;
      out[k] = (0.5 + (6 - P.hero_combat[c.i])) + 0.3 * special;
    }
  }
}

void Scorer::hero_bonus() {
  const int w = want(15.0, 2);
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_NUMBER ? static_cast<double>(-std::abs(c.i - w)) : -10.0;
  }
}

void Scorer::hero_pay() {
  const double cost = static_cast<double>(raw(P.r_cost));
  const float spare = (v.gold(0) - static_cast<float>(reserve())) - 5.0f;
  // min(hero_pay_max, spare): the Python float, or the float32 (then compared in float32)
  const bool ok = spare < static_cast<float>(HERO_PAY_MAX) ? static_cast<float>(cost) <= spare : cost <= HERO_PAY_MAX;
  when_action(1, ok ? 1.0 : -1.0, 0.0);
}

// ----- construction: home first

void Scorer::build() {
  const int h0 = home();
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block == B_HEX) {
      const double fort = static_cast<double>(v.fort(c.i));
      out[k] = ((10.0 + fort) + (c.i == h0 ? 50.0 : 0.0)) + (v.fort(c.i) == 3 ? 100.0 : 0.0);
    } else if (c.block == B_THING) {
      out[k] = -10.0;
    }
  }
}

// ----- movement with a target

int Scorer::garrison(int x) {
  if (v.owner(x) != 0) return 0;
  bool enemy_near = false;
  for (int j = P.adjacent_start[x]; j < P.adjacent_start[x + 1] && !enemy_near; ++j)
    enemy_near = v.owner(P.adjacent[j]) > 0 || v.enemy_counters(P.adjacent[j]) > 0;
  if (x == home()) {
    const double threat = threat_near(x, 3);
    if (threat > 0 || enemy_near) return (enemy_near ? 2 : 1) + static_cast<int>(std::ceil(threat / 3.0));
    return 1;
  }
  return enemy_near && v.fort(x) >= 2 ? 1 : 0;
}

// ExpertAgent.paths: cheapest MP cost from x and the first direction (Dijkstra; hexes that stop a move
// are entered only as the last step), into dist_ and first_
void Scorer::paths(int x, double mp) {
  dist_.assign(static_cast<std::size_t>(P.h), FAR);
  first_.assign(static_cast<std::size_t>(P.h), -1);
  auto stop = [&](int a) { return v.unexplored(a) || v.enemy_counters(a) > 0 || (v.owner(a) > 0 && v.fort(a) > 0); };
  using Entry = std::pair<std::int64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;  // heapq's order: (cost, hex)
  dist_[x] = 0;
  heap.emplace(0, x);
  while (!heap.empty()) {
    const auto [d, a] = heap.top();
    heap.pop();
    if (d > dist_[a] || (stop(a) && a != x)) continue;
    for (int direction = 0; direction < 6; ++direction) {
      const int b = P.neighbours[a * 6 + direction];
      if (b < 0 || v.terrain(b) == SEA) continue;
      const std::int64_t c = d + E.move_cost[v.terrain(b)];
      if (static_cast<double>(c) <= mp && c < dist_[b]) {
        dist_[b] = c;
        first_[b] = a == x ? direction : first_[a];
        heap.emplace(c, b);
      }
    }
  }
}

// (target hex, value, counters wanted) of the best move for the counters in hex x (values: their combat
// values, strongest first; the weakest stay as the garrison)
Target Scorer::move_targets(int x, std::vector<double>& values) {
  const int count = static_cast<int>(values.size());
  const int keep = std::min(count, garrison(x));
  const int mobile = count - keep;
  if (mobile <= 0) return {};
  std::vector<double> cum(static_cast<std::size_t>(mobile));
  double run = 0.0;
  for (int i = 0; i < mobile; ++i) cum[i] = run = i == 0 ? values[0] : run + values[i];
  const double strength = cum[mobile - 1];
  auto enough = [&](double goal) {  // np.searchsorted(cum, goal) + 1, at most mobile
    const int at = static_cast<int>(std::lower_bound(cum.begin(), cum.end(), goal) - cum.begin());
    return std::min(mobile, at + 1);
  };
  paths(x, 4.0);
  const double* defence = v.defence();
  const int lead = leader();
  Target best;
  const int war = war_target();
  if (war >= 0) {  // an enemy Citadel: gather next to it, then storm it
    const int stage = staging(war);
    if (stage >= 0 && stage != x && dist_[stage] <= 4)
      best = {stage, (7.0 + 0.5 * strength) - 0.3 * static_cast<double>(dist_[stage]), mobile};
  }
  for (int y = 0; y < P.h; ++y) {
    const std::int64_t d = dist_[y];
    if (d == 0 || d > 4 || !v.land(y) || v.owner(y) == 0) continue;
    double value = 0.0;
    int need = mobile;
    if (v.own_counters(y) > 0 && v.enemy_counters(y) == 0) continue;  // already on the way there
    const bool empty_enemy = v.owner(y) > 0 && v.enemy_counters(y) == 0 && v.fort(y) == 0 && v.income_combat(y) == 0;
    if (empty_enemy) {
      value = static_cast<double>(7.0f + static_cast<float>(W_INCOME) * v.income_value(y));
      need = 1;
    } else if (v.owner(y) < 0) {
      const float neutrals = v.hexes_column(P.h_things, P.n, y);
      const double guard = neutrals > 0 ? defence[y] : EXPECTED_DEFENCE;
      const double scaled = 1.3 * guard;
      const double goal = scaled > EXPLORE_STRENGTH ? scaled : EXPLORE_STRENGTH;
      const double low = neutrals == 0 ? (2.0 < goal ? 2.0 : goal) : goal;
      if (strength >= low) {
        value = static_cast<double>((strength >= goal ? 5.0f : 3.0f) + 2.0f * v.income_value(y));
        need = enough(goal + EXPLORE_MARGIN);
      }
    } else {
      const bool citadel = v.fort(y) == 4;
      double ratio = strength / (0.5 > defence[y] ? 0.5 : defence[y]);
      if (citadel && y == war) ratio *= 1.3;  // the game is at stake: attack at smaller odds
      if (ratio >= (citadel ? CITADEL_ATTACK_RATIO : ATTACK_RATIO)) {
        const double forts = 6.0 + static_cast<double>(2 * v.fort(y));
        value = (forts + static_cast<double>(static_cast<float>(W_INCOME) * v.income_value(y))) + (citadel ? 40.0 : 0.0);
        value += v.owner(y) == lead ? 3.0 : 0.0;
      }
    }
    if (value <= 0) continue;
    value -= 0.4 * static_cast<double>(d);
    if (value > best.value) best = {y, value, need};
  }
  return best;
}

void Scorer::move_start() {
  std::vector<double> values;
  std::vector<Target> plans(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_HEX || !is_hex(c.i)) continue;
    const int x = c.i;
    values.clear();  // a bluff goes into no fight (R9.5): it counts 0
    v.each_on_board_at(x, [&](int t) {
      if (P.thing_kind[t] == CREATURE && v.mine_board(t) && v.thing_hex(t) == x && v.thing_status(t) == 0)
        values.push_back(P.thing_combat[t] * (v.thing_supported(t) ? 1.0 : 0.0));
    });
    for (int f = 0; f < P.nf; ++f)
      if (v.hero_owner(f) == 0 && v.hero_hex(f) == x && v.hero_status(f) == 0) values.push_back(P.hero_combat[f]);
    std::sort(values.begin(), values.end(), std::greater<double>());
    plans[k] = move_targets(x, values);
    out[k] = plans[k].hex >= 0 && plans[k].need > 0 ? plans[k].value : -1.0;
  }
  started.clear();
  for (int k = 0; k < n; ++k)
    if (at(k).block == B_HEX && is_hex(at(k).i)) started.emplace_back(legal[k], Expert::MovePlan{true, at(k).i, plans[k].hex, plans[k].need});
  if (n == 0) return;
  int best = 0;  // np.argmax: the first of equals
  for (int k = 1; k < n; ++k)
    if (out[k] > out[best]) best = k;
  const Choice c = at(best);
  if (c.block == B_HEX) move = {true, c.i, is_hex(c.i) ? plans[best].hex : -1, is_hex(c.i) ? plans[best].need : 0};
}

void Scorer::moving_members(std::vector<int>& things, std::vector<int>& heroes) {
  things.clear();
  heroes.clear();
  v.each_on_board([&](int t) {
    if (v.mine_board(t) && v.thing_status(t) == 1) things.push_back(t);
  });
  for (int f = 0; f < P.nf; ++f)
    if (v.hero_owner(f) == 0 && v.hero_status(f) == 1) heroes.push_back(f);
}

void Scorer::move_select() {
  std::vector<int> things, heroes;
  moving_members(things, heroes);
  const int size = static_cast<int>(things.size() + heroes.size());
  const int here = v.reg_hex(E.h_reg_mv_sel);
  const int need = move.set && move.hex == here ? move.need : 4;
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block == B_THING) {
      const bool supported = v.thing_supported(c.i);
      const double value = P.thing_combat[c.i] * (supported ? 1.0 : 0.3);
      out[k] = size < need ? 2.0 + value : -1.0;
      if (!supported && need > 1) out[k] = -1.0;
      if (need == 1) out[k] = size < 1 ? (2.0 + 6) - value : -1.0;  // an empty hex: send the weakest
    } else if (c.block == B_HERO) {
      out[k] = size < need && need > 1 ? 2.0 + P.hero_combat[c.i] : -1.0;
    } else if (c.block == B_YES) {
      out[k] = size > 0 ? 1.0 : -5.0;
    } else if (c.block == B_PASS) {
      out[k] = size == 0 ? -0.5 : -5.0;
    }
  }
}

void Scorer::move_stack() {
  const int here = v.reg_hex(P.h_reg_mv_hex);
  for (int k = 0; k < n; ++k) out[k] = at(k).block == B_PASS ? 0.0 : -1.0;
  if (here < 0 || !move.set || move.target < 0) return;
  const int target = move.target;
  std::vector<int> things, heroes;
  moving_members(things, heroes);
  double mp = 4.0;
  for (int t : things) mp = std::min(mp, static_cast<double>(raw(E.t_mp + t)));
  for (int f : heroes) mp = std::min(mp, static_cast<double>(raw(E.e_mp + f)));
  paths(here, mp);
  if (target == here || static_cast<double>(dist_[target]) > mp || first_[target] < 0) return;
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    if (c.block == B_DIRECTION && c.i == first_[target]) out[k] = 1.0;
  }
}

// ----- exploration and battles

void Scorer::segment() {
  const double* own = v.own_strength();
  const double* defence = v.defence();
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    out[k] = is_hex(i) ? (own[i] - defence[i]) + 2.0 * (v.owner(i) < 0 ? 1.0 : 0.0) : 0.0;
  }
}

void Scorer::bribe() {
  // every defender whose price fits the gold beyond this round's construction, the best value first
  const int x = v.reg_hex(P.h_reg_x_hex);
  if (x < 0) return greedy();
  bool guarded = false;  // GreedyAgent.bribe_multiplier
  v.each_on_board_at(x, [&](int t) {
    guarded = guarded || (v.on_board(t) && v.thing_hex(t) == x &&
                          (P.thing_kind[t] == TREASURE || P.thing_kind[t] == MAGIC));
  });
  const double mult = v.has_income(x) || guarded ? 2.0 : 1.0;
  const float spare = v.gold(0) - static_cast<float>(reserve());
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_THING) continue;
    const double combat = P.thing_combat[c.i];
    const double price = combat * mult;
    const double cost = 1.0 > price ? 1.0 : price;
    out[k] = cost <= static_cast<double>(spare) ? (1.0 + combat / cost) + 0.1 * combat : -1.0;
  }
}

void Scorer::retreat() {
  const int x = v.reg_hex(P.h_reg_b_hex);
  double mine = 0.0, enemy = 0.0;
  bool single = false;
  greedy_battle_balance(v, mine, enemy, single);
  if (x >= 0 && x == home() && v.owner(x) == 0) return when_action(0, 1.0, -1.0);  // never from home
  const bool defending = x >= 0 && v.owner(x) == 0;
  when_action(0, 0.0, enemy - (defending ? 2.0 : RETREAT_FACTOR) * mine);
}

void Scorer::target() {
  const int x = v.reg_hex(P.h_reg_b_hex);
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_PLAYER || x < 0) continue;
    const int side = std::min(c.i, P.n);
    const double owner_bonus = v.owner(x) == c.i ? 5.0 : 0.0;
    if (side == 0)
      out[k] = owner_bonus - 0.5 * v.own_strength()[x];
    else  // a float32 strength: the whole expression stays float32
      out[k] = static_cast<double>(static_cast<float>(owner_bonus) - 0.5f * v.side_strength(side, x));
  }
}

void Scorer::item_window() {
  double mine = 0.0, enemy = 0.0;
  bool single = false;
  greedy_battle_balance(v, mine, enemy, single);
  const double bar = single ? static_cast<double>(1.6f * static_cast<float>(enemy)) : 1.6 * enemy;
  const bool close = mine < bar;
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING ? (close && !E.balloon[c.i] ? 1.0 : -0.5) : 0.0;
  }
}

void Scorer::react() {  // react only against another player's event or item
  const int item = v.reg_thing(E.t_reg_b_item);
  const int by = item >= 0 ? v.thing_owner(item) : v.reg_side(E.r_ev_p);
  when_action(0, 0.0, by != 0 ? 1.0 : -1.0);
}

// ----- events

void Scorer::event_play() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_THING) continue;
    double value = E.event_play[c.i];
    if (E.mother_lode[c.i]) {
      std::vector<float> own_income(static_cast<std::size_t>(P.h));
      for (int x = 0; x < P.h; ++x) own_income[x] = v.income_value(x) * (v.owner(x) == 0 ? 1.0f : 0.0f);
      value = 0.5 * static_cast<double>(pairwise_sum(own_income.data(), own_income.size())) - 0.5;
    }
    if (v.event_without_effect(c.i)) value = -1.0;  // R10.1 offers it: playing it would only spend it
    out[k] = value;
  }
}

void Scorer::event_hex() {
  const int card = v.reg_thing(P.t_reg_ev_c);
  const int h0 = home();
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    out[k] = 0.0;
    if (!is_hex(i)) continue;
    const bool own = v.owner(i) == 0;
    const double fort = static_cast<double>(v.fort(i));
    if (card >= 0 && E.willing_workers[card]) {
      out[k] = own ? (1.0 + fort) + 10.0 * (i == h0 ? 1.0 : 0.0) : -1.0;
    } else if (card >= 0 && E.big_juju[card]) {
      out[k] = own ? -1.0 : 0.0;
    } else {
      const double value = (static_cast<double>(v.enemy_counters(i)) + static_cast<double>(2 * v.fort(i))) +
                           3.0 * (v.owner(i) == leader() ? 1.0 : 0.0);
      out[k] = v.owner(i) > 0 ? 1.0 + value : (own ? -5.0 : 0.0);
    }
  }
}

void Scorer::event_player() {
  const int lead = leader();
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_PLAYER && c.i == lead ? 1.0 : 0.0;
  }
}

void Scorer::loss(double home_bonus) {  // greedy's loss scores, home's forts spared (LOSS) or hit (ASSIGN_HIT)
  greedy();
  const int h0 = home();
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    const bool home_hex = c.block == B_HEX && c.i == h0;
    out[k] = home_bonus < 0 ? out[k] - (home_hex ? -home_bonus : 0.0) : out[k] + (home_hex ? home_bonus : 0.0);
  }
}

void Scorer::special_hex() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    out[k] = 0.0;
    if (!is_hex(i)) continue;
    float heroes = v.hexes_column(P.h_heroes, 1, i);  // heroes_at[1:n].sum(axis=0): row by row
    for (int side = 2; side < P.n; ++side) heroes += v.hexes_column(P.h_heroes, side, i);
    const float score = 3.0f * heroes + v.enemy_counters(i);
    out[k] = static_cast<double>(score) - 5.0 * (v.owner(i) == 0 ? 1.0 : 0.0);
  }
}

void Scorer::run(int decision) {
  namespace D = ktenv::decision;
  switch (decision) {
    case D::CLAIM: return claim();
    case D::TOWER: return tower();
    case D::RECRUIT_PAID: return recruit_paid();
    case D::RECRUIT_TRADE: return recruit_trade();
    case D::EXCHANGE: return exchange();
    case D::PLACE: return place();
    case D::PLACE_HEX: return place_hex();
    case D::HERO_PLACE: return frontier();
    case D::HERO_CHOOSE: return hero_choose();
    case D::HERO_BONUS: return hero_bonus();
    case D::HERO_PAY: return hero_pay();
    case D::BUILD: return build();
    case D::REMOVE_INCOME: return when_action(0, 1.0, -10.0);
    case D::MOVE_START: return move_start();
    case D::MOVE_SELECT: return move_select();
    case D::MOVE_STACK: return move_stack();
    case D::SEGMENT: return segment();
    case D::BRIBE: return bribe();
    case D::RETREAT: return retreat();
    case D::TARGET: return target();
    case D::ITEM_WINDOW: return item_window();
    case D::REACT: return react();
    case D::EVENT_PLAY: return event_play();
    case D::EVENT_HEX: return event_hex();
    case D::EVENT_PLAYER: return event_player();
    case D::LOSS: return loss(-5.0);
    case D::SPECIAL_HEX: return special_hex();
    case D::LUCKY_DIE: return when_action(0, 1.0, 0.0);
    case D::LUCKY_SIGN:
      for (int k = 0; k < n; ++k) out[k] = 0.0;
      return;
    case D::ASSIGN_HIT: return loss(0.1);
    default: return greedy();  // the decisions ExpertAgent leaves to GreedyAgent
  }
}

template <class T>
std::vector<T> as(const std::vector<double>& values) {
  return std::vector<T>(values.begin(), values.end());
}

}  // namespace

std::shared_ptr<const ExpertPlan> make_expert_plan(std::shared_ptr<const GreedyPlan> base,
                                                   const std::map<std::string, std::int64_t>& ints,
                                                   const std::map<std::string, std::vector<double>>& tables) {
  if (!base) throw std::invalid_argument("expert plan: no greedy plan given");
  auto E = std::make_shared<ExpertPlan>();
  E->base = base;
  const GreedyPlan& P = *base;
  auto I = [&](const char* key) {
    auto it = ints.find(key);
    if (it == ints.end()) throw std::invalid_argument(std::string("expert plan: missing number '") + key + "'");
    if (it->second < 0 || it->second >= P.size)
      throw std::invalid_argument(std::string("expert plan: offset '") + key + "' lies outside the observation");
    return static_cast<int>(it->second);
  };
  E->g_round = I("game.round");
  E->p_fort_levels = I("players.fort_levels");
  E->p_citadels = I("players.citadels");
  E->t_mine_screen = I("things.mine_screen");
  E->t_selected = I("things.selected");
  E->t_mp = I("things.mp");
  E->t_reg_thing = I("things.reg_thing");
  E->t_reg_b_item = I("things.reg_b_item");
  E->e_mp = I("heroes.mp");
  E->h_reg_mv_sel = I("hexes.reg_mv_sel");
  E->r_ev_p = I("registers.reg_ev_p_rel0");
  auto T = [&](const char* key, std::size_t size) -> const std::vector<double>& {
    auto it = tables.find(key);
    if (it == tables.end()) throw std::invalid_argument(std::string("expert plan: missing table '") + key + "'");
    if (it->second.size() != size)
      throw std::invalid_argument(std::string("expert plan: table '") + key + "' has " +
                                  std::to_string(it->second.size()) + " entries, needs " + std::to_string(size));
    return it->second;
  };
  const auto h = static_cast<std::size_t>(P.h), nt = static_cast<std::size_t>(P.nt);
  E->steps = as<std::int64_t>(T("steps", h * h));
  E->move_cost = as<std::int64_t>(T("move_cost", N_TERRAINS));
  E->event_play = T("event_play", nt);
  E->mother_lode = as<std::uint8_t>(T("mother_lode", nt));
  E->willing_workers = as<std::uint8_t>(T("willing_workers", nt));
  E->big_juju = as<std::uint8_t>(T("big_juju", nt));
  E->balloon = as<std::uint8_t>(T("balloon", nt));
  E->special_hero = as<std::uint8_t>(T("special_hero", static_cast<std::size_t>(P.nf)));
  return E;
}

Expert::Expert(std::shared_ptr<const ExpertPlan> plan, std::uint64_t seed)
    : plan_(std::move(plan)), view_(*plan_->base), rng_(seed), legal_(plan_->base->n_actions),
      score_(plan_->base->n_actions) {}

Expert::Expert(std::shared_ptr<const ExpertPlan> plan, const std::uint32_t* seed_words, std::size_t n_words)
    : plan_(std::move(plan)), view_(*plan_->base), rng_(seed_words, n_words), legal_(plan_->base->n_actions),
      score_(plan_->base->n_actions) {}

void Expert::set_plan(std::shared_ptr<const ExpertPlan> plan) {
  plan_ = std::move(plan);
  view_ = View(*plan_->base);
  legal_.assign(plan_->base->n_actions, 0);
  score_.assign(plan_->base->n_actions, 0.0);
}

int Expert::scores(const float* obs, const std::int8_t* mask, int* legal, double* out) {
  view_.read(obs);
  return scores_read(legal, allowed(mask, plan_->base->n_actions, legal), out);
}

int Expert::scores(const State& s, const observation::Plan& obs_plan, int seat, const std::int8_t* mask, int* legal,
                   double* out) {
  view_.read(s, obs_plan, seat);
  return scores_read(legal, allowed(mask, plan_->base->n_actions, legal), out);
}

int Expert::scores_read(const int* legal, int n, double* out) {
  const GreedyPlan& P = *plan_->base;
  started_.clear();  // follow() follows only the MOVE_START scored last (its handler fills them)
  Scorer(view_, *plan_, move_, started_, legal, n, out).run(view_.decision());
  for (int k = 0; k < n; ++k)  // a treasure may be cashed at any decision of its holder (R18.3)
    if (legal[k] >= P.a_cash && legal[k] < P.a_player) out[k] = 1e3;
  return n;
}

bool Expert::follow(int action) {
  for (const auto& [a, plan] : started_)
    if (a == action) {
      move_ = plan;
      return true;
    }
  return false;
}

template <class Read>
int Expert::act_on(const std::int8_t* mask, Read&& read) {
  int n = allowed(mask, plan_->base->n_actions, legal_.data());
  if (n == 0) return -1;
  started_.clear();
  if (n == 1) return legal_[0];  // played without reading the observation: no draw, the plan kept
  read();
  n = scores_read(legal_.data(), n, score_.data());
  int best = 0;
  double best_score = 0.0;
  for (int k = 0; k < n; ++k) {  // np.argmax(scores + rng.random(n) * 1e-6): the first of equals
    const double noisy = score_[k] + rng_.random() * 1e-6;
    if (k == 0 || noisy > best_score) best = k, best_score = noisy;
  }
  return legal_[best];
}

int Expert::act(const float* obs, const std::int8_t* mask) {
  return act_on(mask, [&] { view_.read(obs); });
}

int Expert::act(const State& s, const observation::Plan& obs_plan, int seat, const std::int8_t* mask) {
  return act_on(mask, [&] { view_.read(s, obs_plan, seat); });
}

}  // namespace ktenv::agents

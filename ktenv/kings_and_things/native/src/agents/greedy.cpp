// agents/kings_and_things/greedy.py (GreedyAgent) and agents/kings_and_things/rules.py (RuleAgent.act, .scores) in C++ (see greedy.hpp).
//
// Every score is computed with the Python code's operations in its order and in its numpy dtypes:
// float32 where a float32 column meets a Python float (NEP 50), float64 elsewhere. Contracting a
// multiply and an add into one fused operation would round differently, so it is turned off for this
// file and view.cpp. The build passes no -ffp-contract or -march flag: GCC's default (-ffp-contract=fast)
// would fuse wherever the target has FMA (checked: g++ 12 -O2 -mfma fuses `c + a * b` without the
// pragma, not with it); plain x86-64 has none.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "agents/greedy.hpp"

#include "generated.hpp"

namespace ktenv::agents {
namespace {

constexpr double W_INCOME = 3.0, W_HEX = 1.5, W_ARMY = 1.0, W_FORT = 4.0, W_GOLD = 0.25;
constexpr double DRAW_VALUE = 2.0;  // expected worth of a Thing drawn from the cup

enum Block : int { B_PASS, B_YES, B_NUMBER, B_HEX, B_THING, B_HERO, B_CASH, B_PLAYER, B_DIRECTION };

struct Choice {
  int block;
  int i;  // index inside the block
};

// RuleAgent.blocks: the block whose start is the last one <= the action
Choice split(const GreedyPlan& P, int a) {
  const int starts[] = {0, 1, 2, P.a_hex, P.a_thing, P.a_hero, P.a_cash, P.a_player, P.a_direction};
  int b = B_DIRECTION;
  while (starts[b] > a) --b;
  return {b, a - starts[b]};
}

// A value as numpy holds it: float64, or a float32 scalar whose further arithmetic stays float32.
struct Value {
  double v;
  bool single;
};

// One decision's scoring: the legal actions, their blocks, and where the scores go.
class Scorer {
 public:
  Scorer(View& v, const int* legal, int n, double* out) : v(v), P(v.plan()), legal(legal), n(n), out(out) {}
  void run(int decision);

 private:
  Choice at(int k) const { return split(P, legal[k]); }
  bool is_hex(int i) const { return i >= 0 && i < P.h; }  // an index numpy could read (else it would raise)
  void fill(double value) {
    for (int k = 0; k < n; ++k) out[k] = value;
  }
  void when_action(int action, double yes, double no) {
    for (int k = 0; k < n; ++k) out[k] = legal[k] == action ? yes : no;
  }

  // ----- values of single counters
  double counter_value(const Choice& c);
  void loss_scores();
  // ----- setup, placement, recruiting
  void claim();
  void place();
  void place_hex();
  void exchange();
  void recruit_paid();
  void recruit_trade();
  void trade_keep();
  void discard();
  // ----- heroes
  void hero_choose();
  void hero_bonus();
  void hero_pay();
  // ----- construction, movement
  void build();
  Value step_gain(int target, double strength, bool numpy_strength);
  void moving_members(int& things, int& heroes, double* strength);
  void move_start();
  void move_select();
  void move_stack();
  void fly_block();
  void pin_reveal();
  // ----- exploration, battles
  void segment();
  void bribe();
  void battle_balance(double& mine, double& enemy);
  void retreat();
  void target();
  void item_bearer();
  void enemy_value_scores();
  void assassin_target();
  // ----- events, special powers
  void event_play();
  void leader_scores(int key);  // 0: income, 1: gold, 2: strength in the battle hex
  void event_hex();
  void plague_hex();
  void defect_hero();
  void thief_take();
  void special_hex();

  View& v;
  const GreedyPlan& P;
  const int* legal;
  int n;
  double* out;
};

double p2d6_at_least(double target) {  // chance that 2d6 >= target (np.mean of the 36 sums)
  int hits = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) hits += static_cast<double>(a + b) >= target ? 1 : 0;
  return static_cast<double>(hits) / 36.0;
}

double Scorer::counter_value(const Choice& c) {
  if (c.block == B_HERO) return P.hero_combat[c.i] + W_INCOME;
  if (c.block == B_HEX) return 0.3;  // a hit on a fort only lowers it until the battle ends (R13.5.2)
  if (c.block == B_THING) {
    const int kind = P.thing_kind[c.i];
    if (kind == CITY || kind == VILLAGE) return 0.5;
    if (kind == CREATURE)
      return P.thing_combat[c.i] * (v.thing_supported(c.i) || v.thing_owner(c.i) != 0 ? 1.0 : 0.4);
    return 1.0;
  }
  return 0.0;
}

void Scorer::loss_scores() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING || c.block == B_HERO || c.block == B_HEX ? -counter_value(c) : -50.0;
  }
}

void Scorer::claim() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    const double room = is_hex(i) ? static_cast<double>(v.hex_room(i)) : 0.0;
    out[k] = (W_HEX + W_INCOME) + 0.1 * room;
  }
}

void Scorer::place() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_THING) continue;
    const int t = c.i, kind = P.thing_kind[t];
    const double income = static_cast<double>(P.thing_income[t]);
    if (v.on_board(t) && v.thing_owner(t) == 0) {  // an own income counter to remove
      out[k] = -W_INCOME * income;
    } else if (kind == CITY || kind == VILLAGE || kind == SPECIAL_INCOME) {
      out[k] = W_INCOME * income;
    } else if (kind == CREATURE) {  // supported_on_screen
      const int terrain = P.thing_terrain[t];
      const bool supported = terrain < 0 || v.own_terrain(terrain);
      const double army = W_ARMY * P.thing_combat[t];
      out[k] = army * (!supported ? 0.6 : 1.0) + 0.1;
    }
  }
}

void Scorer::place_hex() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    if (!is_hex(i)) {
      out[k] = 0.0;
      continue;
    }
    const double room = 0.1 * static_cast<double>(v.hex_room(i));
    const float crowd = 0.01f * v.own_counters(i);  // a Python float times a float32 column
    out[k] = room - static_cast<double>(crowd);
  }
}

void Scorer::exchange() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING ? DRAW_VALUE - v.thing_value(c.i) : 0.0;
  }
}

void Scorer::recruit_paid() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    const double paid = c.block == B_NUMBER ? static_cast<double>(c.i) : 0.0;
    const double gain = paid * (DRAW_VALUE - 5 * W_GOLD);
    const double cost = 0.3 * paid * paid;
    out[k] = (gain - cost) - (c.block == B_PASS ? 1.0 : 0.0);
  }
}

void Scorer::recruit_trade() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING ? DRAW_VALUE / 2 - v.thing_value(c.i) : 0.0;
  }
}

void Scorer::trade_keep() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING ? v.thing_value(c.i) : -1.0;
  }
}

void Scorer::discard() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING ? -v.thing_value(c.i) : -50.0;
  }
}

void Scorer::hero_choose() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_HERO) continue;
    const double combat = P.hero_combat[c.i];
    if (v.hero_owner(c.i) == 0)
      out[k] = -(combat + W_INCOME);  // dismissing
    else  // chance of 2d6 >= twice the value, times what the hero adds
      out[k] = p2d6_at_least(2 * combat) * (combat + W_INCOME);
  }
}

void Scorer::hero_bonus() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = -(c.block == B_NUMBER ? static_cast<double>(c.i) : 0.0);
  }
}

void Scorer::hero_pay() {
  const double cost = static_cast<double>(v.reg_scalar(P.r_cost));
  const int hero = v.reg_hero(P.e_reg_hero);
  const double worth = hero >= 0 ? P.hero_combat[hero] + W_INCOME : 5.0;
  when_action(1, worth - W_GOLD * cost, 0.0);
}

void Scorer::build() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block == B_HEX)
      out[k] = W_INCOME + W_FORT - 5 * W_GOLD + (v.fort(c.i) == 3 ? 20.0 : 0.0);
    else if (c.block == B_THING)
      out[k] = -W_INCOME * static_cast<double>(P.thing_income[c.i]);
  }
}

// What entering `target` with a stack of `strength` may add at once. numpy_strength: the strength is a
// numpy float64 (own_strength), not a Python float (stack_strength): it decides whether the comparison
// below yields a numpy bool, and so whether the product stays float32.
Value Scorer::step_gain(int target, double strength, bool numpy_strength) {
  if (!v.land(target)) return {-10.0, false};
  const double defence = v.defence()[target];
  const float gain = static_cast<float>(W_HEX + W_INCOME) + static_cast<float>(W_INCOME) * v.income_value(target);
  if (v.owner(target) == 0) return {0.05 * static_cast<double>(v.hex_room(target)), false};
  if (v.owner(target) < 0) {  // unexplored: defenders drawn on 2-5
    const bool known = defence > 0;
    const double expected = known ? defence : 0.6 * 3.5 * P.hidden_combat * 0.75;
    const double factor = 0.35 + 0.65 * (strength > expected ? 1.0 : 0.0);
    if (numpy_strength || known) return {static_cast<double>(gain) * factor, false};
    return {static_cast<double>(gain * static_cast<float>(factor)), true};
  }
  if (strength > 1.2 * defence) return {static_cast<double>(gain), true};
  return {-2.0, false};
}

void Scorer::moving_members(int& things, int& heroes, double* strength) {
  things = heroes = 0;
  double thing_sum = 0.0, hero_sum = 0.0;  // integer combat values: exact in any order
  v.each_on_board([&](int t) {
    if (v.mine_board(t) && v.thing_status(t) == 1) {
      ++things;
      thing_sum += P.thing_combat[t];
    }
  });
  for (int f = 0; f < P.nf; ++f)
    if (v.hero_owner(f) == 0 && v.hero_status(f) == 1) {
      ++heroes;
      hero_sum += P.hero_combat[f];
    }
  if (strength) *strength = thing_sum + hero_sum;
}

void Scorer::move_start() {
  const double* strength = v.own_strength();
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_HEX) continue;
    const int x = c.i;
    Value best{0.0, false};  // max(..., default=0.0): the first of equals
    for (int j = P.adjacent_start[x]; j < P.adjacent_start[x + 1]; ++j) {
      const Value g = step_gain(P.adjacent[j], strength[x], true);
      if (j == P.adjacent_start[x] || g.v > best.v) best = g;
    }
    out[k] = best.single ? static_cast<double>(static_cast<float>(best.v) - 0.5f) : best.v - 0.5;
  }
}

void Scorer::move_select() {
  int things = 0, heroes = 0;
  moving_members(things, heroes, nullptr);
  const double member = things + heroes < 4 ? 1.0 : -0.1;
  for (int k = 0; k < n; ++k) {
    const int b = at(k).block;
    out[k] = b == B_THING || b == B_HERO ? member : b == B_YES ? 0.5 : b == B_PASS ? -5.0 : 0.0;
  }
}

void Scorer::move_stack() {
  int things = 0, heroes = 0;
  double strength = 0.0;
  moving_members(things, heroes, &strength);
  const int here = v.reg_hex(P.h_reg_mv_hex);
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    if (c.block == B_DIRECTION && here >= 0) {
      const int y = P.neighbours[here * 6 + c.i];
      out[k] = y >= 0 ? step_gain(y, strength, false).v : -10.0;
    } else {
      out[k] = c.block == B_PASS ? 0.02 : -1.0;
    }
  }
}

void Scorer::fly_block() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING && v.thing_supported(c.i) ? 1.0 : (c.block == B_HERO ? 0.5 : 0.0);
  }
}

void Scorer::pin_reveal() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING && v.thing_supported(c.i) ? 1.0 : 0.0;
  }
}

void Scorer::segment() {
  const double* own = v.own_strength();
  const double* defence = v.defence();
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    out[k] = is_hex(i) ? own[i] - defence[i] : 0.0;
  }
}

void Scorer::bribe() {
  const int x = v.reg_hex(P.h_reg_x_hex);
  double mult = 2.0;
  if (x >= 0) {  // bribe_multiplier: income or a treasure or magic item at stake pays twice
    bool guarded = false;
    v.each_on_board_at(x, [&](int t) {
      guarded = guarded || (v.on_board(t) && v.thing_hex(t) == x &&
                            (P.thing_kind[t] == TREASURE || P.thing_kind[t] == MAGIC));
    });
    mult = v.has_income(x) || guarded ? 2.0 : 1.0;
  }
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    if (c.block != B_THING) {
      out[k] = 0.0;
      continue;
    }
    const double combat = P.thing_combat[c.i];
    out[k] = W_ARMY * combat - W_GOLD * mult * combat;
  }
}

void Scorer::battle_balance(double& mine, double& enemy) {
  bool single = false;
  greedy_battle_balance(v, mine, enemy, single);
}

}  // namespace

// (my strength, strongest enemy side's strength) in the battle hex; enemy as a float64 value of what
// numpy holds (float32 unless a fort is added: enemy_single says which).
void greedy_battle_balance(View& v, double& mine, double& enemy, bool& enemy_single) {
  const GreedyPlan& P = v.plan();
  const int x = v.reg_hex(P.h_reg_b_hex);
  mine = enemy = 0.0;
  enemy_single = false;
  if (x < 0) return;
  mine = v.own_strength()[x];
  const double held = static_cast<double>(v.fort(x)) + static_cast<double>(v.income_combat(x));
  if (v.owner(x) == 0) mine += held;
  float strongest = v.side_strength(1, x);
  for (int side = 2; side <= P.n; ++side) {
    const float s = v.side_strength(side, x);
    if (s > strongest) strongest = s;
  }
  enemy_single = v.owner(x) <= 0;
  if (v.owner(x) > 0)
    enemy = static_cast<double>(strongest) + held;
  else if (v.owner(x) < 0)
    enemy = static_cast<double>(strongest + v.income_combat(x));
  else
    enemy = static_cast<double>(strongest);
}

namespace {

void Scorer::retreat() {
  double mine = 0.0, enemy = 0.0;
  battle_balance(mine, enemy);
  const double retreat = W_ARMY * (enemy - 1.3 * mine);
  when_action(0, 0.0, retreat);
}

void Scorer::target() {
  const int x = v.reg_hex(P.h_reg_b_hex);
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block != B_PLAYER || x < 0) continue;
    const int side = c.i < P.n ? c.i : P.n;  // the weakest side falls first
    out[k] = side == 0 ? -v.own_strength()[x] : -static_cast<double>(v.side_strength(side, x));
  }
}

void Scorer::item_bearer() {
  // the strongest creature carries the Bow or Sword; keeping it (PASS, C.10) is worth its bearer
  const int item = v.reg_thing(P.t_reg_b_bear);
  const int bearer = item >= 0 ? static_cast<int>(v.bearer(item)) : -1;
  const double kept = bearer >= 0 ? P.thing_combat[bearer] + 0.01 : 0.0;  // ties: no pointless move
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_THING ? P.thing_combat[c.i] : kept;
  }
}

void Scorer::enemy_value_scores() {  // hit (or name) the enemy counter worth most; never an own one
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = 0.0;
    if (c.block == B_THING) {
      const double value = P.thing_combat[c.i] + 0.1;
      out[k] = v.thing_owner(c.i) == 0 ? -value : value;
    } else if (c.block == B_HERO) {
      const double value = P.hero_combat[c.i] + W_INCOME;
      out[k] = v.hero_owner(c.i) == 0 ? -value : value;
    } else if (c.block == B_HEX) {
      out[k] = 0.2;
    }
  }
}

void Scorer::assassin_target() {  // YES: one of the face-down counters he cannot tell apart, worth an unknown one
  enemy_value_scores();
  for (int k = 0; k < n; ++k)
    if (legal[k] == 1) out[k] = P.hidden_combat + 0.1;
}

void Scorer::event_play() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    // a good event, unless it would do nothing now (R10.1 offers it all the same)
    out[k] = c.block == B_THING && P.good_event[c.i] ? (v.event_without_effect(c.i) ? -1.0 : 1.0) : 0.0;
  }
}

void Scorer::leader_scores(int key) {  // PLAYER actions (relative to me) scored by key of that player; me last
  const int x = key == 2 ? v.reg_hex(P.h_reg_b_hex) : -1;
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = -1e3;
    if (c.block != B_PLAYER || c.i <= 0 || c.i >= P.n) continue;
    if (key == 0)
      out[k] = static_cast<double>(v.income(c.i));
    else if (key == 1)
      out[k] = static_cast<double>(v.gold(c.i));
    else
      out[k] = x >= 0 ? static_cast<double>(v.side_strength(c.i, x)) : 0.0;
  }
}

void Scorer::event_hex() {
  const int card = v.reg_thing(P.t_reg_ev_c);
  const bool builder = card >= 0 && P.builder_event[card];  // Willing Workers, Big Juju
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    if (!is_hex(i)) {
      out[k] = 0.0;
      continue;
    }
    const bool own = v.owner(i) == 0;
    const double fort = static_cast<double>(v.fort(i));
    if (builder)
      out[k] = own ? 1.0 + fort : -1.0;
    else if (v.owner(i) > 0)
      out[k] = static_cast<double>(1.0f + v.enemy_counters(i)) + fort;
    else
      out[k] = own ? -5.0 : 0.0;
  }
}

void Scorer::plague_hex() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    out[k] = is_hex(i) ? -static_cast<double>(v.own_counters(i)) : 0.0;
  }
}

void Scorer::defect_hero() {
  for (int k = 0; k < n; ++k) {
    const Choice c = at(k);
    out[k] = c.block == B_HERO ? P.hero_combat[c.i] : 0.0;
  }
}

void Scorer::thief_take() {
  const int victim = v.reg_side(P.r_sp_victim);
  const bool other = victim > 0 && victim < P.n;
  const double gold = other ? static_cast<double>(v.gold(victim) * static_cast<float>(W_GOLD)) : 0.0;  // float32
  when_action(2, gold, DRAW_VALUE);
}

void Scorer::special_hex() {
  for (int k = 0; k < n; ++k) {
    const int i = at(k).i;
    if (!is_hex(i)) {
      out[k] = 0.0;
      continue;
    }
    out[k] = static_cast<double>(v.enemy_counters(i)) - 5.0 * (v.owner(i) == 0 ? 1.0 : 0.0);
  }
}

void Scorer::run(int decision) {
  namespace D = ktenv::decision;
  switch (decision) {
    case D::SEA_REPLACE: return when_action(1, 1.0, 0.0);
    case D::CLAIM: return claim();
    case D::PLACE: return place();
    case D::PLACE_HEX: return place_hex();
    case D::EXCHANGE: return exchange();
    case D::RECRUIT_PAID: return recruit_paid();
    case D::RECRUIT_TRADE: return recruit_trade();
    case D::TRADE_KEEP: return trade_keep();
    case D::DISCARD: return discard();
    case D::HERO_CHOOSE: return hero_choose();
    case D::HERO_BONUS: return hero_bonus();
    case D::HERO_PAY: return hero_pay();
    case D::HERO_PLACE: return place_hex();
    case D::BUILD: return build();
    case D::REMOVE_INCOME: return when_action(0, 0.0, -5.0);
    case D::MOVE_START: return move_start();
    case D::MOVE_SELECT: return move_select();
    case D::MOVE_STACK: return move_stack();
    case D::FLY_INTEND: return when_action(0, 0.1, 0.0);
    case D::FLY_BLOCK: return fly_block();
    case D::PIN_CHALLENGE: return when_action(1, 1.0, 0.0);
    case D::PIN_REVEAL: return pin_reveal();
    case D::SEGMENT: return segment();
    case D::BRIBE: return bribe();
    case D::RETREAT: return retreat();
    case D::TARGET: return target();
    case D::ASSIGN_HIT:
    case D::RETREAT_EXCESS:
    case D::LOSS: return loss_scores();
    case D::HERO_TURN: return when_action(0, 0.1, 0.0);
    case D::ITEM_WINDOW: return when_action(0, 0.0, 1.0);
    case D::ITEM_BEARER: return item_bearer();
    case D::WARLORD:
    case D::MARKSMAN_HIT: return enemy_value_scores();
    case D::ASSASSIN_TARGET: return assassin_target();
    case D::MARKSMAN: return when_action(7, 1.0, 0.0);  // NUMBER 5: full value
    case D::LUCKY_DIE: return when_action(0, 1.0, 0.0);
    case D::EVENT_PLAY: return event_play();
    case D::EVENT_PLAYER: return leader_scores(0);
    case D::SPECIAL_VICTIM: return leader_scores(1);
    case D::DUST_TARGET: return leader_scores(2);
    case D::EVENT_HEX: return event_hex();
    case D::PLAGUE_HEX: return plague_hex();
    case D::ESCAPE_HEX: return when_action(0, -1.0, 0.0);
    case D::DEFECT_HERO: return defect_hero();
    case D::REACT: return when_action(0, 0.0, 0.5);
    case D::SPECIAL_USE: return when_action(0, 0.0, 1.0);
    case D::THIEF_TAKE: return thief_take();
    case D::SPECIAL_HEX: return special_hex();
    case D::BALLOON_LOAD: return when_action(0, 1.0, 0.0);
    default: return fill(0.0);  // score_default (START_POSITION, TOWER and the decisions without a handler)
  }
}

}  // namespace

void greedy_handler_scores(View& v, const int* legal, int n, double* out) {
  Scorer(v, legal, n, out).run(v.decision());
}

Greedy::Greedy(std::shared_ptr<const GreedyPlan> plan, std::uint64_t seed)
    : plan_(std::move(plan)), view_(*plan_), rng_(seed), legal_(plan_->n_actions), score_(plan_->n_actions) {}

Greedy::Greedy(std::shared_ptr<const GreedyPlan> plan, const std::uint32_t* seed_words, std::size_t n_words)
    : plan_(std::move(plan)), view_(*plan_), rng_(seed_words, n_words), legal_(plan_->n_actions),
      score_(plan_->n_actions) {}

void Greedy::set_plan(std::shared_ptr<const GreedyPlan> plan) {
  plan_ = std::move(plan);
  view_ = View(*plan_);
  legal_.assign(plan_->n_actions, 0);
  score_.assign(plan_->n_actions, 0.0);
}

int Greedy::collect(const std::int8_t* mask, int* legal) const {
  int n = 0;
  for (int a = 0; a < plan_->n_actions; ++a)
    if (mask[a]) legal[n++] = a;
  return n;
}

int Greedy::scores(const float* obs, const std::int8_t* mask, int* legal, double* out) {
  const int n = collect(mask, legal);
  view_.read(obs);
  Scorer(view_, legal, n, out).run(view_.decision());
  for (int k = 0; k < n; ++k)  // a treasure may be cashed at any decision of its holder (R18.3)
    if (legal[k] >= plan_->a_cash && legal[k] < plan_->a_player) out[k] = 1e3;
  return n;
}

int Greedy::act(const float* obs, const std::int8_t* mask) {
  int* legal = legal_.data();
  const int n = collect(mask, legal);
  if (n == 0) return -1;
  if (n == 1) return legal[0];  // no draw
  scores(obs, mask, legal, score_.data());
  int best = 0;
  double best_score = 0.0;
  for (int k = 0; k < n; ++k) {  // np.argmax(scores + rng.random(n) * 1e-6): the first of equals
    const double noisy = score_[k] + rng_.random() * 1e-6;
    if (k == 0 || noisy > best_score) {
      best = k;
      best_score = noisy;
    }
  }
  return legal[best];
}

}  // namespace ktenv::agents

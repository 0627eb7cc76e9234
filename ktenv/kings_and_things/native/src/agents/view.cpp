// agents/kings_and_things/view.py in C++ (see view.hpp). No fused multiply-add, as in greedy.cpp (bit-exactness).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "agents/view.hpp"

#include <stdexcept>

#include "generated.hpp"

namespace ktenv::agents {
namespace {

std::int64_t need(const std::map<std::string, std::int64_t>& ints, const char* key) {
  auto it = ints.find(key);
  if (it == ints.end()) throw std::invalid_argument(std::string("greedy plan: missing number '") + key + "'");
  return it->second;
}

const std::vector<double>& table(const std::map<std::string, std::vector<double>>& tables, const char* key,
                                 std::size_t at_least) {
  auto it = tables.find(key);
  if (it == tables.end()) throw std::invalid_argument(std::string("greedy plan: missing table '") + key + "'");
  if (it->second.size() < at_least)
    throw std::invalid_argument(std::string("greedy plan: table '") + key + "' has " +
                                std::to_string(it->second.size()) + " entries, needs " + std::to_string(at_least));
  return it->second;
}

template <class T>
std::vector<T> as(const std::vector<double>& values) {
  return std::vector<T>(values.begin(), values.end());
}

}  // namespace

std::shared_ptr<const GreedyPlan> make_greedy_plan(const std::map<std::string, std::int64_t>& ints,
                                                   const std::map<std::string, std::vector<double>>& tables) {
  auto P = std::make_shared<GreedyPlan>();
  auto I = [&](const char* key) { return static_cast<int>(need(ints, key)); };
  P->n = I("n");
  P->h = I("h");
  P->nt = I("nt");
  P->nf = I("nf");
  P->size = I("size");
  P->n_actions = I("n_actions");
  P->n_decisions = I("n_decisions");
  P->sides = P->n + 1;
  if (P->n < 2 || P->h < 1 || P->nt < 1 || P->nf < 1 || P->n_decisions < 1 || P->n_actions < 1)
    throw std::invalid_argument("greedy plan: players, hexes, Things, hero faces, decisions and actions must be "
                                "positive");
  P->a_hex = I("a_hex");
  P->a_thing = I("a_thing");
  P->a_hero = I("a_hero");
  P->a_cash = I("a_cash");
  P->a_player = I("a_player");
  P->a_direction = I("a_direction");
  P->g_decision = I("game.decision_none");
  P->p_gold = I("players.gold");
  P->p_income = I("players.income");
  P->h_terrain = I("hexes.terrain_desert");
  P->h_owner = I("hexes.owner_rel0");
  P->h_fort = I("hexes.fort");
  P->h_income_value = I("hexes.income_value");
  P->h_income_combat = I("hexes.income_combat");
  P->h_income_special = I("hexes.income_special");
  P->h_income_city = I("hexes.income_city");
  P->h_income_village = I("hexes.income_village");
  P->h_things = I("hexes.things_rel0");
  P->h_hidden = I("hexes.hidden_rel0");
  P->h_known_combat = I("hexes.known_combat_rel0");
  P->h_heroes = I("hexes.heroes_rel0");
  P->h_hero_combat = I("hexes.hero_combat_rel0");
  P->h_reg_mv_hex = I("hexes.reg_mv_hex");
  P->h_reg_b_hex = I("hexes.reg_b_hex");
  P->h_reg_x_hex = I("hexes.reg_x_hex");
  P->h_own_value = I("hexes.own_value_1");
  P->t_on_board = I("things.on_board");
  P->t_hex = I("things.hex");
  P->t_owner = I("things.owner_rel0");
  P->t_status = I("things.status");
  P->t_supported = I("things.supported");
  P->t_bearer = I("things.bearer");
  P->t_reg_b_bear = I("things.reg_b_bear");
  P->t_reg_ev_c = I("things.reg_ev_c");
  P->e_owner = I("heroes.owner_rel0");
  P->e_hex = I("heroes.hex");
  P->e_status = I("heroes.status");
  P->e_pool = I("heroes.pool");
  P->e_reg_hero = I("heroes.reg_hero");
  P->r_cost = I("registers.reg_cost");
  P->r_sp_victim = I("registers.reg_sp_victim_rel0");
  const int last_offset = P->size - 1;
  for (int off : {P->g_decision, P->p_gold, P->h_terrain, P->h_owner, P->h_hero_combat, P->h_own_value, P->t_owner,
                  P->t_reg_ev_c, P->e_owner, P->e_pool, P->e_reg_hero, P->r_cost, P->r_sp_victim})
    if (off < 0 || off > last_offset)
      throw std::invalid_argument("greedy plan: a column offset lies outside the observation");
  if (P->a_direction + 6 != P->n_actions) throw std::invalid_argument("greedy plan: action blocks do not add up");

  const auto nt = static_cast<std::size_t>(P->nt), nf = static_cast<std::size_t>(P->nf);
  P->thing_combat = table(tables, "thing_combat", nt);
  P->hero_combat = table(tables, "hero_combat", nf);
  P->thing_kind = as<int>(table(tables, "thing_kind", nt));
  P->thing_terrain = as<int>(table(tables, "thing_terrain", nt));
  P->thing_income = as<int>(table(tables, "thing_income", nt));
  P->thing_gold = as<int>(table(tables, "thing_gold", nt));
  P->thing_flying = as<std::uint8_t>(table(tables, "thing_flying", nt));
  P->good_event = as<std::uint8_t>(table(tables, "good_event", nt));
  P->builder_event = as<std::uint8_t>(table(tables, "builder_event", nt));
  P->event_effect = as<std::uint8_t>(table(tables, "event_effect", nt));
  P->hidden_combat = table(tables, "hidden_combat", 1)[0];
  const auto h = static_cast<std::size_t>(P->h);
  P->adjacent_start = as<int>(table(tables, "adjacent_start", h + 1));
  P->adjacent = as<int>(table(tables, "adjacent", static_cast<std::size_t>(P->adjacent_start[h])));
  P->neighbours = as<int>(table(tables, "neighbours", 6 * h));
  for (int y : P->adjacent)
    if (y < 0 || y >= P->h) throw std::invalid_argument("greedy plan: an adjacent hex lies off the board");
  for (int y : P->neighbours)
    if (y < -1 || y >= P->h) throw std::invalid_argument("greedy plan: a neighbour lies off the board");
  return P;
}

View::View(const GreedyPlan& plan)
    : P(&plan),
      terrain_(plan.h),
      owner_(plan.h),
      own_strength_(plan.h),
      hero_strength_(plan.h),
      defence_(plan.h),
      enemy_counters_(plan.h) {}

std::size_t View::argmax(const float* a, std::size_t count) const {  // np.argmax: the first of equals
  std::size_t best = 0;
  for (std::size_t i = 1; i < count; ++i)
    if (a[i] > a[best]) best = i;
  return best;
}

int View::argmax_or_none(int offset, int count) const {
  if (s_) return state_argmax_or_none(offset, count);
  const float* a = obs_ + offset;
  const std::size_t best = argmax(a, static_cast<std::size_t>(count));
  return a[best] > 0 ? static_cast<int>(best) : -1;
}

void View::read(const float* obs) {
  obs_ = obs;
  s_ = nullptr;
  hexes_ = terrains_ = own_strength_done_ = defence_done_ = enemy_counters_done_ = false;
  decision_ = static_cast<int>(argmax(obs + P->g_decision, static_cast<std::size_t>(P->n_decisions)));
}

void View::decode_hexes() const {
  const int h = P->h;
  if (s_) {  // as encode writes the columns: a face-down terrain unseen reads as Desert (all zeros)
    for (int x = 0; x < h; ++x) {
      int t = !s_->hex_down[x] || s_->seen[seat_][x] ? s_->hex_terrain[x] : 0;
      if (t < 0) t += 8;
      terrain_[x] = t < N_TERRAINS ? t : 0;
      owner_[x] = hex_col_[static_cast<std::size_t>(s_->hex_owner[x] + 1)];
    }
    hexes_ = true;
    return;
  }
  float column[N_TERRAINS];
  for (int x = 0; x < h; ++x) {
    // a face-down hex (all zeros) reads as Desert, the argmax of zeros (agents/kings_and_things/view.py)
    for (int k = 0; k < N_TERRAINS; ++k) column[k] = obs_[P->h_terrain + k * h + x];
    terrain_[x] = static_cast<int>(argmax(column, N_TERRAINS));
    owner_[x] = one_hot(P->h_owner, h, P->n, x);
  }
  hexes_ = true;
}

bool View::land(int x) const { return terrain(x) != SEA; }

float View::income(int p) const {
  return s_ ? static_cast<float>(stats()[seat_of(p)][observation::INCOME]) : obs_[P->p_income + p];
}

float View::income_value(int x) const {
  return s_ ? op_->inc_value1[static_cast<std::size_t>(s_->hex_income[x] + 1)] : obs_[P->h_income_value + x];
}

float View::income_combat(int x) const {
  return s_ ? op_->inc_combat1[static_cast<std::size_t>(s_->hex_income[x] + 1)] : obs_[P->h_income_combat + x];
}

bool View::has_income(int x) const {
  if (s_) {
    const int column = op_->income_kind_lut[static_cast<std::size_t>(s_->hex_income[x] + 1)];
    return column == P->h_income_special || column == P->h_income_city || column == P->h_income_village;
  }
  const float sum = obs_[P->h_income_special + x] + obs_[P->h_income_city + x] + obs_[P->h_income_village + x];
  return sum > 0;
}

int View::one_hot(int offset, int rows, int count, int row) const {
  // np.where(block.max(axis=0) > 0, block.argmax(axis=0), -1) for one row of a (count, rows) block
  int best = 0;
  for (int k = 1; k < count; ++k)
    if (obs_[offset + k * rows + row] > obs_[offset + best * rows + row]) best = k;
  return obs_[offset + best * rows + row] > 0 ? best : -1;
}

int View::thing_owner(int t) const {
  if (!s_) return one_hot(P->t_owner, P->nt, P->sides, t);
  const int place = s_->thing_place[t], owner = s_->thing_owner[t];
  const bool screen = place == SCREEN;
  // encode_things: on the board and known, on my screen, or in a trade set (R8.1.1)
  const bool visible = board_known(t) || (screen && owner == seat_) ||
                       (screen && s_->phase == PHASE_RECRUIT && s_->thing_selected[t]);
  return visible ? thing_col_[static_cast<std::size_t>(owner + 1)] : -1;
}

std::int64_t View::thing_hex(int t) const {
  if (s_) return board_known(t) ? s_->thing_hex[t] : -1;
  return static_cast<std::int64_t>(obs_[P->t_hex + t]);
}

bool View::thing_supported(int t) const {
  if (!s_) return obs_[P->t_supported + t] > 0;
  if (!own_done_) tally_own();
  return supported_.test(t);
}

float View::thing_status(int t) const {
  if (s_) return board_known(t) ? static_cast<float>(s_->thing_status[t]) : 0.0f;
  return obs_[P->t_status + t];
}

float View::bearer(int t) const {
  if (s_) return board_known(t) ? static_cast<float>(s_->thing_bearer[t]) : -1.0f;
  return obs_[P->t_bearer + t];
}

int View::hero_owner(int f) const {
  if (s_) return hero_col_[static_cast<std::size_t>(s_->hero_owner[f] + 1)];
  return one_hot(P->e_owner, P->nf, P->n, f);
}

int View::reg_side(int offset) const { return argmax_or_none(offset, P->sides); }

float View::side_strength(int side, int x) const {
  // known + hidden * HIDDEN_COMBAT + heroes, in float32 (a Python float meets float32 arrays)
  const float hidden = hexes_column(P->h_hidden, side, x) * static_cast<float>(P->hidden_combat);
  const float known = hexes_column(P->h_known_combat, side, x) + hidden;
  return known + hexes_column(P->h_hero_combat, side, x);
}

const double* View::own_strength() {
  if (own_strength_done_) return own_strength_.data();
  const int h = P->h;
  for (int x = 0; x < h; ++x) own_strength_[x] = 0.0;
  auto add = [&](int t) {  // np.bincount: in Thing id order
    if (P->thing_kind[t] != CREATURE || !mine_board(t)) return;  // the cheap tests first
    const std::int64_t x = thing_hex(t);
    if (x < 0 || x >= h) return;  // on the board means on a hex; numpy would raise
    const double weight = P->thing_combat[t] * (thing_supported(t) ? 1.0 : 0.35);
    own_strength_[x] += weight;
  };
  each_on_board(add);
  bool heroes = false;
  for (int x = 0; x < h; ++x) hero_strength_[x] = 0.0;
  for (int f = 0; f < P->nf; ++f) {
    if (hero_owner(f) != 0) continue;
    heroes = true;
    const std::int64_t x = hero_hex(f);
    if (x >= 0 && x < h) hero_strength_[x] += P->hero_combat[f];
  }
  if (heroes)
    for (int x = 0; x < h; ++x) own_strength_[x] = own_strength_[x] + hero_strength_[x];
  own_strength_done_ = true;
  return own_strength_.data();
}

const double* View::defence() {
  if (defence_done_) return defence_.data();
  const int h = P->h;
  for (int x = 0; x < h; ++x) {
    double total = 0.0;
    for (int side = 1; side <= P->n; ++side) total += static_cast<double>(side_strength(side, x));
    // fort + income_combat: int64 + float32 -> float64
    const double held = static_cast<double>(fort(x)) + static_cast<double>(income_combat(x));
    total += owner(x) > 0 ? held : 0.0;
    total += owner(x) < 0 ? static_cast<double>(income_combat(x)) : 0.0;
    defence_[x] = total;
  }
  defence_done_ = true;
  return defence_.data();
}

float View::enemy_counters(int x) {
  if (!enemy_counters_done_) {
    for (int y = 0; y < P->h; ++y) {  // things_at[1:].sum(axis=0) + heroes_at[1:].sum(axis=0), float32
      float things = hexes_column(P->h_things, 1, y), heroes = hexes_column(P->h_heroes, 1, y);
      for (int side = 2; side <= P->n; ++side) {
        things += hexes_column(P->h_things, side, y);
        heroes += hexes_column(P->h_heroes, side, y);
      }
      enemy_counters_[y] = things + heroes;
    }
    enemy_counters_done_ = true;
  }
  return enemy_counters_[x];
}

float View::own_counters(int x) const { return hexes_column(P->h_things, 0, x) + hexes_column(P->h_heroes, 0, x); }

float View::own_army(int x) const {  // float32 sums of whole numbers: exact in any order
  float army = 0.0f;
  if (s_ && !own_done_) tally_own();
  const float* own_value = s_ ? own_value_.data() : obs_ + P->h_own_value;
  for (int k = 0; k < 6; ++k) army += own_value[k * P->h + x];
  return army + hexes_column(P->h_heroes, 0, x);
}

bool View::event_without_effect(int t) {
  const int code = P->event_effect[t];
  if (code == 0) return false;
  bool found = false;
  if (code == 4) {  // Defection: a hero to take and a hex of mine with room for it
    for (int f = 0; f < P->nf && !found; ++f) found = hero_in_pool(f) || hero_owner(f) > 0;
    if (!found) return true;
    found = false;
  }
  for (int x = 0; x < P->h && !found; ++x) {
    const bool own = owner(x) == 0;
    if (code == 1) found = own && income_value(x) > 0;  // Mother Lode: an income counter
    if (code == 2) found = own;                          // Good Harvest: a hex
    if (code == 3) found = owner(x) > 0 && fort(x) > 0 && fort(x) < 4;  // Vandals: an enemy fort, not a Citadel
    if (code == 4) found = own && (fort(x) == 4 || own_army(x) < 10.0f);
  }
  return !found;
}

int View::hex_room(int x) const {
  int room = 0;
  for (int k = P->adjacent_start[x]; k < P->adjacent_start[x + 1]; ++k) room += unexplored(P->adjacent[k]) ? 1 : 0;
  return room;
}

void View::decode_terrains() {
  own_terrains_ = own_free_terrains_ = 0;
  for (int x = 0; x < P->h; ++x) {
    if (owner(x) != 0) continue;
    own_terrains_ |= 1u << terrain(x);
    if (!has_income(x)) own_free_terrains_ |= 1u << terrain(x);
  }
  terrains_ = true;
}

bool View::own_terrain(int terrain) {
  if (!terrains_) decode_terrains();
  return terrain >= 0 && terrain < N_TERRAINS && ((own_terrains_ >> terrain) & 1u);
}

bool View::own_terrain_without_income(int terrain) {
  if (!terrains_) decode_terrains();
  return terrain >= 0 && terrain < N_TERRAINS && ((own_free_terrains_ >> terrain) & 1u);
}

double View::thing_value(int t) {
  const int kind = P->thing_kind[t];
  const double income = static_cast<double>(P->thing_income[t]);
  if (kind == CREATURE) {
    const int terrain = P->thing_terrain[t];
    const bool supported = terrain < 0 || own_terrain(terrain);
    const double printed = P->thing_combat[t] * (supported ? 1.0 : 0.5);
    return printed + 0.5 * (P->thing_flying[t] ? 1.0 : 0.0);
  }
  if (kind == CITY || kind == VILLAGE) {
    const double twice = 2.0 * income;
    return twice + 1.0;
  }
  if (kind == SPECIAL_INCOME) return own_terrain_without_income(P->thing_terrain[t]) ? 2.0 * income : 0.6 * income;
  if (kind == TREASURE) return 0.3 * static_cast<double>(P->thing_gold[t]);
  if (kind == MAGIC) return 2.0;
  if (kind == EVENT) return 1.5;
  return 0.0;
}

}  // namespace ktenv::agents

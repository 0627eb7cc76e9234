// Reading an observation vector by name, for the native rule-based agents: agents/kings_and_things/view.py in C++.
//
// The layout stays defined in Python: a GreedyPlan (every offset the agent reads, the catalog tables
// and the board's adjacency) is built once per layout variant from the very objects View uses
// (agents/kings_and_things/view.py `_shape`: build_layout, geometry, action_layout; ktenv/kings_and_things/native/agents.py), so the
// two can never disagree on where a value is. Pure C++ (no nanobind): bindings in bind_agents.cpp.
//
// Bit-exactness with numpy: View's arrays keep their numpy dtypes here. float32 columns stay `float`,
// and NumPy 2 (NEP 50) keeps float32 arithmetic in float32 when the other operand is a Python float,
// so such expressions are written in float with the constant cast to float first.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/observation.hpp"

namespace ktenv::agents {

struct GreedyPlan {
  // sizes: players, hexes, Things (rows of the things section), hero faces, observation, actions
  int n = 0, h = 0, nt = 0, nf = 0, size = 0, n_actions = 0, n_decisions = 0, sides = 0;
  // first action of each block (engine/actions.py ActionLayout)
  int a_hex = 0, a_thing = 0, a_hero = 0, a_cash = 0, a_player = 0, a_direction = 0;
  // flat offsets of row 0 of the columns read (a family: its first column, the others follow)
  int g_decision = 0;
  int p_gold = 0, p_income = 0;
  int h_terrain = 0, h_owner = 0, h_fort = 0, h_income_value = 0, h_income_combat = 0, h_income_special = 0,
      h_income_city = 0, h_income_village = 0, h_things = 0, h_hidden = 0, h_known_combat = 0, h_heroes = 0,
      h_hero_combat = 0, h_reg_mv_hex = 0, h_reg_b_hex = 0, h_reg_x_hex = 0, h_own_value = 0;
  int t_on_board = 0, t_hex = 0, t_owner = 0, t_status = 0, t_supported = 0, t_bearer = 0, t_reg_b_bear = 0,
      t_reg_ev_c = 0;
  int e_owner = 0, e_hex = 0, e_status = 0, e_pool = 0, e_reg_hero = 0;
  int r_cost = 0, r_sp_victim = 0;
  // the catalog as agents/kings_and_things/view.py reads it (ktenv.kings_and_things.catalog: both boxes' Things, the house hero faces)
  std::vector<double> thing_combat, hero_combat;
  std::vector<int> thing_kind, thing_terrain, thing_income, thing_gold;
  std::vector<std::uint8_t> thing_flying;
  std::vector<std::uint8_t> good_event;     // agents/kings_and_things/greedy.py GOOD_EVENTS, by Thing id
  std::vector<std::uint8_t> builder_event;  // "Willing Workers" or "Big Juju" (score_event_hex)
  // agents/kings_and_things/greedy.py EFFECT_CHECKED, by Thing id: 0 none, 1 Mother Lode, 2 Good Harvest, 3 Vandals, 4 Defection
  std::vector<std::uint8_t> event_effect;
  double hidden_combat = 0.0;               // agents/kings_and_things/view.py HIDDEN_COMBAT
  // the board: adjacent hexes of x are adjacent[adjacent_start[x] .. adjacent_start[x + 1]) in
  // geometry().adjacent's order; neighbours[x * 6 + d] the hex in direction d or -1
  std::vector<int> adjacent_start, adjacent, neighbours;
};

// The plan from the numbers ktenv/kings_and_things/native/agents.py gathers (greedy_plan_numbers); a missing key or a
// table of the wrong length throws std::invalid_argument naming it.
std::shared_ptr<const GreedyPlan> make_greedy_plan(const std::map<std::string, std::int64_t>& ints,
                                                   const std::map<std::string, std::vector<double>>& tables);

// Named facts of one observation. read() finds the decision; the hexes and the derived facts (own
// strength, defence ...) are decoded once on first use, like View's memoised methods; a Thing's or a
// hero's facts are read when asked (most Things are in the cup: decoding them all would cost more).
//
// read(state, plan, seat) gives the same facts, bit for bit, without encoding the observation: each is
// read from the state as encode() would write it for that seat (nothing the seat could not see at the
// table), and a column without such a reading comes from one full encode, made on first use. The search's
// rollouts read the expert's facts this way (tests/native/test_native_view.py compares the two on every
// fact the agents read).
class View {
 public:
  explicit View(const GreedyPlan& plan);
  void read(const float* obs);
  void read(const State& s, const observation::Plan& obs_plan, int seat);

  const GreedyPlan& plan() const { return *P; }
  int decision() const { return decision_; }
  // players, by relative seat (0 = me)
  float gold(int p) const { return s_ ? static_cast<float>(s_->gold[seat_of(p)]) : obs_[P->p_gold + p]; }
  float income(int p) const;
  // hexes
  int terrain(int x) const {
    if (!hexes_) decode_hexes();
    return terrain_[x];
  }
  int owner(int x) const {  // relative seat, -1 nobody
    if (!hexes_) decode_hexes();
    return owner_[x];
  }
  bool land(int x) const;
  bool unexplored(int x) const { return land(x) && owner(x) < 0; }
  std::int64_t fort(int x) const { return s_ ? s_->hex_fort[x] : static_cast<std::int64_t>(obs_[P->h_fort + x]); }
  float income_value(int x) const;
  float income_combat(int x) const;
  bool has_income(int x) const;
  float hexes_column(int offset, int side, int x) const {
    if (!s_) return obs_[offset + side * P->h + x];
    const int block = offset == P->h_things ? 0 : offset == P->h_hidden ? 1 : offset == P->h_known_combat ? 2
                      : offset == P->h_heroes ? 3 : offset == P->h_hero_combat ? 4 : -1;
    if (block < 0) return at(offset + side * P->h + x);
    if (!stacks_done_) tally_stacks();
    return stacks_[static_cast<std::size_t>((block * P->sides + side) * P->h + x)];
  }
  // Things (catalog ids) and hero faces
  bool on_board(int t) const { return s_ ? board_known(t) : obs_[P->t_on_board + t] > 0; }
  int thing_owner(int t) const;  // relative side, n = neutral, -1 unknown
  std::int64_t thing_hex(int t) const;
  bool thing_supported(int t) const;
  bool mine_board(int t) const { return on_board(t) && thing_owner(t) == 0; }
  float thing_status(int t) const;
  float bearer(int t) const;
  int hero_owner(int f) const;
  std::int64_t hero_hex(int f) const {
    return s_ ? s_->hero_hex[f] : static_cast<std::int64_t>(obs_[P->e_hex + f]);
  }
  float hero_status(int f) const { return s_ ? static_cast<float>(s_->hero_status[f]) : obs_[P->e_status + f]; }
  bool hero_in_pool(int f) const { return at(P->e_pool + f) > 0; }
  // registers, or any column by its offset
  float reg_scalar(int offset) const { return at(offset); }
  int reg_side(int offset) const;  // one-hot over relative sides: the side or -1
  int reg_hex(int offset) const { return argmax_or_none(offset, P->h); }
  int reg_thing(int offset) const { return argmax_or_none(offset, P->nt); }
  int reg_hero(int offset) const { return argmax_or_none(offset, P->nf); }
  // derived facts (View's names)
  float side_strength(int side, int x) const;  // side >= 1 (float32, as numpy computes it)
  const double* own_strength();
  const double* defence();
  float enemy_counters(int x);
  float own_counters(int x) const;
  float own_army(int x) const;  // my creatures (own_value_1..6) and heroes: what the stack limit counts
  bool event_without_effect(int t);  // GreedyAgent.event_without_effect (R10.1)
  int hex_room(int x) const;  // unexplored land next to x
  bool own_terrain(int terrain);              // I own a hex of that terrain
  bool own_terrain_without_income(int terrain);
  double thing_value(int t);
  std::size_t argmax(const float* a, std::size_t count) const;
  // f(t), in catalog order, for every Thing that may be on the board as the seat sees it (on_board(t) is false
  // for the others): all of them in an observation, those on the board (at hex x) in a state read
  template <class F>
  void each_on_board(F&& f) const {
    if (s_)
      s_->things.board.each(f);
    else
      for (int t = 0; t < P->nt; ++t) f(t);
  }
  template <class F>
  void each_on_board_at(int x, F&& f) const {
    if (s_)
      s_->things.board_at[static_cast<std::size_t>(x)].each(f);
    else
      for (int t = 0; t < P->nt; ++t) f(t);
  }
  // ... and every Thing that may be on my screen
  template <class F>
  void each_on_my_screen(F&& f) const {
    if (s_)
      s_->things.screen_of[static_cast<std::size_t>(seat_)].each(f);
    else
      for (int t = 0; t < P->nt; ++t) f(t);
  }
  // the full encodes a state-read View made (for the tests and the benchmarks)
  std::int64_t encodes() const { return encodes_; }

 private:
  float at(int offset) const { return s_ ? state_at(offset) : obs_[offset]; }
  int argmax_or_none(int offset, int count) const;
  int one_hot(int offset, int rows, int count, int row) const;
  void decode_hexes() const;
  void decode_terrains();
  // read from the state (view_state.cpp)
  int seat_of(int p) const { return (seat_ + p) % P->n; }
  bool board_known(int t) const {  // encode_things: on the board, and mine or known to all
    return s_->thing_place[t] == BOARD &&
           (s_->thing_owner[t] == seat_ || s_->thing_public[t] || s_->thing_face_up[t]);
  }
  float state_at(int offset) const;
  int state_argmax_or_none(int offset, int count) const;
  const float* encoded() const;
  const observation::StatTable& stats() const;
  void tally_stacks() const;
  void tally_own() const;
  const std::vector<std::pair<int, float>>& registers() const;  // register_writes, once a read
  float register_value(int index) const;

  const GreedyPlan* P;
  const float* obs_ = nullptr;
  int decision_ = 0;
  mutable std::vector<int> terrain_, owner_;  // decoded on first use (const readers)
  mutable bool hexes_ = false;
  std::vector<double> own_strength_, hero_strength_, defence_;
  std::vector<float> enemy_counters_;
  unsigned own_terrains_ = 0, own_free_terrains_ = 0;
  bool terrains_ = false, own_strength_done_ = false, defence_done_ = false,
       enemy_counters_done_ = false;
  // a state read: the state, the encoder's plan, the seat; what it tallied on first use
  const State* s_ = nullptr;
  const observation::Plan* op_ = nullptr;
  int seat_ = 0;
  std::array<int, 8> hex_col_{}, thing_col_{}, hero_col_{};  // owner code + 1 -> relative column, -1 none
  mutable observation::StatTable stats_{};
  mutable std::vector<float> stacks_;     // things, hidden, known combat, heroes, hero combat: [block][side * h + x]
  mutable std::vector<float> own_value_;  // hexes.own_value_1 .. : [column * h + x]
  mutable ThingBits supported_;
  mutable std::vector<std::pair<int, float>> registers_;
  mutable std::vector<float> encoded_;
  mutable bool stats_done_ = false, stacks_done_ = false, own_done_ = false, registers_done_ = false,
               encoded_done_ = false;
  mutable std::int64_t encodes_ = 0;
};

}  // namespace ktenv::agents

// View::read(state, plan, seat): a seat's facts read from the state as encode() writes them (see view.hpp).
// Each reading here mirrors a line of engine/observation.cpp; the tests compare every fact with a View of
// the encoded observation. No fused multiply-add, as in view.cpp (the tallies are float32 sums).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <stdexcept>
#include <string>

#include "agents/view.hpp"
#include "generated.hpp"

namespace ktenv::agents {
namespace {

constexpr std::int64_t ROUND_CAP = 10'000;  // engine/observation.cpp

// The relative column a lookup table's offset lands in, within a block of `count` columns of `rows`
// each starting at `block`: -1 when it lands outside (encode writes nothing there, or elsewhere).
int column_of(int offset, int block, int rows, int count) {
  if (offset < block || (offset - block) % rows != 0) return -1;
  const int k = (offset - block) / rows;
  return k < count ? k : -1;
}

// The two layouts name the same columns (both are built from one Python layout); a mismatch is a build error.
void check_layouts(const GreedyPlan& P, const observation::Plan& O) {
  using observation::GOLD;
  using observation::INCOME;
  const bool same = P.n == O.n && P.h == O.h && P.nt == O.nt && P.nf == O.nf && P.size == O.size &&
                    P.g_decision == O.g_decision &&
                    P.p_gold == O.p_start + GOLD * O.n && P.p_income == O.p_start + INCOME * O.n &&
                    P.h_terrain == O.h_terrain && P.h_fort == O.h_fort && P.h_income_value == O.h_income_value &&
                    P.h_income_combat == O.h_income_combat && P.h_things == O.h_things &&
                    P.h_hidden == O.h_hidden && P.h_known_combat == O.h_known_combat && P.h_heroes == O.h_heroes &&
                    P.h_hero_combat == O.h_hero_combat && P.h_own_value == O.h_own_value &&
                    P.t_on_board == O.t_on_board && P.t_hex == O.t_hex && P.t_status == O.t_face_up + 3 * O.nt &&
                    P.t_supported == O.t_supported && P.t_bearer == O.t_bearer && P.e_hex == O.f_hex &&
                    P.e_status == O.f_mp + O.nf && P.e_pool == O.f_pool;
  if (!same) throw std::invalid_argument("view: the agent's layout and the observation encoder's differ");
}

}  // namespace

void View::read(const State& s, const observation::Plan& obs_plan, int seat) {
  if (op_ != &obs_plan) check_layouts(*P, obs_plan);
  if (s.n.Players != P->n || s.n.Hexes != P->h || s.n.Things != P->nt || s.n.Faces != P->nf)
    throw std::invalid_argument("view: the state's sizes differ from the agent's layout");
  if (seat < 0 || seat >= P->n) throw std::invalid_argument("view: no such player");
  s_ = &s;
  op_ = &obs_plan;
  seat_ = seat;
  obs_ = nullptr;
  hexes_ = terrains_ = own_strength_done_ = defence_done_ = enemy_counters_done_ = false;
  stats_done_ = stacks_done_ = own_done_ = registers_done_ = encoded_done_ = false;
  int d = s.decision;  // encode's read_turn: RD8.2, only the actor sees a Lucky Charm window
  if ((d == decision::LUCKY_DIE || d == decision::LUCKY_SIGN) && s.actor != seat) d = decision::NONE;
  decision_ = d >= 0 && d < P->n_decisions ? d : 0;  // the argmax of the one-hot (of zeros: 0)
  const std::size_t row = static_cast<std::size_t>(seat) * 8;
  for (std::size_t code = 0; code < 8; ++code) {
    hex_col_[code] = column_of(obs_plan.hex_owner_lut[row + code], P->h_owner, P->h, P->n);
    thing_col_[code] = column_of(obs_plan.thing_owner_lut[row + code], P->t_owner, P->nt, P->sides);
    hero_col_[code] = column_of(obs_plan.hero_owner_lut[row + code], P->e_owner, P->nf, P->n);
  }
}

const observation::StatTable& View::stats() const {
  if (!stats_done_) observation::player_stats(*s_, *op_, stats_);
  stats_done_ = true;
  return stats_;
}

const float* View::encoded() const {
  if (!encoded_done_) {
    encoded_.resize(static_cast<std::size_t>(op_->size));
    observation::encode(*s_, *op_, seat_, encoded_.data());
    encoded_done_ = true;
    ++encodes_;
  }
  return encoded_.data();
}

// encode_stacks: counters per side and hex (all, hidden, known combat), heroes and their combat
void View::tally_stacks() const {
  const State& s = *s_;
  const observation::Plan& O = *op_;
  const int m = P->sides * P->h;
  stacks_.assign(static_cast<std::size_t>(5 * m), 0.0f);
  const int* stack_lut = &O.stack_lut[static_cast<std::size_t>(seat_) * 8];
  s.things.board.each([&](int c) {  // catalog order, as encode's drawn list
    if (!O.not_income[c]) return;
    const int key = stack_lut[s.thing_owner[c] + 1] + s.thing_hex[c];
    if (key < 0 || key >= m) return;
    stacks_[key] += 1;
    if (s.thing_public[c] || s.thing_face_up[c])
      stacks_[2 * m + key] += O.combat[c];
    else
      stacks_[m + key] += 1;
  });
  for (int f = 0; f < O.nf; ++f) {
    const int key = stack_lut[s.hero_owner[f] + 1] + s.hero_hex[f];
    if (key < 0 || key >= m) continue;
    stacks_[3 * m + key] += 1;
    stacks_[4 * m + key] += O.hero_combat[f];
  }
  stacks_done_ = true;
}

// encode_own_creatures: my creatures' feature columns per hex, and which are supported (R9.1)
void View::tally_own() const {
  const State& s = *s_;
  const observation::Plan& O = *op_;
  const int h = P->h, own_end = 10 * h;
  own_value_.assign(static_cast<std::size_t>(own_end), 0.0f);
  supported_ = ThingBits{};
  std::array<bool, 9> terrains{};
  for (int x = 0; x < h; ++x)
    if (s.hex_owner[x] == seat_) terrains[static_cast<std::size_t>(s.hex_terrain[x])] = true;
  s.things.board.each([&](int c) {
    if (s.thing_owner[c] != seat_ || !O.is_creature[c]) return;
    const int hx = s.thing_hex[c];
    const int* feat = &O.feature_key[static_cast<std::size_t>(c) * 5];
    for (int j = 0; j < 5; ++j) {
      const int key = feat[j] + hx;
      if (key >= 0 && key < own_end) own_value_[static_cast<std::size_t>(key)] += 1;
    }
    bool ok = terrains[static_cast<std::size_t>(O.terrain9[c])];
    for (int face : O.lord_faces)
      if (!ok && s.hero_owner[face] == seat_ && O.thing_terrain[c] == O.lord_terrain[face] && hx == s.hero_hex[face])
        ok = true;
    if (ok) supported_.set(c);
  });
  own_done_ = true;
}

const std::vector<std::pair<int, float>>& View::registers() const {
  if (!registers_done_) observation::register_writes(*s_, *op_, seat_, registers_);
  registers_done_ = true;
  return registers_;
}

float View::register_value(int index) const {
  float v = 0.0f;
  for (const auto& [i, value] : registers())
    if (i == index) v = value;  // the last write stays
  return v;
}

// Any column by its offset: the registers, the players' statistics and the few other columns the agents
// read by offset; the rest from a full encode.
float View::state_at(int offset) const {
  const State& s = *s_;
  const observation::Plan& O = *op_;
  for (const auto& [begin, end] : O.register_columns)
    if (offset >= begin && offset < end) return register_value(offset);
  const int n = O.n, nt = O.nt, nf = O.nf;
  if (offset >= O.p_start && offset < O.p_start + observation::N_STATS * n) {
    const int j = (offset - O.p_start) / n, k = (offset - O.p_start) % n;
    return static_cast<float>(stats()[seat_of(k)][j]);
  }
  if (offset == O.g_round) return static_cast<float>(std::min<std::int64_t>(s.round, ROUND_CAP));
  if (offset >= O.t_mine_screen && offset < O.t_mine_screen + nt) {
    const int c = offset - O.t_mine_screen;
    return s.thing_owner[c] == seat_ && s.thing_place[c] == SCREEN;
  }
  if (offset >= O.t_selected && offset < O.t_selected + nt) {
    const int c = offset - O.t_selected;
    return s.thing_place[c] == SCREEN && s.thing_selected[c] &&
           (s.thing_owner[c] == seat_ || s.phase == PHASE_RECRUIT);
  }
  if (offset >= O.t_face_up + 2 * nt && offset < O.t_face_up + 3 * nt) {
    const int c = offset - O.t_face_up - 2 * nt;
    return board_known(c) ? static_cast<float>(s.thing_mp[c]) : 0.0f;
  }
  if (offset >= O.f_mp && offset < O.f_mp + nf) return static_cast<float>(s.hero_mp[offset - O.f_mp]);
  if (offset >= O.f_pool && offset < O.f_pool + nf) {
    const int f = offset - O.f_pool;
    return s.hero_up[O.face_counter[f]] == O.face_side[f] && s.hero_owner[f] < 0;
  }
  return encoded()[offset];
}

// np.argmax of a one-hot block (the first of equals), -1 when nothing in it is positive
int View::state_argmax_or_none(int offset, int count) const {
  const observation::Plan& O = *op_;
  bool in_registers = false;
  for (const auto& [begin, end] : O.register_columns)
    in_registers = in_registers || (offset >= begin && offset + count <= end);
  if (!in_registers) {
    const float* a = encoded() + offset;
    const std::size_t best = argmax(a, static_cast<std::size_t>(count));
    return a[best] > 0 ? static_cast<int>(best) : -1;
  }
  int best = -1;
  float top = 0.0f;
  for (const auto& [i, value] : registers()) {
    if (i < offset || i >= offset + count) continue;
    const float v = register_value(i);  // the index's last write
    if (v > top || (v == top && v > 0 && i < best)) best = i, top = v;
  }
  return best < 0 ? -1 : best - offset;
}

}  // namespace ktenv::agents

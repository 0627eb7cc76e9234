// The native Kingsburg engine, function for function the Python engine (ktenv/kingsburg/*.py): one
// source file per Python module under engine/, declared here.
#pragma once

#include <array>
#include <stdexcept>
#include <string>

#include "state.hpp"

namespace ktenv::kingsburg {

using Mask = std::array<std::int8_t, N_ACTIONS>;

struct IllegalAction : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// common.py
constexpr int ALL_KINDS = 0b111;
void enter(State& s, int stage, int phase = -1);
void ask(State& s, int decision, int player, int picks = 0, int kinds = ALL_KINDS);
void done(State& s);
int owned_kinds(const State& s, int player);
void pick_legal(const State& s, Mask& mask, bool paying);
int stable_bonus(const State& s, int player);

// aid.py (K4)
namespace aid {
// fewest(values, among): the players of `among` (k of them) with the smallest value, written to `out`
int fewest(const std::array<int, kMaxPlayers>& values, const int* among, int k, int* out);
void recipients(const State& s, int& aid_player, std::array<bool, kMaxPlayers>& takers);
void run(State& s);
void take_good(State& s, int action);
}  // namespace aid

// season.py (K5.1, K5.2, K5.6)
namespace season {
void start(State& s);
void place_neutral_dice(State& s);
int white_dice(const State& s, int player);
void roll_player(State& s, int player);
void sort_dice(State& s, int player);
bool statue_ready(const State& s, int p);
bool chapel_ready(const State& s, int p);
void rerolls(State& s);
void reroll_legal(const State& s, Mask& mask);
void reroll_apply(State& s, int action);
void end(State& s);
void town_hall_legal(const State& s, Mask& mask);
void town_hall_apply(State& s, int action);
}  // namespace season

// influence.py (K5.3)
namespace influence {
// actions.SUBSETS: subset i = (c - 1) * 4 + w takes the coloured slots of the bits of c and the white slots of w
struct SubsetSlots {
  std::array<int, DIE_SLOTS> slots{};
  int size = 0;
};
constexpr std::array<SubsetSlots, N_SUBSETS> make_subsets() {
  std::array<SubsetSlots, N_SUBSETS> out{};
  for (int c = 1; c < 8; ++c)
    for (int w = 0; w < 4; ++w) {
      SubsetSlots& sub = out[(c - 1) * 4 + w];
      for (int i = 0; i < 3; ++i)
        if (c >> i & 1) sub.slots[sub.size++] = i;
      for (int i = 0; i < 2; ++i)
        if (w >> i & 1) sub.slots[sub.size++] = 3 + i;
    }
  return out;
}
inline constexpr std::array<SubsetSlots, N_SUBSETS> SUBSETS = make_subsets();

struct Subset {
  int index, pips;
};
struct Subsets {
  std::array<Subset, N_SUBSETS> items;
  int size = 0;
};
bool can_token(const State& s, int p);
bool can_market(const State& s, int p);
int readings(int diff, bool token, bool market, std::array<std::array<int, 2>, 2>& out);
bool open_to(const State& s, int p, int advisor);
Subsets free_subsets(const State& s, int p);
int pips(const State& s, int p, int subset);
std::uint32_t legal_targets(const State& s, int p);  // bit a set: advisor a is a legal target
void run(State& s);
void influence_legal(const State& s, Mask& mask);
void influence_apply(State& s, int action);
void dice_legal(const State& s, Mask& mask);
void dice_apply(State& s, int action);
void modifier_legal(const State& s, Mask& mask);
void modifier_apply(State& s, int action);
void place(State& s, int token, int market);
}  // namespace influence

// advisors.py (K5.4, K11)
namespace advisors {
void help_player(State& s, int advisor, int p);
void run(State& s);
void alchemist_apply(State& s, int action);
}  // namespace advisors

// construction.py (K5.5, K12)
namespace construction {
int next_column(const State& s, int p, int row);
std::array<int, 3> cost(const State& s, int p, int row, int column);
int buildable_rows(const State& s, int p);  // bit r set: row r can be built
void build(State& s, int p, int row);
void run(State& s);
void build_legal(const State& s, Mask& mask);
void build_apply(State& s, int action);
}  // namespace construction

// year.py (K6, K7)
namespace year {
void kings_reward(State& s);
int envoy_recipient(const State& s);
void kings_envoy(State& s);
}  // namespace year

// recruiting.py (K8)
namespace recruiting {
int price(const State& s, int p);
void run(State& s);
void recruit_legal(const State& s, Mask& mask);
void recruit_apply(State& s, int action);
void pay_apply(State& s, int action);
}  // namespace recruiting

// battle.py (K9)
namespace battle {
constexpr int DEFEAT = -1, DRAW = 0, VICTORY = 1;
int battle_strength(const State& s, int p, const EnemyCard& card);
int outcome(const State& s, int p, int strength, const EnemyCard& card);
void lose_building(State& s, int p);
void reveal(State& s);
void run(State& s);
void end_of_year(State& s);
}  // namespace battle

// scoring.py (K10)
namespace scoring {
std::vector<int> winners(const State& s);
void finish(State& s);
}  // namespace scoring

// machine.py
State new_game(const Config& cfg, std::uint64_t rng_state);
void legal_mask(const State& s, Mask& mask);
void step(State& s, int action);
void step_legal(State& s, int action);  // step() for an action the caller knows legal (no mask check)
void step_legal(State& s, int action, Mask& next);  // ... and the mask of the decision it stops at
void advance(State& s);
void advance(State& s, Mask& mask);  // ... and the mask of the decision it stops at (zeros at the end)

}  // namespace ktenv::kingsburg

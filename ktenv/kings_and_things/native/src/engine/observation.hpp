// The observation encoder (ktenv/kings_and_things/env/observation.py: ObservationEncoder) and the public player
// statistics (ktenv/kings_and_things/env/stats.py: player_stats), bit-exact with the Python encoder.
//
// The layout is defined in Python only: a `Plan` (every offset, lookup table and register) is built
// once per config from a Python ObservationEncoder (ktenv/kings_and_things/native/observation.py), so the two can
// never disagree on where a value goes. Pure C++ (no nanobind): bindings in bind_observation.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../state.hpp"

namespace ktenv::observation {

// Columns of player_stats (ktenv/kings_and_things/env/stats.py STAT_COLUMNS), in order.
enum Stat : int {
  ALIVE, GOLD, HEXES, INCOME, FORT_LEVELS, FORTS, CITADELS, HEROES, SCREEN_SIZE, BOARD_THINGS,
  INCOME_COUNTERS, DRAWN, TRADE_SET, N_STATS
};
using StatRow = std::array<std::int64_t, N_STATS>;
using StatTable = std::array<StatRow, kMaxPlayers>;

// Register kinds and visibility (observation.py: SCALAR ... OWN_SIDE, PUBLIC/ACTOR/OWNER).
enum RegKind : int { R_SCALAR = 0, R_HEX, R_THING, R_HERO, R_SIDE, R_PER_SIDE, R_OWN_SIDE };
enum RegVisible : int { V_PUBLIC = 0, V_ACTOR, V_OWNER };
constexpr int FIELD = -2;   // the field itself
constexpr int LENGTH = -1;  // len(field) of a list field; >= 0: element i (absent past the end)

// Reads one frame field (element) of the state: false when the frame is not under way or the element
// is absent.
using Getter = bool (*)(const State& s, int index, std::int64_t& out);
// The getter of Frame.field ("Battle", "hex"), or nullptr when there is no such field.
Getter getter_of(const std::string& frame, const std::string& field);

struct Register {
  Getter get = nullptr;
  int frame = 0;  // the kind of frame it reads (frame_kind), so encode visits only the frames under way
  int kind = R_SCALAR, visible = V_PUBLIC;
  double high = 1.0;
  int offset = 0, index = FIELD;
};

// A register as Python describes it: (frame class, field, kind, visible, high, offset, index).
using RegisterSpec = std::tuple<std::string, std::string, int, int, double, int, int>;

struct Plan {
  int n = 0, h = 0, nt = 0, nf = 0, size = 0, sides = 0, n_decisions = 0;
  // options
  int max_rounds = -1;  // -1: no limit
  bool cup_size_public = false, fort_unlimited = false, encounter_powers = false;
  int king_power = -1, dwarf_king = -1;
  // offsets: game
  int g_round, g_rounds_left, g_phase, g_decision, g_is_actor, g_actor, g_first, g_turn_position, g_cup_ran_dry,
      g_cup_size_public, g_cup_size, g_fort_left, g_hex_stack;
  // players
  int p_start, p_turn_position, p_is_first, p_is_actor, p_power, p_marked_hex;
  // hexes
  int h_terrain, h_face_down, h_fort, h_fort_damage, h_fort_changed, h_citadel_age, h_income_value, h_income_combat,
      h_income_damage, h_cloud, h_things, h_known, h_hidden, h_known_combat, h_heroes, h_hero_combat, h_own_value,
      h_own_unsupported;
  // things
  int t_mine_screen, t_on_board, t_hex, t_face_up, t_selected, t_new, t_out, t_supported, t_bearer;
  // heroes
  int f_up, f_pool, f_hex, f_mp;
  // self
  int s_screen, s_screen_gold, s_free_things;
  // lookup tables per observer [p][owner code + 1] (8 wide); values >= size: not written
  std::vector<int> side_of, hex_owner_lut, thing_owner_lut, hero_owner_lut, stack_lut;
  // per Thing (nt) / per Thing + 1 (id + 1, 0: none) / per face (nf)
  std::vector<int> income_kind_lut, kind, terrain9, thing_terrain, feature_key /* nt x 5 */, income_value;
  std::vector<float> inc_value1, inc_combat1, combat, gold, hero_combat;
  std::vector<std::uint8_t> not_income, is_creature, is_mine;
  std::vector<int> face_counter, face_side, lord_faces, lord_terrain /* per face */;
  std::array<int, 4> fort_count{};
  // grouped by frame kind, in Python's order within a kind; registers[span.first .. span.second) of a kind
  std::vector<Register> registers;
  std::array<std::pair<int, int>, kFrameKinds> frame_registers{};
  // the [begin, end) ranges of the register columns (merged): nothing else writes there
  std::vector<std::pair<int, int>> register_columns;
  // [begin, end) ranges that encode zeroes first: everything but the rows it writes whole (whole_rows)
  std::vector<std::pair<int, int>> sparse;
};

// The plan from the Python encoder's numbers: offsets and options (`ints`), tables, registers.
Plan make_plan(const std::map<std::string, std::int64_t>& ints,
               const std::map<std::string, std::vector<double>>& tables, const std::vector<RegisterSpec>& registers);

// player_stats(s): rows in absolute player order (the first s.n.Players rows are filled).
void player_stats(const State& s, const Plan& plan, StatTable& out);

// The observation of player p into out[0 .. plan.size) (stats: player_stats of s, or nullptr).
void encode(const State& s, const Plan& plan, int p, float* out, const StatTable* stats = nullptr);
// The register columns encode writes for player p, in its order, as (index, value): a later pair for an
// index overwrites an earlier one; every other register column is 0.
void register_writes(const State& s, const Plan& plan, int p, std::vector<std::pair<int, float>>& out);

// Every seat's observation: out[q * plan.size ...] for q = 0 .. n-1 (the statistics computed once).
void encode_all(const State& s, const Plan& plan, float* out);

}  // namespace ktenv::observation

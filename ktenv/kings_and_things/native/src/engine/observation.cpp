// The observation encoder, bit-exact with ktenv/kings_and_things/env/observation.py (see observation.hpp).
#include "observation.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "core.hpp"

namespace ktenv::observation {

namespace {

constexpr std::int64_t ROUND_CAP = 10'000;

// One frame field's value: a number; an element or the length of a list (Series); a side's entry (PerSide).
template <class T>
bool read_value(const T& v, int index, std::int64_t& out) {
  if constexpr (std::is_same_v<T, Series>) {
    if (index == LENGTH) {
      out = static_cast<std::int64_t>(v.size());
      return true;
    }
    if (index >= 0 && index < static_cast<int>(v.size())) {
      out = v[static_cast<std::size_t>(index)];
      return true;
    }
    return false;
  } else if constexpr (std::is_same_v<T, PerSide>) {
    if (index >= 0 && index < kSides) {
      out = v[static_cast<std::size_t>(index)];
      return true;
    }
    return false;
  } else {
    if (index != FIELD) return false;
    out = static_cast<std::int64_t>(v);
    return true;
  }
}

template <class T>
constexpr bool is_list = std::is_same_v<T, Series> || std::is_same_v<T, PerSide>;

std::int64_t need(const std::map<std::string, std::int64_t>& ints, const std::string& name) {
  auto it = ints.find(name);
  if (it == ints.end()) throw std::invalid_argument("observation plan: missing " + name);
  return it->second;
}
int opt(const std::map<std::string, std::int64_t>& ints, const std::string& name, int fallback = -1) {
  auto it = ints.find(name);
  return it == ints.end() ? fallback : static_cast<int>(it->second);
}
template <class T>
std::vector<T> table(const std::map<std::string, std::vector<double>>& tables, const std::string& name,
                     std::size_t size) {
  auto it = tables.find(name);
  if (it == tables.end()) throw std::invalid_argument("observation plan: missing table " + name);
  if (it->second.size() != size)
    throw std::invalid_argument("observation plan: table " + name + " has " + std::to_string(it->second.size()) +
                                " entries, expected " + std::to_string(size));
  std::vector<T> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<T>(it->second[i]);
  return out;
}

inline float clip(std::int64_t v, double high) {
  double x = static_cast<double>(v);
  if (x < 0) x = 0;
  if (x > high) x = high;
  return static_cast<float>(x);
}

// The kind number of a frame class (frame_kind), 0 when there is none of that name.
int frame_kind_of(const std::string& frame) {
#define KTENV_OBS_KIND(cls, saved) \
  if (frame == #cls) return frame_kind<cls>::value;
  KTENV_FRAMES(KTENV_OBS_KIND)
#undef KTENV_OBS_KIND
  return 0;
}

// Registers by frame kind (a stable sort keeps Python's order within a class), each kind's span noted.
void group_registers(Plan& P) {
  std::stable_sort(P.registers.begin(), P.registers.end(),
                   [](const Register& a, const Register& b) { return a.frame < b.frame; });
  P.frame_registers.fill({0, 0});
  for (int i = 0; i < static_cast<int>(P.registers.size()); ++i) {
    auto& span = P.frame_registers[static_cast<std::size_t>(P.registers[static_cast<std::size_t>(i)].frame)];
    if (span.first == span.second) span.first = i;
    span.second = i + 1;
  }
}

// The rows encode writes whole on every call, zeros included, as (offset, length): what encode_things,
// encode_heroes, encode_hex_facts and encode_players assign element by element (the Things' rows of
// 0/1 flags are left to the zeroing: only Things out of the cup are written). Keep the two in step.
std::vector<std::pair<int, int>> whole_rows(const Plan& P) {
  const int h = P.h, nt = P.nt, nf = P.nf, n = P.n;
  std::vector<std::pair<int, int>> rows = {
      {P.p_start, N_STATS * n}, {P.p_turn_position, n}, {P.p_marked_hex, n},
      {P.h_fort, h}, {P.h_fort_damage, h}, {P.h_fort_changed, h}, {P.h_citadel_age, h},
      {P.h_income_value, h}, {P.h_income_combat, h}, {P.h_income_damage, h},
      {P.t_hex, nt}, {P.t_bearer, nt},
      {P.f_up, nf}, {P.f_pool, nf}, {P.f_hex, nf}, {P.f_mp, 5 * nf}};
  if (P.h_face_down >= 0) rows.push_back({P.h_face_down, h});
  return rows;
}

// Everything outside the whole rows: the one-hot columns, counts and registers, zeroed before writing.
std::vector<std::pair<int, int>> sparse_ranges(const Plan& P) {
  auto rows = whole_rows(P);
  std::sort(rows.begin(), rows.end());
  std::vector<std::pair<int, int>> out;
  int at = 0;
  for (const auto& [offset, length] : rows) {
    if (offset < at || offset + length > P.size)
      throw std::invalid_argument("observation plan: the row at " + std::to_string(offset) +
                                  " overlaps another or passes the end");
    if (offset > at) out.push_back({at, offset});
    at = offset + length;
  }
  if (at < P.size) out.push_back({at, P.size});
  return out;
}

// The [begin, end) ranges the registers write into, sorted and merged.
std::vector<std::pair<int, int>> register_columns(const Plan& P) {
  std::vector<std::pair<int, int>> spans;
  for (const Register& r : P.registers) {
    const int width = r.kind == R_SCALAR ? 1 : r.kind == R_HEX ? P.h : r.kind == R_THING ? P.nt
                      : r.kind == R_HERO ? P.nf : P.sides;
    spans.emplace_back(r.offset, r.offset + width);
  }
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<int, int>> out;
  for (const auto& [begin, end] : spans) {
    if (!out.empty() && begin <= out.back().second)
      out.back().second = std::max(out.back().second, end);
    else
      out.emplace_back(begin, end);
  }
  return out;
}

}  // namespace

Getter getter_of(const std::string& frame, const std::string& field) {
#define KTENV_OBS_FIELD(name, type, def)                                           \
  if (field == #name)                                                              \
    return [](const State& s, int index, std::int64_t& out) -> bool {              \
      const FrameT* f = s.frame<FrameT>();                                         \
      return f != nullptr && read_value(f->name, index, out);                      \
    };
#define KTENV_OBS_FRAME(cls, saved)        \
  if (frame == #cls) {                     \
    using FrameT = cls;                    \
    KTENV_FIELDS_##cls(KTENV_OBS_FIELD)    \
    return nullptr;                        \
  }
  KTENV_FRAMES(KTENV_OBS_FRAME)
#undef KTENV_OBS_FRAME
#undef KTENV_OBS_FIELD
  return nullptr;
}

Plan make_plan(const std::map<std::string, std::int64_t>& ints,
               const std::map<std::string, std::vector<double>>& tables, const std::vector<RegisterSpec>& registers) {
  Plan P;
  auto I = [&](const char* name) { return static_cast<int>(need(ints, name)); };
  P.n = I("n");
  P.h = I("h");
  P.nt = I("nt");
  P.nf = I("nf");
  P.size = I("size");
  P.sides = P.n + 1;
  P.n_decisions = I("n_decisions");
  if (P.n < 1 || P.n > kMaxPlayers || P.h > kMaxHexes || P.nt > kMaxThings || P.nf > kMaxFaces)
    throw std::invalid_argument("observation plan: sizes beyond the native capacities");
  P.max_rounds = I("max_rounds");
  P.cup_size_public = I("cup_size_public") != 0;
  P.fort_unlimited = I("fort_unlimited") != 0;
  P.encounter_powers = I("encounter_powers") != 0;
  P.king_power = I("king_power");
  P.dwarf_king = I("dwarf_king");

  P.g_round = I("game.round");
  P.g_rounds_left = I("game.rounds_left");
  P.g_phase = I("game.phase_setup");
  P.g_decision = I("game.decision_none");
  P.g_is_actor = I("game.is_actor");
  P.g_actor = I("game.actor_rel0");
  P.g_first = I("game.first_rel0");
  P.g_turn_position = I("game.turn_position");
  P.g_cup_ran_dry = I("game.cup_ran_dry");
  P.g_cup_size_public = I("game.cup_size_public");
  P.g_cup_size = I("game.cup_size");
  P.g_fort_left = I("game.fort_left_tower");
  P.g_hex_stack = I("game.hex_stack_desert");

  P.p_start = I("players_start");
  P.p_turn_position = I("players.turn_position");
  P.p_is_first = I("players.is_first");
  P.p_is_actor = I("players.is_actor");
  P.p_power = I("players.power_amoeba");
  P.p_marked_hex = I("players.marked_hex");

  P.h_terrain = I("hexes.terrain_desert");
  P.h_face_down = opt(ints, "hexes.face_down");
  P.h_fort = I("hexes.fort");
  P.h_fort_damage = I("hexes.fort_damage");
  P.h_fort_changed = I("hexes.fort_changed");
  P.h_citadel_age = I("hexes.citadel_age");
  P.h_income_value = I("hexes.income_value");
  P.h_income_combat = I("hexes.income_combat");
  P.h_income_damage = I("hexes.income_damage");
  P.h_cloud = I("hexes.cloud");
  P.h_things = I("hexes.things_rel0");
  P.h_known = I("hexes.known_rel0");
  P.h_hidden = I("hexes.hidden_rel0");
  P.h_known_combat = I("hexes.known_combat_rel0");
  P.h_heroes = I("hexes.heroes_rel0");
  P.h_hero_combat = I("hexes.hero_combat_rel0");
  P.h_own_value = I("hexes.own_value_1");
  P.h_own_unsupported = I("hexes.own_unsupported");

  P.t_mine_screen = I("things.mine_screen");
  P.t_on_board = I("things.on_board");
  P.t_hex = I("things.hex");
  P.t_face_up = I("things.face_up");
  P.t_selected = I("things.selected");
  P.t_new = I("things.new");
  P.t_out = I("things.out");
  P.t_supported = I("things.supported");
  P.t_bearer = I("things.bearer");

  P.f_up = I("heroes.up");
  P.f_pool = I("heroes.pool");
  P.f_hex = I("heroes.hex");
  P.f_mp = I("heroes.mp");

  P.s_screen = I("self.screen_creature");
  P.s_screen_gold = I("self.screen_gold");
  P.s_free_things = I("self.free_things");

  const std::size_t n = static_cast<std::size_t>(P.n), nt = static_cast<std::size_t>(P.nt),
                    nf = static_cast<std::size_t>(P.nf);
  const std::size_t lut = n * 8;
  P.side_of = table<int>(tables, "side_of", lut);
  P.hex_owner_lut = table<int>(tables, "hex_owner_lut", lut);
  P.thing_owner_lut = table<int>(tables, "thing_owner_lut", lut);
  P.hero_owner_lut = table<int>(tables, "hero_owner_lut", lut);
  P.stack_lut = table<int>(tables, "stack_lut", lut);
  P.income_kind_lut = table<int>(tables, "income_kind_lut", nt + 1);
  P.kind = table<int>(tables, "kind", nt);
  P.terrain9 = table<int>(tables, "terrain9", nt);
  P.thing_terrain = table<int>(tables, "thing_terrain", nt);
  P.feature_key = table<int>(tables, "feature_key", nt * 5);
  P.income_value = table<int>(tables, "income_value", nt);
  P.inc_value1 = table<float>(tables, "inc_value1", nt + 1);
  P.inc_combat1 = table<float>(tables, "inc_combat1", nt + 1);
  P.combat = table<float>(tables, "combat", nt);
  P.gold = table<float>(tables, "gold", nt);
  P.hero_combat = table<float>(tables, "hero_combat", nf);
  P.not_income = table<std::uint8_t>(tables, "not_income", nt);
  P.is_creature = table<std::uint8_t>(tables, "is_creature", nt);
  P.is_mine = table<std::uint8_t>(tables, "is_mine", nt);
  P.face_counter = table<int>(tables, "face_counter", nf);
  P.face_side = table<int>(tables, "face_side", nf);
  P.lord_terrain = table<int>(tables, "lord_terrain", nf);
  auto lords = tables.find("lord_faces");
  if (lords == tables.end()) throw std::invalid_argument("observation plan: missing table lord_faces");
  for (double f : lords->second) P.lord_faces.push_back(static_cast<int>(f));
  auto forts = table<int>(tables, "fort_count", 4);
  std::copy(forts.begin(), forts.end(), P.fort_count.begin());
  for (const auto& [cls, field, kind, visible, high, offset, index] : registers) {
    Register r;
    r.get = getter_of(cls, field);
    if (r.get == nullptr) throw std::invalid_argument("observation plan: no native frame field " + cls + "." + field);
    r.frame = frame_kind_of(cls);
    r.kind = kind;
    r.visible = visible;
    r.high = high;
    r.offset = offset;
    r.index = index;
    P.registers.push_back(r);
  }
  group_registers(P);
  P.register_columns = register_columns(P);
  P.sparse = sparse_ranges(P);
  return P;
}

namespace {

// The Things out of the cup, in catalog order: the only ones the statistics and the observation say
// anything about (a Thing in the cup belongs to nobody, so `observer`'s own are kept too: exactness
// whatever the state). Most of the catalog is in the cup: every section loops over these instead.
struct Drawn {
  std::array<std::int16_t, kMaxThings> ids;
  int count = 0;
  const std::int16_t* begin() const { return ids.data(); }
  const std::int16_t* end() const { return ids.data() + count; }
};

constexpr int NO_OBSERVER = -100;  // matches no owner code (the statistics have no observer)

void draw_list(const State& s, int nt, int observer, Drawn& out) {
  int k = 0;
  for (int c = 0; c < nt; ++c) {
    out.ids[static_cast<std::size_t>(k)] = static_cast<std::int16_t>(c);
    k += s.thing_place[c] != CUP || s.thing_owner[c] == observer;
  }
  out.count = k;
}

void player_stats(const State& s, const Plan& P, const Drawn& drawn, StatTable& out) {
  const int n = P.n, h = P.h, nf = P.nf;
  for (int q = 0; q < n; ++q) out[q].fill(0);
  std::array<std::int64_t, kMaxPlayers> income_values{};
  const int king = P.dwarf_king >= 0 ? s.hero_owner[P.dwarf_king] : -1;
  for (int x = 0; x < h; ++x) {
    int o = s.hex_owner[x];
    if (o < 0 || o >= n) continue;
    int fort = s.hex_fort[x];
    out[o][HEXES] += 1;
    out[o][FORT_LEVELS] += fort;
    out[o][FORTS] += fort > 0;
    out[o][CITADELS] += fort == 4;
    int inc = s.hex_income[x];
    if (inc >= 0) {
      std::int64_t value = P.income_value[inc];
      if (king >= 0 && P.is_mine[inc] && o == king) value *= 2;  // A.9: the Dwarf King doubles his mines
      out[o][INCOME_COUNTERS] += 1;
      income_values[o] += value;
    }
  }
  for (int f = 0; f < nf; ++f) {
    int o = s.hero_owner[f];
    if (o >= 0 && o < n) out[o][HEROES] += 1;
  }
  for (int q = 0; q < n; ++q)
    out[q][INCOME] = out[q][HEXES] + out[q][FORT_LEVELS] + income_values[q] + out[q][HEROES];
  for (int q = 0; q < n; ++q) {  // R21.7 Tax Farmer: the marked counter counts double
    int hx = s.power_hex[q];
    if (hx < 0) continue;
    int c = s.hex_income[hx];
    if (s.hex_owner[hx] == q && c >= 0) {
      bool mine = P.is_mine[c] && P.dwarf_king >= 0 && s.hero_owner[P.dwarf_king] == q;
      out[q][INCOME] += static_cast<std::int64_t>(P.income_value[c]) * (mine ? 2 : 1);
    }
  }
  const bool recruit = s.phase == PHASE_RECRUIT;
  for (int c : drawn) {
    int o = s.thing_owner[c];
    if (o < 0 || o >= n) continue;
    int place = s.thing_place[c];
    if (place == SCREEN) {
      out[o][SCREEN_SIZE] += 1;
      if (recruit && s.thing_selected[c]) out[o][TRADE_SET] += 1;
    } else if (place == BOARD && P.not_income[c]) {
      out[o][BOARD_THINGS] += 1;
    }
  }
  for (int q = 0; q < n; ++q) {
    out[q][ALIVE] = s.alive[q];
    out[q][GOLD] = s.gold[q];
    out[q][DRAWN] = s.drawn[q];
  }
}

}  // namespace

void player_stats(const State& s, const Plan& P, StatTable& out) {
  Drawn drawn;
  draw_list(s, P.nt, NO_OBSERVER, drawn);
  player_stats(s, P, drawn, out);
}

namespace {

// One observation being written: the observer, the buffer, and the facts several sections share.
struct Sheet {
  const State& s;
  const Plan& P;
  const StatTable& stats;
  const Drawn& drawn;
  int p;
  float* out;
  int actor = -1, decision = decision::NONE, first = 0, rel_first = 0;
  std::array<int, kMaxPlayers> position{};  // place in the turn order, -1: out of the game

  void put(int index, float v) const {
    if (index >= 0 && index < P.size) out[index] = v;
  }
};

// What the observer may know of the pending decision, and the turn order.
void read_turn(Sheet& w) {
  const State& s = w.s;
  const int n = w.P.n;
  w.actor = static_cast<int>(s.actor);
  w.decision = static_cast<int>(s.decision);
  if ((w.decision == decision::LUCKY_DIE || w.decision == decision::LUCKY_SIGN) && w.actor != w.p) {
    w.actor = -1;  // RD8.2: others never see a Lucky Charm window
    w.decision = decision::NONE;
  }
  w.first = static_cast<int>(s.first_player);
  w.rel_first = floor_mod(w.first - w.p, n);
  w.position.fill(-1);
  for (int i = 0, k = 0; k < n; ++k) {
    int q = floor_mod(w.first + k, n);
    if (s.alive[q]) w.position[q] = i++;
  }
}

void encode_game(const Sheet& w) {
  const State& s = w.s;
  const Plan& P = w.P;
  const int n = P.n, p = w.p;
  float* out = w.out;
  out[P.g_round] = static_cast<float>(std::min<std::int64_t>(s.round, ROUND_CAP));
  if (P.max_rounds >= 0) out[P.g_rounds_left] = static_cast<float>(std::max<std::int64_t>(0, P.max_rounds - s.round));
  out[P.g_phase + s.phase] = 1;
  if (w.decision >= 0 && w.decision < P.n_decisions) out[P.g_decision + w.decision] = 1;
  if (w.actor == p) out[P.g_is_actor] = 1;
  if (w.actor >= 0 && w.actor < n) out[P.g_actor + floor_mod(w.actor - p, n)] = 1;
  out[P.g_first + w.rel_first] = 1;
  out[P.g_turn_position] = static_cast<float>(w.position[p]);
  out[P.g_cup_ran_dry] = static_cast<float>(s.cup_ran_dry);
  if (P.cup_size_public) {
    out[P.g_cup_size_public] = 1;
    int cup = P.nt;
    for (int c : w.drawn) cup -= s.thing_place[c] != CUP;
    out[P.g_cup_size] = static_cast<float>(cup);
  }
  for (int t : s.hex_stack)
    if (t >= 0 && t < 8) out[P.g_hex_stack + t] += 1;
  if (P.fort_unlimited) {
    for (int k = 0; k < 4; ++k) out[P.g_fort_left + k] = 32;
  } else {
    std::array<int, 5> used{};
    for (int x = 0; x < P.h; ++x) {
      int f = s.hex_fort[x];
      if (f >= 1 && f <= 4) ++used[f];
    }
    for (int k = 0; k < 4; ++k)
      out[P.g_fort_left + k] = static_cast<float>(std::min(std::max(P.fort_count[k] - used[k + 1], 0), 32));
  }
}

// Rows rotated: the observer first.
void encode_players(const Sheet& w) {
  const State& s = w.s;
  const Plan& P = w.P;
  const int n = P.n, p = w.p;
  float* out = w.out;
  for (int j = 0; j < N_STATS; ++j)
    for (int k = 0; k < n; ++k) out[P.p_start + j * n + k] = static_cast<float>(w.stats[(p + k) % n][j]);
  for (int k = 0; k < n; ++k) out[P.p_turn_position + k] = static_cast<float>(w.position[(p + k) % n]);
  out[P.p_is_first + w.rel_first] = 1;
  if (w.actor >= 0 && w.actor < n) out[P.p_is_actor + floor_mod(w.actor - p, n)] = 1;
  if (P.encounter_powers) {
    for (int k = 0; k < n; ++k) {
      int q = (p + k) % n;
      if (s.power[q] >= 0) out[P.p_power + s.power[q] * n + k] = 1;
      out[P.p_marked_hex + k] = static_cast<float>(s.power_hex[q]);
    }
  } else {
    for (int k = 0; k < n; ++k) out[P.p_marked_hex + k] = -1;
  }
}

void encode_hex_facts(const Sheet& w) {
  const State& s = w.s;
  const Plan& P = w.P;
  const int h = P.h;
  float* out = w.out;
  const int* hex_owner_lut = &P.hex_owner_lut[static_cast<std::size_t>(w.p) * 8];
  for (int x = 0; x < h; ++x) {
    // R20.3: a face-down terrain is nobody's knowledge (but Tycho Brahe's owner's, R22.4)
    if (!s.hex_down[x] || s.seen[w.p][x]) {
      int terrain = s.hex_terrain[x];
      if (terrain < 0) terrain += 8;  // numpy's negative index into the terrain table
      out[P.h_terrain + terrain * h + x] = 1;
    }
    if (P.h_face_down >= 0) out[P.h_face_down + x] = s.hex_down[x];
    w.put(hex_owner_lut[s.hex_owner[x] + 1] + x, 1);
    const int fort = s.hex_fort[x];
    out[P.h_fort + x] = static_cast<float>(fort);
    out[P.h_fort_damage + x] = static_cast<float>(s.hex_fort_damage[x]);
    out[P.h_fort_changed + x] = s.hex_fort_round[x] == s.round && fort > 0;
    out[P.h_citadel_age + x] =
        fort == 4 ? static_cast<float>(std::max<std::int64_t>(s.round - s.hex_citadel_round[x], 0)) : 0.0f;
    const int inc1 = s.hex_income[x] + 1;
    w.put(P.income_kind_lut[inc1] + x, 1);
    out[P.h_income_value + x] = P.inc_value1[inc1];
    out[P.h_income_combat + x] = P.inc_combat1[inc1];
    out[P.h_income_damage + x] = inc1 > 0 ? static_cast<float>(s.thing_damage[inc1 - 1]) : 0.0f;
  }
  if (s.cloud_hex >= 0) out[P.h_cloud + s.cloud_hex] = 1;
}

// Counters per side and hex: all, known, hidden, known combat; heroes and their combat.
void encode_stacks(const Sheet& w) {
  const State& s = w.s;
  const Plan& P = w.P;
  float* out = w.out;
  const int* stack_lut = &P.stack_lut[static_cast<std::size_t>(w.p) * 8];
  const int m = P.sides * P.h;
  for (int c : w.drawn) {
    if (s.thing_place[c] != BOARD || !P.not_income[c]) continue;
    int key = stack_lut[s.thing_owner[c] + 1] + s.thing_hex[c];
    if (key < 0 || key >= m) continue;
    out[P.h_things + key] += 1;
    if (s.thing_public[c] || s.thing_face_up[c]) {
      out[P.h_known + key] += 1;
      out[P.h_known_combat + key] += P.combat[c];
    } else {
      out[P.h_hidden + key] += 1;
    }
  }
  for (int f = 0; f < P.nf; ++f) {
    int key = stack_lut[s.hero_owner[f] + 1] + s.hero_hex[f];
    if (key < 0 || key >= m) continue;
    out[P.h_heroes + key] += 1;
    out[P.h_hero_combat + key] += P.hero_combat[f];
  }
}

// The observer's creatures: values, flags, support (R9.1).
void encode_own_creatures(const Sheet& w) {
  const State& s = w.s;
  const Plan& P = w.P;
  const int h = P.h, p = w.p;
  float* out = w.out;
  std::array<bool, 9> terrains{};
  for (int x = 0; x < h; ++x)
    if (s.hex_owner[x] == p) terrains[static_cast<std::size_t>(s.hex_terrain[x])] = true;
  const int own_end = 10 * h;
  for (int c : w.drawn) {
    if (s.thing_owner[c] != p || s.thing_place[c] != BOARD || !P.is_creature[c]) continue;
    int hx = s.thing_hex[c];
    const int* feat = &P.feature_key[static_cast<std::size_t>(c) * 5];
    for (int j = 0; j < 5; ++j) {
      int key = feat[j] + hx;
      if (key >= 0 && key < own_end) out[P.h_own_value + key] += 1;
    }
    bool ok = terrains[static_cast<std::size_t>(P.terrain9[c])];
    for (int face : P.lord_faces)
      if (!ok && s.hero_owner[face] == p && P.thing_terrain[c] == P.lord_terrain[face] && hx == s.hero_hex[face])
        ok = true;
    if (ok)
      out[P.t_supported + c] = 1;
    else if (hx >= 0 && hx < h)
      out[P.h_own_unsupported + hx] += 1;
  }
}

// The observer's screen, for the self section.
struct ScreenTally {
  int kinds[8] = {};
  float gold = 0;
  bool any = false;
};

// Rows = catalog ids. A Thing in the cup shows nothing: its rows keep their zeros and -1s.
ScreenTally encode_things(const Sheet& w) {
  const State& s = w.s;
  const Plan& P = w.P;
  const int nt = P.nt, p = w.p;
  float* out = w.out;
  const bool recruit = s.phase == PHASE_RECRUIT;
  const int* thing_owner_lut = &P.thing_owner_lut[static_cast<std::size_t>(p) * 8];
  std::fill_n(out + P.t_hex, nt, -1.0f);
  std::fill_n(out + P.t_bearer, nt, -1.0f);
  ScreenTally screen;
  for (int c : w.drawn) {
    const int place = s.thing_place[c], owner = s.thing_owner[c];
    const bool mine = owner == p, on_board = place == BOARD, on_screen = place == SCREEN;
    const bool known_any = s.thing_public[c] || s.thing_face_up[c];
    const bool mine_screen = mine && on_screen;
    const bool board_known = on_board && (mine || known_any);
    bool visible = board_known || mine_screen;
    bool selected = mine_screen && s.thing_selected[c];
    if (recruit && on_screen && s.thing_selected[c]) {  // trade sets are shown to all (R8.1.1)
      visible = true;
      selected = true;
    }
    out[P.t_mine_screen + c] = mine_screen;
    out[P.t_on_board + c] = board_known;
    out[P.t_hex + c] = board_known ? static_cast<float>(s.thing_hex[c]) : -1.0f;
    if (visible) w.put(thing_owner_lut[owner + 1] + c, 1);
    if (board_known) {
      float* a = out + P.t_face_up + c;
      a[0] = s.thing_face_up[c];
      a[nt] = s.thing_public[c];
      a[2 * nt] = static_cast<float>(s.thing_mp[c]);
      a[3 * nt] = static_cast<float>(s.thing_status[c]);
      a[4 * nt] = s.thing_pinned[c];
      a[5 * nt] = s.thing_moved[c];
      a[6 * nt] = static_cast<float>(s.thing_damage[c]);
      a[7 * nt] = s.thing_fought[c];
      a[8 * nt] = s.thing_in_play[c];
    }
    out[P.t_selected + c] = selected;
    out[P.t_new + c] = mine && s.thing_new[c];
    out[P.t_out + c] = place == OUT;
    out[P.t_bearer + c] = board_known ? static_cast<float>(s.thing_bearer[c]) : -1.0f;
    if (mine_screen) {
      screen.any = true;
      int k = P.kind[c];
      if (k >= 0 && k < 7) ++screen.kinds[k];
      screen.gold += P.gold[c];
    }
  }
  return screen;
}

// Rows = faces; every hero fact is public.
void encode_heroes(const Sheet& w) {
  const State& s = w.s;
  const Plan& P = w.P;
  const int nf = P.nf;
  float* out = w.out;
  const int* hero_owner_lut = &P.hero_owner_lut[static_cast<std::size_t>(w.p) * 8];
  for (int f = 0; f < nf; ++f) {
    const bool up = s.hero_up[P.face_counter[f]] == P.face_side[f];
    out[P.f_up + f] = up;
    out[P.f_pool + f] = up && s.hero_owner[f] < 0;
    out[P.f_hex + f] = static_cast<float>(s.hero_hex[f]);
    w.put(hero_owner_lut[s.hero_owner[f] + 1] + f, 1);
    float* a = out + P.f_mp + f;
    a[0] = static_cast<float>(s.hero_mp[f]);
    a[nf] = static_cast<float>(s.hero_status[f]);
    a[2 * nf] = s.hero_pinned[f];
    a[3 * nf] = s.hero_moved[f];
    a[4 * nf] = static_cast<float>(s.hero_damage[f]);
  }
}

// One register's value into its column (its kind decides which): put(index, value).
template <class Put>
void place_value(const State& s, const Plan& P, int p, const Register& r, std::int64_t v, Put& put) {
  if (r.visible == V_ACTOR && s.actor != p) return;
  if (r.visible == V_OWNER && (!(v >= 0 && v < P.nt) || s.thing_owner[v] != p)) return;
  const int* side_of = &P.side_of[static_cast<std::size_t>(p) * 8];
  switch (r.kind) {
    case R_SCALAR:
      put(r.offset, clip(v, r.high));
      break;
    case R_SIDE:
    case R_OWN_SIDE:
      if ((v >= 0 && v < P.n) || v == NEUTRAL) put(r.offset + side_of[v + 1], 1.0f);
      break;
    case R_HEX:
      if (v >= 0 && v < P.h) put(r.offset + static_cast<int>(v), 1.0f);
      break;
    case R_THING:
      if (v >= 0 && v < P.nt) put(r.offset + static_cast<int>(v), 1.0f);
      break;
    default:  // HERO
      if (v >= 0 && v < P.nf) put(r.offset + static_cast<int>(v), 1.0f);
  }
}

// The registers of the procedures under way, frame by frame in the state's order (as Python does).
template <class Put>
void each_register(const State& s, const Plan& P, int p, Put&& put) {
  const int* side_of = &P.side_of[static_cast<std::size_t>(p) * 8];
  std::int64_t v = 0;
  for (int i = 0; i < s.frames.count; ++i) {
    const auto [begin, end] = P.frame_registers[static_cast<std::size_t>(s.frames.order[i])];
    for (int j = begin; j < end; ++j) {
      const Register& r = P.registers[static_cast<std::size_t>(j)];
      if (r.kind == R_PER_SIDE) {
        for (int side = 0; side <= P.n; ++side) {
          int code = side < P.n ? side : NEUTRAL;
          if (r.get(s, code, v) && v != 0) put(r.offset + side_of[code + 1], clip(v, r.high));
        }
      } else if (r.get(s, r.kind == R_OWN_SIDE ? p : r.index, v)) {
        place_value(s, P, p, r, v, put);
      }
    }
  }
}

void encode_self(const Sheet& w, const ScreenTally& screen) {
  const Plan& P = w.P;
  if (screen.any) {
    for (int k = 0; k < 7; ++k) w.out[P.s_screen + k] = static_cast<float>(screen.kinds[k]);
    w.out[P.s_screen_gold] = screen.gold;
  }
  std::int64_t free_things = floor_div(static_cast<int>(w.stats[w.p][HEXES]) + 1, 2);
  if (P.encounter_powers && w.s.power[w.p] == P.king_power) free_things += 1;
  w.out[P.s_free_things] = static_cast<float>(free_things);
}

}  // namespace

void encode(const State& s, const Plan& P, int p, float* out, const StatTable* stats_in) {
  if (s.n.Players != P.n || s.n.Hexes != P.h || s.n.Things != P.nt || s.n.Faces != P.nf)
    throw std::invalid_argument("observation: the state's sizes differ from the encoder's config");
  if (p < 0 || p >= P.n) throw std::invalid_argument("observation: no such player");
  Drawn drawn;
  draw_list(s, P.nt, p, drawn);
  StatTable own_stats;
  if (stats_in == nullptr) {
    player_stats(s, P, drawn, own_stats);
    stats_in = &own_stats;
  }
  // the rest is written whole; clearing the sparse parts is about 8% of a vector env step (perf): GCC
  // emits `rep stosb` for it (as glibc's memset would at these sizes), the cost of writing 22 KB
  for (const auto& [begin, end] : P.sparse) std::memset(out + begin, 0, sizeof(float) * static_cast<std::size_t>(end - begin));
  Sheet w{s, P, *stats_in, drawn, p, out};
  read_turn(w);
  encode_game(w);
  encode_players(w);
  encode_hex_facts(w);
  encode_stacks(w);
  encode_own_creatures(w);
  ScreenTally screen = encode_things(w);
  encode_heroes(w);
  each_register(s, P, p, [out](int index, float v) { out[index] = v; });
  encode_self(w, screen);
}

void register_writes(const State& s, const Plan& P, int p, std::vector<std::pair<int, float>>& out) {
  out.clear();
  each_register(s, P, p, [&out](int index, float v) { out.emplace_back(index, v); });
}

void encode_all(const State& s, const Plan& P, float* out) {
  if (s.n.Players != P.n) throw std::invalid_argument("observation: the state's sizes differ from the encoder's config");
  StatTable stats;
  player_stats(s, P, stats);
  for (int p = 0; p < P.n; ++p) encode(s, P, p, out + static_cast<std::size_t>(p) * P.size, &stats);
}

}  // namespace ktenv::observation

// ktenv/kings_and_things/engine/setup.py: R4 setup, from the first player's roll to the hex stack; with the parts of
// ktenv/kings_and_things/board.py that setup uses (laying the board, start positions, Sea replacement, the hex stack).
#include "setup.hpp"

#include <array>
#include <vector>

#include "common.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "placement_turn.hpp"

namespace ktenv::setup {
namespace {

// Stages of setup, in order (R4.4-R4.11).
enum Stage { ROLL, START, SEA_CHECK, CLAIM, TOWER, DRAW, EXCHANGE_EARLY, PLACE, EXCHANGE, PLACE_AGAIN, FINISH };

constexpr int INITIAL_DRAW = 10;               // R4.7
constexpr int WHERE_WILL_THEY_STOP_DRAW = 15;  // R20.2
constexpr int SIX_PLAYER_DRAW = 20;            // R20.1
constexpr int START_GOLD = 10;                 // R4.6

// ----- board.py: geometry helpers

// R3.1.2 axial directions, clockwise from E; CLOCKWISE_CORNERS from NE as direction indices.
constexpr std::array<std::array<int, 2>, 6> DIRECTIONS{{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}};
constexpr int E = 0, SE = 1, SW = 2, W = 3, NW = 4, NE = 5;
constexpr std::array<int, 6> CLOCKWISE_CORNERS{NE, E, SE, SW, W, NW};

int corner(const State& s, int k, int direction) {  // the hex k·DIR (R3.1.3)
  int q = k * DIRECTIONS[direction][0], r = k * DIRECTIONS[direction][1];
  for (int h = 0; h < s.n.Hexes; ++h)
    if (s.t->coords[h][0] == q && s.t->coords[h][1] == r) return h;
  throw std::logic_error("setup: corner off the board");
}

using Option = std::vector<int>;  // start hexes in turn order

// R3.3.1, R4.4.2, RD2.1: the first player's options (board.start_position_choices).
std::vector<Option> start_position_choices(const State& s) {
  int n = s.n.Players, k = s.t->radius;
  std::vector<std::vector<int>> names;
  auto rotations = [&](const std::vector<int>& base) {
    for (std::size_t i = 0; i < base.size(); ++i) {
      std::vector<int> r(base.begin() + i, base.end());
      r.insert(r.end(), base.begin(), base.begin() + i);
      names.push_back(r);
    }
  };
  if (n == 4) {
    rotations({NE, SE, SW, NW});
  } else if (n == 6) {
    rotations(std::vector<int>(CLOCKWISE_CORNERS.begin(), CLOCKWISE_CORNERS.end()));
  } else {
    int step = n == 3 ? 2 : 3;  // alternate corners / opposite corner
    for (int i = 0; i < 6; ++i) {
      std::vector<int> opt;
      for (int j = 0; j < n; ++j) opt.push_back(CLOCKWISE_CORNERS[(i + j * step) % 6]);
      names.push_back(opt);
    }
  }
  std::vector<Option> out;
  for (const auto& opt : names) {
    Option hexes;
    for (int d : opt) hexes.push_back(corner(s, k, d));
    out.push_back(hexes);
  }
  return out;
}

// geo.adjacent[h]: on-board neighbours in direction order.
template <class F>
void for_adjacent(const State& s, int h, F f) {
  for (int d = 0; d < 6; ++d) {
    int j = s.t->neighbours[h][d];
    if (j >= 0) f(j);
  }
}

int land_needed(const State& s) {  // R3.4.1 / X1: 2 or 3
  return s.cfg->start_land_neighbours == option::start_land_neighbours_3 ? 3 : 2;
}

bool start_hex_needs_replacement(const State& s, int start) {  // R3.4.1 trigger
  if (s.hex_terrain[start] == SEA) return true;
  int seas = 0;
  for_adjacent(s, start, [&](int j) { seas += s.hex_terrain[j] == SEA; });
  return seas >= 2;
}

bool start_hex_settled(const State& s, int start, int needed) {  // R3.4.1 end condition
  if (s.hex_terrain[start] == SEA) return false;
  int land = 0;
  for_adjacent(s, start, [&](int j) { land += s.hex_terrain[j] != SEA; });
  return land >= needed;
}

int pop_at(std::vector<std::int32_t>& v, int i) {  // Python's list.pop(i)
  int x = v[i];
  v.erase(v.begin() + i);
  return x;
}

// R3.4, RD2.2 (board.replace_sea_at_start on the state): the start hex, then its Sea neighbours in
// direction order.
void replace(State& s, int start) {
  int needed = land_needed(s);
  if (!start_hex_needs_replacement(s, start)) return;
  std::vector<int> order{start};
  for_adjacent(s, start, [&](int j) { order.push_back(j); });
  for (int h : order) {
    while (s.hex_terrain[h] == SEA) {
      if (start_hex_settled(s, start, needed) || s.hex_stack.empty()) return;
      s.hex_aside.push_back(s.hex_terrain[h]);  // kept apart, never redrawn (R3.4.2)
      s.hex_terrain[h] = pop_at(s.hex_stack, static_cast<int>(s.rng.below(s.hex_stack.size())));
    }
  }
}

// R3.2 (board.lay_board): set aside the mode's tiles, shuffle the rest, lay them in spiral order.
void lay_board(State& s) {
  int n = s.n.Players;
  std::vector<std::int32_t> aside;  // R3.2.1 / R3.2.2; none with six players (R20.1)
  if (n == 4) {
    aside.assign(4, SEA);
  } else if (n != 6) {
    for (int t = 0; t < SEA; ++t) aside.insert(aside.end(), 2, t);
    aside.insert(aside.end(), 5, SEA);
  }
  std::array<int, N_TERRAINS> remaining{};
  for (int t = 0; t < N_TERRAINS; ++t) remaining[t] = s.t->terrain_hex_count[t];
  for (int t : aside) --remaining[t];
  std::vector<std::int32_t> pool;
  for (int t = 0; t < N_TERRAINS; ++t) pool.insert(pool.end(), std::max(remaining[t], 0), t);
  if (static_cast<int>(pool.size()) < s.n.Hexes) throw std::logic_error("setup: too few tiles for the board");
  s.rng.shuffle(pool);
  for (int h = 0; h < s.n.Hexes; ++h) s.hex_terrain[h] = static_cast<std::int8_t>(pool[h]);
  s.hex_stack.assign(pool.begin() + s.n.Hexes, pool.end());
  s.hex_aside = aside;
}

// ----- the stages

void next_stage(State& s, int stage) {
  s.stage = stage;
  s.turn = 0;
  if (auto* setup = s.frame<Setup>()) setup->placed = false;
}

Setup& setup_of(State& s) {  // the draw and placements under way (started on first use)
  if (auto* f = s.frame<Setup>()) return *f;
  return s.push(Setup{});
}

int current(const State& s) {  // the player whose part of this stage is next, or -1
  auto order = turn_order(s);
  return s.turn < static_cast<int>(order.size()) ? order[s.turn] : -1;
}

// R4.4.1: everyone rolls 2d6; ties for the highest re-roll among the tied.
void roll_first(State& s) {
  std::vector<int> contenders;
  for (int p = 0; p < s.n.Players; ++p) contenders.push_back(p);
  while (contenders.size() > 1) {
    std::vector<int> rolls;
    for (std::size_t i = 0; i < contenders.size(); ++i) rolls.push_back(s.rng.two_d6());
    int best = *std::max_element(rolls.begin(), rolls.end());
    std::vector<int> tied;
    for (std::size_t i = 0; i < contenders.size(); ++i)
      if (rolls[i] == best) tied.push_back(contenders[i]);
    contenders = tied;
  }
  s.first_player = contenders[0];
  next_stage(s, START);
}

void start(State& s) {
  s.decision = decision::START_POSITION;
  s.actor = s.first_player;
}

const std::vector<Option>& choices(const State& s) {  // cached per number of players
  static thread_local std::array<std::vector<Option>, kMaxPlayers + 1> cache;
  auto& c = cache[s.n.Players];
  if (c.empty()) c = start_position_choices(s);
  return c;
}

bool needs_replacement(const State& s, int start) {
  return start_hex_needs_replacement(s, start) && !s.hex_stack.empty() &&
         !start_hex_settled(s, start, land_needed(s));
}

// A start hex that is itself Sea is replaced even when replacement is optional (R0.4.2, R4.5.1).
void replace_start_tile(State& s, int start) {
  while (s.hex_terrain[start] == SEA && !s.hex_stack.empty()) {
    s.hex_aside.push_back(SEA);
    s.hex_terrain[start] = pop_at(s.hex_stack, static_cast<int>(s.rng.below(s.hex_stack.size())));
  }
}

// R3.4 Sea at or beside a start hex, one player at a time.
void sea_check(State& s) {
  int player = current(s);
  if (player < 0) {
    for (int p : turn_order(s)) s.hex_owner[s.start_hex[p]] = p;  // R4.5.1: control markers
    s.push(Claims{});
    next_stage(s, CLAIM);
    return;
  }
  int start = s.start_hex[player];
  if (needs_replacement(s, start)) {
    if (s.cfg->start_sea_replacement == option::start_sea_replacement_optional) {
      replace_start_tile(s, start);
      if (needs_replacement(s, start)) {
        s.decision = decision::SEA_REPLACE;
        s.actor = player;
        return;
      }
    } else {
      replace(s, start);
    }
  }
  s.turn += 1;
}

// R4.5 starting kingdoms: two rounds of claims in turn order.
void claim(State& s) {
  int player = current(s);
  if (player < 0) {
    auto* claims = s.frame<Claims>();
    if (claims->round == 0) {
      claims->round = 1;
      s.turn = 0;
    } else {
      s.drop<Claims>();
      for (int p : turn_order(s)) s.gold[p] += START_GOLD;  // R4.6
      next_stage(s, TOWER);
    }
    return;
  }
  HexFlags ok = claimable(s, player);
  if (std::any_of(ok.begin(), ok.begin() + s.n.Hexes, [](bool b) { return b; })) {
    s.decision = decision::CLAIM;
    s.actor = player;
  } else {
    s.turn += 1;  // RD2.4: no legal hex at all, the claim is skipped
  }
}

void tower(State& s) {  // R4.6
  int player = current(s);
  if (player < 0) {
    next_stage(s, DRAW);
    return;
  }
  s.decision = decision::TOWER;
  s.actor = player;
}

bool exchange_first(const State& s) {
  return s.cfg->setup_exchange_timing == option::setup_exchange_timing_before_placement;
}

void draw(State& s) {  // R4.7
  setup_of(s).screens_open = true;  // R17.1.1: no screen limit during setup before placement
  int count = initial_draw(s);
  for (int player : turn_order(s))
    for (int i = 0; i < count; ++i)
      if (common::draw(s, player) >= 0) s.stats.things_drawn += 1;
  next_stage(s, exchange_first(s) ? EXCHANGE_EARLY : PLACE);
}

void place(State& s) {  // R4.8
  int player = current(s);
  if (player < 0) {
    setup_of(s).screens_open = false;  // placement done: the screen limit applies (interrupts)
    next_stage(s, exchange_first(s) ? FINISH : EXCHANGE);
    return;
  }
  Setup& setup = setup_of(s);
  if (!setup.placed) {
    setup.placed = true;
    placement_turn::begin_placement(s, player, false, -1, false);
  } else {
    setup.placed = false;
    s.turn += 1;
  }
}

void exchange(State& s) {  // R4.9
  int player = current(s);
  if (player < 0) {
    next_stage(s, s.stage == EXCHANGE_EARLY ? PLACE : PLACE_AGAIN);
    return;
  }
  if (screen_size(s, player)) {
    s.decision = decision::EXCHANGE;
    s.actor = player;
  } else {
    s.turn += 1;
  }
}

// R4.10: those who drew replacements may place them (or anything, with setup_second_placement=any).
void place_again(State& s) {
  int player = current(s);
  if (player < 0) {
    next_stage(s, FINISH);
    return;
  }
  Setup& setup = setup_of(s);
  if (!setup.placed) {
    setup.placed = true;
    bool drew = false;
    for (int c = 0; c < s.n.Things; ++c) drew |= s.thing_new[c] && s.thing_owner[c] == player;
    if (drew)
      placement_turn::begin_placement(
          s, player, s.cfg->setup_second_placement == option::setup_second_placement_replacements_only, -1, false);
  } else {
    setup.placed = false;
    s.turn += 1;
  }
}

// R4.11 / R3.5 (board.form_hex_stack): provisional + removed tiles, shuffled; round 1, phase 1 begins.
void finish(State& s) {
  std::vector<std::int32_t> stack = s.hex_stack;
  stack.insert(stack.end(), s.hex_aside.begin(), s.hex_aside.end());
  s.rng.shuffle(stack);
  s.hex_stack = stack;
  s.hex_aside.clear();
  s.thing_new.fill(false);
  s.drop<Setup>();
  s.round = 1;
  s.phase = PHASE_INCOME;
  s.stage = 0;
  s.turn = 0;
}

void (*const STAGES[])(State&) = {roll_first, start, sea_check, claim, tower, draw,
                                  exchange, place, exchange, place_again, finish};

}  // namespace

void run(State& s) { STAGES[s.stage](s); }

// ----- R4.4 start positions

void legal_start(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (const auto& option : choices(s)) mask[lay.hex + option[0]] = 1;
}

void apply_start(State& s, const ActionLayout& lay, int action) {  // RD2.1: the others clockwise
  for (const auto& option : choices(s)) {
    if (lay.hex + option[0] != action) continue;
    auto order = turn_order(s);
    for (int i = 0; i < order.size(); ++i) s.start_hex[order[i]] = option[i];
    break;
  }
  hooks::start_hexes_chosen(s);  // R20.3 / RD10.15: before R3.4
  s.decision = decision::NONE;
  next_stage(s, SEA_CHECK);
}

// ----- R3.4.2 optional replacement

void legal_sea(State&, const ActionLayout&, std::int8_t* mask) { mask[YES] = mask[PASS] = 1; }

void apply_sea(State& s, const ActionLayout&, int action) {
  if (action == YES) replace(s, s.start_hex[s.actor]);
  s.decision = decision::NONE;
  s.turn += 1;
}

// ----- R4.5 starting kingdoms

HexFlags claimable(const State& s, int player) {
  HexFlags strict{}, loose{};
  bool any_strict = false;
  for (int h = 0; h < s.n.Hexes; ++h) {
    bool free_land = s.hex_owner[h] == NOBODY && !common::known_sea(s, h);  // R20.3: face down may be claimed
    bool next_to_own = false, next_to_other = false;
    for (int d = 0; d < 6; ++d) {
      int j = s.t->neighbours[h][d];
      int around = j < 0 ? NOBODY : s.hex_owner[j];  // off board reads as unowned
      next_to_own |= around == player;
      next_to_other |= around != player && around != NOBODY;
    }
    loose[h] = free_land && next_to_own;
    strict[h] = loose[h] && !next_to_other;
    any_strict |= strict[h];
  }
  return any_strict ? strict : loose;
}

void legal_claim(State& s, const ActionLayout& lay, std::int8_t* mask) {
  HexFlags ok = claimable(s, s.actor);
  for (int h = 0; h < s.n.Hexes; ++h)
    if (ok[h]) mask[lay.hex + h] = 1;
}

void apply_claim(State& s, const ActionLayout& lay, int action) {
  int hx = action - lay.hex;
  s.decision = decision::NONE;
  if (s.hex_down[hx] && common::turn_up(s, hx)) return;  // RD10.15: a Sea is not claimed, claim again
  s.hex_owner[hx] = s.actor;
  s.turn += 1;
}

// ----- R4.6 the Tower

void legal_tower(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : owned_hexes(s, s.actor)) mask[lay.hex + h] = 1;
}

void apply_tower(State& s, const ActionLayout& lay, int action) {
  s.hex_fort[action - lay.hex] = 1;
  s.decision = decision::NONE;
  s.turn += 1;
}

// ----- R4.7-R4.10

// R4.7: ten Things each (R20.2: fifteen; R20.1 six players: twenty, not lowered by R20.2).
int initial_draw(const State& s) {
  if (s.n.Players == 6) return SIX_PLAYER_DRAW;
  return s.cfg->where_will_they_stop ? WHERE_WILL_THEY_STOP_DRAW : INITIAL_DRAW;
}

void legal_exchange(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int c : screen(s, s.actor))
    if (!s.thing_selected[c]) mask[lay.thing + c] = 1;
  mask[PASS] = 1;
}

// R4.9: choose privately, draw as many new Things, then return the chosen ones.
void apply_exchange(State& s, const ActionLayout& lay, int action) {
  if (action != PASS) {
    s.thing_selected[action - lay.thing] = true;
    return;
  }
  Ids chosen = where(s.n.Things, [&](int c) { return s.thing_selected[c] && s.thing_owner[c] == s.actor; });
  int got = 0;
  for (int i = 0; i < chosen.size(); ++i) {
    int c = common::draw(s, static_cast<int>(s.actor));
    if (c < 0) break;
    s.thing_new[c] = true;
    s.stats.things_drawn += 1;
    ++got;
  }
  for (int i = 0; i < got; ++i) common::to_cup(s, chosen[i]);
  for (int i = got; i < chosen.size(); ++i) s.thing_selected[chosen[i]] = false;  // the cup ran out
  s.decision = decision::NONE;
  s.turn += 1;
}

// R4.1-R4.3: heroes' sides at random, the board laid; setup continues through the decisions.
void start_game(State& s) {
  for (int k = 0; k < s.n.Counters; ++k)  // box counters first: same draws as ever
    if (hooks::hero_counters_in_play(s, k)) s.hero_up[k] = static_cast<std::int8_t>(s.rng.below(2));  // R4.2
  hooks::counters_setup(s);  // R22
  lay_board(s);              // R3.2
  s.phase = PHASE_SETUP;
  s.stage = ROLL;
  s.turn = 0;
  hooks::game_setup(s);  // R20.3, R21.0
}

void register_rules(Registry& r) {
  r.decision(decision::START_POSITION, legal_start, apply_start);
  r.decision(decision::SEA_REPLACE, legal_sea, apply_sea);
  r.decision(decision::CLAIM, legal_claim, apply_claim);
  r.decision(decision::TOWER, legal_tower, apply_tower);
  r.decision(decision::EXCHANGE, legal_exchange, apply_exchange);
  r.runner[PHASE_SETUP] = run;
}

}  // namespace ktenv::setup

// ktenv/kings_and_things/engine/victory.py: R16 victory, R19 alternative victory conditions, R16.6 elimination, R16.7
// the round cap, and phase 9 (R15.2), the change of turn order that closes a round.
#include "victory.hpp"

#include <tuple>

#include "balloon.hpp"
#include "common.hpp"
#include "hooks.hpp"
#include "machine.hpp"

namespace ktenv::victory {
namespace {

struct Holder {
  int owner, hex;
};

// (owner, hex) of every Citadel on the board, by hex.
std::vector<Holder> holders_of(const State& s) {
  std::vector<Holder> out;
  for (int h : citadel_hexes(s)) out.push_back({s.hex_owner[h], h});
  return out;
}

// The holder of the earliest acquired Citadel among `eligible` (min over (seq, player)).
int earliest(const State& s, const std::vector<Holder>& eligible) {
  auto key = [&](const Holder& x) { return std::pair{static_cast<int>(s.hex_citadel_seq[x.hex]), x.owner}; };
  auto best = eligible.front();
  for (const auto& x : eligible)
    if (key(x) < key(best)) best = x;
  return best.owner;
}

void end_of_round_victory(State& s) {
  int variant = s.cfg->victory;
  auto holders = holders_of(s);
  std::vector<Holder> eligible;
  if (variant == option::victory_quick) {  // R19.1: acquired and still held at the end of the same round
    bool any = s.cfg->quick_victory_acquire == option::quick_victory_acquire_build_or_conquer;
    for (const auto& x : holders)
      if (any || s.hex_citadel_built[x.hex]) eligible.push_back(x);
    if (!eligible.empty()) declare(s, {earliest(s, eligible)}, "quick_citadel");
  } else if (variant == option::victory_unique_a) {  // R19.2.1: held from an earlier round to the end of this one
    for (const auto& x : holders)
      if (s.hex_citadel_round[x.hex] < s.round) eligible.push_back(x);
    if (!eligible.empty()) declare(s, {earliest(s, eligible)}, "unique_citadel");
  } else if (variant == option::victory_unique_b) {  // R19.2.2: two Citadels at the end of a round
    std::array<int, kMaxPlayers> counts{}, latest{};
    latest.fill(-1);
    for (const auto& x : holders) {
      counts[x.owner] += 1;
      latest[x.owner] = std::max(latest[x.owner], static_cast<int>(s.hex_citadel_seq[x.hex]));
    }
    int winner = -1;  // the first of the earliest "latest" among players with two (min is stable)
    for (int p = 0; p < s.n.Players; ++p)
      if (counts[p] >= 2 && (winner < 0 || latest[p] < latest[winner])) winner = p;
    if (winner >= 0) declare(s, {winner}, "two_citadels");
  } else if (variant == option::victory_fixed_rounds && s.round >= s.cfg->fixed_rounds) {
    declare(s, ranking_by_income(s), "fixed_rounds");
  } else if (variant == option::victory_land_conquest) {
    check_land_conquest(s);
  }
}

int land_threshold(const State& s) {  // GameConfig.land_threshold
  switch (s.n.Players) {
    case 6: return 31;
    case 4: return 19;
    case 3: return 10;
    default: return s.cfg->land_threshold_2p;
  }
}

}  // namespace

void declare(State& s, const std::vector<int>& winners, const std::string& reason) {
  s.winners.assign(winners.begin(), winners.end());
  std::sort(s.winners.begin(), s.winners.end());
  s.reason = reason;
  s.phase = PHASE_GAME_OVER;
  s.decision = decision::NONE;
  s.actor = NOBODY;
}

// Run whenever a Citadel is built or changes hands: the at-once victories.
void after_citadel_change(State& s) {
  if (s.cfg->victory != option::victory_standard) return;
  auto holders = holders_of(s);
  std::array<int, kMaxPlayers> counts{};
  for (const auto& x : holders) counts[x.owner] += 1;
  int best = 0;  // argmax: the first of equals
  for (int p = 1; p < s.n.Players; ++p)
    if (counts[p] > counts[best]) best = p;
  if (holders.size() >= 2 && counts[best] >= 2) declare(s, {best}, "two_citadels");  // R16.3
}

// R13.11.1 / R16.1: the conqueror acquires the Citadel now (called by conquest code).
void citadel_captured(State& s, int hx) {
  s.hex_citadel_round[hx] = static_cast<std::int16_t>(s.round);
  s.hex_citadel_seq[hx] = static_cast<std::int16_t>(s.citadel_seq);
  s.hex_citadel_built[hx] = false;
  s.citadel_seq += 1;
  if (s.cfg->victory == option::victory_unique_a && s.cfg->unique_a_capture == option::unique_a_capture_immediate) {
    declare(s, {static_cast<int>(s.hex_owner[hx])}, "unique_citadel");  // X24 option: the capturer wins at once
    return;
  }
  after_citadel_change(s);
}

// R16.2, end of every Construction phase: the only Citadel, held since an earlier round.
void check_sole_citadel(State& s) {
  if (s.cfg->victory != option::victory_standard) return;
  auto holders = holders_of(s);
  if (holders.size() == 1 && s.hex_citadel_round[holders[0].hex] < s.round)
    declare(s, {holders[0].owner}, "sole_citadel");
}

// R19.3 / RD9.3: highest income, then most land hexes, then most gold; ties share the win.
std::vector<int> ranking_by_income(const State& s) {
  using Key = std::tuple<int, int, std::int64_t>;
  std::array<Key, kMaxPlayers> keys{};
  bool found = false;
  Key best{};
  for (int p = 0; p < s.n.Players; ++p) {
    if (!s.alive[p]) continue;
    keys[p] = {income_of(s, p), land_hex_count(s, p), s.gold[p]};
    if (!found || keys[p] > best) best = keys[p];
    found = true;
  }
  std::vector<int> out;
  for (int p = 0; p < s.n.Players; ++p)
    if (s.alive[p] && keys[p] == best) out.push_back(p);
  return out;
}

// R19.4: more than half of the land hexes (19 / 10 / 13); ties: most hexes, then turn order.
void check_land_conquest(State& s) {
  auto order = turn_order(s);
  int winner = -1, most = -1;
  for (int p : order) {  // max keeps the first of equals: the earliest in turn order
    int hexes = land_hex_count(s, p);
    if (hexes >= land_threshold(s) && hexes > most) {
      winner = p;
      most = hexes;
    }
  }
  if (winner >= 0) declare(s, {winner}, "land_conquest");
}

// R16.6 / RD9.1: no hex and nothing on the board -> out; the screen empties into the cup.
void check_eliminations(State& s) {
  for (int p = 0; p < s.n.Players; ++p) {
    if (!s.alive[p]) continue;
    bool present = false;
    for (int h = 0; h < s.n.Hexes && !present; ++h) present = s.hex_owner[h] == p;
    for (int f = 0; f < s.n.Faces && !present; ++f) present = s.hero_owner[f] == p;
    for (int c = 0; c < s.n.Things && !present; ++c) present = s.thing_owner[c] == p && s.thing_place[c] != SCREEN;
    if (present) continue;
    s.alive[p] = false;
    for (int c : screen(s, p)) common::to_cup(s, c);
    s.gold[p] = 0;
  }
  int alive = 0, last = -1;
  for (int p = 0; p < s.n.Players; ++p)
    if (s.alive[p]) {
      ++alive;
      last = p;
    }
  if (alive == 1 && !game_over(s)) declare(s, {last}, "last_standing");
}

// Phase 9 (R15.2): the marker passes left (never with two players, R5.3); then R15.3 checks.
// A Balloon used this round returns to the cup (C.2).
void run_change_order(State& s) {
  balloon::end_of_round(s);
  hooks::round_ends(s);  // R22.6
  if (s.n.Players > 2) {
    auto order = turn_order(s);
    s.first_player = order[1 % order.size()];
  }
  check_eliminations(s);
  if (!game_over(s)) end_of_round_victory(s);
  if (!game_over(s) && s.cfg->max_rounds != 0 && s.round >= s.cfg->max_rounds)
    declare(s, ranking_by_income(s), "round_limit");  // R16.7 / RD9.2
  if (!game_over(s)) {
    s.round += 1;
    s.phase = PHASE_INCOME;
    s.stage = s.turn = 0;
  }
}

void register_rules(Registry& r) { r.runner[PHASE_CHANGE_ORDER] = run_change_order; }

}  // namespace ktenv::victory

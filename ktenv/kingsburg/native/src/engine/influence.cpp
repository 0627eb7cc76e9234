// ktenv/kingsburg/influence.py: influencing the advisors (K5.3, K15.D6, D8; decisions P4-P6).
#include <algorithm>
#include <bit>

#include "engine.hpp"

namespace ktenv::kingsburg::influence {

namespace {

// slot bits of subset i: its coloured slots (bits 0-2) and white slots (bits 3-4)
constexpr std::array<int, N_SUBSETS> make_slot_bits() {
  std::array<int, N_SUBSETS> out{};
  for (int c = 1; c < 8; ++c)
    for (int w = 0; w < 4; ++w) out[(c - 1) * 4 + w] = c | w << 3;
  return out;
}

constexpr std::array<int, N_SUBSETS> SLOT_BITS = make_slot_bits();

// the sorted values as base-8 digits (values are 1-6, so the number says the multiset); at most three values
int multiset_key(int* values, int size) {
  for (int i = 1; i < size; ++i)  // insertion sort: a call per subset, on three values at most
    for (int j = i; j > 0 && values[j - 1] > values[j]; --j) std::swap(values[j - 1], values[j]);
  int key = 0;
  for (int i = 0; i < size; ++i) key = key * 8 + values[i];
  return key;
}

}  // namespace

bool can_token(const State& s, int p) { return s.tokens[p] > 0 && !s.flags[p][TOKEN_USED]; }  // K5.3.3

bool can_market(const State& s, int p) { return s.owns(p, B_MARKET) && !s.flags[p][MARKET_USED]; }  // K5.3.4

int readings(int diff, bool token, bool market, std::array<std::array<int, 2>, 2>& out) {
  static constexpr int kOptions[5][2][2] = {{{0, -1}}, {{0, 0}}, {{0, 1}, {1, -1}}, {{1, 0}}, {{1, 1}}};
  static constexpr int kCount[5] = {1, 1, 2, 1, 1};
  if (diff < -1 || diff > 3) return 0;
  int n = 0;
  for (int i = 0; i < kCount[diff + 1]; ++i) {
    int t = kOptions[diff + 1][i][0], m = kOptions[diff + 1][i][1];
    if ((token || !t) && (market || !m)) out[n++] = {t, m};
  }
  return n;
}

bool open_to(const State& s, int p, int advisor) {
  if (s.advisor_group[advisor] == -1) return true;
  return s.envoy_holder == p && s.advisor_envoy[advisor] == -1;
}

Subsets free_subsets(const State& s, int p) {
  int values[DIE_SLOTS];
  for (int j = 0; j < DIE_SLOTS; ++j) values[j] = s.die_advisor[p][j] == -1 ? s.dice[p][j] : 0;
  Subsets out;
  int seen[N_SUBSETS];
  int n_seen = 0;
  for (int i = 0; i < N_SUBSETS; ++i) {
    const SubsetSlots& sub = SUBSETS[i];
    bool all = true;
    int coloured[3], white[2], nc = 0, nw = 0, total = 0;
    for (int k = 0; k < sub.size; ++k) {
      int j = sub.slots[k], v = values[j];
      if (!v) {
        all = false;
        break;
      }
      total += v;
      if (j < 3) coloured[nc++] = v;
      else white[nw++] = v;
    }
    if (!all) continue;
    int key = multiset_key(coloured, nc) * 512 + multiset_key(white, nw);
    if (std::find(seen, seen + n_seen, key) != seen + n_seen) continue;
    seen[n_seen++] = key;
    out.items[out.size++] = {i, total};
  }
  return out;
}

int pips(const State& s, int p, int subset) {
  int total = 0;
  const SubsetSlots& sub = SUBSETS[subset];
  for (int k = 0; k < sub.size; ++k) total += s.dice[p][sub.slots[k]];
  return total;
}

std::uint32_t legal_targets(const State& s, int p) {
  const bool token = can_token(s, p), market = can_market(s, p);
  // bit v of `sums`: some free subset (a coloured die at least, any white ones) has v pips (at most 30): the
  // sums of free_subsets, without its deduplication
  int coloured[3], white_sums = 1;  // white_sums: bit w, some subset of the free white dice has w pips (0: none)
  for (int j = 0; j < 3; ++j) coloured[j] = s.die_advisor[p][j] == -1 ? s.dice[p][j] : 0;
  for (int j = 3; j < DIE_SLOTS; ++j)
    if (s.die_advisor[p][j] == -1 && s.dice[p][j]) white_sums |= white_sums << s.dice[p][j];
  std::uint32_t sums = 0;
  for (int c = 1; c < 8; ++c) {
    int total = 0;
    bool free = true;
    for (int j = 0; j < 3 && free; ++j)
      if (c >> j & 1) free = coloured[j] != 0, total += coloured[j];
    if (free) sums |= static_cast<std::uint32_t>(white_sums) << total;
  }
  // readings(): a difference of 0 always; -1 and +1 with the Market, +2 with the token, +3 with both
  std::uint64_t reach = sums;  // bit a: pips a reached with a modifier the player may use
  if (market) reach |= std::uint64_t{sums} << 1 | sums >> 1;
  if (token) reach |= std::uint64_t{sums} << 2;
  if (token && market) reach |= std::uint64_t{sums} << 3;
  std::uint32_t out = 0;  // the advisors reached and open to the player, one set bit at a time
  for (auto left = static_cast<std::uint32_t>(reach) & ((1u << (N_ADVISORS + 1)) - 2); left; left &= left - 1) {
    const int a = std::countr_zero(left);
    if (open_to(s, p, a)) out |= 1u << a;
  }
  return out;
}

void run(State& s) {
  auto all_passed = [&] {
    for (int p = 0; p < s.n; ++p)
      if (!s.passed[p]) return false;
    return true;
  };
  while (!all_passed()) {
    int p = s.order[s.cursor];
    s.cursor = (s.cursor + 1) % s.n;
    if (s.passed[p]) continue;
    if (!legal_targets(s, p)) {
      s.passed[p] = true;
      continue;
    }
    ask(s, D_INFLUENCE, p);
    return;
  }
  enter(s, S_HELP);
}

void influence_legal(const State& s, Mask& mask) {
  mask[PASS] = 1;
  std::uint32_t targets = legal_targets(s, static_cast<int>(s.actor));
  for (int a = 1; a <= N_ADVISORS; ++a)
    if (targets >> a & 1) mask[TARGET + a - 1] = 1;
}

void influence_apply(State& s, int action) {
  if (action == PASS) {
    s.passed[s.actor] = true;  // final for the season (D8)
    done(s);
    return;
  }
  s.target = action - TARGET + 1;
  s.decision = D_GROUP_DICE;
}

void dice_legal(const State& s, Mask& mask) {
  int p = static_cast<int>(s.actor);
  bool token = can_token(s, p), market = can_market(s, p);
  std::array<std::array<int, 2>, 2> scratch;
  Subsets free = free_subsets(s, p);
  for (int i = 0; i < free.size; ++i)
    if (readings(static_cast<int>(s.target) - free.items[i].pips, token, market, scratch))
      mask[DICE + free.items[i].index] = 1;
}

void dice_apply(State& s, int action) {
  int p = static_cast<int>(s.actor);
  s.group = action - DICE;
  std::array<std::array<int, 2>, 2> options;
  int n = readings(static_cast<int>(s.target) - pips(s, p, static_cast<int>(s.group)), can_token(s, p),
                   can_market(s, p), options);
  if (n == 1) place(s, options[0][0], options[0][1]);
  else s.decision = D_MODIFIER;  // P6: Market +1 alone, or token with Market -1
}

void modifier_legal(const State&, Mask& mask) { mask[MOD_MARKET] = mask[MOD_TOKEN_MARKET] = 1; }

void modifier_apply(State& s, int action) {
  if (action == MOD_MARKET) place(s, 0, 1);
  else place(s, 1, -1);
}

void place(State& s, int token, int market) {
  int p = static_cast<int>(s.actor), a = static_cast<int>(s.target);
  const SubsetSlots& sub = SUBSETS[s.group];
  for (int k = 0; k < sub.size; ++k) s.die_advisor[p][sub.slots[k]] = static_cast<std::int8_t>(a);
  if (s.advisor_group[a] == -1) {
    s.advisor_group[a] = static_cast<std::int8_t>(p);
  } else {  // K5.3.6: the Envoy goes back to the board
    s.advisor_envoy[a] = static_cast<std::int8_t>(p);
    s.envoy_holder = -1;
  }
  if (token) {
    s.tokens[p] -= 1;
    s.flags[p][TOKEN_USED] = true;
  }
  if (market) s.flags[p][MARKET_USED] = true;
  s.target = s.group = -1;
  done(s);
}

}  // namespace ktenv::kingsburg::influence

// ktenv/kingsburg/season.py: the frame of a productive season (K5.1, K5.2, K5.6, K14.1).
#include <algorithm>

#include "engine.hpp"

namespace ktenv::kingsburg::season {

// ----- K5.1 start of the season

void start(State& s) {
  if (s.sub == 0) {
    for (auto& f : s.flags) f.fill(false);  // K5.1.1
    s.passed.fill(false);
    s.pending.fill(false);
    if (s.cfg.merchants_guild_good_of_choice) {  // K15.D3 option: a choice, in turn order
      for (int p = 0; p < s.n; ++p) s.pending[p] = s.owns(p, B_MERCHANTS_GUILD);
    } else {
      for (int p = 0; p < s.n; ++p)
        if (s.owns(p, B_MERCHANTS_GUILD)) s.goods[p][GOLD] += 1;  // K5.1.2
    }
    s.sub = 1;
    s.cursor = 0;
  }
  while (s.cursor < s.n) {
    int p = s.order[s.cursor];
    s.cursor += 1;
    if (s.pending[p]) {
      s.pending[p] = false;
      ask(s, D_GUILD_GOOD, p, 1);
      return;
    }
  }
  if (s.cfg.neutral_dice) place_neutral_dice(s);  // K5.1.3
  for (int i = 0; i < s.n; ++i) roll_player(s, s.order[i]);  // K5.2.1
  enter(s, S_REROLL);
}

void place_neutral_dice(State& s) {
  int first[3], second[2];
  for (int& v : first) v = s.rng.d6();
  for (int& v : second) v = s.rng.d6();
  for (int i = 0; i < 3; ++i) s.neutral_dice[i] = static_cast<std::int8_t>(first[i]);
  for (int i = 0; i < 2; ++i) s.neutral_dice[3 + i] = static_cast<std::int8_t>(second[i]);
  int a = first[0] + first[1] + first[2];
  for (int i = 0; i < 3; ++i) s.neutral_advisor[i] = static_cast<std::int8_t>(a);
  int b = second[0] + second[1];
  if (b != a) {
    s.neutral_advisor[3] = s.neutral_advisor[4] = static_cast<std::int8_t>(b);
  } else {
    s.neutral_advisor[3] = static_cast<std::int8_t>(second[0]);
    s.neutral_advisor[4] = static_cast<std::int8_t>(second[1]);
    if (second[0] == second[1]) {  // both dice show the same number: only one is placed
      s.neutral_dice[4] = 0;
      s.neutral_advisor[4] = -1;
    }
  }
  for (auto adv : s.neutral_advisor)
    if (adv > 0) s.advisor_group[adv] = NEUTRAL;
}

int white_dice(const State& s, int player) {
  return static_cast<int>(s.aid_player == player && s.season() == 0) + static_cast<int>(s.owns(player, B_FARMS));
}

void roll_player(State& s, int player) {
  s.dice[player].fill(0);
  s.die_advisor[player].fill(-1);
  for (int slot = 0; slot < 3; ++slot) s.dice[player][slot] = static_cast<std::int8_t>(s.rng.d6());
  int whites = white_dice(s, player);
  for (int slot = 3; slot < 3 + whites; ++slot) s.dice[player][slot] = static_cast<std::int8_t>(s.rng.d6());
  sort_dice(s, player);
}

void sort_dice(State& s, int player) {
  auto& d = s.dice[player];
  std::sort(d.begin(), d.begin() + 3);
  std::int8_t w0 = d[3], w1 = d[4];
  if (w0 == 0 || (w1 != 0 && w1 < w0)) std::swap(w0, w1);  // nonzero first, then ascending
  d[3] = w0;
  d[4] = w1;
}

// ----- K5.2.2 rerolls (D7, D23)

bool statue_ready(const State& s, int p) {
  if (!s.owns(p, B_STATUE) || s.flags[p][STATUE_USED]) return false;
  int first = 0;
  for (auto v : s.dice[p]) {
    if (!v) continue;
    if (!first) first = v;
    else if (v != first) return false;
  }
  return true;
}

bool chapel_ready(const State& s, int p) {
  if (!s.owns(p, B_CHAPEL) || s.flags[p][CHAPEL_USED]) return false;
  int total = 0;
  for (auto v : s.dice[p]) total += v;
  return total <= 7;
}

void rerolls(State& s) {
  while (s.cursor < s.n) {  // still the previous turn order (D7)
    int p = s.order[s.cursor];
    if (s.sub == 0 && (statue_ready(s, p) || chapel_ready(s, p))) {
      ask(s, D_REROLL, p);
      return;
    }
    s.cursor += 1;
    s.sub = 0;
  }
  // K5.2.3: ascending totals; ties keep their previous relative order (a stable sort)
  std::array<int, kMaxPlayers> totals{};
  for (int p = 0; p < s.n; ++p)
    for (auto v : s.dice[p]) totals[p] += v;
  std::stable_sort(s.order.begin(), s.order.begin() + s.n,
                   [&](std::int8_t a, std::int8_t b) { return totals[a] < totals[b]; });
  enter(s, S_INFLUENCE);
}

void reroll_legal(const State& s, Mask& mask) {
  int p = static_cast<int>(s.actor);
  mask[PASS] = 1;
  if (statue_ready(s, p)) {
    mask[STATUE_COLOURED] = 1;
    if (s.dice[p][3]) mask[STATUE_WHITE] = 1;
  }
  if (chapel_ready(s, p)) mask[CHAPEL] = 1;
}

void reroll_apply(State& s, int action) {
  int p = static_cast<int>(s.actor);
  if (action == PASS) {
    s.sub = 1;  // no more rerolls for this player this season
  } else if (action == CHAPEL) {
    s.flags[p][CHAPEL_USED] = true;
    for (int slot = 0; slot < DIE_SLOTS; ++slot)
      if (s.dice[p][slot]) s.dice[p][slot] = static_cast<std::int8_t>(s.rng.d6());
  } else {
    s.flags[p][STATUE_USED] = true;
    int slot = action == STATUE_COLOURED ? 0 : 3;
    s.dice[p][slot] = static_cast<std::int8_t>(s.rng.d6());
  }
  sort_dice(s, p);
  done(s);
}

// ----- K5.6 end of the season (D12)

void end(State& s) {
  if (s.sub == 0) {
    for (int p = 0; p < s.n; ++p) {
      if (s.season() == 1 && s.owns(p, B_INN)) s.tokens[p] += 1;  // K5.6.1
      if (s.owns(p, B_EMBASSY)) s.vp[p] += 1;  // K5.6.2
    }
    s.sub = 1;
    s.cursor = 0;
  }
  while (s.cursor < s.n) {  // K5.6.3
    int p = s.order[s.cursor];
    s.cursor += 1;
    bool has_goods = s.goods[p][0] || s.goods[p][1] || s.goods[p][2];
    if (s.owns(p, B_TOWN_HALL) && !s.flags[p][TOWN_HALL_USED] && (has_goods || s.tokens[p])) {
      ask(s, D_TOWN_HALL_TURN, p);
      return;
    }
  }
  for (auto& g : s.advisor_group)
    if (g == NEUTRAL) g = -1;  // K14.1: the neutral dice leave
  s.neutral_dice.fill(0);
  s.neutral_advisor.fill(-1);
  if (s.phase == 2) enter(s, S_KINGS_REWARD, 3);
  else if (s.phase == 4) enter(s, S_ENVOY, 5);
  else enter(s, S_RECRUIT, 7);
}

void town_hall_legal(const State& s, Mask& mask) {
  int p = static_cast<int>(s.actor);
  mask[PASS] = 1;
  for (int k = 0; k < 3; ++k)
    if (s.goods[p][k]) mask[TOWN_HALL + k] = 1;
  if (s.tokens[p]) mask[TOWN_HALL + 3] = 1;
}

void town_hall_apply(State& s, int action) {
  int p = static_cast<int>(s.actor);
  if (action != PASS) {
    int kind = action - TOWN_HALL;
    if (kind == 3) s.tokens[p] -= 1;  // not the influence token of K5.3.3 [clar.]
    else s.goods[p][kind] -= 1;
    s.vp[p] += 1;
    s.flags[p][TOWN_HALL_USED] = true;
  }
  done(s);
}

}  // namespace ktenv::kingsburg::season

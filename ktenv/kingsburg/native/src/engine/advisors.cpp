// ktenv/kingsburg/advisors.py: help from the advisors (K5.4, K11, K15.D5, D10, D11).
#include "engine.hpp"

namespace ktenv::kingsburg::advisors {

namespace {
constexpr int G = 1 << GOLD, W = 1 << WOOD, S = 1 << STONE;

void gain(State& s, int p, int gold, int wood, int stone) {
  s.goods[p][0] += gold;
  s.goods[p][1] += wood;
  s.goods[p][2] += stone;
}

void soldiers(State& s, int p, int n) { s.soldiers[p] += n + stable_bonus(s, p); }
}  // namespace

void help_player(State& s, int advisor, int p) {
  switch (advisor) {
    case 1: s.vp[p] += 1; break;
    case 2: gain(s, p, 1, 0, 0); break;
    case 3: gain(s, p, 0, 1, 0); break;
    case 4: ask(s, D_HELP_GOOD, p, 1, G | W); break;
    case 5: soldiers(s, p, 1); break;
    case 6:
      if (s.goods[p][0] || s.goods[p][1] || s.goods[p][2])  // D11: with no goods the Alchemist gives nothing
        ask(s, D_ALCHEMIST, p, 1, owned_kinds(s, p));
      break;
    case 7:
      s.tokens[p] += 1;
      ask(s, D_HELP_GOOD, p, 1);
      break;
    case 8: gain(s, p, 2, 0, 0); break;
    case 9:
      gain(s, p, 0, 1, 0);
      ask(s, D_HELP_GOOD, p, 1, G | S);
      break;
    case 10:
      soldiers(s, p, 2);
      s.peeked[p] = true;
      break;
    case 11:
      gain(s, p, 0, 0, 1);
      ask(s, D_HELP_GOOD, p, 1, W | G);
      break;
    case 12:
      s.tokens[p] += 1;
      ask(s, D_HELP_GOOD, p, 2);
      break;
    case 13: gain(s, p, 0, 0, 3); break;
    case 14:
      s.vp[p] -= 1;  // D10: paid even below 0 [clar.]
      ask(s, D_HELP_GOOD, p, 3);
      break;
    case 15: gain(s, p, 1, 1, 1); break;
    case 16: gain(s, p, 4, 0, 0); break;
    case 17:
      s.peeked[p] = true;
      s.vp[p] += 3;
      ask(s, D_HELP_GOOD, p, 2);
      break;
    default:
      gain(s, p, 1, 1, 1);
      soldiers(s, p, 1);
  }
}

void run(State& s) {
  // cursor = 2 * (advisor - 1) + (0: original group, 1: Envoy group); sub = 1 once its help started
  while (s.cursor < 2 * N_ADVISORS) {
    int advisor = static_cast<int>(s.cursor / 2) + 1;
    bool envoy = s.cursor % 2;
    int owner = envoy ? s.advisor_envoy[advisor] : s.advisor_group[advisor];
    if (owner >= 0 && s.sub == 0) {
      s.sub = 1;
      help_player(s, advisor, owner);
      if (s.decision != D_NONE) return;
    }
    s.cursor += 1;
    s.sub = 0;
  }
  // K5.4.4: every die goes back; the white dice and the aid die go to the supply
  for (auto& g : s.advisor_group)
    if (g >= 0) g = -1;
  s.advisor_envoy.fill(-1);
  for (auto& d : s.dice) d.fill(0);
  for (auto& d : s.die_advisor) d.fill(-1);
  if (s.season() == 0) s.aid_player = -1;
  enter(s, S_BUILD);
}

void alchemist_apply(State& s, int action) {
  int kind = action - PICK_GOOD;  // D11: return the picked kind, take one of each of the two others
  for (auto& g : s.goods[s.actor]) g += 1;
  s.goods[s.actor][kind] -= 2;
  done(s);
}

}  // namespace ktenv::kingsburg::advisors

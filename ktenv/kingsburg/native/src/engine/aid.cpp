// ktenv/kingsburg/aid.py: Phase 1, Aid from the King (K4).
#include "engine.hpp"

namespace ktenv::kingsburg::aid {

int fewest(const std::array<int, kMaxPlayers>& values, const int* among, int k, int* out) {
  int low = values[among[0]];
  for (int i = 1; i < k; ++i) low = std::min(low, values[among[i]]);
  int m = 0;
  for (int i = 0; i < k; ++i)
    if (values[among[i]] == low) out[m++] = among[i];
  return m;
}

void recipients(const State& s, int& aid_player, std::array<bool, kMaxPlayers>& takers) {
  std::array<int, kMaxPlayers> buildings{}, goods{};
  std::array<int, kMaxPlayers> all{}, f{}, g{};
  for (int p = 0; p < s.n; ++p) {
    buildings[p] = s.building_count(p);
    goods[p] = s.goods_count(p);
    all[p] = p;
  }
  takers.fill(false);
  int nf = fewest(buildings, all.data(), s.n, f.data());
  if (nf == 1) {
    aid_player = f[0];
    return;
  }
  int ng = fewest(goods, f.data(), nf, g.data());
  if (ng == 1) {
    aid_player = g[0];
    return;
  }
  aid_player = -1;
  for (int i = 0; i < ng; ++i) takers[g[i]] = true;
}

void run(State& s) {
  if (s.sub == 0) {
    int aid_player;
    std::array<bool, kMaxPlayers> takers;
    recipients(s, aid_player, takers);
    s.aid_player = aid_player;
    s.pending = takers;
    s.sub = 1;
    s.cursor = 0;
  }
  while (s.cursor < s.n) {  // K4.5: in turn order
    int p = s.order[s.cursor];
    s.cursor += 1;
    if (s.pending[p]) {
      s.pending[p] = false;
      ask(s, D_AID_GOOD, p, 1);
      return;
    }
  }
  enter(s, S_SEASON_START, 2);
}

void take_good(State& s, int action) {
  s.goods[s.actor][action - PICK_GOOD] += 1;
  s.picks_left -= 1;
  if (s.picks_left <= 0) done(s);
}

}  // namespace ktenv::kingsburg::aid

// ktenv/kingsburg/year.py: the King's Reward (K6, K15.D13) and the King's Envoy (K7, D14, D18).
#include "engine.hpp"

namespace ktenv::kingsburg::year {

void kings_reward(State& s) {
  int most = 0;
  for (int p = 0; p < s.n; ++p) most = std::max(most, s.building_count(p));
  if (most > 0 || !s.cfg.kings_reward_requires_building)
    for (int p = 0; p < s.n; ++p)
      if (s.building_count(p) == most) s.vp[p] += 1;  // K6.1: every tied player
  enter(s, S_SEASON_START, 4);
}

int envoy_recipient(const State& s) {
  std::array<int, kMaxPlayers> buildings{}, goods{}, all{}, f{}, g{};
  for (int p = 0; p < s.n; ++p) {
    buildings[p] = s.building_count(p);
    goods[p] = s.goods_count(p);
    all[p] = p;
  }
  int nf = aid::fewest(buildings, all.data(), s.n, f.data());
  if (nf > 1) {
    nf = aid::fewest(goods, f.data(), nf, g.data());
    f = g;
  }
  return nf == 1 ? f[0] : -1;
}

void kings_envoy(State& s) {
  s.envoy_holder = -1;  // K7.1 / D18: an unused Envoy returns first
  s.envoy_holder = envoy_recipient(s);
  enter(s, S_SEASON_START, 6);
}

}  // namespace ktenv::kingsburg::year

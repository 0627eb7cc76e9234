// ktenv/kingsburg/scoring.py: end of the game (K10.2, K10.3).
#include <tuple>

#include "engine.hpp"

namespace ktenv::kingsburg::scoring {

std::vector<int> winners(const State& s) {
  // most VP; then most goods; then most buildings; still tied: a shared victory (K10.3)
  auto key = [&](int p) { return std::make_tuple(static_cast<int>(s.vp[p]), s.goods_count(p), s.building_count(p)); };
  auto best = key(0);
  for (int p = 1; p < s.n; ++p) best = std::max(best, key(p));
  std::vector<int> out;
  for (int p = 0; p < s.n; ++p)
    if (key(p) == best) out.push_back(p);
  return out;
}

void finish(State& s) {
  for (int p = 0; p < s.n; ++p)
    if (s.owns(p, B_CATHEDRAL)) s.vp[p] += s.goods_count(p) / 2;  // goods are kept
  s.winners = winners(s);
  s.game_over = true;
  s.decision = D_NONE;
  s.actor = -1;
  enter(s, S_GAME_END);
}

}  // namespace ktenv::kingsburg::scoring

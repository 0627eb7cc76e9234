// The Kingsburg agents of agents/kingsburg in C++, bit for bit: `random` (ktenv/gamekit/random_agent.py: numpy's
// default_rng(seed).integers over the legal actions, the same draws), `greedy` and `expert`
// (agents/kingsburg/heuristic.py, values.py: the same float64 arithmetic in the same order, the same
// tie-breaks). They read only the seat's observation vector and the mask (view.hpp).
#pragma once

#include <cstdint>
#include <unordered_map>

#include "agents/view.hpp"
#include "kings_and_things/native/src/agents/pcg64.hpp"

namespace ktenv::kingsburg::agents {

enum class Kind : int { RANDOM = 1, GREEDY = 2, EXPERT = 3 };  // the vector env's seat codes

struct Prices {  // values.Prices: what one unit of each thing is worth now, in VP
  std::array<double, 3> goods{};
  double vp = 1.0, soldier = 0.5, token = 0.5, peek = 0.0;
};

class Agent {
 public:
  explicit Agent(Kind kind, std::uint64_t seed = 0) : kind_(kind), rng_(seed) {}
  Agent(Kind kind, const std::uint32_t* words, std::size_t n_words) : kind_(kind), rng_(words, n_words) {}
  void reset(const std::uint32_t* words, std::size_t n_words) { rng_ = ::ktenv::agents::Pcg64(words, n_words); }
  void reset(std::uint64_t seed) { rng_ = ::ktenv::agents::Pcg64(seed); }
  Kind kind() const { return kind_; }
  bool needs_observation() const { return kind_ != Kind::RANDOM; }
  // The action for this observation (observation_size(n) floats, or null for the random agent) and mask
  // (nonzero = legal). Throws std::invalid_argument when the mask allows nothing or the observation is needed
  // and missing.
  int act(const float* obs, int n_players, const std::int8_t* mask);

 private:
  int heuristic(const View& v, const std::int8_t* mask);
  Prices prices(const View& v) const;
  int influence(const View& v, const Prices& p, const std::int8_t* mask);
  int group_dice(const View& v, const Prices& p, const std::int8_t* mask);
  int build(const View& v, const std::int8_t* mask) const;
  double building_score(const View& v, int row, int column) const;
  bool recruit(const View& v, const Prices& p) const;
  // ExpertAgent's look-ahead over its own unplaced dice
  double target_value(const View& v, const Prices& p, int target);
  double plan(const View& v, const Prices& p, const int* dice, int count, int taken);
  double best_plan(const int* dice, int count, std::uint32_t free);

  Kind kind_;
  ::ktenv::agents::Pcg64 rng_;
  std::array<double, N_ADVISORS> values_{};  // _plan's help values of the decision under way
  std::unordered_map<std::uint64_t, double> plans_;  // _best_plan's results of the decision under way
};

}  // namespace ktenv::kingsburg::agents

// The `greedy` agent (agents/kings_and_things/greedy.py, with agents/kings_and_things/rules.py's RuleAgent) in native code, so that batched
// games play greedy seats without a Python call per decision.
//
// It reads only the observation vector and the action mask, like the Python agent, and is bit-exact
// with it: the same scores for every legal action (float64, the same operations in the same order,
// float32 where numpy computes in float32), the same tie-break noise (numpy's default_rng(seed), see
// pcg64.hpp), hence the same choices. Arithmetic is kept uncontracted (no fused multiply-add): see
// greedy.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "agents/pcg64.hpp"
#include "agents/view.hpp"

namespace ktenv::agents {

// For agents built on greedy (expert.cpp), on an observation already read into `v`:
// GreedyAgent's handler of v's decision for the legal actions (no cash override, no noise) ...
void greedy_handler_scores(View& v, const int* legal, int n, double* out);
// ... and GreedyAgent.battle_balance (enemy_single: numpy holds the enemy's strength in float32).
void greedy_battle_balance(View& v, double& mine, double& enemy, bool& enemy_single);

class Greedy {
 public:
  // seed: as agents.make("greedy", seed=seed) (numpy.random.default_rng(seed))
  Greedy(std::shared_ptr<const GreedyPlan> plan, std::uint64_t seed);
  // seeded with a Python int of any size, given as its 32-bit words (least significant first)
  Greedy(std::shared_ptr<const GreedyPlan> plan, const std::uint32_t* seed_words, std::size_t n_words);

  // obs: that seat's observation, float32[plan.size]; mask: int8[plan.n_actions] (nonzero = legal).
  // The action played; -1 when the mask allows nothing (the Python agent raises ValueError there).
  int act(const float* obs, const std::int8_t* mask);
  void reset(std::uint64_t seed) { rng_ = Pcg64(seed); }
  void reset(const std::uint32_t* seed_words, std::size_t n_words) { rng_ = Pcg64(seed_words, n_words); }

  // GreedyAgent.scores(View(obs), legal) before the tie-break noise: writes the legal actions (ascending)
  // into legal[] and their scores into out[] (each of plan.n_actions room) and returns their number.
  // Draws nothing.
  int scores(const float* obs, const std::int8_t* mask, int* legal, double* out);

  const GreedyPlan& plan() const { return *plan_; }
  // Play another layout from now on (a new game of another config); the generator goes on.
  void set_plan(std::shared_ptr<const GreedyPlan> plan);

 private:
  int collect(const std::int8_t* mask, int* legal) const;

  std::shared_ptr<const GreedyPlan> plan_;
  View view_;
  Pcg64 rng_;
  std::vector<int> legal_;
  std::vector<double> score_;
};

}  // namespace ktenv::agents

// The search's own rollout policies (search.hpp): what every seat plays after a candidate.
//
// - RANDOM: uniform over the legal actions (from the rollout's own generator).
// - PLAIN: a fixed rule per decision in the manner of agents/kingsburg/heuristic.py's greedy agent, reading only
//   what the player to act may know (the enemy card it peeked at, else this year's five): the advisor whose help
//   is worth most at fixed prices, the fewest and lowest dice for it, the building of the most VP, soldiers up to
//   the average enemy, the good it owns least of. Deterministic: paired rollouts differ only by the candidate.
// - GREEDY, EXPERT: the native ports of those agents (src/agents/heuristic.hpp, the Python agents' choices), each
//   seat reading its own observation (src/observation.hpp's encoder). Deterministic too.
#pragma once

#include <vector>

#include "agents/heuristic.hpp"
#include "engine.hpp"

namespace ktenv::kingsburg::search {

enum Policy : int { RANDOM = 0, PLAIN = 1, GREEDY = 2, EXPERT = 3 };

// A rollout's players: one policy for every seat of an `n_players` game.
class Rollout {
 public:
  Rollout(int policy, int n_players);
  // The action for the player to act at `s` (`mask`: its legal actions, at least one); `dice`: RANDOM's draws.
  int act(const State& s, const Mask& mask, Dice& dice);

 private:
  int policy_;
  std::vector<float> obs_;
  std::vector<agents::Agent> seats_;
};

// PLAIN's choice.
int plain_act(const State& s, const Mask& mask);

}  // namespace ktenv::kingsburg::search

// The search's own rollout policies (search.hpp): what every seat plays after a candidate.
//
// - RANDOM: uniform over the legal actions (from the rollout's own generator).
// - PLAIN: a fixed rule per decision in the manner of agents/kingsburg/heuristic.py's greedy agent, reading only
//   what the player to act may know (the enemy card it peeked at, else this year's five): the advisor whose help
//   is worth most at fixed prices, the fewest and lowest dice for it, the building of the most VP, soldiers up to
//   the average enemy, the good it owns least of. Deterministic: paired rollouts differ only by the candidate.
#pragma once

#include "engine.hpp"

namespace ktenv::kingsburg::search {

enum Policy : int { RANDOM = 0, PLAIN = 1 };

// The action of `policy` for the player to act at `s` (`mask`: its legal actions, at least one).
int policy_act(int policy, const State& s, const Mask& mask, Dice& dice);

// PLAIN's choice.
int plain_act(const State& s, const Mask& mask);

}  // namespace ktenv::kingsburg::search

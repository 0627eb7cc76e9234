// The `search` agent's decision in native code (agents/kingsburg/search.py): paired root evaluation over worlds
// its seat cannot tell apart (worlds.hpp), in the shape of the Kings & Things search's paired mode.
//
// The caller names K candidate actions for the seat to act (candidate 0 the default: the expert's own move).
// Round r draws its world from its own generator (seeded from the search's seed and r), and plays every candidate
// in a copy of that world, with the same future dice and the same rollout policy for every seat (policy.hpp), to
// the end of the game. The seat's value of a finished game is its share of the victory (1 / winners, K10.3) plus
// `margin` x (its VP - the best other player's VP); the paired differences d_k = v_k - v_0 cancel most of the
// dice and enemy-card noise (common random numbers). The candidate of the largest mean d_k is played if that mean
// is positive and above `z` standard errors (at least two rounds), else candidate 0.
//
// Rounds are shared out over `threads` threads and summed in round order, so with a `playouts` budget the
// decision depends on the seed alone, whatever the thread count; a `seconds` budget stops before a round that
// would likely overrun it (then the number of rounds depends on the machine's speed).
#pragma once

#include <cstdint>
#include <vector>

#include "search/policy.hpp"

namespace ktenv::kingsburg::search {

struct Options {
  int playouts = 0;      // rollouts per decision (whole rounds of K); 0: no limit (then `seconds` bounds it)
  double seconds = 0.0;  // time budget per decision; 0: none
  int rollout = EXPERT;  // policy.hpp
  double margin = 0.05;  // value: the win share + margin x the VP lead over the best other player
  double z = 1.0;        // standard errors by which a candidate must beat candidate 0
  int threads = 1;
};

struct Result {
  int action = -1;
  int candidate = 0;  // the index of the candidate played
  int rounds = 0;     // whole rounds evaluated (a rollout per candidate each)
  double seconds = 0.0;
  std::vector<double> gains;  // per candidate, the mean paired difference from candidate 0
};

// The seat's value of a finished game (see the header comment).
double final_value(const State& s, int seat, double margin);

// Paired root evaluation of `candidates` (at least two distinct actions legal for the player to act at
// `truth`); `truth` is read only through sample_world. Throws std::invalid_argument for bad candidates or
// options, or a game that is over.
Result decide_paired(const State& truth, const std::vector<int>& candidates, const Options& options,
                     std::uint64_t seed);

}  // namespace ktenv::kingsburg::search

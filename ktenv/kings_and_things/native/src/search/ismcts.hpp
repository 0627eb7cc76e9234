// The `ismcts` agent's search in native code (agents/kings_and_things/ismcts.py is the readable reference): single-observer
// information-set Monte Carlo tree search over worlds the seat cannot tell apart (search/worlds.hpp).
//
// Every iteration samples a world (or cycles through `worlds` worlds drawn per decision), descends one
// tree keyed by action (all players' decisions share it) choosing by UCB1 with availability counts among
// the children legal in this world, adds one child (the untried action the expansion policy, greedy or
// expert, ranks best, with progressive widening: at most `widening` * sqrt(visits) + 1 children; or any
// untried action), plays on with the rollout policy (uniform random, the native greedy or the native
// expert agent, each reading only the observation of the player to act) for at most `cutoff` decisions,
// and backs up a value per player: 1 shared by the winners of a finished game, else the player's share
// of a public score (income, land, forts, the highest fort, Citadels, heroes, gold, and the race to a
// Citadel; agents/kings_and_things/ismcts.py's public_value).
// The move played is the root's most visited child (ties: the expansion policy's order, else the higher
// value).
//
// Paired root evaluation (decide_paired): no tree. The caller names K candidate actions (the
// expert's K best, candidate 0 the expert's own choice). Each round samples one world and plays every
// candidate in a copy of it (the same dice stream: the world's own generator) with rollout experts in
// the same state (reseeded alike each round, so the same tie-break draws and no move plans), to
// `cutoff` decisions; the paired differences d_k = v_k - v_0 of the seat's value cancel most of the
// dice and hidden-counter noise (common random numbers). The candidate of the largest mean d_k is
// played if that mean is positive and above z standard errors, else candidate 0. With `reject`, a candidate
// clearly worse than candidate 0 is dropped along the way and the rounds go to the others (racing).
//
// Given a trained network with its critic (the policy-guided search), an unfinished paired rollout is valued at
// its cutoff by that critic instead of the public score: its estimate from the seat's own observation of the
// rollout's state (the sampled world's, never the true game's), mapped to the win scale of a finished game.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "agents/expert.hpp"
#include "agents/greedy.hpp"
#include "agents/policy.hpp"
#include "engine/observation.hpp"
#include "state.hpp"

namespace ktenv::search {

enum Policy : int { RANDOM = 0, GREEDY = 1, EXPERT = 2 };  // rollouts and expansion order

// The outcome model's features of a player, in this order (agents/kings_and_things/outcome.py's FEATURES): income,
// land hexes, fort levels, Citadels, highest fort, heroes, gold (capped), the Citadel's last step (race), Things on
// the board, counters behind the screen
constexpr int kOutcome = 10;

struct SearchOptions {
  int playouts = 200;       // iterations per decision; 0: no limit (then `seconds` bounds it)
  double seconds = 0.0;     // time budget per decision; 0: none
  double c = 0.05;          // UCB1 exploration constant
  int rollout = GREEDY;     // the rollout policy
  int cutoff = 50;          // rollout decisions before the value estimate
  int horizon = 0;          // a rollout from before this round plays on to its start (or the game's end) past cutoff
  int worlds = 0;           // 0: a new world every iteration; k: k worlds per decision, in turn
  int expand = GREEDY;      // RANDOM: any untried action; GREEDY, EXPERT: that agent's order, widening
  double widening = 2.0;    // ranked expansion: at most widening * sqrt(visits) + 1 children
  double w_citadel = 20.0;  // value estimate: weight of a Citadel
  double w_top = 0.0;       // ... of each level of the player's highest fort
  bool follow = false;      // with expert rollouts: a stack's MOVE_SELECT and MOVE_STACK decisions are played by
                            // the expert's plan for the stack the tree started (no tree nodes for them)
  double margin = 0.0;      // > 0: the move is the expansion policy's first choice unless the most visited child's
                            // mean value beats that choice's by more than margin (ranked expansion only)
  double w_race = 0.0;      // ... of the race to a Citadel: highest fort level + income / Citadel income (<= 1)
                            //     + gold / 5 (<= 1), the three things a Citadel needs (R14.3)
  double w_standings = 0.0;  // in [0, 1]: once only conquest or the round cap can end the game (two Citadels,
                             // R16.3, and a cap, R16.7), the weight of the cap's standings now (R19.3) in the value
  std::vector<double> w_outcome;  // not empty: an unfinished game's value is a fitted model's win chance, the
                                  // softmax over the players of these weights . their outcome features (kOutcome)
  double outcome_gold_cap = 25.0;  // the gold that counts as an outcome feature
  double z = 2.0;           // decide_paired: standard errors by which a candidate must beat candidate 0
  int threads = 1;          // decide_paired: threads playing this many rounds at once (the results do not depend on it)
  double reject = 0.0;      // decide_paired: > 0: every 8 rounds, a candidate whose mean difference is this many
                            // standard errors below 0 gets no more rollouts (racing); 0: every candidate every round
};

struct SearchResult {
  int action = -1;
  int iterations = 0;
  int nodes = 0;
  double seconds = 0.0;
  int candidate = -1;  // decide_paired: the index of the candidate played (0: the caller's first choice)
  int rounds = 0;      // decide_paired: whole rounds evaluated (each a rollout per candidate still in the race)
  std::vector<double> gains;  // decide_paired: per candidate, the mean paired difference from candidate 0 (0: none)
};

// One thread's rollout machinery: every player's rollout agents and the scratch they read and write. The
// tree search uses the first; the paired search on `threads` threads gives each rollout of a batch of `threads`
// rounds one of its own.
struct Roller {
  std::vector<agents::Greedy> greedy;
  std::vector<agents::Expert> expert;  // per player (a move plan each, as ExpertAgent.memory)
  std::vector<float> obs_buf;
  std::vector<std::int8_t> mask;
  std::vector<int> scratch_legal;
  std::vector<double> scratch_scores;
  std::vector<double> value;
  std::vector<float> critic_a, critic_b;  // the critic's scratch
};

class Search {
 public:
  // expert: the expert agent's plan of the game's layout (its base is the greedy agent's)
  // critic: a network with its value head, whose estimate values decide_paired's unfinished rollouts for the
  // seat (null: the public score, as decide always does)
  Search(const observation::Plan& obs, std::shared_ptr<const agents::ExpertPlan> expert, SearchOptions options,
         std::uint64_t seed, std::shared_ptr<const agents::PolicyNetwork> critic = nullptr);
  // The action for `seat` at the true state `truth` (read only through sample_world); `legal`: the
  // legal actions there, ascending (at least two).
  SearchResult decide(const State& truth, int seat, const std::vector<int>& legal);
  // Paired root evaluation of `candidates` (at least two distinct actions legal for `seat` at `truth`;
  // candidate 0 is the default) with expert rollouts; iterations counts the rollouts made. A round the
  // time budget cuts short is dropped; a world where candidate 0 is not legal (an action naming a counter
  // the seat cannot see) compares nothing, one where another is not legal compares the others. See the
  // header comment.
  SearchResult decide_paired(const State& truth, int seat, const std::vector<int>& candidates);

  // Each player's value of the state as a rollout's end is valued (the public score's share, or with w_outcome the
  // outcome model's win chances; the standings where in force): for the tests
  std::vector<double> values(const State& w) const {
    Roller r;
    value(r, w);
    return r.value;
  }

 private:
  struct Node {
    int player = -1;  // who chose the edge into this node
    int visits = 0, avail = 0;
    double total = 0.0;
    bool ranked = false;
    std::vector<std::pair<int, int>> children;  // (action, node index)
    std::vector<std::pair<int, int>> rank;      // (action, the expansion policy's rank), by action
  };

  void iterate(State& w);
  void rollout(Roller& r, State& w);
  void play_out(Roller& r, State& w);
  double critic_value(Roller& r, const State& w, int seat) const;
  double paired_rollout(Roller& r, const State& world, int seat, int action, const std::vector<std::uint64_t>& seeds);
  void reject_losers(const std::vector<int>& count, const std::vector<double>& sum, const std::vector<double>& squares,
                     std::vector<char>& live) const;
  void value(Roller& r, const State& w) const;
  void share_value(const State& w, const observation::StatTable& st, const std::array<int, kMaxPlayers>& top,
                   const std::array<double, kMaxPlayers>& ready, std::vector<double>& out) const;
  void outcome_value(const State& w, const observation::StatTable& st, const std::array<int, kMaxPlayers>& top,
                     const std::array<double, kMaxPlayers>& ready, std::vector<double>& out) const;
  void rank(State& w, Node& node, const std::vector<int>& legal);
  int policy_act(Roller& r, State& w, int p);
  void follow_start(Roller& r, State& w, int action);
  int rank_of(const Node& node, int action) const;
  void collect(Roller& r, State& w, std::vector<int>& legal) const;
  bool out_of_time() const;
  Roller make_roller(bool seeded);

  const observation::Plan& obs_;
  std::shared_ptr<const agents::ExpertPlan> expert_plan_;
  std::shared_ptr<const agents::GreedyPlan> plan_;
  SearchOptions opt_;
  Dice rng_;
  std::vector<Roller> rollers_;  // [0]: the tree's and the paired search's first thread's
  std::vector<Node> nodes_;
  std::vector<int> child_of_;  // scratch: child index per action of the node being visited (-1: none)
  std::vector<int> path_;
  std::shared_ptr<const agents::PolicyNetwork> critic_;
  double deadline_ = 0.0;
};

}  // namespace ktenv::search

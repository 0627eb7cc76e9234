// Kingsburg's batched games (ktenv/kingsburg/native/vector.py's VectorEnv): N native games stepped in one call
// with the GIL released, over a thread pool, each row written into caller-owned arrays; seats are the caller's
// ("external") or native players: uniform random, the greedy and expert agents (agents/heuristic.hpp) and trained
// policy networks (the league's snapshots, kings_and_things/.../agents/policy.hpp). A finished game starts the
// row's next seed in the same call. Each row touches only its own game and rows: the results are the same
// whatever the thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agents/heuristic.hpp"
#include "engine.hpp"
#include "kings_and_things/native/src/agents/policy.hpp"
#include "kings_and_things/native/src/vector/pool.hpp"

namespace ktenv::kingsburg {

enum Seat : int { EXTERNAL = 0, RANDOM = 1, GREEDY = 2, EXPERT = 3, POLICY = 4 };
constexpr std::int64_t SKIP = -1;  // step's action for a row left as it is in this call
using Network = std::shared_ptr<const ::ktenv::agents::PolicyNetwork>;
struct Policy {  // a network as the binding hands it over (`_kingsburg_core.Policy`)
  Network net;
};

// The seed of a policy seat's generator (numpy.random.default_rng) in the game with seed `game_seed`.
inline std::uint64_t policy_seed(std::uint64_t game_seed, int seat) {
  return game_seed * 7919 + 2 + static_cast<std::uint64_t>(seat);
}

struct Outputs {  // row-major arrays of num_envs rows, owned by the Python VectorEnv
  float* observation;            // [N, observation_size]
  std::int8_t* action_mask;      // [N, N_ACTIONS]
  std::int32_t* actor;           // [N]
  double* rewards;               // [N, n]: the game in the row when the call began
  double* opening_rewards;       // [N, n]: the opening of a game started in the call
  bool* terminated;              // [N]
  std::uint64_t* seed;           // [N]: the game now in the row
  bool* final_winners;           // [N, n]
  std::int64_t* final_length;    // [N]
  std::uint64_t* final_seed;     // [N]
  double* final_return;          // [N, n]
  std::int32_t* final_vp;        // [N, n]
  float* final_observation;      // [N, observation_size]: the ended game's final state, seen by its observer
};

struct Batch {
  Config cfg;
  int num_envs = 0;
  bool shaped = false;                   // reward "shaped": + the change of 0.01 * VP every decision
  std::vector<std::vector<int>> seats;   // [N][n] Seat
  std::uint64_t base_seed = 0;
  std::vector<State> games;
  std::vector<std::uint64_t> seeds;      // the seed of the game in each row
  std::vector<std::int64_t> lengths;     // decisions made in it
  std::vector<std::vector<double>> returns;  // its rewards so far
  std::vector<Dice> pickers;             // the random seats' generators, one per row

  // the output arrays, owned here (numpy views of them are handed out)
  std::vector<float> observation, final_observation;
  std::vector<std::int8_t> action_mask;
  std::vector<std::int32_t> actor, final_vp;
  std::vector<double> rewards, opening_rewards, final_return;
  std::vector<std::uint8_t> terminated, final_winners;  // bools
  std::vector<std::int64_t> final_length;
  std::vector<std::uint64_t> seed, final_seed;

  std::vector<std::vector<Network>> networks;  // [N][n]: the POLICY seats' networks (null elsewhere)
  std::vector<std::vector<int>> next_seats;     // [N][n]: the seats of each row's next game (set_next_seats)
  std::vector<std::vector<Network>> next_networks;
  std::vector<int> observer, next_observer;     // [N]: whose view of the final state goes to final_observation
  std::vector<std::vector<std::unique_ptr<agents::Agent>>> heuristics;  // [N][n]: the GREEDY and EXPERT seats'
  std::vector<std::vector<std::unique_ptr<::ktenv::agents::PolicyPlayer>>> policies;  // [N][n]: the POLICY seats'
  std::vector<std::vector<float>> seen;  // [N]: a native seat's observation
  std::vector<std::string> errors;       // [N]: what went wrong in a row during a call (empty: nothing)
  std::unique_ptr<::ktenv::vector::Pool> pool;

  // networks: one per POLICY seat, row by row, in seat order
  Batch(const Config& c, int envs, std::vector<std::vector<int>> seat_kinds, bool shaped_reward, int num_threads,
        const std::vector<Network>& seat_networks);
  Outputs outputs();
  void reset(std::uint64_t seed, const Outputs& out);
  // one action per row for its external actor (SKIP: the row stays as it is, its rewards zero); rows are checked
  // first (a bad row changes nothing)
  void step(const std::int64_t* actions, const Outputs& out);
  // The seats of row i from its next game on (the one its next reset or auto-reset starts), the seat whose view
  // of that game's final state goes to final_observation and the network of each POLICY seat (in seat order).
  // Checked; throws std::invalid_argument naming what is wrong, and then changes nothing.
  void set_next_seats(int i, const std::vector<int>& kinds, int seat_observer, const std::vector<Network>& nets);

 private:
  void start(int i, std::uint64_t seed, const Outputs& out);
  void step_row(int i, std::int64_t action, const Outputs& out);
  template <class Body>
  void run_rows(Body body);  // body(i) for every row over the pool; a row's failure is thrown after all ran
  void play_native(int i, double* rewards);  // the native seats' turns, up to an external decision or the end
  void play(int i, int action, double* rewards);
  void write(int i, const Outputs& out);
};

}  // namespace ktenv::kingsburg

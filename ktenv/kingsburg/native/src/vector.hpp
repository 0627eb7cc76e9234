// Kingsburg's batched games (ktenv/kingsburg/native/vector.py's VectorEnv): N native games stepped in one call
// with the GIL released, each row written into caller-owned arrays; seats are the caller's ("external") or
// native uniform random players; a finished game starts the row's next seed in the same call.
#pragma once

#include <cstdint>
#include <vector>

#include "engine.hpp"

namespace ktenv::kingsburg {

enum Seat : int { EXTERNAL = 0, RANDOM = 1 };

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

  Batch(const Config& c, int envs, std::vector<std::vector<int>> seat_kinds, bool shaped_reward);
  Outputs outputs();
  void reset(std::uint64_t seed, const Outputs& out);
  // one action per row for its external actor; rows are checked first (a bad row changes nothing)
  void step(const std::int64_t* actions, const Outputs& out);

 private:
  void start(int i, std::uint64_t seed, const Outputs& out);
  void play_native(int i, double* rewards);  // the native seats' turns, up to an external decision or the end
  void play(int i, int action, double* rewards);
  void write(int i, const Outputs& out);
};

}  // namespace ktenv::kingsburg

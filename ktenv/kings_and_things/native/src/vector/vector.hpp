// Batched games: N native games stepped in one call over a thread pool, each writing its
// own rows of caller-visible buffers (the EnvPool shape). Pure C++; the bindings are in
// bind_vector.cpp and the Python face is ktenv/kings_and_things/vector (docs/vector.md).
//
// The semantics are those of the AEC env (ktenv/kings_and_things/env/aec.py): rewards "win" or "shaped", the
// max_steps truncation (reason step_limit, no winner, no end reward), the config's round limit.
// A finished game starts the next game of its seed stream in the same call (auto-reset); its
// results are in the final_* rows of that call. Each game's seats may change from one episode to the
// next (set_next_seats), and a call may step only some games (action SKIP for the others).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../agents/expert.hpp"
#include "../agents/greedy.hpp"
#include "../agents/policy.hpp"
#include "../engine/observation.hpp"
#include "../game.hpp"
#include "../state.hpp"
#include "pool.hpp"

namespace ktenv::vector {

// Who decides for a seat. EXTERNAL: the caller (step's actions); the others are played inside native
// code between the caller's decisions: RANDOM uniformly among the legal actions, GREEDY by the native
// port of agents/kings_and_things/greedy.py (agents/greedy.hpp), EXPERT by that of agents/kings_and_things/expert.py (agents/expert.hpp),
// POLICY by a trained policy network (agents/policy.hpp: a league snapshot), each reading only its seat's
// observation and mask.
enum Seat : std::int8_t { EXTERNAL = 0, RANDOM = 1, GREEDY = 2, EXPERT = 3, POLICY = 4 };
using Networks = std::vector<std::shared_ptr<const agents::PolicyNetwork>>;  // the POLICY seats', in seat order
enum class Reward : int { WIN = 0, SHAPED = 1 };

// Why a game ended, as a code (the final_reason rows): the engine's reasons, then step_limit.
inline constexpr std::array<std::string_view, 10> kReasons = {
    "", "sole_citadel", "two_citadels", "quick_citadel", "unique_citadel", "fixed_rounds", "land_conquest",
    "last_standing", "round_limit", "step_limit"};
constexpr int REASON_ROUND_LIMIT = 8;
constexpr int REASON_STEP_LIMIT = 9;

constexpr double SHAPING_SCALE = 0.01;  // ktenv/kings_and_things/env/aec.py
constexpr std::int64_t SKIP = -1;  // step's action for a game left as it is in this call

struct Options {
  int num_envs = 1;
  std::uint64_t seed = 0;  // game i plays seed + i, then seed + i + N, seed + i + 2N, ...
  int num_threads = 1;
  Reward reward = Reward::WIN;
  std::int64_t max_steps = 0;  // decisions per episode before truncation; 0: no bound
  std::vector<std::int8_t> seats;  // num_envs * n_players Seat codes, row-major
  std::shared_ptr<const agents::GreedyPlan> greedy;  // the greedy seats' reading of this config's observation
  std::shared_ptr<const agents::ExpertPlan> expert;  // the expert seats' (its base: the greedy plan)
  Networks networks;  // one per POLICY code in `seats`, in that order
};

// The rows every call writes, row i belonging to game i. Owned by the batch; the caller reads them
// between calls (the Python side holds numpy views of them).
struct Rows {
  std::vector<float> observation;      // [N, obs size]: the actor's view
  std::vector<std::int8_t> mask;       // [N, n actions]
  std::vector<std::int32_t> actor;     // [N]
  std::vector<double> rewards;         // [N, P]: earned in this call by the game that was in the row
  std::vector<double> opening_rewards; // [N, P]: earned by the native seats' opening of a game started in this call
  std::vector<std::uint8_t> terminated, truncated;  // [N]
  std::vector<std::uint64_t> seed;     // [N]: the seed of the game now in the row
  // the game that ended in this call (valid where terminated or truncated)
  std::vector<std::uint8_t> final_winners;  // [N, P]
  std::vector<std::int8_t> final_reason;    // [N]: index in kReasons
  std::vector<std::int32_t> final_rounds;   // [N]
  std::vector<std::uint64_t> final_seed;    // [N]
  std::vector<std::int64_t> final_length;   // [N]: decisions of the episode, every seat's
  std::vector<double> final_return;         // [N, P]: the episode's rewards summed
  std::vector<std::int64_t> final_stats;    // [N, P, N_STATS]: observation::player_stats of the final state
  std::vector<float> final_observation;     // [N, obs size]: the final state seen by the game's observer
                                            // (not cleared between calls: read it only where a game ended)
};

// One slot of the batch: the game under way and its bookkeeping.
struct Game {
  int index = 0;                 // the slot's row
  State s;
  Dice chooser;                  // the random seats' generator (never the game's dice)
  std::uint64_t seed = 0;        // of the game under way
  std::uint64_t episodes = 0;    // games this slot started since its stream began
  std::int64_t steps = 0;        // decisions in this episode
  std::array<double, kMaxPlayers> potential{}, returns{};
  std::array<std::int8_t, kMaxPlayers> seats{}, next_seats{};  // Seat codes: this episode's, the next one's
  int observer = 0, next_observer = 0;  // whose view of the final state is final_observation
  std::vector<std::unique_ptr<agents::Greedy>> greedy;  // per seat, made when the seat is first GREEDY
  std::vector<std::unique_ptr<agents::Expert>> expert;  // per seat, made when the seat is first EXPERT
  std::vector<std::unique_ptr<agents::PolicyPlayer>> policy;  // per seat, made when the seat is first POLICY
  std::array<std::shared_ptr<const agents::PolicyNetwork>, kMaxPlayers> next_networks{};  // the POLICY seats'
  std::vector<float> seen;       // a native seat's observation (allocated with the first seat that reads one)
  observation::StatTable stats;  // the players' statistics of the state as it stands (shaped rewards only)
  bool failed = false;           // the engine threw inside this game (message in `error`)
  std::string error;
};

class Batch {
 public:
  Batch(std::shared_ptr<const Rules> rules, const observation::Plan& plan, Options options);

  int num_envs() const { return n_; }
  int num_players() const { return players_; }
  int observation_size() const { return plan_->size; }
  int n_actions() const { return actions_; }
  int num_threads() const { return pool_.threads(); }
  const Rows& rows() const { return rows_; }
  Rows& rows() { return rows_; }
  const State& game(int i) const { return games_.at(static_cast<std::size_t>(i)).s; }

  // Every game anew: with a seed, the streams restart from it; without, each plays its stream's next.
  void reset(std::optional<std::uint64_t> seed);
  // The first game whose action is not legal for its actor now (or not an external seat's), -1 if none.
  int first_illegal(const std::int64_t* actions);
  // One external decision per game, then the native seats until each waits on an external seat;
  // an illegal action throws IllegalAction (naming the game and the action) before anything changes.
  void step(const std::int64_t* actions);
  // step() for actions already checked by first_illegal.
  void step_checked(const std::int64_t* actions);
  // The seats of game i from its next episode on (the one its next reset or auto-reset starts), and the
  // seat whose view of that episode's final state goes to final_observation, with the network of each POLICY
  // seat (in seat order). Checked; throws std::invalid_argument naming what is wrong, and then changes nothing.
  void set_next_seats(int i, const std::int8_t* seats, int observer, const Networks& networks = {});
  // The greedy agent's plan, for greedy seats set later (checked against the observation and action layout).
  void set_greedy_plan(std::shared_ptr<const agents::GreedyPlan> plan);
  // The expert agent's plan, for expert seats set later (checked as the greedy plan is).
  void set_expert_plan(std::shared_ptr<const agents::ExpertPlan> plan);
  const std::int8_t* seats(int i) const { return games_.at(static_cast<std::size_t>(i)).seats.data(); }
  int observer(int i) const { return games_.at(static_cast<std::size_t>(i)).observer; }
  // The network of game i's seat p in the episode under way (null unless that seat is POLICY).
  std::shared_ptr<const agents::PolicyNetwork> network(int i, int p) const;

 private:
  const std::int8_t* mask_of(State& s);
  void start(Game& g);
  bool play(Game& g, int action, double* rewards);
  bool play_native(Game& g, double* rewards);
  int native_action(Game& g, int seat);
  std::size_t check_seats(const std::int8_t* seats, int observer, const Networks& networks, std::size_t first,
                          const std::string& where) const;
  void make_agents(Game& g);
  void potentials(Game& g, std::array<double, kMaxPlayers>& out) const;
  const observation::StatTable* stats_of(const Game& g) const;
  void add_win_rewards(const State& s, std::array<double, kMaxPlayers>& step) const;
  void finish(Game& g);
  void write_view(int i);
  void run_all(void (Batch::*body)(int, const std::int64_t*), const std::int64_t* actions);
  void run_on(const std::vector<int>& games, void (Batch::*body)(int, const std::int64_t*),
              const std::int64_t* actions);
  void reset_one(int i, const std::int64_t*);
  void step_one(int i, const std::int64_t* actions);
  void clear_row(int i);

  std::shared_ptr<const Rules> rules_;
  std::shared_ptr<const observation::Plan> plan_;
  std::shared_ptr<const agents::GreedyPlan> greedy_plan_;
  std::shared_ptr<const agents::ExpertPlan> expert_plan_;
  int n_, players_, actions_;
  std::uint64_t base_seed_;
  Reward reward_;
  std::int64_t max_steps_;
  std::vector<Game> games_;
  std::vector<int> all_games_, touched_;  // 0..n-1; the games a step's actions touch (no allocation per step)
  Rows rows_;
  bool started_ = false;
  Pool pool_;
};

// The seed of a native seat's generator in the game with seed `game_seed` (docs/vector.md): random seats
// share Dice(random_seed(s)); the greedy (or expert) seat p is numpy.random.default_rng(greedy_seed(s, p)).
inline std::uint64_t random_seed(std::uint64_t game_seed) { return game_seed * 7919 + 1; }
inline std::uint64_t greedy_seed(std::uint64_t game_seed, int seat) {
  return game_seed * 7919 + 2 + static_cast<std::uint64_t>(seat);
}

// The reason code of a finished game (kReasons), or -1 for a reason the table lacks.
int reason_code(std::string_view reason);

}  // namespace ktenv::vector

#include "vector.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "../engine/machine.hpp"

namespace ktenv::vector {

namespace {

constexpr int kOpeningTries = 64;  // games in a row that may end before any external seat decides
constexpr int kThreadedGames = 4;   // fewer games in a call run on the calling thread (no worker woken)

std::string illegal_message(int i, std::int64_t action, const State& s, const char* why) {
  return "game " + std::to_string(i) + ": action " + std::to_string(action) + " is not legal now (" + why +
         "; player " + std::to_string(s.actor) + " must decide, decision code " + std::to_string(s.decision) + ")";
}

}  // namespace

int reason_code(std::string_view reason) {
  for (std::size_t k = 0; k < kReasons.size(); ++k)
    if (kReasons[k] == reason) return static_cast<int>(k);
  return -1;
}

Batch::Batch(std::shared_ptr<const Rules> rules, const observation::Plan& plan, Options options)
    : rules_(std::move(rules)),
      plan_(std::make_shared<const observation::Plan>(plan)),
      greedy_plan_(std::move(options.greedy)),
      expert_plan_(std::move(options.expert)),
      n_(options.num_envs),
      players_(plan.n),
      actions_(rules_ ? rules_->t.layout.size : 0),
      base_seed_(options.seed),
      reward_(options.reward),
      max_steps_(options.max_steps),
      pool_(std::max(1, options.num_threads)) {
  if (!rules_) throw std::invalid_argument("rules: none given");
  if (n_ < 1) throw std::invalid_argument("num_envs: expected at least 1 game, got " + std::to_string(n_));
  if (options.num_threads < 1)
    throw std::invalid_argument("num_threads: expected at least 1, got " + std::to_string(options.num_threads));
  if (expert_plan_ && (expert_plan_->base->size != plan_->size || expert_plan_->base->n_actions != actions_))
    throw std::invalid_argument("expert: the expert agent's plan is for another observation or action layout");
  if (players_ != rules_->t.n.Players)
    throw std::invalid_argument("the observation plan is for " + std::to_string(players_) + " players, the rules for " +
                                std::to_string(rules_->t.n.Players));
  if (max_steps_ < 0) throw std::invalid_argument("max_steps: expected 0 (no bound) or a positive number");
  if (options.seats.size() != static_cast<std::size_t>(n_) * players_)
    throw std::invalid_argument("seats: expected num_envs * num_players codes");
  std::size_t used = 0;  // the networks the games before took
  for (int i = 0; i < n_; ++i)
    used += check_seats(&options.seats[static_cast<std::size_t>(i) * players_], -1, options.networks, used,
                        "game " + std::to_string(i));
  if (used != options.networks.size())
    throw std::invalid_argument("networks: " + std::to_string(options.networks.size()) + " given for " +
                                std::to_string(used) + " policy seats");
  games_ = std::vector<Game>(static_cast<std::size_t>(n_));  // made in place: a Game is not copied
  for (int i = 0; i < n_; ++i) all_games_.push_back(i);
  touched_.reserve(static_cast<std::size_t>(n_));
  used = 0;
  for (int i = 0; i < n_; ++i) {
    Game& g = games_[static_cast<std::size_t>(i)];
    g.index = i;
    g.greedy.resize(static_cast<std::size_t>(players_));
    g.expert.resize(static_cast<std::size_t>(players_));
    g.policy.resize(static_cast<std::size_t>(players_));
    std::copy_n(&options.seats[static_cast<std::size_t>(i) * players_], players_, g.next_seats.begin());
    for (std::size_t p = 0; p < static_cast<std::size_t>(players_); ++p)
      if (g.next_seats[p] == POLICY) g.next_networks[p] = options.networks[used++];
    g.next_observer = static_cast<int>(std::find(g.next_seats.begin(), g.next_seats.begin() + players_, EXTERNAL) -
                                       g.next_seats.begin());
    g.seats = g.next_seats;
    g.observer = g.next_observer;
    make_agents(g);
  }
  auto N = static_cast<std::size_t>(n_), P = static_cast<std::size_t>(players_);
  rows_.observation.assign(N * static_cast<std::size_t>(plan_->size), 0.0f);
  rows_.mask.assign(N * static_cast<std::size_t>(actions_), 0);
  rows_.actor.assign(N, -1);
  rows_.rewards.assign(N * P, 0.0);
  rows_.opening_rewards.assign(N * P, 0.0);
  rows_.terminated.assign(N, 0);
  rows_.truncated.assign(N, 0);
  rows_.seed.assign(N, 0);
  rows_.final_winners.assign(N * P, 0);
  rows_.final_reason.assign(N, 0);
  rows_.final_rounds.assign(N, 0);
  rows_.final_seed.assign(N, 0);
  rows_.final_length.assign(N, 0);
  rows_.final_return.assign(N * P, 0.0);
  rows_.final_stats.assign(N * P * observation::N_STATS, 0);
  rows_.final_observation.assign(N * static_cast<std::size_t>(plan_->size), 0.0f);
}

// One game's seat codes (and observer, unless -1): known codes, an external seat, greedy and expert seats only
// with their agent's plan, a network for each policy seat (networks[first], networks[first + 1], ...) made for
// this observation and action layout. Returns the number of policy seats.
std::size_t Batch::check_seats(const std::int8_t* seats, int observer, const Networks& networks, std::size_t first,
                               const std::string& where) const {
  bool external = false, greedy = false, expert = false;
  std::size_t policies = 0;
  for (int p = 0; p < players_; ++p) {
    int code = seats[p];
    if (code < EXTERNAL || code > POLICY)
      throw std::invalid_argument("seats: unknown seat code " + std::to_string(code) + " (" + where + ")");
    external = external || code == EXTERNAL;
    greedy = greedy || code == GREEDY;
    expert = expert || code == EXPERT;
    if (code != POLICY) continue;
    std::size_t k = first + policies++;
    if (k >= networks.size() || !networks[k])
      throw std::invalid_argument("networks: none given for the policy seat " + std::to_string(p) + " (" + where + ")");
    if (networks[k]->observation_size != plan_->size || networks[k]->n_actions() != actions_)
      throw std::invalid_argument("networks: '" + networks[k]->name + "' (seat " + std::to_string(p) + ", " + where +
                                  ") takes observations of " + std::to_string(networks[k]->observation_size) +
                                  " and gives " + std::to_string(networks[k]->n_actions()) + " actions; this game has " +
                                  std::to_string(plan_->size) + " and " + std::to_string(actions_));
  }
  if (!external)
    throw std::invalid_argument("seats: " + where + " has no external seat (nobody would ever hand the caller a "
                                "decision)");
  if (greedy && !greedy_plan_) throw std::invalid_argument("seats: greedy seats need the greedy agent's plan");
  if (expert && !expert_plan_) throw std::invalid_argument("seats: expert seats need the expert agent's plan");
  if (observer < -1 || observer >= players_)
    throw std::invalid_argument("observer: seat " + std::to_string(observer) + " is not a seat of the game (" + where +
                                ")");
  return policies;
}

void Batch::set_greedy_plan(std::shared_ptr<const agents::GreedyPlan> plan) {
  if (!plan) throw std::invalid_argument("greedy: no plan given");
  if (plan->size != plan_->size || plan->n_actions != actions_)
    throw std::invalid_argument("greedy: the greedy agent's plan is for another observation or action layout");
  greedy_plan_ = std::move(plan);
}

void Batch::set_expert_plan(std::shared_ptr<const agents::ExpertPlan> plan) {
  if (!plan) throw std::invalid_argument("expert: no plan given");
  if (plan->base->size != plan_->size || plan->base->n_actions != actions_)
    throw std::invalid_argument("expert: the expert agent's plan is for another observation or action layout");
  expert_plan_ = std::move(plan);
}

void Batch::set_next_seats(int i, const std::int8_t* seats, int observer, const Networks& networks) {
  if (i < 0 || i >= n_) throw std::invalid_argument("game: " + std::to_string(i) + " is not a game of the batch");
  std::size_t policies = check_seats(seats, observer, networks, 0, "game " + std::to_string(i));
  if (policies != networks.size())
    throw std::invalid_argument("networks: " + std::to_string(networks.size()) + " given for " +
                                std::to_string(policies) + " policy seats (game " + std::to_string(i) + ")");
  Game& g = games_[static_cast<std::size_t>(i)];
  std::copy_n(seats, players_, g.next_seats.begin());
  std::size_t k = 0;
  for (int p = 0; p < players_; ++p)
    g.next_networks[static_cast<std::size_t>(p)] = seats[p] == POLICY ? networks[k++] : nullptr;
  g.next_observer = observer;
  make_agents(g);
}

std::shared_ptr<const agents::PolicyNetwork> Batch::network(int i, int p) const {
  const Game& g = games_.at(static_cast<std::size_t>(i));
  if (p < 0 || p >= players_ || g.seats[static_cast<std::size_t>(p)] != POLICY) return nullptr;
  return g.policy[static_cast<std::size_t>(p)]->network();
}

// The native agents and the observation buffer the game's next seats need (made once, on the caller's thread,
// so that no step allocates them).
void Batch::make_agents(Game& g) {
  for (int p = 0; p < players_; ++p)
    if (g.next_seats[static_cast<std::size_t>(p)] == GREEDY && !g.greedy[static_cast<std::size_t>(p)])
      g.greedy[static_cast<std::size_t>(p)] = std::make_unique<agents::Greedy>(greedy_plan_, 0);
  for (int p = 0; p < players_; ++p)
    if (g.next_seats[static_cast<std::size_t>(p)] == EXPERT && !g.expert[static_cast<std::size_t>(p)])
      g.expert[static_cast<std::size_t>(p)] = std::make_unique<agents::Expert>(expert_plan_, 0);
  for (int p = 0; p < players_; ++p)
    if (g.next_seats[static_cast<std::size_t>(p)] == POLICY && !g.policy[static_cast<std::size_t>(p)])
      g.policy[static_cast<std::size_t>(p)] = std::make_unique<agents::PolicyPlayer>();
  const bool reads = std::any_of(g.next_seats.begin(), g.next_seats.end(),
                                 [](std::int8_t code) { return code == GREEDY || code == POLICY; });  // an expert reads the state
  if (g.seen.empty() && reads) g.seen.assign(static_cast<std::size_t>(plan_->size), 0.0f);
}

// ----- the calls

void Batch::reset(std::optional<std::uint64_t> seed) {
  if (seed) {
    base_seed_ = *seed;
    for (auto& g : games_) g.episodes = 0;
  }
  run_all(&Batch::reset_one, nullptr);
  started_ = true;
}

int Batch::first_illegal(const std::int64_t* actions) {
  if (!started_) throw std::logic_error("step() before reset(): reset the batch first");
  for (int i = 0; i < n_; ++i) {
    Game& g = games_[static_cast<std::size_t>(i)];
    if (g.failed) throw std::logic_error("game " + std::to_string(i) + " failed in an earlier call: reset the batch");
    std::int64_t a = actions[i];
    if (a == SKIP) continue;
    if (a < 0 || a >= actions_ || !mask_of(g.s)[a]) return i;
  }
  return -1;
}

void Batch::step(const std::int64_t* actions) {
  int i = first_illegal(actions);
  if (i >= 0) {
    const State& s = games_[static_cast<std::size_t>(i)].s;
    bool outside = actions[i] < 0 || actions[i] >= actions_;
    throw IllegalAction(illegal_message(i, actions[i], s, outside ? "outside the action space" : "masked out"));
  }
  step_checked(actions);
}

// Only the games given an action go to the threads: while a few games wait on a Python opponent (the
// learner's league), most rows of a call are SKIP, and waking the workers for them would cost more than the
// few games' steps.
void Batch::step_checked(const std::int64_t* actions) {
  touched_.clear();
  for (int i = 0; i < n_; ++i) {
    if (actions[i] == SKIP)
      clear_row(i);
    else
      touched_.push_back(i);
  }
  run_on(touched_, &Batch::step_one, actions);
}

void Batch::run_all(void (Batch::*body)(int, const std::int64_t*), const std::int64_t* actions) {
  run_on(all_games_, body, actions);
}

void Batch::run_on(const std::vector<int>& games, void (Batch::*body)(int, const std::int64_t*),
                   const std::int64_t* actions) {
  auto task = [this, &games, body, actions](int k) {
    int i = games[static_cast<std::size_t>(k)];
    Game& g = games_[static_cast<std::size_t>(i)];
    try {
      (this->*body)(i, actions);
    } catch (const std::exception& e) {  // an engine failure: kept for the caller, never across threads
      g.failed = true;
      g.error = e.what();
    }
  };
  int count = static_cast<int>(games.size());
  if (count < kThreadedGames) {
    for (int k = 0; k < count; ++k) task(k);
  } else {
    pool_.run(count, task);
  }
  for (int i : games) {
    const Game& g = games_[static_cast<std::size_t>(i)];
    if (g.failed)
      throw std::runtime_error("game " + std::to_string(i) + " (seed " + std::to_string(g.seed) + "): " + g.error);
  }
}

// ----- one game

void Batch::reset_one(int i, const std::int64_t*) {
  Game& g = games_[static_cast<std::size_t>(i)];
  g.failed = false;
  g.error.clear();
  clear_row(i);
  start(g);
  write_view(i);
}

// A game given an action (a SKIP game's view and game stay as they are, its rows cleared: nothing was earned).
void Batch::step_one(int i, const std::int64_t* actions) {
  Game& g = games_[static_cast<std::size_t>(i)];
  clear_row(i);
  double* rewards = &rows_.rewards[static_cast<std::size_t>(i) * players_];
  bool ended = play(g, static_cast<int>(actions[i]), rewards) || play_native(g, rewards);
  if (ended) {
    finish(g);
    start(g);
  }
  write_view(i);
}

void Batch::clear_row(int i) {
  auto r = static_cast<std::size_t>(i), P = static_cast<std::size_t>(players_);
  rows_.terminated[r] = rows_.truncated[r] = 0;
  std::fill_n(&rows_.rewards[r * P], P, 0.0);
  std::fill_n(&rows_.opening_rewards[r * P], P, 0.0);
  std::fill_n(&rows_.final_stats[r * P * observation::N_STATS], P * observation::N_STATS, 0);
  std::fill_n(&rows_.final_winners[r * P], P, 0);
  std::fill_n(&rows_.final_return[r * P], P, 0.0);
  rows_.final_reason[r] = 0;
  rows_.final_rounds[r] = 0;
  rows_.final_seed[r] = 0;
  rows_.final_length[r] = 0;
}

// The next game of the slot's seed stream with the slot's next seats, played up to its first external
// decision (those rewards go to the row's opening_rewards).
void Batch::start(Game& g) {
  g.seats = g.next_seats;
  g.observer = g.next_observer;
  double* opening = &rows_.opening_rewards[static_cast<std::size_t>(g.index) * players_];
  for (int tries = 0; tries < kOpeningTries; ++tries) {
    g.seed = base_seed_ + static_cast<std::uint64_t>(g.index) + g.episodes * static_cast<std::uint64_t>(n_);
    ++g.episodes;
    g.s = machine::new_game(rules_, g.seed);
    g.chooser = Dice::seeded(random_seed(g.seed));
    for (int p = 0; p < players_; ++p)
      if (g.seats[static_cast<std::size_t>(p)] == GREEDY)
        g.greedy[static_cast<std::size_t>(p)]->reset(greedy_seed(g.seed, p));
      else if (g.seats[static_cast<std::size_t>(p)] == EXPERT)
        g.expert[static_cast<std::size_t>(p)]->reset(greedy_seed(g.seed, p));
      else if (g.seats[static_cast<std::size_t>(p)] == POLICY)
        g.policy[static_cast<std::size_t>(p)]->reset(g.next_networks[static_cast<std::size_t>(p)],
                                                     greedy_seed(g.seed, p));
    g.steps = 0;
    g.returns.fill(0.0);
    std::fill_n(opening, players_, 0.0);
    if (reward_ == Reward::SHAPED) potentials(g, g.potential);
    if (!play_native(g, opening)) return;
  }
  throw std::runtime_error(std::to_string(kOpeningTries) + " games in a row ended before any external seat decided "
                           "(is max_steps too small?)");
}

// The shaping potentials of the state as it stands; its statistics are kept for the observations.
void Batch::potentials(Game& g, std::array<double, kMaxPlayers>& out) const {
  observation::player_stats(g.s, *plan_, g.stats);
  for (int p = 0; p < players_; ++p)
    out[p] = SHAPING_SCALE * static_cast<double>(g.stats[p][observation::INCOME] + g.stats[p][observation::HEXES]);
}

// Shaped rewards computed the statistics after every change of the state: the encoder need not.
const observation::StatTable* Batch::stats_of(const Game& g) const {
  return reward_ == Reward::SHAPED ? &g.stats : nullptr;
}

// One decision (legal, checked before): the rewards it hands every seat are added to `rewards` in the
// order the AEC env adds them (the shaping step, then the end reward). True when the episode ended.
bool Batch::play(Game& g, int action, double* rewards) {
  machine::step_legal(g.s, action);
  ++g.steps;
  std::array<double, kMaxPlayers> step{};
  if (reward_ == Reward::SHAPED) {
    std::array<double, kMaxPlayers> after;
    potentials(g, after);
    for (int p = 0; p < players_; ++p) step[p] = after[p] - g.potential[p];
    g.potential = after;
  }
  bool over = g.s.phase == PHASE_GAME_OVER;
  if (over) add_win_rewards(g.s, step);
  for (int p = 0; p < players_; ++p) {
    rewards[p] += step[p];
    g.returns[p] += step[p];
  }
  return over || (max_steps_ > 0 && g.steps >= max_steps_);
}

// aec.win_rewards: the winners share +1, the losers -1; nobody or everybody winning is 0 for all.
void Batch::add_win_rewards(const State& s, std::array<double, kMaxPlayers>& step) const {
  auto k = static_cast<int>(s.winners.size());
  if (k == 0 || k == players_) return;
  for (int p = 0; p < players_; ++p) {
    bool won = std::find(s.winners.begin(), s.winners.end(), p) != s.winners.end();
    step[p] += won ? 1.0 / k : -1.0 / (players_ - k);
  }
}

// The native seats' turns until an external seat must decide; true when the episode ended meanwhile.
bool Batch::play_native(Game& g, double* rewards) {
  const std::int8_t* seats = g.seats.data();
  while (seats[g.s.actor] != EXTERNAL)
    if (play(g, native_action(g, seats[g.s.actor]), rewards)) return true;
  return false;
}

int Batch::native_action(Game& g, int seat) {
  const std::int8_t* mask = mask_of(g.s);
  if (seat != RANDOM) {  // it sees what an external seat would: its own observation and mask
    auto p = static_cast<std::size_t>(g.s.actor);
    int a = -1;
    if (seat == EXPERT) {  // the same facts read from the state, without encoding them (agents/view.hpp)
      a = g.expert[p]->act(g.s, *plan_, static_cast<int>(p), mask);
    } else {
      observation::encode(g.s, *plan_, static_cast<int>(p), g.seen.data(), stats_of(g));
      a = seat == GREEDY ? g.greedy[p]->act(g.seen.data(), mask) : g.policy[p]->act(g.seen.data(), mask);
    }
    if (a < 0) throw InvariantViolation("no legal action at a decision");
    return a;
  }
  std::array<std::int16_t, kMaxActions> legal;
  int count = 0;
  for (int a = 0; a < actions_; ++a)
    if (mask[a]) legal[count++] = static_cast<std::int16_t>(a);
  if (count == 0) throw InvariantViolation("no legal action at a decision");
  return legal[static_cast<std::size_t>(g.chooser.below(count))];
}

const std::int8_t* Batch::mask_of(State& s) {
  if (!s.mask_valid) {
    std::array<std::int8_t, kMaxActions> scratch;
    machine::legal_mask(s, scratch.data());
  }
  return s.mask_cache.data();
}

void Batch::finish(Game& g) {
  auto r = static_cast<std::size_t>(g.index), P = static_cast<std::size_t>(players_);
  const State& s = g.s;
  bool over = s.phase == PHASE_GAME_OVER;
  int reason = over ? reason_code(s.reason) : REASON_STEP_LIMIT;
  if (reason < 0) throw InvariantViolation("a game ended for an unknown reason: '" + s.reason + "'");
  bool terminated = over && reason != REASON_ROUND_LIMIT;
  rows_.terminated[r] = terminated;
  rows_.truncated[r] = !terminated;
  if (over)
    for (int w : s.winners) rows_.final_winners[r * P + static_cast<std::size_t>(w)] = 1;
  rows_.final_reason[r] = static_cast<std::int8_t>(reason);
  rows_.final_rounds[r] = static_cast<std::int32_t>(s.round);
  rows_.final_seed[r] = g.seed;
  rows_.final_length[r] = g.steps;
  for (std::size_t p = 0; p < P; ++p) rows_.final_return[r * P + p] = g.returns[p];
  if (reward_ != Reward::SHAPED) observation::player_stats(s, *plan_, g.stats);  // shaped: already current
  for (std::size_t p = 0; p < P; ++p)
    std::copy_n(g.stats[p].begin(), observation::N_STATS, &rows_.final_stats[(r * P + p) * observation::N_STATS]);
  if (g.observer >= 0)
    observation::encode(s, *plan_, g.observer, &rows_.final_observation[r * static_cast<std::size_t>(plan_->size)],
                        &g.stats);
}

void Batch::write_view(int i) {
  Game& g = games_[static_cast<std::size_t>(i)];
  auto r = static_cast<std::size_t>(i);
  rows_.actor[r] = static_cast<std::int32_t>(g.s.actor);
  rows_.seed[r] = g.seed;
  observation::encode(g.s, *plan_, static_cast<int>(g.s.actor), &rows_.observation[r * plan_->size], stats_of(g));
  machine::legal_mask(g.s, &rows_.mask[r * actions_]);
}

}  // namespace ktenv::vector

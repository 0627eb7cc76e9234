// The batched games of vector.hpp: game i of VectorEnv(seed=S) plays the seeds S + i, S + i + N, ...
#include "vector.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "observation.hpp"

namespace ktenv::kingsburg {

namespace {

constexpr double SHAPING_SCALE = 0.01;  // gamekit.aec.SHAPING_SCALE

std::uint64_t dice_state(std::uint64_t seed) { return Dice::seeded(seed).state; }

void win_rewards(const State& s, double* out) {  // gamekit.aec.win_rewards
  int n = s.n, k = static_cast<int>(s.winners.size());
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (k == 0 || k == n) return;
  for (int p = 0; p < n; ++p) out[p] = -1.0 / (n - k);
  for (int w : s.winners) out[w] = 1.0 / k;
}

}  // namespace

Batch::Batch(const Config& c, int envs, std::vector<std::vector<int>> seat_kinds, bool shaped_reward, int num_threads,
             const std::vector<Network>& seat_networks)
    : cfg(c), num_envs(envs), shaped(shaped_reward) {
  std::size_t N = envs, n = c.n_players, next_network = 0;
  seats.assign(N, std::vector<int>(n, EXTERNAL));
  next_seats = seats;
  networks.assign(N, std::vector<Network>(n));
  next_networks = networks;
  observer.assign(N, 0);
  next_observer.assign(N, 0);
  heuristics.resize(N);
  policies.resize(N);
  for (std::size_t i = 0; i < N; ++i) {
    heuristics[i].resize(n);
    policies[i].resize(n);
    if (seat_kinds.at(i).size() != n) throw std::invalid_argument("seats: one kind per seat");
    std::vector<Network> row;
    for (int kind : seat_kinds[i])
      if (kind == POLICY) row.push_back(next_network < seat_networks.size() ? seat_networks[next_network++] : nullptr);
    int first_external = 0;
    while (first_external < static_cast<int>(n) - 1 && seat_kinds[i][first_external] != EXTERNAL) ++first_external;
    set_next_seats(static_cast<int>(i), seat_kinds[i], first_external, row);
  }
  if (next_network != seat_networks.size()) throw std::invalid_argument("seats: one network per policy seat");
  seen.assign(N, std::vector<float>(observation_size(c.n_players), 0.0f));
  errors.assign(N, std::string());
  pool = std::make_unique<::ktenv::vector::Pool>(std::max(1, num_threads));
  observation.assign(N * observation_size(c.n_players), 0.0f);
  final_observation.assign(N * observation_size(c.n_players), 0.0f);
  action_mask.assign(N * N_ACTIONS, 0);
  actor.assign(N, -1);
  final_vp.assign(N * n, 0);
  rewards.assign(N * n, 0.0);
  opening_rewards.assign(N * n, 0.0);
  final_return.assign(N * n, 0.0);
  terminated.assign(N, 0);
  final_winners.assign(N * n, 0);
  final_length.assign(N, 0);
  seed.assign(N, 0);
  final_seed.assign(N, 0);
}

Outputs Batch::outputs() {
  return {observation.data(), action_mask.data(), actor.data(), rewards.data(), opening_rewards.data(),
          reinterpret_cast<bool*>(terminated.data()), seed.data(), reinterpret_cast<bool*>(final_winners.data()),
          final_length.data(), final_seed.data(), final_return.data(), final_vp.data(),
          final_observation.data()};
}

void Batch::set_next_seats(int i, const std::vector<int>& kinds, int seat_observer, const std::vector<Network>& nets) {
  const int n = cfg.n_players;
  if (i < 0 || i >= num_envs) throw std::invalid_argument("seats: no game " + std::to_string(i));
  if (static_cast<int>(kinds.size()) != n) throw std::invalid_argument("seats: one kind per seat");
  if (seat_observer < 0 || seat_observer >= n) throw std::invalid_argument("seats: the observer is a seat");
  std::vector<Network> row(n);
  std::size_t used = 0;
  bool external = false;
  for (int p = 0; p < n; ++p) {
    const int kind = kinds[p];
    if (kind < EXTERNAL || kind > POLICY) throw std::invalid_argument("seats: unknown seat code " + std::to_string(kind));
    external |= kind == EXTERNAL;
    if (kind != POLICY) continue;
    if (used >= nets.size() || !nets[used]) throw std::invalid_argument("seats: a network for every policy seat");
    const Network& net = nets[used++];
    if (net->observation_size != observation_size(n) || net->n_actions() != N_ACTIONS)
      throw std::invalid_argument("seats: policy network '" + net->name + "' takes " +
                                  std::to_string(net->observation_size) + " observation entries and gives " +
                                  std::to_string(net->n_actions()) + " actions; this game has " +
                                  std::to_string(observation_size(n)) + " and " + std::to_string(N_ACTIONS));
    row[p] = net;
  }
  if (!external) throw std::invalid_argument("seats: every game needs an external seat");
  if (used != nets.size()) throw std::invalid_argument("seats: one network per policy seat");
  next_seats[i] = kinds;
  next_networks[i] = std::move(row);
  next_observer[i] = seat_observer;
}

template <class Body>
void Batch::run_rows(Body body) {
  for (auto& e : errors) e.clear();
  auto task = [&](int i) {
    try {
      body(i);
    } catch (const std::exception& exc) {
      errors[i] = exc.what();
    }
  };
  pool->run(num_envs, task);
  for (int i = 0; i < num_envs; ++i)
    if (!errors[i].empty()) throw std::runtime_error("game " + std::to_string(i) + ": " + errors[i]);
}

void Batch::reset(std::uint64_t seed, const Outputs& out) {
  base_seed = seed;
  games.assign(num_envs, State());
  seeds.assign(num_envs, 0);
  lengths.assign(num_envs, 0);
  returns.assign(num_envs, std::vector<double>(cfg.n_players, 0.0));
  pickers.clear();
  for (int i = 0; i < num_envs; ++i) pickers.push_back(Dice::seeded(seed + static_cast<std::uint64_t>(i) + 0x5EA7ULL));
  int n = cfg.n_players;
  std::memset(out.rewards, 0, sizeof(double) * num_envs * n);
  std::memset(out.terminated, 0, num_envs);
  run_rows([&](int i) { start(i, seed + static_cast<std::uint64_t>(i), out); });
}

void Batch::start(int i, std::uint64_t seed, const Outputs& out) {
  int n = cfg.n_players;
  games[i] = new_game(cfg, dice_state(seed));
  seeds[i] = seed;
  lengths[i] = 0;
  std::fill(returns[i].begin(), returns[i].end(), 0.0);
  seats[i] = next_seats[i];
  networks[i] = next_networks[i];
  observer[i] = next_observer[i];
  for (int p = 0; p < n; ++p) {
    const int kind = seats[i][p];
    if ((kind == GREEDY || kind == EXPERT) && (!heuristics[i][p] || static_cast<int>(heuristics[i][p]->kind()) != kind))
      heuristics[i][p] = std::make_unique<agents::Agent>(static_cast<agents::Kind>(kind));
    if (kind != POLICY) continue;
    if (!policies[i][p]) policies[i][p] = std::make_unique<::ktenv::agents::PolicyPlayer>();
    policies[i][p]->reset(networks[i][p], policy_seed(seed, p));
  }
  double* opening = out.opening_rewards + static_cast<std::size_t>(i) * n;
  std::fill(opening, opening + n, 0.0);
  play_native(i, opening);
  write(i, out);
}

void Batch::play(int i, int action, double* rewards) {
  State& s = games[i];
  int n = s.n;
  double before[kMaxPlayers];
  for (int p = 0; p < n; ++p) before[p] = SHAPING_SCALE * s.vp[p];
  ::ktenv::kingsburg::step(s, action);
  lengths[i] += 1;
  for (int p = 0; p < n; ++p) {
    double r = shaped ? SHAPING_SCALE * s.vp[p] - before[p] : 0.0;
    rewards[p] += r;
    returns[i][p] += r;
  }
  if (s.game_over) {
    double end[kMaxPlayers];
    win_rewards(s, end);
    for (int p = 0; p < n; ++p) {
      rewards[p] += end[p];
      returns[i][p] += end[p];
    }
  }
}

void Batch::play_native(int i, double* rewards) {
  State& s = games[i];
  Mask mask;
  int legal[N_ACTIONS];
  while (!s.game_over && seats[i][s.actor] != EXTERNAL) {
    const int p = static_cast<int>(s.actor), kind = seats[i][p];
    legal_mask(s, mask);
    int action;
    if (kind == RANDOM) {
      int count = 0;
      for (int a = 0; a < N_ACTIONS; ++a)
        if (mask[a]) legal[count++] = a;
      action = legal[pickers[i].below(count)];
    } else {  // the seat's own view of the game, nothing more
      encode(s, p, seen[i].data());
      action = kind == POLICY ? policies[i][p]->act(seen[i].data(), mask.data())
                              : heuristics[i][p]->act(seen[i].data(), s.n, mask.data());
    }
    play(i, action, rewards);
  }
}

void Batch::write(int i, const Outputs& out) {
  const State& s = games[i];
  int size = observation_size(s.n);
  encode(s, static_cast<int>(s.actor), out.observation + static_cast<std::size_t>(i) * size);
  Mask mask;
  legal_mask(s, mask);
  std::memcpy(out.action_mask + static_cast<std::size_t>(i) * N_ACTIONS, mask.data(), N_ACTIONS);
  out.actor[i] = static_cast<std::int32_t>(s.actor);
  out.seed[i] = seeds[i];
}

void Batch::step(const std::int64_t* actions, const Outputs& out) {
  Mask mask;
  for (int i = 0; i < num_envs; ++i) {
    if (actions[i] == SKIP) continue;
    legal_mask(games[i], mask);
    if (actions[i] < 0 || actions[i] >= N_ACTIONS || !mask[actions[i]])
      throw IllegalAction("game " + std::to_string(i) + ": action " + std::to_string(actions[i]) +
                          " is not legal now");
  }
  run_rows([&](int i) { step_row(i, actions[i], out); });
}

void Batch::step_row(int i, std::int64_t action, const Outputs& out) {
  int n = cfg.n_players;
  // the final_* arrays are zero where no game ends
  std::fill(out.final_winners + static_cast<std::size_t>(i) * n, out.final_winners + (i + 1) * n, false);
  std::fill(out.final_return + static_cast<std::size_t>(i) * n, out.final_return + (i + 1) * n, 0.0);
  std::fill(out.final_vp + static_cast<std::size_t>(i) * n, out.final_vp + (i + 1) * n, 0);
  out.final_length[i] = 0;
  out.final_seed[i] = 0;
  double* rewards = out.rewards + static_cast<std::size_t>(i) * n;
  std::fill(rewards, rewards + n, 0.0);
  std::fill(out.opening_rewards + static_cast<std::size_t>(i) * n, out.opening_rewards + (i + 1) * n, 0.0);
  out.terminated[i] = false;
  if (action == SKIP) return;  // the row stays as it is
  play(i, static_cast<int>(action), rewards);
  play_native(i, rewards);
  State& s = games[i];
  if (s.game_over) {
    out.terminated[i] = true;
    bool* winners = out.final_winners + static_cast<std::size_t>(i) * n;
    std::fill(winners, winners + n, false);
    for (int w : s.winners) winners[w] = true;
    out.final_length[i] = lengths[i];
    out.final_seed[i] = seeds[i];
    for (int p = 0; p < n; ++p) {
      out.final_return[static_cast<std::size_t>(i) * n + p] = returns[i][p];
      out.final_vp[static_cast<std::size_t>(i) * n + p] = s.vp[p];
    }
    encode(s, observer[i], out.final_observation + static_cast<std::size_t>(i) * observation_size(n));
    start(i, seeds[i] + static_cast<std::uint64_t>(num_envs), out);
  } else {
    write(i, out);
  }
}

}  // namespace ktenv::kingsburg

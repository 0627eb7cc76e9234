// Paired root evaluation for Kingsburg (search.hpp).
#include "search/search.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "search/worlds.hpp"

namespace ktenv::kingsburg::search {
namespace {

constexpr double kAim = 0.9;  // of the budget: the last round's tail and the way back fit in the rest

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// play `s` to its end with `policy` for every seat
void play_out(State& s, int policy, Dice dice) {
  Rollout players(policy, s.n);
  Mask mask;
  while (!s.game_over) {
    legal_mask(s, mask);
    step(s, players.act(s, mask, dice));
  }
}

// round r: one world, every candidate played in a copy of it; the seat's values
void play_round(const State& truth, int seat, const std::vector<int>& candidates, const Options& opt,
                std::uint64_t seed, std::int64_t r, std::vector<double>& values) {
  Dice round = Dice::seeded(Dice::seeded(seed + static_cast<std::uint64_t>(r)).next64());
  State world;
  sample_world(truth, seat, round, world);
  const Dice policy_dice = Dice::seeded(round.next64());  // the same rollout draws for every candidate
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    State w = world;
    step(w, candidates[j]);
    play_out(w, opt.rollout, policy_dice);
    values[j] = final_value(w, seat, opt.margin);
  }
}

void check(const State& truth, const std::vector<int>& candidates, const Options& opt) {
  if (truth.game_over || truth.actor < 0) throw std::invalid_argument("search: the game is over");
  if (candidates.size() < 2) throw std::invalid_argument("search: paired evaluation needs at least two candidates");
  Mask mask;
  legal_mask(truth, mask);
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    const int a = candidates[j];
    if (a < 0 || a >= N_ACTIONS || !mask[a])
      throw std::invalid_argument("search: candidate " + std::to_string(a) + " is not a legal action");
    if (std::find(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(j), a) !=
        candidates.begin() + static_cast<std::ptrdiff_t>(j))
      throw std::invalid_argument("search: the candidates must be distinct");
  }
  if (opt.playouts < 0 || opt.seconds < 0 || (opt.playouts == 0 && opt.seconds == 0))
    throw std::invalid_argument("search: a budget of playouts >= 1 or seconds > 0 is needed");
  if (opt.rollout < RANDOM || opt.rollout > EXPERT) throw std::invalid_argument("search: unknown rollout policy");
  if (opt.threads < 1 || opt.threads > 256) throw std::invalid_argument("search: threads must be 1-256");
  if (!(opt.z >= 0) || !std::isfinite(opt.z) || !std::isfinite(opt.margin))
    throw std::invalid_argument("search: z must be >= 0 and margin finite");
}

}  // namespace

double final_value(const State& s, int seat, double margin) {
  double win = 0.0;
  if (std::find(s.winners.begin(), s.winners.end(), seat) != s.winners.end())
    win = 1.0 / static_cast<double>(s.winners.size());
  int best_other = 0;
  bool any = false;
  for (int q = 0; q < s.n; ++q)
    if (q != seat) best_other = any ? std::max(best_other, s.vp[q]) : s.vp[q], any = true;
  return win + margin * (s.vp[seat] - best_other);
}

Result decide_paired(const State& truth, const std::vector<int>& candidates, const Options& opt,
                     std::uint64_t seed) {
  check(truth, candidates, opt);
  const double t0 = now(), aim = opt.seconds * kAim;
  const int seat = static_cast<int>(truth.actor);
  const std::int64_t k = static_cast<std::int64_t>(candidates.size());
  const std::int64_t most = opt.playouts > 0 ? std::max<std::int64_t>(1, opt.playouts / k) : INT64_MAX;
  std::atomic<std::int64_t> next{0};
  std::mutex lock;
  std::vector<std::pair<std::int64_t, std::vector<double>>> rounds;
  auto work = [&] {
    std::vector<double> values(static_cast<std::size_t>(k));
    std::int64_t mine = 0;  // this thread's rounds, for its round time
    for (;;) {
      if (opt.seconds > 0) {  // stop before a round that would likely overrun the budget (one round at least)
        const double spent = now() - t0;
        if (mine > 0 && spent + spent / static_cast<double>(mine) > aim) break;
        if (mine == 0 && spent > aim && next.load() > 0) break;
      }
      const std::int64_t r = next.fetch_add(1);
      if (r >= most) break;
      play_round(truth, seat, candidates, opt, seed, r, values);
      ++mine;
      std::lock_guard<std::mutex> guard(lock);
      rounds.emplace_back(r, values);
    }
  };
  if (opt.threads == 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < opt.threads; ++t) pool.emplace_back(work);
    for (auto& t : pool) t.join();
  }
  std::sort(rounds.begin(), rounds.end());  // summed in round order: the same sums for any thread count
  std::vector<double> sum(static_cast<std::size_t>(k), 0.0), squares(static_cast<std::size_t>(k), 0.0);
  for (const auto& [r, v] : rounds)
    for (std::int64_t j = 1; j < k; ++j) {
      const double d = v[j] - v[0];
      sum[j] += d;
      squares[j] += d * d;
    }
  Result out;
  out.action = candidates[0];
  out.rounds = static_cast<int>(rounds.size());
  out.gains.assign(static_cast<std::size_t>(k), 0.0);
  const double n = out.rounds;
  int best = 0;
  double best_mean = 0.0;
  for (std::int64_t j = 1; j < k && n > 0; ++j) {
    out.gains[j] = sum[j] / n;
    if (n >= 2 && out.gains[j] > best_mean) best = static_cast<int>(j), best_mean = out.gains[j];
  }
  if (best > 0) {
    const double var = std::max(0.0, (squares[best] - n * best_mean * best_mean) / (n - 1));
    if (best_mean > opt.z * std::sqrt(var / n)) out.action = candidates[best], out.candidate = best;
  }
  out.seconds = now() - t0;
  return out;
}

}  // namespace ktenv::kingsburg::search

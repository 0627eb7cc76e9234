// Native ISMCTS (see ismcts.hpp); agents/kings_and_things/ismcts.py's ISMCTSAgent step by step.
#include "search/ismcts.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include "engine/machine.hpp"
#include "engine/victory.hpp"
#include "game.hpp"
#include "search/worlds.hpp"
#include "vector/pool.hpp"

namespace ktenv::search {
namespace {

// agents/kings_and_things/ismcts.py's public_value weights
constexpr double W_INCOME = 3.0, W_HEX = 1.5, W_FORT = 4.0, W_HERO = 2.0, W_GOLD = 0.1;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool over(const State& s) { return s.phase == PHASE_GAME_OVER; }

constexpr double kAim = 0.95;  // the share of a time budget the search plans to use
constexpr int kRejectEvery = 8;  // decide_paired with `reject`: whole rounds between looks at the candidates

// task(i) for i in [0, n) on the pool's threads; the first exception a task threw is thrown here, after all
// are done (a pool's task must not throw)
template <class Task>
void play_rollouts(vector::Pool& pool, int n, Task&& task) {
  std::vector<std::exception_ptr> failed(static_cast<std::size_t>(n));
  auto guarded = [&](int i) {
    try {
      task(i);
    } catch (...) {
      failed[static_cast<std::size_t>(i)] = std::current_exception();
    }
  };
  pool.run(n, guarded);
  for (auto& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace

Search::Search(const observation::Plan& obs, std::shared_ptr<const agents::ExpertPlan> expert, SearchOptions options,
               std::uint64_t seed, std::shared_ptr<const agents::PolicyNetwork> critic)
    : obs_(obs), expert_plan_(std::move(expert)), opt_(options), rng_(Dice::seeded(seed)), critic_(std::move(critic)) {
  if (opt_.playouts < 0 || opt_.seconds < 0 || opt_.cutoff < 0 || opt_.horizon < 0 || opt_.worlds < 0 ||
      opt_.widening <= 0)
    throw std::invalid_argument("ismcts: playouts, seconds, cutoff, horizon and worlds must not be negative, widening > 0");
  if (!(opt_.w_standings >= 0 && opt_.w_standings <= 1))
    throw std::invalid_argument("ismcts: the standings' weight must lie in [0, 1]");
  if (!(opt_.reject >= 0 && std::isfinite(opt_.reject)))
    throw std::invalid_argument("ismcts: reject must be finite and not negative");
  if (!opt_.w_outcome.empty() && static_cast<int>(opt_.w_outcome.size()) != kOutcome)
    throw std::invalid_argument("ismcts: the outcome model needs " + std::to_string(kOutcome) + " weights");
  for (double x : opt_.w_outcome)
    if (!std::isfinite(x)) throw std::invalid_argument("ismcts: the outcome model's weights must be finite");
  if (!(opt_.outcome_gold_cap > 0)) throw std::invalid_argument("ismcts: the outcome model's gold cap must be > 0");
  if (opt_.playouts == 0 && opt_.seconds == 0)
    throw std::invalid_argument("ismcts: give playouts or seconds (or both)");
  if (opt_.rollout < RANDOM || opt_.rollout > EXPERT || opt_.expand < RANDOM || opt_.expand > EXPERT)
    throw std::invalid_argument("ismcts: rollout and expand are 0 (random), 1 (greedy) or 2 (expert)");
  if (!expert_plan_) throw std::invalid_argument("ismcts: no expert plan given");
  if (opt_.follow && opt_.rollout != EXPERT) throw std::invalid_argument("ismcts: follow needs expert rollouts");
  if (!(opt_.z >= 0) || !std::isfinite(opt_.z)) throw std::invalid_argument("ismcts: z must be a finite number >= 0");
  plan_ = expert_plan_->base;
  if (plan_->n != obs_.n || plan_->size != obs_.size)
    throw std::invalid_argument("ismcts: the agents' plan and the observation plan are of different layouts");
  if (opt_.threads < 1) throw std::invalid_argument("ismcts: threads must be at least 1");
  if (critic_) {
    if (!critic_->has_value()) throw std::invalid_argument("ismcts: the network given as critic has no value head");
    if (critic_->observation_size != obs_.size)
      throw std::invalid_argument("ismcts: the critic takes observations of " +
                                  std::to_string(critic_->observation_size) + " entries, this game's have " +
                                  std::to_string(obs_.size));
  }
  rollers_.push_back(make_roller(true));
}

// The first roller's agents are seeded from the search's generator; the others' never are (the paired search
// reseeds every rollout's experts), so the generator's draws, and the results, do not depend on the threads.
Roller Search::make_roller(bool seeded) {
  Roller r;
  for (int p = 0; p < obs_.n; ++p) r.greedy.emplace_back(plan_, seeded ? rng_.next64() : 0);
  if (opt_.rollout == EXPERT || opt_.expand == EXPERT)
    for (int p = 0; p < obs_.n; ++p) r.expert.emplace_back(expert_plan_, seeded ? rng_.next64() : 0);
  r.obs_buf.resize(static_cast<std::size_t>(obs_.size));
  if (critic_) {
    r.critic_a.assign(static_cast<std::size_t>(critic_->widest), 0.0f);
    r.critic_b.assign(r.critic_a.size(), 0.0f);
  }
  return r;
}

bool Search::out_of_time() const { return opt_.seconds > 0 && now() > deadline_; }

void Search::collect(Roller& r, State& w, std::vector<int>& legal) const {
  const int size = w.t->layout.size;
  r.mask.resize(static_cast<std::size_t>(size));
  machine::legal_mask(w, r.mask.data());
  std::array<std::int16_t, kMaxActions> found;
  legal.assign(found.data(), found.data() + allowed(r.mask.data(), size, found.data()));
}

// The rollout policy's action for player p (greedy or expert; r.mask: w's mask). The expert reads p's facts
// from w itself (View::read(state ...)): the same facts as p's observation gives, without encoding it.
int Search::policy_act(Roller& r, State& w, int p) {
  if (opt_.rollout == EXPERT) return r.expert[p].act(w, obs_, p, r.mask.data());
  observation::encode(w, obs_, p, r.obs_buf.data());
  return r.greedy[p].act(r.obs_buf.data(), r.mask.data());
}

// A MOVE_START chosen by the tree: the actor's expert makes its plans there and follows the one of that
// stack (r.mask: w's mask), so that its MOVE_SELECT and MOVE_STACK decisions carry out the tree's choice.
void Search::follow_start(Roller& r, State& w, int action) {
  if (r.expert.empty() || w.decision != decision::MOVE_START) return;
  const int p = w.actor;
  r.scratch_legal.resize(static_cast<std::size_t>(plan_->n_actions));
  r.scratch_scores.resize(static_cast<std::size_t>(plan_->n_actions));
  r.expert[p].scores(w, obs_, p, r.mask.data(), r.scratch_legal.data(), r.scratch_scores.data());
  r.expert[p].follow(action);
}

// The legal actions in the order the expansion policy prefers them for the player to act (a tiny noise
// breaks ties). The expert's scores of a MOVE_START set that player's move plan, as its act would.
void Search::rank(State& w, Node& node, const std::vector<int>& legal) {
  const int p = w.actor;
  Roller& r = rollers_[0];
  observation::encode(w, obs_, p, r.obs_buf.data());
  std::vector<int> acts(static_cast<std::size_t>(plan_->n_actions));
  std::vector<double> scores(static_cast<std::size_t>(plan_->n_actions));
  const int n = opt_.expand == EXPERT ? r.expert[p].scores(r.obs_buf.data(), r.mask.data(), acts.data(), scores.data())
                                      : r.greedy[p].scores(r.obs_buf.data(), r.mask.data(), acts.data(), scores.data());
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) scores[i] += static_cast<double>(rng_.next64() >> 11) * 0x1.0p-53 * 1e-6;
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return scores[a] > scores[b]; });
  node.rank.clear();
  for (int r = 0; r < n; ++r) node.rank.emplace_back(acts[order[r]], r);
  std::sort(node.rank.begin(), node.rank.end());
  node.ranked = true;
  (void)legal;
}

int Search::rank_of(const Node& node, int action) const {
  auto it = std::lower_bound(node.rank.begin(), node.rank.end(), std::make_pair(action, -1));
  return it != node.rank.end() && it->first == action ? it->second : static_cast<int>(node.rank.size());
}

void Search::value(Roller& r, const State& w) const {
  const int n = w.n.Players;
  auto& out = r.value;
  out.assign(static_cast<std::size_t>(n), 0.0);
  if (over(w)) {
    for (int p : w.winners) out[p] = 1.0 / static_cast<double>(w.winners.size());
    return;
  }
  observation::StatTable st;
  observation::player_stats(w, obs_, st);
  std::array<int, kMaxPlayers> top{};  // each player's highest fort level
  int citadels = 0;
  for (int h = 0; h < w.n.Hexes; ++h) {
    const int owner = w.hex_owner[h];
    if (owner >= 0 && owner < n) top[owner] = std::max<int>(top[owner], w.hex_fort[h]);
    citadels += w.hex_fort[h] == 4;
  }
  const double citadel_income = n == 6 ? 25.0 : n == 4 ? 20.0 : 15.0;  // R14.3, R20.1 (the 2-player default)
  // the last step of the race to a Citadel (R14.3): on a Castle the income and 5 gold it needs, 2 on a Citadel
  std::array<double, kMaxPlayers> ready{};
  for (int p = 0; p < n; ++p) {
    const double income = std::min(1.0, st[p][observation::INCOME] / citadel_income);
    const double gold = std::min(1.0, st[p][observation::GOLD] / 5.0);
    ready[p] = top[p] == 4 ? 2.0 : top[p] == 3 ? income + gold : 0.0;
  }
  if (!opt_.w_outcome.empty()) {
    outcome_value(w, st, top, ready, out);
  } else {
    share_value(w, st, top, ready, out);
  }
  if (opt_.w_standings > 0 && citadels >= 2 && w.cfg->max_rounds > 0 && w.cfg->victory == option::victory_standard) {
    // only a conquest or the cap ends this game (R16.3, R16.7): the cap's winners now (R19.3) weigh in
    const auto leaders = victory::ranking_by_income(w);
    for (auto& v : out) v *= 1.0 - opt_.w_standings;
    for (int p : leaders) out[p] += opt_.w_standings / static_cast<double>(leaders.size());
  }
}

// The public score's share: each player's weighted income, land, forts, heroes and gold over the sum of all
void Search::share_value(const State& w, const observation::StatTable& st, const std::array<int, kMaxPlayers>& top,
                         const std::array<double, kMaxPlayers>& ready, std::vector<double>& out) const {
  const int n = w.n.Players;
  double total = 0.0;
  for (int p = 0; p < n; ++p) {
    const auto& row = st[p];
    double score = W_INCOME * row[observation::INCOME] + W_HEX * row[observation::HEXES] +
                   W_FORT * row[observation::FORT_LEVELS] + opt_.w_citadel * row[observation::CITADELS] +
                   opt_.w_top * top[p] + W_HERO * row[observation::HEROES] + W_GOLD * row[observation::GOLD];
    if (opt_.w_race > 0) score += opt_.w_race * (top[p] + ready[p]);  // what a Citadel needs (R14.3)
    out[p] = w.alive[p] ? score : 0.0;
    total += out[p];
  }
  for (auto& v : out) v = total > 0 ? v / total : 1.0 / n;
}

// The outcome model's win chance: the softmax over the players in the game of w_outcome . features
void Search::outcome_value(const State& w, const observation::StatTable& st, const std::array<int, kMaxPlayers>& top,
                           const std::array<double, kMaxPlayers>& ready, std::vector<double>& out) const {
  const int n = w.n.Players;
  const auto& k = opt_.w_outcome;
  double best = -std::numeric_limits<double>::infinity();
  for (int p = 0; p < n; ++p) {
    if (!w.alive[p]) continue;
    const auto& row = st[p];
    const double f[kOutcome] = {static_cast<double>(row[observation::INCOME]),
                                static_cast<double>(row[observation::HEXES]),
                                static_cast<double>(row[observation::FORT_LEVELS]),
                                static_cast<double>(row[observation::CITADELS]),
                                static_cast<double>(top[p]),
                                static_cast<double>(row[observation::HEROES]),
                                std::min(static_cast<double>(row[observation::GOLD]), opt_.outcome_gold_cap),
                                ready[p],
                                static_cast<double>(row[observation::BOARD_THINGS]),
                                static_cast<double>(row[observation::SCREEN_SIZE])};
    double score = 0.0;
    for (int i = 0; i < kOutcome; ++i) score += k[static_cast<std::size_t>(i)] * f[i];
    out[p] = score;
    best = std::max(best, score);
  }
  double total = 0.0;
  for (int p = 0; p < n; ++p) {
    out[p] = w.alive[p] ? std::exp(out[p] - best) : 0.0;
    total += out[p];
  }
  for (auto& v : out) v = total > 0 ? v / total : 1.0 / n;
}

void Search::rollout(Roller& r, State& w) {
  play_out(r, w);
  value(r, w);
}

// The seat's value of an unfinished game by the critic, from the seat's own observation of w. The critic
// estimates the seat's "win" reward (the winner +1, each loser -1/(n-1)); the win probability p that gives that
// expectation, p - (1 - p)/(n-1) = v, is ((n-1) v + 1) / n, clipped to [0, 1]: the scale of a finished game's
// value (1 for a win, 0 for a loss), so finished and cut-off rollouts compare on one scale.
double Search::critic_value(Roller& r, const State& w, int seat) const {
  observation::encode(w, obs_, seat, r.obs_buf.data());
  const double v = critic_->value(r.obs_buf.data(), r.critic_a.data(), r.critic_b.data());
  const double n = w.n.Players;
  return std::clamp(((n - 1.0) * v + 1.0) / n, 0.0, 1.0);
}

// The rollout policy's decisions from w, at most `cutoff` of them or up to the round `horizon`, whichever is later
// (fewer when the game ends or time is up).
void Search::play_out(Roller& r, State& w) {
  std::vector<int> legal;
  for (int i = 0; (i < opt_.cutoff || w.round < opt_.horizon) && !over(w) && !out_of_time(); ++i) {
    int a = -1;
    if (opt_.rollout == EXPERT) {  // the expert lists the mask's actions itself
      r.mask.resize(static_cast<std::size_t>(w.t->layout.size));
      machine::legal_mask(w, r.mask.data());
      a = policy_act(r, w, w.actor);
    } else {
      collect(r, w, legal);
      if (!legal.empty())
        a = opt_.rollout == GREEDY ? policy_act(r, w, w.actor)
                                   : legal[rng_.below(static_cast<std::int64_t>(legal.size()))];
    }
    if (a < 0) break;  // no legal action: never in a correct engine
    machine::step_legal(w, a);
  }
}

void Search::iterate(State& w) {
  std::vector<int> legal, untried;
  int node = 0;
  path_.clear();
  bool root = true;  // the root's own decision is searched whatever it is
  Roller& r = rollers_[0];
  while (!over(w)) {
    collect(r, w, legal);
    if (legal.empty()) break;
    if (opt_.follow && !root && (w.decision == decision::MOVE_SELECT || w.decision == decision::MOVE_STACK)) {
      machine::step_legal(w, policy_act(r, w, w.actor));  // the plan of the stack the tree started
      continue;
    }
    const int actor = w.actor;
    root = false;
    for (const auto& [a, child] : nodes_[node].children) child_of_[a] = child;
    untried.clear();
    for (int a : legal)
      if (child_of_[a] < 0) untried.push_back(a);
    if (!untried.empty() && opt_.expand != RANDOM) {
      if (!nodes_[node].ranked) rank(w, nodes_[node], legal);
      const Node& n = nodes_[node];
      if (n.children.size() >= opt_.widening * std::sqrt(static_cast<double>(n.visits)) + 1 &&
          untried.size() < legal.size()) {
        untried.clear();  // progressive widening: search the children there are
      } else {
        int best = untried[0];
        for (int a : untried)
          if (rank_of(n, a) < rank_of(n, best)) best = a;
        untried.assign(1, best);
      }
    }
    int next;
    if (!untried.empty()) {
      const int a = untried[rng_.below(static_cast<std::int64_t>(untried.size()))];
      next = static_cast<int>(nodes_.size());
      nodes_.emplace_back();
      nodes_.back().player = actor;
      nodes_[node].children.emplace_back(a, next);
      child_of_[a] = next;
      for (int b : legal)  // availability of the children legal in this world (the new one included)
        if (child_of_[b] >= 0) ++nodes_[child_of_[b]].avail;
      for (const auto& [b, child] : nodes_[node].children) child_of_[b] = -1;
      if (opt_.follow) follow_start(r, w, a);
      machine::step_legal(w, a);
      path_.push_back(next);
      break;
    }
    int best = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (int b : legal) {
      const int ch = child_of_[b];
      if (ch < 0) continue;
      Node& c = nodes_[ch];
      ++c.avail;
      const double score = c.total / c.visits + opt_.c * std::sqrt(std::log(static_cast<double>(c.avail)) / c.visits);
      if (score > best_score) best = b, best_score = score;
    }
    next = child_of_[best];
    for (const auto& [b, child] : nodes_[node].children) child_of_[b] = -1;
    if (opt_.follow) follow_start(r, w, best);
    machine::step_legal(w, best);
    path_.push_back(next);
    node = next;
  }
  rollout(r, w);
  ++nodes_[0].visits;
  for (int i : path_) {
    Node& n = nodes_[i];
    ++n.visits;
    n.total += r.value[n.player];
  }
}

SearchResult Search::decide(const State& truth, int seat, const std::vector<int>& legal) {
  const double t0 = now();
  // aim a little short of the budget: the last iteration's tail (its tree walk, value and backup) and
  // the way back to the caller fit in the rest
  const double aim = opt_.seconds * kAim;
  deadline_ = t0 + aim;
  nodes_.assign(1, Node{});
  child_of_.assign(static_cast<std::size_t>(truth.t->layout.size), -1);
  std::vector<State> fixed(static_cast<std::size_t>(opt_.worlds));
  for (auto& f : fixed) sample_world(truth, seat, rng_, f);
  State w;
  int i = 0;
  for (;; ++i) {
    if (opt_.playouts > 0 && i >= opt_.playouts) break;
    if (opt_.seconds > 0 && i > 0) {
      const double spent = now() - t0;  // stop before an iteration that would likely overrun the budget
      if (spent + spent / i > aim) break;
    }
    if (fixed.empty())
      sample_world(truth, seat, rng_, w);
    else
      w = fixed[static_cast<std::size_t>(i) % fixed.size()];
    iterate(w);
  }
  // the root's most visited child; ties: the expansion policy's order, else the higher total value
  const Node& root = nodes_[0];
  SearchResult out{legal.empty() ? -1 : legal[0], i, static_cast<int>(nodes_.size()), 0.0};
  int best_visits = -1;
  double best_tie = -std::numeric_limits<double>::infinity();
  for (int a : legal) {
    int child = -1;
    for (const auto& [b, c] : root.children)
      if (b == a) child = c;
    if (child < 0) continue;
    const Node& c = nodes_[child];
    const double tie = root.ranked ? -static_cast<double>(rank_of(root, a)) : c.total;
    if (c.visits > best_visits || (c.visits == best_visits && tie > best_tie)) {
      out.action = a;
      best_visits = c.visits;
      best_tie = tie;
    }
  }
  if (opt_.margin > 0 && root.ranked) {  // the policy's first choice unless another is clearly better
    int first = -1, other = -1;
    for (const auto& [b, c] : root.children)
      if (rank_of(root, b) == 0) first = c;
    for (const auto& [b, c] : root.children)
      if (c != first && nodes_[c].visits > 0 && b == out.action) other = c;
    if (first >= 0 && nodes_[first].visits > 0 && other >= 0) {
      const Node &f = nodes_[first], &o = nodes_[other];
      if (o.total / o.visits < f.total / f.visits + opt_.margin)
        for (const auto& [b, c] : root.children)
          if (c == first) out.action = b;
    }
  }
  out.seconds = now() - t0;
  return out;
}

// One candidate of a paired round: `action` (legal in `world`) in a copy of the round's world (its dice
// stream included), carried out by the seat's expert if it starts a move, then expert rollouts from the
// round's seeds (the same tie-break draws for every candidate, no move plans left from other rollouts);
// the seat's value (of an unfinished game: the critic's if one was given, else the public score), or NaN when
// the time budget cut the rollout short (the round is then dropped: its rollouts would not be alike).
double Search::paired_rollout(Roller& r, const State& world, int seat, int action,
                              const std::vector<std::uint64_t>& seeds) {
  for (std::size_t p = 0; p < r.expert.size(); ++p) r.expert[p].reset(seeds[p]);
  State w = world;
  std::vector<int> legal;
  collect(r, w, legal);
  follow_start(r, w, action);
  machine::step_legal(w, action);
  play_out(r, w);
  if (out_of_time()) return std::numeric_limits<double>::quiet_NaN();
  if (critic_ && !over(w)) return critic_value(r, w, seat);
  value(r, w);
  return r.value[seat];
}

// The standard error of the mean of n paired differences, from their sum and the sum of their squares.
static double standard_error(int n, double sum, double squares) {
  if (n < 2) return std::numeric_limits<double>::infinity();
  const double mean = sum / n;
  return std::sqrt(std::max(0.0, (squares - n * mean * mean) / (n - 1)) / n);
}

// Racing (option reject): a candidate whose mean difference from candidate 0 falls `reject` standard errors
// below 0 is clearly worse than the fallback and gets no more rollouts; the live ones get its share.
void Search::reject_losers(const std::vector<int>& count, const std::vector<double>& sum,
                           const std::vector<double>& squares, std::vector<char>& live) const {
  for (std::size_t j = 1; j < live.size(); ++j)
    if (live[j] && count[j] >= 2 && sum[j] / count[j] + opt_.reject * standard_error(count[j], sum[j], squares[j]) < 0)
      live[j] = 0;
}

SearchResult Search::decide_paired(const State& truth, int seat, const std::vector<int>& candidates) {
  const double t0 = now();
  const double aim = opt_.seconds * kAim;  // as decide: the last round's tail and the way back fit in the rest
  deadline_ = t0 + aim;
  if (opt_.rollout != EXPERT || rollers_[0].expert.empty())
    throw std::invalid_argument("ismcts: paired evaluation needs expert rollouts");
  const int k = static_cast<int>(candidates.size());
  if (k < 2) throw std::invalid_argument("ismcts: paired evaluation needs at least two candidates");
  const int size = truth.t->layout.size;
  for (int a : candidates)
    if (a < 0 || a >= size) throw std::invalid_argument("ismcts: a paired candidate is out of range");
  // `threads` rounds at once: their worlds and seeds drawn in round order before they are played, each of their
  // rollouts a task on a roller of its own (rollouts differ in length: small tasks keep every thread busy), and
  // their differences summed in round order after, as one thread would
  const int batch = opt_.threads;
  std::unique_ptr<vector::Pool> pool;
  if (batch > 1) {
    pool = std::make_unique<vector::Pool>(opt_.threads);
    while (static_cast<int>(rollers_.size()) < batch * k) rollers_.push_back(make_roller(false));
  }
  std::vector<State> worlds(static_cast<std::size_t>(batch));
  std::vector<std::vector<std::uint64_t>> seeds(worlds.size(), std::vector<std::uint64_t>(rollers_[0].expert.size()));
  std::vector<std::vector<double>> v(worlds.size(), std::vector<double>(static_cast<std::size_t>(k)));
  // per candidate: its whole rounds, the sum of its differences and of their squares, and whether it is still
  // played (`reject`: not once its mean difference falls that many standard errors below 0)
  std::vector<int> count(static_cast<std::size_t>(k), 0);
  std::vector<double> sum(static_cast<std::size_t>(k), 0.0), squares(static_cast<std::size_t>(k), 0.0);
  std::vector<char> live(static_cast<std::size_t>(k), 1);
  std::vector<int> playing, legal;  // the candidates of a batch, candidate 0 first
  // spent: the rollouts of the whole rounds so far, each round counting the candidates live in it (in round order,
  // so a playouts budget gives the same rounds on any number of threads)
  int rounds = 0, rollouts = 0, batches = 0, spent = 0;
  for (bool whole = true; whole;) {
    playing.clear();
    for (int j = 0; j < k; ++j)
      if (live[j]) playing.push_back(j);
    const int m = static_cast<int>(playing.size());
    if (m < 2) break;  // every other candidate rejected: candidate 0 it is
    int n = batch;     // rounds in this batch
    if (opt_.playouts > 0) n = std::min(n, (opt_.playouts - spent) / m);  // a rollout per live candidate a round
    if (n <= 0) break;
    if (opt_.seconds > 0 && batches > 0) {
      const double spent_s = now() - t0;  // stop before a batch that would likely overrun the budget
      if (spent_s + spent_s / batches > aim) break;
    }
    if (out_of_time()) break;
    for (int i = 0; i < n; ++i) {
      sample_world(truth, seat, rng_, worlds[i]);
      for (auto& s : seeds[i]) s = rng_.next64();
      // a seat's mask is the same in every world it cannot tell apart (it names no hidden counter)
      collect(rollers_[0], worlds[i], legal);
      for (int a : candidates)
        if (!rollers_[0].mask[a])
          throw std::logic_error("ismcts: candidate " + std::to_string(a) +
                                 " is illegal in a sampled world: the seat's mask depends on hidden facts");
    }
    auto rollout = [&](int t, Roller& r) {  // the batch's round t / m, its live candidate t % m
      const int j = playing[t % m];
      v[t / m][j] = paired_rollout(r, worlds[t / m], seat, candidates[j], seeds[t / m]);
    };
    if (pool)
      play_rollouts(*pool, n * m, [&](int t) { rollout(t, rollers_[t]); });
    else
      for (int t = 0; t < m; ++t) rollout(t, rollers_[0]);  // one round (n = 1)
    rollouts += n * m;
    ++batches;
    for (int i = 0; i < n && whole; ++i) {
      // a candidate rejected after an earlier round of this batch no longer counts (its rollout is wasted)
      for (int j : playing)
        if (live[j] && std::isnan(v[i][j])) whole = false;
      if (!whole) break;
      ++rounds;
      spent += 1;
      for (int j = 1; j < k; ++j) {
        if (!live[j]) continue;
        const double d = v[i][j] - v[i][0];
        sum[j] += d;
        squares[j] += d * d;
        ++count[j];
        ++spent;
      }
      if (opt_.reject > 0 && rounds % kRejectEvery == 0) reject_losers(count, sum, squares, live);
    }
  }
  // the candidate of the largest positive mean difference (over at least two rounds), if it stands z
  // standard errors above 0
  SearchResult out{candidates[0], rollouts, 0, 0.0, 0, rounds, std::vector<double>(static_cast<std::size_t>(k), 0.0)};
  int best = 0;
  double best_mean = 0.0;
  for (int j = 1; j < k; ++j) {
    if (count[j] == 0) continue;
    out.gains[j] = sum[j] / count[j];
    if (count[j] >= 2 && out.gains[j] > best_mean) best = j, best_mean = out.gains[j];
  }
  if (best > 0 && best_mean > opt_.z * standard_error(count[best], sum[best], squares[best]))
    out.action = candidates[best], out.candidate = best;
  out.seconds = now() - t0;
  return out;
}

}  // namespace ktenv::search

// Bindings of the search (src/search/): the world sampler handle and the native ISMCTS. The Python side
// is ktenv/kings_and_things/worlds.py (NativeWorldSampler) and agents/kings_and_things/ismcts.py.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/policy.hpp"
#include "agents/view.hpp"
#include "engine/machine.hpp"
#include "engine/observation.hpp"
#include "game.hpp"
#include "search/ismcts.hpp"
#include "search/worlds.hpp"
#include "state.hpp"

namespace nb = nanobind;
using ktenv::State;

namespace {

// Worlds a seat cannot tell apart. The true state is a private copy: Python reaches it only through
// sample() and the native search, never as an attribute, and the handle cannot be pickled.
class WorldSampler {
 public:
  WorldSampler(const State& truth, int seat) : truth_(truth), seat_(seat) {
    if (seat < 0 || seat >= truth.n.Players)
      throw std::invalid_argument("WorldSampler: seat " + std::to_string(seat) + " is not a player of this game");
  }
  int seat() const { return seat_; }
  const State& truth() const { return truth_; }

 private:
  State truth_;
  int seat_;
};

std::uint64_t parse_state(const std::string& text) {
  std::size_t used = 0;
  std::uint64_t v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw std::invalid_argument("a generator state is a decimal number below 2**64, not '" + text + "'");
  return v;
}

}  // namespace

void bind_search(nb::module_& m) {
  nb::class_<WorldSampler>(m, "WorldSampler",
                           "Worlds a seat cannot tell from the true game (ktenv.kings_and_things.worlds.sample_world in native code); "
                           "the true state stays inside.")
      .def(nb::init<const State&, int>(), nb::arg("state"), nb::arg("seat"), "copies `state`")
      .def_prop_ro("seat", &WorldSampler::seat)
      .def("sample", [](const WorldSampler& w, const std::string& dice_state) {
        ktenv::Dice dice;
        dice.state = parse_state(dice_state);
        State world;
        ktenv::search::sample_world(w.truth(), w.seat(), dice, world);
        return nb::make_tuple(std::move(world), std::to_string(dice.state));
      }, nb::arg("dice_state"),
         "(a world, the generator's state after the draws): drawn with ktenv.rng.Dice(state=int(dice_state))")
      .def("__reduce__", [](const WorldSampler&) -> nb::object {
        throw nb::type_error("a WorldSampler holds the true game: it cannot be pickled");
      })
      .def("__repr__", [](const WorldSampler& w) { return "WorldSampler(seat=" + std::to_string(w.seat()) + ")"; });

  m.def("unknown_slots", [](const State& s, int player) {
    // ktenv.kings_and_things.worlds.unknown_slots in native code, for the tests
    std::vector<int> board, loose;
    ktenv::search::unknown_slots(s, player, board, loose);
    return nb::make_tuple(board, loose);
  }, nb::arg("state"), nb::arg("player"));

  m.def("ismcts_search", [](const WorldSampler& worlds, const ktenv::observation::Plan& obs,
                            std::shared_ptr<const ktenv::agents::ExpertPlan> expert, const std::vector<int>& legal,
                            int playouts, double seconds, double c, int rollout, int cutoff, int n_worlds,
                            int expand, double widening, double w_citadel, double w_top, double w_race,
                            bool follow, double margin, std::uint64_t seed, double w_standings,
                            const std::vector<double>& w_outcome, double outcome_gold_cap, int horizon) {
    // agents/kings_and_things/ismcts.py's search in native code (search/ismcts.hpp), without the GIL:
    // (action, iterations, tree nodes, seconds)
    if (legal.size() < 2) throw std::invalid_argument("ismcts_search: needs at least two legal actions");
    const int size = worlds.truth().t->layout.size;
    for (int a : legal)
      if (a < 0 || a >= size) throw std::invalid_argument("ismcts_search: action " + std::to_string(a) + " out of range");
    ktenv::search::SearchOptions opt{playouts, seconds,  c,         rollout, cutoff, n_worlds,
                                     expand,   widening, w_citadel, w_top,   follow, margin, w_race};
    opt.w_standings = w_standings, opt.w_outcome = w_outcome, opt.outcome_gold_cap = outcome_gold_cap;
    opt.horizon = horizon;
    ktenv::search::SearchResult r;
    {
      ktenv::search::Search search(obs, std::move(expert), opt, seed);
      nb::gil_scoped_release unlocked;
      r = search.decide(worlds.truth(), worlds.seat(), legal);
    }
    return nb::make_tuple(r.action, r.iterations, r.nodes, r.seconds);
  }, nb::arg("worlds"), nb::arg("obs_plan"), nb::arg("expert_plan"), nb::arg("legal"), nb::arg("playouts"),
     nb::arg("seconds"), nb::arg("c"), nb::arg("rollout"), nb::arg("cutoff"), nb::arg("worlds_per_decision"),
     nb::arg("expand"), nb::arg("widening"), nb::arg("w_citadel"), nb::arg("w_top"), nb::arg("w_race"),
     nb::arg("follow"), nb::arg("margin"), nb::arg("seed"), nb::arg("w_standings") = 0.0,
     nb::arg("w_outcome") = std::vector<double>{}, nb::arg("outcome_gold_cap") = 25.0, nb::arg("horizon") = 0,
     "rollout, expand: 0 random, 1 greedy, 2 expert; w_outcome: the outcome model's weights (empty: the public "
     "score values an unfinished rollout)");

  m.def("ismcts_values", [](const ktenv::State& s, const ktenv::observation::Plan& obs,
                            std::shared_ptr<const ktenv::agents::ExpertPlan> expert, double w_citadel, double w_top,
                            double w_race, double w_standings, const std::vector<double>& w_outcome,
                            double outcome_gold_cap) {
    // Search::values: each player's value of a state as the search values a rollout's end, for the tests
    ktenv::search::SearchOptions opt;
    opt.w_citadel = w_citadel, opt.w_top = w_top, opt.w_race = w_race, opt.w_standings = w_standings;
    opt.w_outcome = w_outcome, opt.outcome_gold_cap = outcome_gold_cap;
    return ktenv::search::Search(obs, std::move(expert), opt, 0).values(s);
  }, nb::arg("state"), nb::arg("obs_plan"), nb::arg("expert_plan"), nb::arg("w_citadel") = 20.0, nb::arg("w_top") = 0.0,
     nb::arg("w_race") = 0.0, nb::arg("w_standings") = 0.0, nb::arg("w_outcome") = std::vector<double>{},
     nb::arg("outcome_gold_cap") = 25.0);

  m.def("ismcts_paired", [](const WorldSampler& worlds, const ktenv::observation::Plan& obs,
                            std::shared_ptr<const ktenv::agents::ExpertPlan> expert,
                            const std::vector<int>& candidates, int playouts, double seconds, int cutoff,
                            double w_citadel, double w_top, double w_race, double z, std::uint64_t seed,
                            std::shared_ptr<const ktenv::agents::PolicyNetwork> critic, int threads,
                            double w_standings, const std::vector<double>& w_outcome, double outcome_gold_cap,
                            int horizon, double reject) {
    // paired root evaluation with expert rollouts (Search::decide_paired), without the GIL:
    // (action, the index of the candidate played, rounds, rollouts, seconds, mean paired difference per candidate);
    // critic: a network with its value head that values the unfinished rollouts (None: the public score)
    const int size = worlds.truth().t->layout.size;
    if (candidates.size() < 2) throw std::invalid_argument("ismcts_paired: needs at least two candidates");
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const int a = candidates[i];
      if (a < 0 || a >= size) throw std::invalid_argument("ismcts_paired: action " + std::to_string(a) + " out of range");
      for (std::size_t j = 0; j < i; ++j)
        if (candidates[j] == a) throw std::invalid_argument("ismcts_paired: candidate " + std::to_string(a) + " twice");
    }
    ktenv::search::SearchOptions opt;
    opt.playouts = playouts, opt.seconds = seconds, opt.cutoff = cutoff, opt.rollout = ktenv::search::EXPERT;
    opt.w_citadel = w_citadel, opt.w_top = w_top, opt.w_race = w_race, opt.z = z, opt.follow = true;
    opt.threads = threads, opt.w_standings = w_standings;
    opt.w_outcome = w_outcome, opt.outcome_gold_cap = outcome_gold_cap, opt.horizon = horizon, opt.reject = reject;
    ktenv::search::SearchResult r;
    {
      ktenv::search::Search search(obs, std::move(expert), opt, seed, std::move(critic));
      nb::gil_scoped_release unlocked;
      r = search.decide_paired(worlds.truth(), worlds.seat(), candidates);
    }
    return nb::make_tuple(r.action, r.candidate, r.rounds, r.iterations, r.seconds, r.gains);
  }, nb::arg("worlds"), nb::arg("obs_plan"), nb::arg("expert_plan"), nb::arg("candidates"), nb::arg("playouts"),
     nb::arg("seconds"), nb::arg("cutoff"), nb::arg("w_citadel"), nb::arg("w_top"), nb::arg("w_race"),
     nb::arg("z"), nb::arg("seed"), nb::arg("critic").none() = nb::none(), nb::arg("threads") = 1,
     nb::arg("w_standings") = 0.0, nb::arg("w_outcome") = std::vector<double>{}, nb::arg("outcome_gold_cap") = 25.0,
     nb::arg("horizon") = 0, nb::arg("reject") = 0.0,
     "candidates: distinct actions legal for the sampler's seat, the first the default; threads: rounds played at "
     "once (the result does not depend on it)");
}

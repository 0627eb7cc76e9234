// Bindings of the batched games (src/vector/): the core of ktenv.kings_and_things.vector.VectorEnv.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "engine/observation.hpp"
#include "game.hpp"
#include "vector/vector.hpp"

namespace nb = nanobind;
namespace vec = ktenv::vector;

namespace {

// A numpy view of one of the batch's rows (shape [N] or [N, width]) that keeps the batch alive.
template <class T>
nb::object view(nb::handle owner, std::vector<T>& data, std::size_t rows, std::size_t width) {
  if (width == 0) {
    std::size_t shape[1] = {rows};
    return nb::cast(nb::ndarray<nb::numpy, T>(data.data(), 1, shape, owner));
  }
  std::size_t shape[2] = {rows, width};
  return nb::cast(nb::ndarray<nb::numpy, T>(data.data(), 2, shape, owner));
}

// The same with a third axis ([N, width, depth]).
template <class T>
nb::object view3(nb::handle owner, std::vector<T>& data, std::size_t rows, std::size_t width, std::size_t depth) {
  std::size_t shape[3] = {rows, width, depth};
  return nb::cast(nb::ndarray<nb::numpy, T>(data.data(), 3, shape, owner));
}

}  // namespace

void bind_vector(nb::module_& m) {
  std::vector<std::string> reasons(vec::kReasons.begin(), vec::kReasons.end());
  m.attr("VECTOR_REASONS") = reasons;
  nb::class_<vec::Batch>(m, "VectorBatch",
                         "N native games stepped in one call over a thread pool (ktenv.kings_and_things.vector.VectorEnv's core).")
      .def("__init__", [](vec::Batch* self, std::shared_ptr<const ktenv::Rules> rules,
                          const ktenv::observation::Plan& plan, int num_envs, std::uint64_t seed, int num_threads,
                          int reward, std::int64_t max_steps, std::vector<std::int8_t> seats,
                          std::shared_ptr<const ktenv::agents::GreedyPlan> greedy,
                          std::shared_ptr<const ktenv::agents::ExpertPlan> expert, vec::Networks networks) {
        if (reward != static_cast<int>(vec::Reward::WIN) && reward != static_cast<int>(vec::Reward::SHAPED))
          throw std::invalid_argument("reward: unknown reward code " + std::to_string(reward));
        new (self) vec::Batch(std::move(rules), plan,
                              vec::Options{num_envs, seed, num_threads, static_cast<vec::Reward>(reward), max_steps,
                                           std::move(seats), std::move(greedy), std::move(expert),
                                           std::move(networks)});
      }, nb::arg("rules"), nb::arg("plan"), nb::arg("num_envs"), nb::arg("seed"), nb::arg("num_threads"),
         nb::arg("reward"), nb::arg("max_steps"), nb::arg("seats"), nb::arg("greedy").none() = nb::none(),
         nb::arg("expert").none() = nb::none(), nb::arg("networks") = vec::Networks{},
         "seats: num_envs * num_players seat codes (0 external, 1 random, 2 greedy, 3 expert, 4 policy); greedy, "
         "expert: the GreedyPlan and ExpertPlan of the config, needed by greedy and expert seats; networks: the "
         "PolicyNetwork of each policy seat, in the order of the codes")
      .def_prop_ro("num_envs", &vec::Batch::num_envs)
      .def_prop_ro("num_players", &vec::Batch::num_players)
      .def_prop_ro("observation_size", &vec::Batch::observation_size)
      .def_prop_ro("n_actions", &vec::Batch::n_actions)
      .def_prop_ro("num_threads", &vec::Batch::num_threads)
      .def("buffers", [](nb::handle self) {
        auto& b = nb::cast<vec::Batch&>(self);
        auto& r = b.rows();
        auto N = static_cast<std::size_t>(b.num_envs()), P = static_cast<std::size_t>(b.num_players());
        nb::dict d;
        d["observation"] = view(self, r.observation, N, static_cast<std::size_t>(b.observation_size()));
        d["action_mask"] = view(self, r.mask, N, static_cast<std::size_t>(b.n_actions()));
        d["actor"] = view(self, r.actor, N, 0);
        d["rewards"] = view(self, r.rewards, N, P);
        d["opening_rewards"] = view(self, r.opening_rewards, N, P);
        d["terminated"] = view(self, r.terminated, N, 0);
        d["truncated"] = view(self, r.truncated, N, 0);
        d["seed"] = view(self, r.seed, N, 0);
        d["final_winners"] = view(self, r.final_winners, N, P);
        d["final_reason"] = view(self, r.final_reason, N, 0);
        d["final_rounds"] = view(self, r.final_rounds, N, 0);
        d["final_seed"] = view(self, r.final_seed, N, 0);
        d["final_length"] = view(self, r.final_length, N, 0);
        d["final_return"] = view(self, r.final_return, N, P);
        d["final_stats"] = view3(self, r.final_stats, N, P, ktenv::observation::N_STATS);
        d["final_observation"] = view(self, r.final_observation, N, static_cast<std::size_t>(b.observation_size()));
        return d;
      }, "numpy views of the rows every call writes (the same memory each call)")
      .def("reset", [](vec::Batch& b, std::optional<std::uint64_t> seed) {
        nb::gil_scoped_release unlocked;
        b.reset(seed);
      }, nb::arg("seed").none(), "every game anew (a seed restarts the seed streams)")
      .def("first_illegal", [](vec::Batch& b, nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig> actions) {
        if (static_cast<int>(actions.shape(0)) != b.num_envs())
          throw std::invalid_argument("actions: expected one per game");
        return b.first_illegal(actions.data());
      }, nb::arg("actions"), "the first game whose action is not legal now, -1 if none")
      .def("step", [](vec::Batch& b, nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig> actions) {
        // -1: stepped; else the first game whose action is illegal (nothing changed)
        if (static_cast<int>(actions.shape(0)) != b.num_envs())
          throw std::invalid_argument("actions: expected one per game");
        int bad = b.first_illegal(actions.data());
        if (bad >= 0) return bad;
        nb::gil_scoped_release unlocked;
        b.step_checked(actions.data());
        return -1;
      }, nb::arg("actions"),
         "one decision per game (-1: leave that game as it is), then the native seats; returns -1, or the first "
         "game whose action is illegal (then nothing changed)")
      .def("set_next_seats", [](vec::Batch& b, int i, std::vector<std::int8_t> seats, int observer,
                                const vec::Networks& networks) {
        if (static_cast<int>(seats.size()) != b.num_players())
          throw std::invalid_argument("seats: expected " + std::to_string(b.num_players()) + " seat codes, got " +
                                      std::to_string(seats.size()));
        b.set_next_seats(i, seats.data(), observer, networks);
      }, nb::arg("index"), nb::arg("seats"), nb::arg("observer"), nb::arg("networks") = vec::Networks{},
         "game `index`'s seat codes from its next episode on, the seat whose view of its final state is "
         "final_observation (-1: none), and the PolicyNetwork of each policy seat in seat order")
      .def("network", [](const vec::Batch& b, int i, int p) {
        if (i < 0 || i >= b.num_envs()) throw nb::index_error("network: no such game in the batch");
        return b.network(i, p);
      }, nb::arg("index"), nb::arg("seat"), "the PolicyNetwork of a policy seat in the episode under way, else None")
      .def("set_greedy_plan", &vec::Batch::set_greedy_plan, nb::arg("plan"),
           "the greedy agent's plan, for greedy seats set later")
      .def("set_expert_plan", &vec::Batch::set_expert_plan, nb::arg("plan"),
           "the expert agent's plan, for expert seats set later")
      .def("seats", [](const vec::Batch& b, int i) {
        if (i < 0 || i >= b.num_envs()) throw nb::index_error("seats: no such game in the batch");
        const std::int8_t* row = b.seats(i);
        return std::vector<std::int8_t>(row, row + b.num_players());
      }, nb::arg("index"), "game `index`'s seat codes in the episode under way")
      .def("observer", [](const vec::Batch& b, int i) {
        if (i < 0 || i >= b.num_envs()) throw nb::index_error("observer: no such game in the batch");
        return b.observer(i);
      }, nb::arg("index"), "the seat whose view of the episode's final state is final_observation (-1: none)")
      .def("game", [](const vec::Batch& b, int i) {
        if (i < 0 || i >= b.num_envs()) throw nb::index_error("game: no such game in the batch");
        return ktenv::State(b.game(i));
      }, nb::arg("index"), "a copy of game `index`'s state");
}

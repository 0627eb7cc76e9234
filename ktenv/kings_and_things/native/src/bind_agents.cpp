// Bindings of the native agents (src/agents/); the Python side is ktenv/kings_and_things/native/agents.py, which builds
// the plans from agents/kings_and_things/view.py's layouts.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/expert.hpp"
#include "agents/greedy.hpp"
#include "agents/pcg64.hpp"
#include "agents/policy.hpp"
#include "agents/view.hpp"
#include "engine/observation.hpp"
#include "state.hpp"

namespace nb = nanobind;
using ktenv::agents::Expert;
using ktenv::agents::ExpertPlan;
using ktenv::agents::Greedy;
using ktenv::agents::GreedyPlan;
using ktenv::agents::PolicyNetwork;

namespace {

using Words = nb::ndarray<const std::uint32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Obs = nb::ndarray<const float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Mask = nb::ndarray<const std::int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using ObsRows = nb::ndarray<const float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using MaskRows = nb::ndarray<const std::int8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Actions = nb::ndarray<std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Matrix = nb::ndarray<const float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Floats = nb::ndarray<const float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Ints = nb::ndarray<const std::int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using IntRows = nb::ndarray<const std::int32_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Layer = std::tuple<Matrix, Floats, int>;  // weight [in, out], bias [out], activation code
using RowArg = std::tuple<int, int, int, Layer, Layer>;  // a row block: action, start, rows, embed, context
// step rows: action, row block, anchor [A], rows [A * actions * steps], actions, a context layer per step
using StepArg = std::tuple<int, int, Ints, Ints, int, std::vector<Layer>>;

void check_one(const GreedyPlan& P, const Obs& obs, const Mask& mask) {
  if (static_cast<int>(obs.shape(0)) != P.size)
    throw std::invalid_argument("greedy: observation of length " + std::to_string(obs.shape(0)) + ", the plan's is " +
                                std::to_string(P.size));
  if (static_cast<int>(mask.shape(0)) != P.n_actions)
    throw std::invalid_argument("greedy: action mask of length " + std::to_string(mask.shape(0)) + ", the plan's is " +
                                std::to_string(P.n_actions));
}

const Words& checked_seed(const Words& seed, const char* who) {
  if (seed.shape(0) == 0) throw std::invalid_argument(std::string(who) + ": the seed needs at least one 32-bit word");
  return seed;
}

Greedy make_greedy(std::shared_ptr<const GreedyPlan> plan, const Words& seed) {
  checked_seed(seed, "greedy");
  return Greedy(std::move(plan), seed.data(), seed.shape(0));
}

Expert make_expert(std::shared_ptr<const ExpertPlan> plan, const Words& seed) {
  checked_seed(seed, "expert");
  return Expert(std::move(plan), seed.data(), seed.shape(0));
}

// The calls Greedy and Expert share (`who` names the agent in errors); `plan` is the agent's layout.
template <class Agent>
int act_one(Agent& agent, const GreedyPlan& plan, const Obs& obs, const Mask& mask, const char* who) {
  check_one(plan, obs, mask);
  const int a = agent.act(obs.data(), mask.data());
  if (a < 0) throw std::invalid_argument(std::string(who) + " agent: the action mask allows no action");
  return a;
}

template <class Agent>
nb::tuple scores_of(Agent& agent, const GreedyPlan& plan, const Obs& obs, const Mask& mask) {
  check_one(plan, obs, mask);
  std::vector<int> legal(plan.n_actions);
  std::vector<double> out(plan.n_actions);
  const int n = agent.scores(obs.data(), mask.data(), legal.data(), out.data());
  legal.resize(n);
  out.resize(n);
  return nb::make_tuple(legal, out);
}

// CPU seconds of this thread per decision over these rows, measured inside native code (thread time: a
// busy machine's other work does not count); the agent's generator advances.
template <class Agent>
double time_act(Agent& agent, const GreedyPlan& P, const ObsRows& obs, const MaskRows& mask, int repeat) {
  if (static_cast<int>(obs.shape(1)) != P.size || static_cast<int>(mask.shape(1)) != P.n_actions ||
      obs.shape(0) != mask.shape(0) || obs.shape(0) == 0 || repeat < 1)
    throw std::invalid_argument("time_act: rows of float32[size] observations and int8[n_actions] masks, "
                                "repeat >= 1");
  const std::size_t rows = obs.shape(0);
  nb::gil_scoped_release unlocked;
  timespec start{}, stop{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  long sum = 0;
  for (int r = 0; r < repeat; ++r)
    for (std::size_t i = 0; i < rows; ++i) sum += agent.act(obs.data() + i * P.size, mask.data() + i * P.n_actions);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &stop);
  asm volatile("" : : "g"(sum) : "memory");
  const double took =
      static_cast<double>(stop.tv_sec - start.tv_sec) + 1e-9 * static_cast<double>(stop.tv_nsec - start.tv_nsec);
  return took / static_cast<double>(rows * static_cast<std::size_t>(repeat));
}

std::vector<float> copy_of(const Floats& a) { return std::vector<float>(a.data(), a.data() + a.shape(0)); }

ktenv::agents::Dense dense_of(const Layer& layer) {
  const auto& [weight, bias, activation] = layer;
  ktenv::agents::Dense d;
  d.in = static_cast<int>(weight.shape(0));
  d.out = static_cast<int>(weight.shape(1));
  d.weight.assign(weight.data(), weight.data() + weight.size());
  d.bias = copy_of(bias);
  d.activation = static_cast<ktenv::agents::Activation>(activation);
  return d;
}

// The network from training.policy.PlayingNetwork's arrays (copied: the batch's threads read them without
// Python); `value`: the critic's layers after the shared first layer, its value head last (empty: no critic).
std::shared_ptr<const PolicyNetwork> make_network(const Matrix& first, const Floats& first_bias,
                                                  const std::vector<Layer>& hidden, const Matrix& head,
                                                  const Floats& head_bias, bool sample, std::string name,
                                                  const std::vector<Layer>& value, const std::optional<Ints>& focus_anchor,
                                                  const std::optional<IntRows>& focus_gather, int steer_gate,
                                                  const std::optional<Ints>& steer_anchor,
                                                  const std::optional<Ints>& steer_sources,
                                                  const std::optional<Ints>& steer_targets,
                                                  const std::optional<Floats>& steer_weights, int steer_extra,
                                                  const std::vector<RowArg>& rows,
                                                  const std::vector<StepArg>& steps) {
  PolicyNetwork net;
  for (const auto& [action, start, count, embed, context] : rows)
    net.row_blocks.push_back({action, start, count, dense_of(embed), dense_of(context)});
  for (const auto& [action, block, anchor, ahead, actions, contexts] : steps) {
    PolicyNetwork::StepRows s;
    s.action = action, s.block = block, s.actions = actions, s.steps = static_cast<int>(contexts.size());
    s.anchor.assign(anchor.data(), anchor.data() + anchor.shape(0));
    s.rows.assign(ahead.data(), ahead.data() + ahead.shape(0));
    for (const Layer& layer : contexts) s.contexts.push_back(dense_of(layer));
    net.step_rows.push_back(std::move(s));
  }
  if (steer_gate >= 0) {
    if (!steer_anchor || !steer_sources || !steer_targets || !steer_weights)
      throw std::invalid_argument("PolicyNetwork.make: a steer needs its anchor, sources, targets and weights");
    net.steer_gate = steer_gate;
    net.steer_anchor.assign(steer_anchor->data(), steer_anchor->data() + steer_anchor->shape(0));
    net.steer_sources.assign(steer_sources->data(), steer_sources->data() + steer_sources->shape(0));
    net.steer_targets.assign(steer_targets->data(), steer_targets->data() + steer_targets->shape(0));
    net.steer_weights = copy_of(*steer_weights);
  }
  net.steer_extra = steer_extra;
  if (focus_anchor.has_value() != focus_gather.has_value())
    throw std::invalid_argument("PolicyNetwork.make: give focus_anchor and focus_gather together");
  if (focus_anchor) {
    if (focus_gather->shape(0) != focus_anchor->shape(0))
      throw std::invalid_argument("PolicyNetwork.make: focus_gather needs a row per focus_anchor entry");
    net.focus_width = static_cast<int>(focus_gather->shape(1));
    net.focus_anchor.assign(focus_anchor->data(), focus_anchor->data() + focus_anchor->shape(0));
    net.focus_gather.assign(focus_gather->data(), focus_gather->data() + focus_gather->size());
  }
  net.observation_size = static_cast<int>(first.shape(0)) - net.focus_width;
  net.features = static_cast<int>(first.shape(1));
  net.first.assign(first.data(), first.data() + first.size());
  net.first_bias = copy_of(first_bias);
  for (const Layer& layer : hidden) net.hidden.push_back(dense_of(layer));
  net.head = dense_of(Layer{head, head_bias, 0});
  for (const Layer& layer : value) net.value_hidden.push_back(dense_of(layer));
  if (!net.value_hidden.empty()) {  // the last of the critic's layers is its value head
    net.value_head = std::move(net.value_hidden.back());
    net.value_hidden.pop_back();
  }
  net.sample = sample;
  net.name = std::move(name);
  return ktenv::agents::make_policy_network(std::move(net));
}

// Where a View of the state and a View of the seat's observation disagree, fact by fact (for the tests):
// every column by its offset, every named fact of every hex, Thing, hero face and register.
std::vector<std::string> view_differences(const GreedyPlan& P, const ktenv::observation::Plan& O,
                                          const ktenv::State& s, int seat, const Obs& obs) {
  using ktenv::agents::View;
  if (static_cast<int>(obs.shape(0)) != P.size) throw std::invalid_argument("view_differences: wrong observation size");
  View a(P), b(P);
  a.read(obs.data());
  b.read(s, O, seat);
  std::vector<std::string> out;
  auto same = [&](const std::string& what, double x, double y) {
    if (!(x == y || (x != x && y != y)) || std::signbit(x) != std::signbit(y))
      out.push_back(what + ": observation " + std::to_string(x) + ", state " + std::to_string(y));
  };
  auto at = [](const std::string& name, int i) { return name + "(" + std::to_string(i) + ")"; };
// a fact of both views: View::call, named `name` at index i
#define KTENV_SAME(name, i, call) same(at(name, i), static_cast<double>(a.call), static_cast<double>(b.call))
  KTENV_SAME("decision", 0, decision());
  for (int p = 0; p < P.n; ++p) KTENV_SAME("gold", p, gold(p)), KTENV_SAME("income", p, income(p));
  for (int x = 0; x < P.h; ++x) {
    KTENV_SAME("terrain", x, terrain(x)), KTENV_SAME("owner", x, owner(x)), KTENV_SAME("fort", x, fort(x));
    KTENV_SAME("income_value", x, income_value(x)), KTENV_SAME("income_combat", x, income_combat(x));
    KTENV_SAME("has_income", x, has_income(x)), KTENV_SAME("unexplored", x, unexplored(x));
    KTENV_SAME("hex_room", x, hex_room(x)), KTENV_SAME("own_counters", x, own_counters(x));
    KTENV_SAME("own_army", x, own_army(x)), KTENV_SAME("enemy_counters", x, enemy_counters(x));
    KTENV_SAME("own_strength", x, own_strength()[x]), KTENV_SAME("defence", x, defence()[x]);
    for (int side = 0; side < P.sides; ++side) {
      for (int column : {P.h_things, P.h_hidden, P.h_known_combat, P.h_heroes, P.h_hero_combat})
        KTENV_SAME("hexes_column" + at("", column) + at("", side), x, hexes_column(column, side, x));
      if (side > 0) KTENV_SAME("side_strength" + at("", side), x, side_strength(side, x));
    }
  }
  for (int t = 0; t < P.nt; ++t) {
    KTENV_SAME("on_board", t, on_board(t)), KTENV_SAME("thing_owner", t, thing_owner(t));
    KTENV_SAME("thing_hex", t, thing_hex(t)), KTENV_SAME("thing_supported", t, thing_supported(t));
    KTENV_SAME("thing_status", t, thing_status(t)), KTENV_SAME("bearer", t, bearer(t));
    KTENV_SAME("thing_value", t, thing_value(t)), KTENV_SAME("event_without_effect", t, event_without_effect(t));
  }
  for (int f = 0; f < P.nf; ++f) {
    KTENV_SAME("hero_owner", f, hero_owner(f)), KTENV_SAME("hero_hex", f, hero_hex(f));
    KTENV_SAME("hero_status", f, hero_status(f)), KTENV_SAME("hero_in_pool", f, hero_in_pool(f));
  }
  for (int k = 0; k < 8; ++k) {
    KTENV_SAME("own_terrain", k, own_terrain(k));
    KTENV_SAME("own_terrain_without_income", k, own_terrain_without_income(k));
  }
  for (const auto& r : O.registers) {
    const int o = r.offset;
    if (r.kind == ktenv::observation::R_HEX) KTENV_SAME("reg_hex", o, reg_hex(o));
    if (r.kind == ktenv::observation::R_THING) KTENV_SAME("reg_thing", o, reg_thing(o));
    if (r.kind == ktenv::observation::R_HERO) KTENV_SAME("reg_hero", o, reg_hero(o));
    if (r.kind >= ktenv::observation::R_SIDE) KTENV_SAME("reg_side", o, reg_side(o));
  }
  for (int o = 0; o < P.size; ++o) KTENV_SAME("column", o, reg_scalar(o));
#undef KTENV_SAME
  return out;
}

// N greedy agents playing N seats of batched games: one call decides for all of them.
struct GreedyBatch {
  std::shared_ptr<const GreedyPlan> plan;
  std::vector<Greedy> seats;
};

}  // namespace

void bind_agents(nb::module_& m) {
  nb::class_<GreedyPlan>(m, "GreedyPlan",
                         "What the native greedy agent reads in one observation layout (players, house content, "
                         "Mysterious Kadab): offsets, catalog tables, the board; built by ktenv.kings_and_things.native.agents.")
      .def_static("make", &ktenv::agents::make_greedy_plan, nb::arg("ints"), nb::arg("tables"))
      .def_prop_ro("size", [](const GreedyPlan& P) { return P.size; })
      .def_prop_ro("n_actions", [](const GreedyPlan& P) { return P.n_actions; })
      .def_prop_ro("n_players", [](const GreedyPlan& P) { return P.n; });

  m.def("seed_state", [](const Words& seed, std::size_t n) {
    // numpy.random.SeedSequence(seed).generate_state(n, numpy.uint32), for the tests
    auto pool = ktenv::agents::seed_pool(seed.data(), seed.shape(0));
    std::vector<std::uint32_t> out(n);
    ktenv::agents::generate_state(pool, out.data(), n);
    return out;
  }, nb::arg("seed"), nb::arg("n"));
  m.def("pcg64_random", [](const Words& seed, std::size_t n) {
    // numpy.random.default_rng(seed).random(n), for the tests
    ktenv::agents::Pcg64 rng(seed.data(), seed.shape(0));
    std::vector<double> out(n);
    for (auto& x : out) x = rng.random();
    return out;
  }, nb::arg("seed"), nb::arg("n"));

  nb::class_<PolicyNetwork>(m, "PolicyNetwork",
                            "A trained policy's actor path for native policy seats (agents/policy.hpp); made by "
                            "ktenv.kings_and_things.vector from a ktenv model zip")
      .def_static("make", &make_network, nb::arg("first"), nb::arg("first_bias"), nb::arg("hidden"), nb::arg("head"),
                  nb::arg("head_bias"), nb::arg("sample"), nb::arg("name"), nb::arg("value") = std::vector<Layer>{},
                  nb::arg("focus_anchor") = nb::none(), nb::arg("focus_gather") = nb::none(),
                  nb::arg("steer_gate") = -1, nb::arg("steer_anchor") = nb::none(),
                  nb::arg("steer_sources") = nb::none(), nb::arg("steer_targets") = nb::none(),
                  nb::arg("steer_weights") = nb::none(), nb::arg("steer_extra") = 0,
                  nb::arg("rows") = std::vector<RowArg>{}, nb::arg("steps") = std::vector<StepArg>{},
                  "first: [observation + focus, features] (transposed), hidden: (weight [in, out], bias, activation code: "
                  "0 none, 1 relu, 2 tanh, 3 elu) per layer, head: [in, actions]; sample: draw (ppo-sample:) or "
                  "play the best legal action (ppo:); value: the critic's layers after the first layer, the value "
                  "head last (optional); focus_anchor [A], focus_gather [A, focus]: the focus "
                  "(ktenv/gamekit/focus.py; optional); steer_gate, steer_anchor [A], steer_sources [S], steer_targets [T], "
                  "steer_weights [A * S * T], steer_extra: the steer (ktenv/gamekit/steer.py; optional, gate -1: none); "
                  "rows: (action, start, rows, embed layer, context layer) per block of the row scores, steps: (action, "
                  "row block, anchor [A], rows [A * actions * steps], actions, context layers) per step block "
                  "(ktenv/gamekit/rows.py; optional)")
      .def_prop_ro("observation_size", [](const PolicyNetwork& n) { return n.observation_size; })
      .def_prop_ro("n_actions", [](const PolicyNetwork& n) { return n.n_actions(); })
      .def_prop_ro("sample", [](const PolicyNetwork& n) { return n.sample; })
      .def_prop_ro("name", [](const PolicyNetwork& n) { return n.name; })
      .def_prop_ro("has_value", [](const PolicyNetwork& n) { return n.has_value(); })
      .def("values", [](const PolicyNetwork& n, const ObsRows& obs) {
        if (!n.has_value()) throw std::invalid_argument("values: this network was made without its value head");
        if (static_cast<int>(obs.shape(1)) != n.observation_size)
          throw std::invalid_argument("values: observations of " + std::to_string(obs.shape(1)) + " entries, the "
                                      "network takes " + std::to_string(n.observation_size));
        std::vector<float> out(obs.shape(0)), a(static_cast<std::size_t>(n.widest)), b(a.size());
        for (std::size_t r = 0; r < obs.shape(0); ++r)
          out[r] = n.value(obs.data() + r * obs.shape(1), a.data(), b.data());
        return out;
      }, nb::arg("obs"), "the critic's V per observation row (the search's arithmetic, for the tests)")
      .def("logits", [](const PolicyNetwork& n, const ObsRows& obs) {
        if (static_cast<int>(obs.shape(1)) != n.observation_size)
          throw std::invalid_argument("logits: observations of " + std::to_string(obs.shape(1)) + " entries, the "
                                      "network takes " + std::to_string(n.observation_size));
        auto rows = obs.shape(0), width = static_cast<std::size_t>(n.n_actions());
        auto* out = new std::vector<float>(rows * width);
        std::vector<float> a(static_cast<std::size_t>(n.widest)), b(a.size()), row(static_cast<std::size_t>(n.head.out));
        for (std::size_t r = 0; r < rows; ++r) {
          n.logits(obs.data() + r * obs.shape(1), row.data(), a.data(), b.data());
          std::copy_n(row.data(), width, out->data() + r * width);
        }
        nb::capsule owner(out, [](void* p) noexcept { delete static_cast<std::vector<float>*>(p); });
        std::size_t shape[2] = {rows, width};
        return nb::ndarray<nb::numpy, float>(out->data(), 2, shape, owner);
      }, nb::arg("obs"), "unmasked logits, float32 [rows, actions] (the seat's arithmetic, for the tests)");

  nb::class_<Greedy>(m, "Greedy", "agents/kings_and_things/greedy.py's GreedyAgent in native code (bit-exact)")
      .def("__init__", [](Greedy* self, std::shared_ptr<const GreedyPlan> plan, const Words& seed) {
        new (self) Greedy(make_greedy(std::move(plan), seed));
      }, nb::arg("plan"), nb::arg("seed"), "seed: the seed's 32-bit words, least significant first")
      .def("reset", [](Greedy& g, const Words& seed) {
        g.reset(checked_seed(seed, "greedy").data(), seed.shape(0));
      }, nb::arg("seed"))
      .def("set_plan", &Greedy::set_plan, nb::arg("plan"))
      .def_prop_ro("size", [](const Greedy& g) { return g.plan().size; })
      .def("act", [](Greedy& g, const Obs& obs, const Mask& mask) {
        return act_one(g, g.plan(), obs, mask, "greedy");
      }, nb::arg("obs"), nb::arg("mask"))
      .def("scores", [](Greedy& g, const Obs& obs, const Mask& mask) { return scores_of(g, g.plan(), obs, mask); },
           nb::arg("obs"), nb::arg("mask"), "(legal actions, their scores before the tie-break noise); draws nothing")
      .def("time_act", [](Greedy& g, const ObsRows& obs, const MaskRows& mask, int repeat) {
        return time_act(g, g.plan(), obs, mask, repeat);
      }, nb::arg("obs"), nb::arg("mask"), nb::arg("repeat"), "CPU seconds of this thread per decision over the rows");

  nb::class_<GreedyBatch>(m, "GreedyBatch", "N native greedy agents deciding together (one call, no GIL)")
      .def("__init__", [](GreedyBatch* self, std::shared_ptr<const GreedyPlan> plan, const std::vector<Words>& seeds) {
        auto* batch = new (self) GreedyBatch{plan, {}};
        batch->seats.reserve(seeds.size());
        for (const Words& seed : seeds) batch->seats.push_back(make_greedy(plan, seed));
      }, nb::arg("plan"), nb::arg("seeds"))
      .def("__len__", [](const GreedyBatch& b) { return b.seats.size(); })
      .def("reset", [](GreedyBatch& b, std::size_t i, const Words& seed) {
        if (i >= b.seats.size()) throw std::invalid_argument("greedy batch: no agent " + std::to_string(i));
        b.seats[i].reset(checked_seed(seed, "greedy").data(), seed.shape(0));
      }, nb::arg("i"), nb::arg("seed"))
      .def("act", [](GreedyBatch& b, const ObsRows& obs, const MaskRows& mask, Actions out) {
        const GreedyPlan& P = *b.plan;
        const std::size_t n = b.seats.size();
        if (obs.shape(0) != n || mask.shape(0) != n || out.shape(0) != n || static_cast<int>(obs.shape(1)) != P.size ||
            static_cast<int>(mask.shape(1)) != P.n_actions)
          throw std::invalid_argument("greedy batch: act takes float32[N, size], int8[N, n_actions] and int64[N] "
                                      "for its N agents");
        {
          nb::gil_scoped_release unlocked;
          for (std::size_t i = 0; i < n; ++i)
            out.data()[i] = b.seats[i].act(obs.data() + i * P.size, mask.data() + i * P.n_actions);
        }
        for (std::size_t i = 0; i < n; ++i)
          if (out.data()[i] < 0)
            throw std::invalid_argument("greedy batch: the action mask of row " + std::to_string(i) +
                                        " allows no action");
      }, nb::arg("obs"), nb::arg("mask"), nb::arg("out"), "out[i] = agent i's action for row i");

  nb::class_<ExpertPlan>(m, "ExpertPlan",
                         "What the native expert agent reads beyond the greedy plan (the same layout); built by "
                         "ktenv.kings_and_things.native.expert.")
      .def_static("make", &ktenv::agents::make_expert_plan, nb::arg("greedy_plan"), nb::arg("ints"), nb::arg("tables"))
      .def_prop_ro("greedy_plan", [](const ExpertPlan& E) { return E.base; })
      .def_prop_ro("size", [](const ExpertPlan& E) { return E.base->size; })
      .def_prop_ro("n_actions", [](const ExpertPlan& E) { return E.base->n_actions; })
      .def_prop_ro("n_players", [](const ExpertPlan& E) { return E.base->n; });

  nb::class_<Expert>(m, "Expert", "agents/kings_and_things/expert.py's ExpertAgent in native code (bit-exact)")
      .def("__init__", [](Expert* self, std::shared_ptr<const ExpertPlan> plan, const Words& seed) {
        new (self) Expert(make_expert(std::move(plan), seed));
      }, nb::arg("plan"), nb::arg("seed"), "seed: the seed's 32-bit words, least significant first")
      .def("reset", [](Expert& e, const Words& seed) {
        e.reset(checked_seed(seed, "expert").data(), seed.shape(0));
      }, nb::arg("seed"), "a new generator; the move plan is forgotten")
      .def("set_plan", &Expert::set_plan, nb::arg("plan"))
      .def("follow", &Expert::follow, nb::arg("action"),
           "after scores() or act() of a MOVE_START: move the stack of `action` with the plan made for it; False "
           "(nothing changed) for an action not scored at the decision asked last")
      .def_prop_ro("size", [](const Expert& e) { return e.layout().size; })
      .def("act", [](Expert& e, const Obs& obs, const Mask& mask) {
        return act_one(e, e.layout(), obs, mask, "expert");
      }, nb::arg("obs"), nb::arg("mask"))
      .def("scores", [](Expert& e, const Obs& obs, const Mask& mask) { return scores_of(e, e.layout(), obs, mask); },
           nb::arg("obs"), nb::arg("mask"),
           "(legal actions, their scores before the tie-break noise); draws nothing (a MOVE_START sets the move plan, "
           "as the Python agent's scores do)")
      .def("time_act", [](Expert& e, const ObsRows& obs, const MaskRows& mask, int repeat) {
        return time_act(e, e.layout(), obs, mask, repeat);
      }, nb::arg("obs"), nb::arg("mask"), nb::arg("repeat"), "CPU seconds of this thread per decision over the rows")
      .def("act_state", [](Expert& e, const ktenv::State& s, const ktenv::observation::Plan& obs_plan, int seat,
                           const Mask& mask) {
        if (static_cast<int>(mask.shape(0)) != e.layout().n_actions)
          throw std::invalid_argument("expert: action mask of the wrong length");
        const int a = e.act(s, obs_plan, seat, mask.data());
        if (a < 0) throw std::invalid_argument("expert agent: the action mask allows no action");
        return a;
      }, nb::arg("state"), nb::arg("obs_plan"), nb::arg("seat"), nb::arg("mask"),
           "act() on the seat's facts read from the native state (no observation encoded): the same choice")
      .def_prop_ro("encodes", [](const Expert& e) { return e.view().encodes(); },
                   "full observations encoded by act_state for the columns it does not read from the state");
  m.def("view_differences", &view_differences, nb::arg("plan"), nb::arg("obs_plan"), nb::arg("state"),
        nb::arg("seat"), nb::arg("obs"),
        "where the agents' View of the native state and of the seat's observation disagree (for the tests)");
}

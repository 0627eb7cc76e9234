// The native agents' binding (agents/heuristic.hpp): `_kingsburg_core.Agent(kind, seed_words)`, with `act(observation,
// mask)` and `reset(seed_words)`; ktenv/kingsburg/native/agents.py gives them the Python agents' interface.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <tuple>

#include "agents/heuristic.hpp"
#include "vector.hpp"

namespace nb = nanobind;
using namespace ktenv::kingsburg;

namespace ktenv::kingsburg {

using Words = nb::ndarray<const std::uint32_t, nb::ndim<1>, nb::c_contig>;
using Matrix = nb::ndarray<const float, nb::ndim<2>, nb::c_contig>;
using Floats = nb::ndarray<const float, nb::ndim<1>, nb::c_contig>;
using Layer = std::tuple<Matrix, Floats, int>;  // weight [in, out], bias, activation code

namespace {

::ktenv::agents::Dense dense_of(const Matrix& weight, const Floats& bias, int activation) {
  ::ktenv::agents::Dense d;
  d.in = static_cast<int>(weight.shape(0));
  d.out = static_cast<int>(weight.shape(1));
  d.weight.assign(weight.data(), weight.data() + weight.size());
  d.bias.assign(bias.data(), bias.data() + bias.shape(0));
  d.activation = static_cast<::ktenv::agents::Activation>(activation);
  return d;
}

// training.policy.PlayingNetwork's arrays as a policy seat's network (copied: the batch's threads read them
// without Python); checked by make_policy_network.
Policy make_policy(const Matrix& first, const Floats& first_bias, const std::vector<Layer>& hidden, const Matrix& head,
                   const Floats& head_bias, bool sample, std::string name) {
  ::ktenv::agents::PolicyNetwork net;
  net.observation_size = static_cast<int>(first.shape(0));
  net.features = static_cast<int>(first.shape(1));
  net.first.assign(first.data(), first.data() + first.size());
  net.first_bias.assign(first_bias.data(), first_bias.data() + first_bias.shape(0));
  for (const auto& [weight, bias, activation] : hidden) net.hidden.push_back(dense_of(weight, bias, activation));
  net.head = dense_of(head, head_bias, 0);
  net.sample = sample;
  net.name = std::move(name);
  return Policy{::ktenv::agents::make_policy_network(std::move(net))};
}

}  // namespace

void bind_agents(nb::module_& m) {
  nb::class_<agents::Agent>(m, "Agent")
      .def("__init__", [](agents::Agent* a, int kind, Words seed) {
        if (kind < 1 || kind > 3) throw std::invalid_argument("kingsburg agent: kind 1 (random), 2 (greedy) or 3 (expert)");
        if (seed.shape(0) < 1) throw std::invalid_argument("kingsburg agent: the seed has no words");
        new (a) agents::Agent(static_cast<agents::Kind>(kind), seed.data(), seed.shape(0));
      }, nb::arg("kind"), nb::arg("seed_words"))
      .def("reset", [](agents::Agent& a, Words seed) {
        if (seed.shape(0) < 1) throw std::invalid_argument("kingsburg agent: the seed has no words");
        a.reset(seed.data(), seed.shape(0));
      }, nb::arg("seed_words"))
      .def("act", [](agents::Agent& a, nb::ndarray<const float, nb::ndim<1>, nb::c_contig> obs,
                     nb::ndarray<const std::int8_t, nb::ndim<1>, nb::c_contig> mask) {
        if (mask.shape(0) != N_ACTIONS)
          throw std::invalid_argument("kingsburg agent: the mask has " + std::to_string(N_ACTIONS) + " entries");
        int n = agents::players_of_size(static_cast<int>(obs.shape(0)));
        if (a.needs_observation() && n == 0)
          throw std::invalid_argument("not a Kingsburg observation (size " + std::to_string(obs.shape(0)) + ")");
        return a.act(n ? obs.data() : nullptr, n, mask.data());
      }, nb::arg("observation"), nb::arg("mask"), "the agent's action for this observation and mask");
  nb::class_<Policy>(m, "Policy", "a trained policy network for the batched games' policy seats")
      .def_static("make", &make_policy, nb::arg("first"), nb::arg("first_bias"), nb::arg("hidden"), nb::arg("head"),
                  nb::arg("head_bias"), nb::arg("sample"), nb::arg("name"),
                  "first: [observation, features], hidden: (weight [in, out], bias, activation code: 0 none, 1 relu, "
                  "2 tanh, 3 elu) per layer, head: [in, actions]; sample: draw (ppo-sample:), else the best legal action")
      .def_prop_ro("name", [](const Policy& p) { return p.net->name; })
      .def_prop_ro("observation_size", [](const Policy& p) { return p.net->observation_size; })
      .def("logits", [](const Policy& p, const Matrix& obs) {
        const auto& n = *p.net;
        if (static_cast<int>(obs.shape(1)) != n.observation_size)
          throw std::invalid_argument("logits: observations of " + std::to_string(obs.shape(1)) + " entries, the "
                                      "network takes " + std::to_string(n.observation_size));
        std::size_t rows = obs.shape(0), width = static_cast<std::size_t>(n.n_actions());
        auto* out = new std::vector<float>(rows * width);
        std::vector<float> a(static_cast<std::size_t>(n.widest)), b(a.size());
        for (std::size_t r = 0; r < rows; ++r)
          n.logits(obs.data() + r * obs.shape(1), out->data() + r * width, a.data(), b.data());
        nb::capsule owner(out, [](void* q) noexcept { delete static_cast<std::vector<float>*>(q); });
        std::size_t shape[2] = {rows, width};
        return nb::ndarray<nb::numpy, float>(out->data(), 2, shape, owner);
      }, nb::arg("obs"), "unmasked logits, float32 [rows, actions] (the seat's arithmetic, for the tests)");
  m.def("pcg64_integers", [](Words seed, std::vector<std::uint64_t> bounds) {
    ::ktenv::agents::Pcg64 rng(seed.data(), seed.shape(0));
    std::vector<std::uint64_t> out;
    for (auto n : bounds) {
      if (n < 1 || n > 0x100000000ull) throw std::invalid_argument("pcg64_integers: bounds 1 to 2**32");
      out.push_back(rng.integers(n));
    }
    return out;
  }, nb::arg("seed_words"), nb::arg("bounds"), "numpy.random.default_rng(seed).integers(n) for each n, natively");
}

}  // namespace ktenv::kingsburg

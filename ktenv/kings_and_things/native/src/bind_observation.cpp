// Bindings of the native observation encoder (engine/observation.hpp); the Python side is
// ktenv/kings_and_things/native/observation.py, which builds the plan from a Python ObservationEncoder.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "engine/observation.hpp"
#include "game.hpp"
#include "state.hpp"

namespace nb = nanobind;
namespace obs = ktenv::observation;
using ktenv::State;

void bind_observation(nb::module_& m) {
  nb::class_<obs::Plan>(m, "ObservationPlan",
                        "The native observation encoder of one config: every offset, lookup table and register "
                        "taken from a Python ObservationEncoder (ktenv.kings_and_things.native.observation.plan_numbers).")
      .def_static("make", &obs::make_plan, nb::arg("ints"), nb::arg("tables"), nb::arg("registers"))
      .def_prop_ro("size", [](const obs::Plan& P) { return P.size; })
      .def_prop_ro("n_players", [](const obs::Plan& P) { return P.n; })
      .def_prop_ro("n_registers", [](const obs::Plan& P) { return static_cast<int>(P.registers.size()); })
      .def("encode", [](const obs::Plan& P, const State& s, int p,
                        nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu> out) {
        if (static_cast<int>(out.shape(0)) != P.size)
          throw std::invalid_argument("encode: the buffer must hold `size` float32 values");
        obs::encode(s, P, p, out.data());
      }, nb::arg("state"), nb::arg("player"), nb::arg("out"),
         "write player `player`'s observation of `state` into `out` (float32[size], C-contiguous)")
      .def("encode_all", [](const obs::Plan& P, const State& s,
                            nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu> out) {
        if (static_cast<int>(out.shape(0)) != P.n || static_cast<int>(out.shape(1)) != P.size)
          throw std::invalid_argument("encode_all: the buffer must be float32[n_players, size]");
        obs::encode_all(s, P, out.data());
      }, nb::arg("state"), nb::arg("out"), "every seat's observation: out[p] for p = 0 .. n_players-1")
      .def("player_stats", [](const obs::Plan& P, const State& s) {
        obs::StatTable table;
        obs::player_stats(s, P, table);
        auto* data = new std::int64_t[static_cast<std::size_t>(P.n) * obs::N_STATS];
        for (int q = 0; q < P.n; ++q)
          for (int j = 0; j < obs::N_STATS; ++j) data[q * obs::N_STATS + j] = table[q][j];
        nb::capsule owner(data, [](void* d) noexcept { delete[] static_cast<std::int64_t*>(d); });
        return nb::ndarray<nb::numpy, std::int64_t, nb::ndim<2>>(
            data, {static_cast<std::size_t>(P.n), static_cast<std::size_t>(obs::N_STATS)}, owner);
      }, nb::arg("state"), "ktenv.kings_and_things.env.stats.player_stats(state): int64[n_players, 13]")
      .def("time_encode", [](const obs::Plan& P, const State& s, int p, int count) {
        // seconds per observation, measured inside native code (p = -1: encode_all, per call)
        std::vector<float> buf(static_cast<std::size_t>(P.size) * static_cast<std::size_t>(P.n));
        nb::gil_scoped_release unlocked;
        auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < count; ++i) {
          if (p < 0)
            obs::encode_all(s, P, buf.data());
          else
            obs::encode(s, P, p, buf.data());
          asm volatile("" : : "g"(buf.data()) : "memory");
        }
        std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        return took.count() / count;
      }, nb::arg("state"), nb::arg("player"), nb::arg("count"));
}

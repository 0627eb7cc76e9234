// Python bindings of the native core (ktenv.native._core).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include <chrono>

#include "convert.hpp"
#include "dice.hpp"
#include "state.hpp"

namespace nb = nanobind;
using ktenv::Dice;
using ktenv::State;

NB_MODULE(_core, m) {
  m.doc() = "ktenv's native core (C++20): bit-exact with the Python engine";

  nb::class_<Dice>(m, "Dice", "The game's generator (SplitMix64), bit for bit ktenv.rng.Dice.")
      .def_static("seeded", &Dice::seeded, nb::arg("seed"))
      .def(nb::init<>())
      .def_prop_rw(
          "state", [](const Dice& d) { return std::to_string(d.state); },
          [](Dice& d, const std::string& v) { d.state = std::stoull(v); },
          "the 64-bit state, as a decimal string (JSON keeps it exact)")
      .def_prop_rw(
          "script", [](const Dice& d) { return std::vector<int>(d.script.begin(), d.script.end()); },
          [](Dice& d, const std::vector<int>& v) { d.script.assign(v.begin(), v.end()); })
      .def("next64", &Dice::next64)
      .def("d6", &Dice::d6)
      .def("two_d6", &Dice::two_d6)
      .def("below", &Dice::below, nb::arg("n"))
      .def("shuffle", [](Dice& d, std::vector<std::int64_t> items) {
        d.shuffle(items);
        return items;
      }, nb::arg("items"), "a shuffled copy of `items` (Fisher-Yates, as ktenv.rng)")
      .def("draws", [](Dice& d, std::int64_t count, std::int64_t bound) {
        std::vector<std::int64_t> out(static_cast<std::size_t>(count));
        for (auto& v : out) v = bound ? d.below(bound) : d.d6();
        return out;
      }, nb::arg("count"), nb::arg("bound") = 0, "`count` draws below `bound` (0: d6 rolls), in one call");

  nb::class_<State>(m, "State", "A whole game in native memory (the twin of ktenv.state.GameState).")
      .def_static("from_python", &ktenv::convert::from_python, nb::arg("game_state"),
                  "copy a Python GameState into native memory")
      .def("to_dict", &ktenv::convert::to_python,
           "the state as GameState.to_dict() writes it, less config, schema and version")
      .def("copy", [](const State& s) { return State(s); })
      .def_prop_ro("n_frames", [](const State& s) { return s.frames.size(); })
      .def("time_copies", [](const State& s, int count) {
        // for bench/: seconds per copy of this state, measured inside native code
        auto start = std::chrono::steady_clock::now();
        State sink;
        for (int i = 0; i < count; ++i) {
          sink = s;
          asm volatile("" : : "g"(&sink) : "memory");
        }
        std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        return took.count() / count;
      }, nb::arg("count"));
}

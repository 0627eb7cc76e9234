// Python bindings of the native core (ktenv.native._core).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "dice.hpp"

namespace nb = nanobind;
using ktenv::Dice;

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
}

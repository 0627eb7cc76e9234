// Python bindings of the native core (ktenv.kings_and_things.native._core).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/pair.h>

#include <string>
#include <vector>

#include <chrono>

#include "convert.hpp"
#include "engine/machine.hpp"
#include "engine/setup.hpp"
#include "engine/batch.hpp"
#include "game.hpp"
#include "rng.hpp"
#include "state.hpp"

namespace nb = nanobind;
using ktenv::Dice;
using ktenv::State;

void bind_observation(nb::module_& m);  // bind_observation.cpp
void bind_vector(nb::module_& m);       // bind_vector.cpp
void bind_agents(nb::module_& m);       // bind_agents.cpp
void bind_search(nb::module_& m);       // bind_search.cpp

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

  nb::class_<ktenv::Config>(m, "Config", "A game's options as integers (ktenv.kings_and_things.native.bridge.config_numbers).")
      .def_static("from_numbers", &ktenv::convert::config_from_python, nb::arg("numbers"))
      .def("to_numbers", &ktenv::convert::config_to_python);

  nb::class_<ktenv::ActionLayout>(m, "ActionLayout", "First action of each block (ktenv.kings_and_things.engine.actions).")
      .def_ro("n_hexes", &ktenv::ActionLayout::n_hexes)
      .def_ro("n_things", &ktenv::ActionLayout::n_things)
      .def_ro("n_hero_faces", &ktenv::ActionLayout::n_hero_faces)
      .def_ro("n_treasures", &ktenv::ActionLayout::n_treasures)
      .def_ro("n_seats", &ktenv::ActionLayout::n_seats)
      .def_ro("hex", &ktenv::ActionLayout::hex)
      .def_ro("thing", &ktenv::ActionLayout::thing)
      .def_ro("hero", &ktenv::ActionLayout::hero)
      .def_ro("cash", &ktenv::ActionLayout::cash)
      .def_ro("player", &ktenv::ActionLayout::player)
      .def_ro("direction", &ktenv::ActionLayout::direction)
      .def_ro("size", &ktenv::ActionLayout::size);

  nb::class_<ktenv::Tables>(m, "Tables", "A game's catalog, board and action layout in native memory.")
      .def_static("from_python", &ktenv::convert::tables_from_python, nb::arg("catalog"), nb::arg("geometry"),
                  nb::arg("n_players"), nb::arg("seats"))
      .def_ro("layout", &ktenv::Tables::layout)
      .def("table", [](const ktenv::Tables& t, const std::string& name) {
        // one catalog or board table as a list, for the tests that compare it with Python's
        nb::list out;
#define KTENV_TABLE_CASE(tname, type, size) \
        if (name == #tname) {               \
          for (int i = 0; i < t.n.size; ++i) out.append(nb::int_(static_cast<int>(t.tname[i]))); \
          return out;                       \
        }
        KTENV_CATALOG_TABLES(KTENV_TABLE_CASE)
#undef KTENV_TABLE_CASE
        if (name == "ring") {
          for (int i = 0; i < t.n.Hexes; ++i) out.append(nb::int_(static_cast<int>(t.ring[i])));
          return out;
        }
        if (name == "neighbours" || name == "distance") {
          for (int i = 0; i < t.n.Hexes; ++i) {
            nb::list row;
            int width = name == "neighbours" ? 6 : t.n.Hexes;
            for (int j = 0; j < width; ++j)
              row.append(nb::int_(static_cast<int>(name == "neighbours" ? t.neighbours[i][j] : t.distance[i][j])));
            out.append(row);
          }
          return out;
        }
        throw nb::key_error(("no native table named " + name).c_str());
      }, nb::arg("name"));

  bind_observation(m);
  bind_vector(m);
  bind_agents(m);
  bind_search(m);

  m.def("default_frames", []() {
    // every procedure frame as the native engine starts it (its fields' defaults), for the tests
    nb::list out;
#define KTENV_DEFAULT_FRAME(cls, saved) out.append(ktenv::convert::frame_to_py(ktenv::Frame{ktenv::cls{}}));
    KTENV_FRAMES(KTENV_DEFAULT_FRAME)
#undef KTENV_DEFAULT_FRAME
    return out;
  });

  nb::exception<ktenv::IllegalAction>(m, "IllegalAction", PyExc_ValueError);
  nb::exception<ktenv::InvariantViolation>(m, "InvariantViolation", PyExc_AssertionError);

  nb::class_<ktenv::Rules>(m, "Rules", "A kind of game: its options and tables, shared by its games.")
      .def_static("make", [](const ktenv::Config& c, const ktenv::Tables& t) {
        return std::make_shared<const ktenv::Rules>(ktenv::Rules{c, t});
      }, nb::arg("config"), nb::arg("tables"));

  m.def("play_random_games", [](std::shared_ptr<const ktenv::Rules> rules, std::uint64_t first_seed, int games,
                                int max_decisions, bool check_index) {
    // `games` new games (seeds first_seed, first_seed + 1, ...) played to the end with random actions,
    // all inside native code: (decisions, seconds); check_index: batch::check_things_index after every decision
    nb::gil_scoped_release unlocked;
    auto start = std::chrono::steady_clock::now();
    long long decisions = 0;
    for (int g = 0; g < games; ++g) {
      State s = ktenv::machine::new_game(rules, first_seed + g);
      decisions += ktenv::batch::play_random(s, (first_seed + g) * 7919 + 1, max_decisions, check_index);
    }
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    return std::make_pair(decisions, took.count());
  }, nb::arg("rules"), nb::arg("first_seed"), nb::arg("games"), nb::arg("max_decisions") = 100'000,
     nb::arg("check_index") = false);

  nb::class_<State>(m, "State", "A whole game in native memory (the twin of ktenv.kings_and_things.state.GameState).")
      .def_static("from_python", &ktenv::convert::from_python, nb::arg("game_state"),
                  "copy a Python GameState into native memory")
      .def_static("from_python_with", [](nb::handle gs, std::shared_ptr<const ktenv::Rules> rules) {
        State s = ktenv::convert::from_python(gs);
        ktenv::bind_rules(s, std::move(rules));
        return s;
      }, nb::arg("game_state"), nb::arg("rules"), "copy a Python GameState, bound to its game's rules")
      .def_static("new_game", [](std::shared_ptr<const ktenv::Rules> rules, std::uint64_t seed) {
        return ktenv::machine::new_game(std::move(rules), seed);
      }, nb::arg("rules"), nb::arg("seed"))
      .def("legal_mask", [](State& s, nb::ndarray<std::int8_t, nb::ndim<1>, nb::c_contig> out) {
        if (static_cast<int>(out.shape(0)) != s.t->layout.size)
          throw std::invalid_argument("legal_mask: the buffer must hold one int8 per action");
        ktenv::machine::legal_mask(s, out.data());
      }, nb::arg("out"), "write the legal mask into `out` (int8, one per action)")
      .def("step", &ktenv::machine::step, nb::arg("action"))
      .def("step_legal", &ktenv::machine::step_legal, nb::arg("action"),
           "step with an action the caller has checked against the legal mask (no second check)")
      .def("apply", &ktenv::machine::apply, nb::arg("action"), "machine._apply: the action alone")
      .def("run_once", &ktenv::machine::run_once, "one pass of machine._advance's inner loop")
      .def("advance", [](State& s) {
        ktenv::machine::edited(s);
        ktenv::machine::advance(s);
      }, "edited, then machine._advance: on to the next decision")
      .def("edited", &ktenv::machine::edited,
           "drop the cached mask and rebuild the Things' index after changing arrays by hand")
      .def("check_things_index", &ktenv::batch::check_things_index,
           "raise unless the Things' index (derived data) is what the arrays say (a debug check)")
      .def("start_game", &ktenv::setup::start_game, "setup.start_game (for the differential tests)")
      .def("play_random", [](State& s, std::uint64_t seed, int max_decisions) {
        nb::gil_scoped_release unlocked;
        return ktenv::batch::play_random(s, seed, max_decisions);
      }, nb::arg("seed"), nb::arg("max_decisions") = 1'000'000,
         "play on with uniformly random legal actions (own generator); returns the decisions played")
#define KTENV_SCALAR_PROP(name) .def_prop_ro(#name, [](const State& s) { return s.name; })
      KTENV_STATE_SCALARS(KTENV_SCALAR_PROP)
#undef KTENV_SCALAR_PROP
      .def_prop_ro("winners", [](const State& s) { return s.winners; })
      .def_prop_ro("reason", [](const State& s) { return s.reason; })
      .def_prop_ro("stats", [](const State& s) {
        nb::dict d;
#define KTENV_STAT_ITEM(name) d[#name] = nb::int_(s.stats.name);
        KTENV_STATS(KTENV_STAT_ITEM)
#undef KTENV_STAT_ITEM
        return d;
      })
      .def("__copy__", [](const State& s) { return State(s); })
      .def_prop_ro("layout_size", [](const State& s) { return s.t->layout.size; })
      .def("frames_list", [](const State& s) {
        nb::list out;
        for (const auto& f : s.frames.list()) out.append(ktenv::convert::frame_to_py(f));
        return out;
      }, "the procedure frames as dicts (Frame.to_dict()), outermost first")
      .def_prop_ro("rng_state", [](const State& s) { return std::to_string(s.rng.state); })
      .def_prop_ro("rng_script", [](const State& s) { return std::vector<int>(s.rng.script.begin(), s.rng.script.end()); })
      .def_prop_ro("hex_stack", [](const State& s) { return s.hex_stack; })
      .def_prop_ro("hex_aside", [](const State& s) { return s.hex_aside; })
      .def("to_dict", &ktenv::convert::to_python,
           "the state as GameState.to_dict() writes it, less config, schema and version")
      .def("copy", [](const State& s) { return State(s); })
      .def_prop_ro("n_frames", [](const State& s) { return s.frames.size(); })
#define KTENV_ARRAY_VIEW(name, type, size)                                                          \
      .def_prop_ro(#name, [](nb::handle self) {                                                     \
        State& s = nb::cast<State&>(self);                                                          \
        return nb::ndarray<nb::numpy, type, nb::ndim<1>>(s.name.data(), {static_cast<std::size_t>(s.n.size)}, \
                                                         self);                                     \
      }, nb::rv_policy::reference_internal, "a numpy view of the native array (writes go to the game)")
      KTENV_STATE_ARRAYS(KTENV_ARRAY_VIEW)
#undef KTENV_ARRAY_VIEW
#define KTENV_GRID_VIEW(name, type, rows, cols)                                                       \
      .def_prop_ro(#name, [](nb::handle self) {                                                     \
        State& s = nb::cast<State&>(self);                                                          \
        std::size_t shape[2] = {static_cast<std::size_t>(s.n.rows), static_cast<std::size_t>(s.n.cols)}; \
        std::int64_t strides[2] = {ktenv::kMax##cols, 1};                                           \
        return nb::ndarray<nb::numpy, type, nb::ndim<2>>(s.name.data()->data(), 2, shape, self, strides); \
      }, nb::rv_policy::reference_internal, "a numpy view of the native array (writes go to the game)")
      KTENV_STATE_GRIDS(KTENV_GRID_VIEW)
#undef KTENV_GRID_VIEW
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

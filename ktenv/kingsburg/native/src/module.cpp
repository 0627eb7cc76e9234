// The nanobind module ktenv.kingsburg.native._kingsburg_core: the native Kingsburg engine's State (numpy views
// of its arrays, step, legal_mask, copy, conversion from and to the Python KingsburgState's fields), the enemy
// deck handed over at import, and random playouts for bench/kingsburg_speed.py.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>

#include "engine.hpp"
#include "observation.hpp"
#include "vector.hpp"

namespace nb = nanobind;
using namespace ktenv::kingsburg;

// state._INT_FIELDS, in that order
#define KB_INT_FIELDS(X)                                                                                         \
  X(year) X(phase) X(stage) X(cursor) X(sub) X(decision) X(actor) X(target) X(group) X(picks_left) X(pick_kinds) \
  X(envoy_holder) X(aid_player) X(enemy) X(reinforcement) X(steps)

// state._ARRAY_FIELDS, in that order: (name, element type, rows: players or a fixed count)
#define KB_ARRAY_FIELDS(X)                                                                                  \
  X(goods, std::int32_t, 1) X(tokens, std::int32_t, 1) X(vp, std::int32_t, 1) X(soldiers, std::int32_t, 1) \
  X(built, bool, 1) X(passed, bool, 1) X(flags, bool, 1) X(dice, std::int8_t, 1)                          \
  X(die_advisor, std::int8_t, 1) X(order, std::int8_t, 1) X(peeked, bool, 1) X(strength, std::int32_t, 1)  \
  X(result, std::int8_t, 1) X(advisor_group, std::int8_t, 0) X(advisor_envoy, std::int8_t, 0)              \
  X(neutral_dice, std::int8_t, 0) X(neutral_advisor, std::int8_t, 0) X(pending, bool, 1)                   \
  X(enemy_deck, std::int16_t, 0)

namespace {

// ----- nested std::array <-> nested Python lists

template <class T>
nb::object to_py(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return nb::bool_(v);
  else return nb::int_(static_cast<long long>(v));
}

template <class T, std::size_t N>
nb::object to_py(const std::array<T, N>& a, std::size_t size = N) {
  nb::list out;
  for (std::size_t i = 0; i < size; ++i) out.append(to_py(a[i]));
  return out;
}

template <class T>
void from_py(nb::handle h, T& v) {
  v = static_cast<T>(nb::cast<long long>(h));
}

template <class T, std::size_t N>
void from_py(nb::handle h, std::array<T, N>& a, std::size_t size = N) {
  if (nb::len(h) != size) throw std::invalid_argument("a state array has the wrong shape");
  std::size_t i = 0;
  for (nb::handle item : h) from_py(item, a[i++]);
}

template <class T, std::size_t N>
std::size_t rows_of(const State& s, const std::array<T, N>&, bool per_player) {
  return per_player ? static_cast<std::size_t>(s.n) : N;
}

// a numpy view of a field (its first `rows` rows), kept alive by the Python State
template <class T>
struct Elem {
  using type = T;
  static constexpr int dims = 0;
  static void shape(std::size_t*) {}
};
template <class T, std::size_t N>
struct Elem<std::array<T, N>> {
  using type = typename Elem<T>::type;
  static constexpr int dims = 1 + Elem<T>::dims;
  static void shape(std::size_t* out) {
    out[0] = N;
    Elem<T>::shape(out + 1);
  }
};

template <class T, std::size_t N>
nb::object view(nb::handle self, std::array<T, N>& a, std::size_t rows) {
  using E = typename Elem<std::array<T, N>>::type;
  constexpr int dims = Elem<std::array<T, N>>::dims;
  std::size_t shape[4];
  Elem<std::array<T, N>>::shape(shape);
  shape[0] = rows;
  auto arr = nb::ndarray<nb::numpy, E>(reinterpret_cast<E*>(a.data()), dims, shape, self);
  return nb::cast(arr, nb::rv_policy::reference);
}

Config config_of(nb::handle cfg) {
  Config c;
  c.n_players = nb::cast<int>(cfg.attr("n_players"));
  nb::object limit = cfg.attr("building_token_limit");
  c.building_token_limit = limit.is_none() ? -1 : nb::cast<int>(limit);
  c.merchants_guild_good_of_choice = nb::cast<bool>(cfg.attr("merchants_guild_good_of_choice"));
  c.kings_reward_requires_building = nb::cast<bool>(cfg.attr("kings_reward_requires_building"));
  c.neutral_dice = nb::cast<bool>(cfg.attr("neutral_dice"));
  if (c.n_players < 2 || c.n_players > kMaxPlayers) throw std::invalid_argument("Kingsburg is for 2 to 5 players");
  return c;
}

// the fields of a Python KingsburgState (ktenv/kingsburg/state.py) read into a native State
State from_python(nb::handle ps) {
  State s(config_of(ps.attr("cfg")), 0);
  nb::handle rng = ps.attr("rng");
  s.rng.state = nb::cast<std::uint64_t>(rng.attr("state"));
  for (nb::handle v : rng.attr("script")) s.rng.script.push_back(nb::cast<int>(v));
  s.game_over = nb::cast<bool>(ps.attr("game_over"));
  for (nb::handle v : ps.attr("winners")) s.winners.push_back(nb::cast<int>(v));
#define KB_READ_INT(name) s.name = nb::cast<long long>(ps.attr(#name));
  KB_INT_FIELDS(KB_READ_INT)
#undef KB_READ_INT
#define KB_READ_ARRAY(name, type, per_player)                                                   \
  {                                                                                             \
    nb::object rows = ps.attr(#name).attr("tolist")();                                          \
    std::size_t n_rows = rows_of(s, s.name, per_player);                                        \
    if (nb::len(rows) != n_rows) throw std::invalid_argument("state array " #name " has the wrong shape"); \
    std::size_t i = 0;                                                                          \
    for (nb::handle row : rows) {                                                               \
      if constexpr (per_player) from_py(row, s.name[i++]);                                      \
      else from_py(row, s.name[i++]);                                                           \
    }                                                                                           \
  }
  KB_ARRAY_FIELDS(KB_READ_ARRAY)
#undef KB_READ_ARRAY
  return s;
}

// the fields as KingsburgState.to_json writes them, after schema, config and rng: game_over, winners, the
// scalars, the arrays
nb::dict fields(const State& s) {
  nb::dict d;
  d["game_over"] = nb::bool_(s.game_over);
  nb::list winners;
  for (int w : s.winners) winners.append(w);
  d["winners"] = winners;
#define KB_WRITE_INT(name) d[#name] = nb::int_(static_cast<long long>(s.name));
  KB_INT_FIELDS(KB_WRITE_INT)
#undef KB_WRITE_INT
#define KB_WRITE_ARRAY(name, type, per_player) \
  d[#name] = [&] {                             \
    nb::list rows;                             \
    std::size_t n_rows = rows_of(s, s.name, per_player); \
    for (std::size_t i = 0; i < n_rows; ++i) rows.append(to_py(s.name[i])); \
    return rows;                               \
  }();
  KB_ARRAY_FIELDS(KB_WRITE_ARRAY)
#undef KB_WRITE_ARRAY
  return d;
}

// uniform random play to the end, from its own generator; the decisions made
std::int64_t play_random(State& s, ktenv::Dice& picker) {
  Mask mask;
  std::int64_t decisions = 0;
  int legal[N_ACTIONS];
  while (!s.game_over) {
    legal_mask(s, mask);
    int n = 0;
    for (int a = 0; a < N_ACTIONS; ++a)
      if (mask[a]) legal[n++] = a;
    step(s, legal[picker.below(n)]);
    ++decisions;
  }
  return decisions;
}

}  // namespace

namespace ktenv::kingsburg {
void bind_agents(nb::module_& m);  // bind_agents.cpp
}

NB_MODULE(_kingsburg_core, m) {
  bind_agents(m);
  m.doc() = "The native Kingsburg engine, bit for bit ktenv.kingsburg's Python engine.";
  nb::exception<IllegalAction>(m, "IllegalAction");

  m.def("set_deck", [](nb::handle cards) {
    std::vector<EnemyCard> out;
    for (nb::handle c : cards) {
      EnemyCard card;
      card.year = nb::cast<int>(c[0]);
      card.enemy = nb::cast<int>(c[1]);
      card.strength = nb::cast<int>(c[2]);
      from_py(c[3], card.reward);
      from_py(c[4], card.losses);
      out.push_back(card);
    }
    set_deck(out);
  }, "the enemy cards as (year, enemy type index, strength, reward, losses) tuples, in catalog order");

  m.def("random_games", [](nb::handle cfg, std::uint64_t first_rng_state, int games) {
    // bench: `games` games from consecutive generator states, uniform random decisions; (decisions, seconds)
    Config c = config_of(cfg);
    nb::gil_scoped_release release;
    auto start = std::chrono::steady_clock::now();
    std::int64_t decisions = 0;
    for (int g = 0; g < games; ++g) {
      ktenv::Dice picker = ktenv::Dice::seeded(static_cast<std::uint64_t>(g) + 1000003ULL);
      State s = new_game(c, first_rng_state + static_cast<std::uint64_t>(g) * ktenv::kGolden);
      decisions += play_random(s, picker);
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::make_pair(decisions, seconds);
  }, nb::arg("cfg"), nb::arg("first_rng_state"), nb::arg("games"));

  m.def("observation_size", &observation_size, nb::arg("n_players"));
  m.def("encode", [](const State& s, int observer) {
    if (observer < 0 || observer >= s.n) throw std::invalid_argument("observer: a seat of the game");
    auto* out = new std::vector<float>(observation_size(s.n));
    encode(s, observer, out->data());
    nb::capsule owner(out, [](void* p) noexcept { delete static_cast<std::vector<float>*>(p); });
    return nb::ndarray<nb::numpy, float, nb::ndim<1>>(out->data(), {out->size()}, owner);
  }, nb::arg("state"), nb::arg("observer"), "ObservationEncoder.encode(state, observer), natively");

#define KB_BATCH_VIEW(name, type, ...)                                                              \
      .def_prop_ro(#name, [](nb::handle self) {                                                    \
        Batch& b = nb::cast<Batch&>(self);                                                         \
        std::size_t shape[2] = {static_cast<std::size_t>(b.num_envs), __VA_ARGS__};                \
        std::size_t dims = shape[1] ? 2 : 1;                                                       \
        return nb::cast(nb::ndarray<nb::numpy, type>(reinterpret_cast<type*>(b.name.data()), dims, shape, self), \
                        nb::rv_policy::reference);                                                 \
      })
  nb::class_<Batch>(m, "Batch")
      .def("__init__", [](Batch* b, nb::handle cfg, int num_envs, std::vector<std::vector<int>> seats, bool shaped,
                          int num_threads, nb::list policies) {
        Config c = config_of(cfg);
        if (num_envs < 1) throw std::invalid_argument("num_envs: at least 1");
        if (num_threads < 1) throw std::invalid_argument("num_threads: at least 1");
        if (static_cast<int>(seats.size()) != num_envs) throw std::invalid_argument("seats: one row per game");
        for (const auto& row : seats)
          if (static_cast<int>(row.size()) != c.n_players) throw std::invalid_argument("seats: one kind per seat");
        std::vector<Network> networks;
        for (nb::handle item : policies) networks.push_back(nb::cast<const Policy&>(item).net);
        new (b) Batch(c, num_envs, std::move(seats), shaped, num_threads, networks);
      }, nb::arg("cfg"), nb::arg("num_envs"), nb::arg("seats"), nb::arg("shaped"), nb::arg("num_threads") = 1,
         nb::arg("policies") = nb::list(), "policies: one Policy per policy seat, row by row, in seat order")
      .def_prop_ro("num_threads", [](const Batch& b) { return b.pool->threads(); })
      .def("set_next_seats", [](Batch& b, int i, std::vector<int> kinds, int observer, nb::list policies) {
        std::vector<Network> networks;
        for (nb::handle item : policies) networks.push_back(nb::cast<const Policy&>(item).net);
        b.set_next_seats(i, kinds, observer, networks);
      }, nb::arg("i"), nb::arg("kinds"), nb::arg("observer"), nb::arg("policies") = nb::list())
      .def("seats", [](const Batch& b, int i) {
        if (i < 0 || i >= b.num_envs) throw std::out_of_range("no such game");
        return b.seats[i];
      }, "the seat codes of row i's game under way")
      .def("network_name", [](const Batch& b, int i, int p) {
        if (i < 0 || i >= b.num_envs || p < 0 || p >= b.cfg.n_players || !b.networks[i][p])
          throw std::out_of_range("no policy seat there");
        return b.networks[i][p]->name;
      })
      .def("reset", [](Batch& b, std::uint64_t seed) {
        nb::gil_scoped_release release;
        b.reset(seed, b.outputs());
      })
      .def("step", [](Batch& b, nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig> actions) {
        if (static_cast<int>(actions.shape(0)) != b.num_envs) throw std::invalid_argument("actions: one per game");
        nb::gil_scoped_release release;
        b.step(actions.data(), b.outputs());
      })
      .def("game", [](const Batch& b, int i) {
        if (i < 0 || i >= b.num_envs) throw std::out_of_range("no such game");
        return b.games[i];
      })
      KB_BATCH_VIEW(observation, float, static_cast<std::size_t>(observation_size(b.cfg.n_players)))
      KB_BATCH_VIEW(action_mask, std::int8_t, static_cast<std::size_t>(N_ACTIONS))
      KB_BATCH_VIEW(actor, std::int32_t, 0)
      KB_BATCH_VIEW(rewards, double, static_cast<std::size_t>(b.cfg.n_players))
      KB_BATCH_VIEW(opening_rewards, double, static_cast<std::size_t>(b.cfg.n_players))
      KB_BATCH_VIEW(terminated, bool, 0)
      KB_BATCH_VIEW(seed, std::uint64_t, 0)
      KB_BATCH_VIEW(final_winners, bool, static_cast<std::size_t>(b.cfg.n_players))
      KB_BATCH_VIEW(final_length, std::int64_t, 0)
      KB_BATCH_VIEW(final_seed, std::uint64_t, 0)
      KB_BATCH_VIEW(final_return, double, static_cast<std::size_t>(b.cfg.n_players))
      KB_BATCH_VIEW(final_vp, std::int32_t, static_cast<std::size_t>(b.cfg.n_players))
      KB_BATCH_VIEW(final_observation, float, static_cast<std::size_t>(observation_size(b.cfg.n_players)));
#undef KB_BATCH_VIEW

  nb::class_<State>(m, "State")
      .def_static("new_game", [](nb::handle cfg, std::uint64_t rng_state) { return new_game(config_of(cfg), rng_state); },
                  "a new game at its first decision; rng_state: the Python Dice(seed).state")
      .def_static("from_python", &from_python, "a native copy of a Python KingsburgState")
      .def("copy", [](const State& s) { return State(s); })
      .def("step", [](State& s, int action) { step(s, action); }, "apply a legal action (IllegalAction otherwise)")
      .def("apply", [](State& s, int action) {
        // step without the legality check, for the bridge that has checked it
        State before = s;
        try {
          step(s, action);
        } catch (...) {
          s = before;
          throw;
        }
      })
      .def("resume", [](State& s) { advance(s); },
           "machine.resume: run the automatic rules from a hand-arranged state up to its next decision")
      .def("legal_mask", [](const State& s) {
        auto* mask = new Mask;
        legal_mask(s, *mask);
        nb::capsule owner(mask, [](void* p) noexcept { delete static_cast<Mask*>(p); });
        return nb::ndarray<nb::numpy, std::int8_t, nb::ndim<1>>(mask->data(), {N_ACTIONS}, owner);
      })
      .def("fields", &fields, "game_over, winners, the scalars and the arrays as KingsburgState.to_json writes them")
      .def("scalars", [](const State& s) {
        nb::list out;
        out.append(nb::bool_(s.game_over));
#define KB_SCALAR(name) out.append(nb::int_(static_cast<long long>(s.name)));
        KB_INT_FIELDS(KB_SCALAR)
#undef KB_SCALAR
        return out;
      }, "[game_over, the scalars of state._INT_FIELDS]: what the differential test compares first")
      .def("array_bytes", [](const State& s) {
        std::string out;
#define KB_BYTES(name, type, per_player)                                                           \
        out.append(reinterpret_cast<const char*>(s.name.data()), rows_of(s, s.name, per_player) * sizeof(s.name[0]));
        KB_ARRAY_FIELDS(KB_BYTES)
#undef KB_BYTES
        return nb::bytes(out.data(), out.size());
      }, "the arrays' bytes in state._ARRAY_FIELDS order, as numpy's tobytes() of the Python state's arrays")
      .def("play_random", [](State& s, std::uint64_t picker_state) {
        ktenv::Dice picker;
        picker.state = picker_state;
        return play_random(s, picker);
      })
      .def_prop_ro("n_players", [](const State& s) { return s.n; })
      .def_prop_ro("game_over", [](const State& s) { return s.game_over; })
      .def_prop_ro("winners", [](const State& s) { return s.winners; })
      .def_prop_ro("rng_state", [](const State& s) { return s.rng.state; })
      .def_prop_ro("rng_script", [](const State& s) { return std::vector<int>(s.rng.script.begin(), s.rng.script.end()); })
#define KB_INT_PROP(name) .def_prop_ro(#name, [](const State& s) { return s.name; })
      KB_INT_FIELDS(KB_INT_PROP)
#undef KB_INT_PROP
#define KB_ARRAY_VIEW(name, type, per_player)                                                   \
      .def_prop_ro(#name, [](nb::handle self) {                                                 \
        State& s = nb::cast<State&>(self);                                                      \
        return view(self, s.name, rows_of(s, s.name, per_player));                              \
      }, "a numpy view of the native array (writes go to the game)")
      KB_ARRAY_FIELDS(KB_ARRAY_VIEW)
#undef KB_ARRAY_VIEW
      ;
}

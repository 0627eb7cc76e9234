// A state between the two engines: read from a Python GameState, written as the dict that
// GameState.to_dict() writes (less the config and schema, which the Python wrapper adds).
#pragma once

#include <nanobind/nanobind.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "state.hpp"

namespace ktenv::convert {

namespace nb = nanobind;

template <class T, std::size_t N>
void read_array(nb::handle gs, const char* name, std::array<T, N>& out, int size) {
  nb::object as_list = gs.attr(name).attr("tolist")();
  if (static_cast<int>(nb::len(as_list)) != size || size > static_cast<int>(N))
    throw std::invalid_argument(std::string("state array ") + name + " has the wrong size");
  int i = 0;
  for (nb::handle v : as_list) out[i++] = static_cast<T>(nb::cast<long long>(v));
}

template <class T, std::size_t R, std::size_t C>
void read_grid(nb::handle gs, const char* name, std::array<std::array<T, C>, R>& out, int rows, int cols) {
  nb::object as_list = gs.attr(name).attr("tolist")();
  if (static_cast<int>(nb::len(as_list)) != rows || rows > static_cast<int>(R) || cols > static_cast<int>(C))
    throw std::invalid_argument(std::string("state array ") + name + " has the wrong size");
  int r = 0;
  for (nb::handle row : as_list) {
    if (static_cast<int>(nb::len(row)) != cols)
      throw std::invalid_argument(std::string("state array ") + name + " has the wrong size");
    int c = 0;
    for (nb::handle v : row) out[r][c++] = static_cast<T>(nb::cast<long long>(v));
    ++r;
  }
}

template <class T, std::size_t N>
nb::list write_array(const std::array<T, N>& a, int size) {
  nb::list out;
  for (int i = 0; i < size; ++i) {
    if constexpr (std::is_same_v<T, bool>)
      out.append(nb::bool_(a[i]));
    else
      out.append(nb::int_(static_cast<long long>(a[i])));
  }
  return out;
}

// ----- frame fields
inline nb::object field_to_py(std::int32_t v) { return nb::int_(v); }
inline nb::object field_to_py(bool v) { return nb::int_(v ? 1 : 0); }
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
nb::object field_to_py(E v) { return nb::int_(static_cast<std::int32_t>(v)); }
inline nb::object field_to_py(const PerSide& v) {
  nb::list out;
  for (auto x : v) out.append(nb::int_(x));
  return out;
}
inline nb::object field_to_py(const Series& v) {
  nb::list out;
  for (auto x : v) out.append(nb::int_(x));
  return out;
}

inline void field_from_py(nb::handle v, std::int32_t& out) { out = nb::cast<std::int32_t>(v); }
inline void field_from_py(nb::handle v, bool& out) { out = nb::cast<long long>(v) != 0; }
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
void field_from_py(nb::handle v, E& out) { out = static_cast<E>(nb::cast<std::int32_t>(v)); }
inline void field_from_py(nb::handle v, PerSide& out) {
  int i = 0;
  for (nb::handle x : v) {
    if (i >= kSides) throw std::invalid_argument("a per-side frame field has too many entries");
    out[i++] = nb::cast<std::int32_t>(x);
  }
}
inline void field_from_py(nb::handle v, Series& out) {
  out.clear();
  for (nb::handle x : v) out.push_back(nb::cast<std::int32_t>(x));
}

inline nb::dict frame_to_py(const Frame& frame) {
  nb::dict d;
  std::visit([&](const auto& f) {
    using F = std::decay_t<decltype(f)>;
    if constexpr (!std::is_same_v<F, std::monostate>) {
      d["procedure"] = F::kName;
#define KTENV_FIELD_OUT(name, type, def) d[#name] = field_to_py(f.name);
#define KTENV_FRAME_OUT(cls, saved) \
  if constexpr (std::is_same_v<F, cls>) { KTENV_FIELDS_##cls(KTENV_FIELD_OUT) }
      KTENV_FRAMES(KTENV_FRAME_OUT)
#undef KTENV_FRAME_OUT
#undef KTENV_FIELD_OUT
    }
  }, frame);
  return d;
}

inline Frame frame_from_py(nb::handle d) {
  std::string name = nb::cast<std::string>(d["procedure"]);
#define KTENV_FIELD_IN(name, type, def) field_from_py(d[#name], f.name);
#define KTENV_FRAME_IN(cls, saved) \
  if (name == saved) {             \
    cls f;                         \
    KTENV_FIELDS_##cls(KTENV_FIELD_IN) return Frame{f}; \
  }
  KTENV_FRAMES(KTENV_FRAME_IN)
#undef KTENV_FRAME_IN
#undef KTENV_FIELD_IN
  throw std::invalid_argument("unknown procedure frame '" + name + "'");
}

// ----- the whole state
inline State from_python(nb::handle gs) {
  State s;
  s.n.Things = nb::cast<int>(gs.attr("thing_place").attr("size"));
  s.n.Hexes = nb::cast<int>(gs.attr("hex_terrain").attr("size"));
  s.n.Faces = nb::cast<int>(gs.attr("hero_owner").attr("size"));
  s.n.Counters = nb::cast<int>(gs.attr("hero_up").attr("size"));
  s.n.Players = nb::cast<int>(gs.attr("gold").attr("size"));
#define KTENV_READ_ARRAY(name, type, size) read_array(gs, #name, s.name, s.n.size);
  KTENV_STATE_ARRAYS(KTENV_READ_ARRAY)
#undef KTENV_READ_ARRAY
#define KTENV_READ_GRID(name, type, rows, cols) read_grid(gs, #name, s.name, s.n.rows, s.n.cols);
  KTENV_STATE_GRIDS(KTENV_READ_GRID)
#undef KTENV_READ_GRID
#define KTENV_READ_SCALAR(name) s.name = nb::cast<long long>(gs.attr(#name));
  KTENV_STATE_SCALARS(KTENV_READ_SCALAR)
#undef KTENV_READ_SCALAR
  {
    std::vector<Frame> frames;
    for (nb::handle f : gs.attr("frames")) frames.push_back(frame_from_py(f.attr("to_dict")()));
    s.frames.assign(frames);
  }
  for (nb::handle v : gs.attr("hex_stack")) s.hex_stack.push_back(nb::cast<std::int32_t>(v));
  for (nb::handle v : gs.attr("hex_aside")) s.hex_aside.push_back(nb::cast<std::int32_t>(v));
  nb::object rng = gs.attr("rng");  // owned: a handle would dangle once the accessor is gone
  s.rng.state = nb::cast<std::uint64_t>(rng.attr("state"));
  for (nb::handle v : rng.attr("script")) s.rng.script.push_back(nb::cast<int>(v));
  for (nb::handle v : gs.attr("winners")) s.winners.push_back(nb::cast<std::int32_t>(v));
  s.reason = nb::cast<std::string>(gs.attr("reason"));
  nb::object stats = gs.attr("stats");  // owned: a native State builds this dict on every access
#define KTENV_READ_STAT(name) s.stats.name = nb::cast<long long>(stats[#name]);
  KTENV_STATS(KTENV_READ_STAT)
#undef KTENV_READ_STAT
  reindex(s);
  return s;
}

inline nb::dict to_python(const State& s) {
  nb::dict d;
#define KTENV_WRITE_ARRAY(name, type, size) d[#name] = write_array(s.name, s.n.size);
  KTENV_STATE_ARRAYS(KTENV_WRITE_ARRAY)
#undef KTENV_WRITE_ARRAY
#define KTENV_WRITE_GRID(name, type, rows, cols)                                  \
  {                                                                               \
    nb::list grid;                                                                \
    for (int r = 0; r < s.n.rows; ++r) grid.append(write_array(s.name[r], s.n.cols)); \
    d[#name] = grid;                                                              \
  }
  KTENV_STATE_GRIDS(KTENV_WRITE_GRID)
#undef KTENV_WRITE_GRID
#define KTENV_WRITE_SCALAR(name) d[#name] = nb::int_(s.name);
  KTENV_STATE_SCALARS(KTENV_WRITE_SCALAR)
#undef KTENV_WRITE_SCALAR
  nb::list frames;
  for (const auto& f : s.frames.list()) frames.append(frame_to_py(f));
  d["frames"] = frames;
  nb::list stack, aside, winners;
  for (auto v : s.hex_stack) stack.append(nb::int_(v));
  for (auto v : s.hex_aside) aside.append(nb::int_(v));
  for (auto v : s.winners) winners.append(nb::int_(v));
  d["hex_stack"] = stack;
  d["hex_aside"] = aside;
  nb::dict rng;
  rng["state"] = std::to_string(s.rng.state);
  nb::list script;
  for (auto v : s.rng.script) script.append(nb::int_(v));
  rng["script"] = script;
  d["rng"] = rng;
  d["winners"] = winners;
  d["reason"] = s.reason;
  nb::dict stats;
#define KTENV_WRITE_STAT(name) stats[#name] = nb::int_(s.stats.name);
  KTENV_STATS(KTENV_WRITE_STAT)
#undef KTENV_WRITE_STAT
  d["stats"] = stats;
  return d;
}

}  // namespace ktenv::convert

#include "game.hpp"

namespace ktenv::convert {

// `options`: ktenv.kings_and_things.native.bridge.config_numbers(cfg), every option as an integer.
inline Config config_from_python(nb::handle options) {
  Config c;
#define KTENV_READ_OPTION(name, def) c.name = nb::cast<int>(options[#name]);
  KTENV_CONFIG_NUMBERS(KTENV_READ_OPTION)
  KTENV_CONFIG_CHOICES(KTENV_READ_OPTION)
#undef KTENV_READ_OPTION
#define KTENV_READ_FLAG(name, def) c.name = nb::cast<int>(options[#name]) != 0;
  KTENV_CONFIG_FLAGS(KTENV_READ_FLAG)
#undef KTENV_READ_FLAG
  for (nb::handle v : options["powers"]) c.powers.push_back(nb::cast<int>(v));
  return c;
}

inline nb::dict config_to_python(const Config& c) {
  nb::dict d;
#define KTENV_WRITE_OPTION(name, def) d[#name] = nb::int_(static_cast<int>(c.name));
  KTENV_CONFIG_NUMBERS(KTENV_WRITE_OPTION)
  KTENV_CONFIG_CHOICES(KTENV_WRITE_OPTION)
  KTENV_CONFIG_FLAGS(KTENV_WRITE_OPTION)
#undef KTENV_WRITE_OPTION
  nb::list powers;
  for (int p : c.powers) powers.append(nb::int_(p));
  d["powers"] = powers;
  return d;
}

template <class T>
std::vector<T> read_list(nb::handle array) {
  std::vector<T> out;
  nb::object values = nb::hasattr(array, "tolist") ? array.attr("tolist")() : nb::borrow(array);
  for (nb::handle v : values) out.push_back(static_cast<T>(nb::cast<long long>(v)));
  return out;
}

template <class T, std::size_t N>
void read_fixed(nb::handle array, std::array<T, N>& out, const char* what) {
  auto values = read_list<T>(array);
  if (values.size() > N) throw std::invalid_argument(std::string(what) + " is larger than the native capacity");
  std::copy(values.begin(), values.end(), out.begin());
}

// `catalog`: the game's ktenv.kings_and_things.catalog.Catalog; `geo`: its board's ktenv.kings_and_things.board.Geometry; `seats`: the
// PLAYER block's size (ktenv.kings_and_things.engine.actions.action_layout).
inline Tables tables_from_python(nb::handle catalog, nb::handle geo, int n_players, int seats) {
  Tables t;
  t.n.Things = nb::cast<int>(catalog.attr("N_THINGS"));
  t.n.Faces = nb::cast<int>(catalog.attr("N_HERO_FACES"));
  t.n.Counters = nb::cast<int>(catalog.attr("N_HERO_COUNTERS"));
  t.n.Hexes = nb::cast<int>(geo.attr("n_hexes"));
  t.n.Players = n_players;
#define KTENV_READ_TABLE(name, type, size) read_fixed(catalog.attr(#name), t.name, #name);
  KTENV_CATALOG_TABLES(KTENV_READ_TABLE)
#undef KTENV_READ_TABLE
  t.creature_ids = read_list<std::int16_t>(catalog.attr("CREATURE_IDS"));
  t.income_ids = read_list<std::int16_t>(catalog.attr("INCOME_IDS"));
  t.treasure_ids = read_list<std::int16_t>(catalog.attr("TREASURE_IDS"));
  t.magic_ids = read_list<std::int16_t>(catalog.attr("MAGIC_IDS"));
  t.event_ids = read_list<std::int16_t>(catalog.attr("EVENT_IDS"));
  t.house_thing_ids = read_list<std::int16_t>(catalog.attr("HOUSE_THING_IDS"));
  t.house_hero_faces = read_list<std::int16_t>(catalog.attr("HOUSE_HERO_FACES"));
  read_fixed(catalog.attr("FORT_COUNT"), t.fort_count, "FORT_COUNT");
  read_fixed(catalog.attr("MOVE_COST"), t.move_cost, "MOVE_COST");
  read_fixed(catalog.attr("TERRAIN_HEX_COUNT"), t.terrain_hex_count, "TERRAIN_HEX_COUNT");
  t.radius = nb::cast<int>(geo.attr("radius"));
  for (int h = 0; h < t.n.Hexes; ++h) {
    read_fixed(geo.attr("coords")[nb::int_(h)], t.coords[h], "coords");
    read_fixed(geo.attr("neighbours")[nb::int_(h)], t.neighbours[h], "neighbours");
    read_fixed(geo.attr("distance")[nb::int_(h)], t.distance[h], "distance");
  }
  read_fixed(geo.attr("ring"), t.ring, "ring");
  t.layout = ActionLayout::of(t.n.Hexes, t.n.Things, t.n.Faces, static_cast<int>(t.treasure_ids.size()), seats);
  return t;
}

}  // namespace ktenv::convert

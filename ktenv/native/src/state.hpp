// The whole game in one flat struct, the native twin of ktenv/state.py's GameState.
// Arrays have the capacity of the largest game (six players, two boxes and the house block); the
// sizes of this game are in `n`. Copying a state is one struct copy plus its few short vectors.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "dice.hpp"
#include "generated.hpp"

namespace ktenv {

// Capacities (checked against the Python catalog and board when a state is converted).
constexpr int kMaxThings = 400;
constexpr int kMaxHexes = 61;
constexpr int kMaxFaces = 26;
constexpr int kMaxCounters = 13;
constexpr int kMaxPlayers = 6;
constexpr int kSides = kMaxPlayers + 1;  // players 0-5, then neutral (constants.NEUTRAL)

struct Sizes {
  int Things = 0, Hexes = 0, Faces = 0, Counters = 0, Players = 0;
};

using PerSide = std::array<std::int32_t, kSides>;  // a number per side code
using Series = std::vector<std::int32_t>;          // a path, a queue

// A per-side field's default: `fill` for every side (-1 where the number is a side or a hex).
constexpr PerSide per_side(std::int32_t fill) {
  PerSide out{};
  for (auto& v : out) v = fill;
  return out;
}

// ----- procedure frames (ktenv/procedures.py), one struct each
#define KTENV_DECLARE_FIELD(name, type, def) type name = def;
#define KTENV_DECLARE_FRAME(cls, saved)            \
  struct cls {                                     \
    static constexpr const char* kName = saved;    \
    KTENV_FIELDS_##cls(KTENV_DECLARE_FIELD)        \
  };
KTENV_FRAMES(KTENV_DECLARE_FRAME)
#undef KTENV_DECLARE_FRAME
#undef KTENV_DECLARE_FIELD

#define KTENV_FRAME_ALTERNATIVE(cls, saved) , cls
using Frame = std::variant<std::monostate KTENV_FRAMES(KTENV_FRAME_ALTERNATIVE)>;
#undef KTENV_FRAME_ALTERNATIVE

struct Stats {
#define KTENV_DECLARE_STAT(name) std::int64_t name = 0;
  KTENV_STATS(KTENV_DECLARE_STAT)
#undef KTENV_DECLARE_STAT
};

struct State {
  Sizes n;
#define KTENV_DECLARE_ARRAY(name, type, size) std::array<type, kMax##size> name{};
  KTENV_STATE_ARRAYS(KTENV_DECLARE_ARRAY)
#undef KTENV_DECLARE_ARRAY
#define KTENV_DECLARE_GRID(name, type, rows, cols) std::array<std::array<type, kMax##cols>, kMax##rows> name{};
  KTENV_STATE_GRIDS(KTENV_DECLARE_GRID)
#undef KTENV_DECLARE_GRID
#define KTENV_DECLARE_SCALAR(name) std::int64_t name = 0;
  KTENV_STATE_SCALARS(KTENV_DECLARE_SCALAR)
#undef KTENV_DECLARE_SCALAR
  std::vector<Frame> frames;  // procedures under way, outermost first
  std::vector<std::int32_t> hex_stack, hex_aside;
  Dice rng;
  std::vector<std::int32_t> winners;
  std::string reason;
  Stats stats;

  // The frame of procedure F under way, or nullptr.
  template <class F>
  F* frame() {
    for (auto& f : frames)
      if (auto* p = std::get_if<F>(&f)) return p;
    return nullptr;
  }
};

}  // namespace ktenv

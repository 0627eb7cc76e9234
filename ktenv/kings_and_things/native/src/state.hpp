// The whole game in one flat struct, the native twin of ktenv/kings_and_things/state.py's GameState.
// Arrays have the capacity of the largest game (six players, two boxes and the house block); the
// sizes of this game are in `n`. Copying a state is one struct copy plus its few short vectors.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "generated.hpp"
#include "rng.hpp"

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

// ----- procedure frames (ktenv/kings_and_things/procedures.py), one struct each
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
template <class V>
struct slots_of;
template <class... Ts>
struct slots_of<std::variant<std::monostate, Ts...>> {
  using type = std::tuple<std::optional<Ts>...>;
};
using FrameSlots = slots_of<Frame>::type;  // one optional slot per kind of frame

// The kind number of frame type F: its index in Frame (1, 2, ...; 0 is "no frame").
template <class F, class V = Frame>
struct frame_kind;
template <class F, class... Ts>
struct frame_kind<F, std::variant<Ts...>> {
  static constexpr int value = [] {
    constexpr bool same[] = {std::is_same_v<F, Ts>...};
    for (int i = 0; i < static_cast<int>(sizeof...(Ts)); ++i)
      if (same[i]) return i;
    return -1;
  }();
};
constexpr int kFrameKinds = static_cast<int>(std::variant_size_v<Frame>);

// The procedures under way (Python: GameState.frames). At most one frame of a kind is under way, so
// each kind has its own slot: a pointer to a frame stays valid while other frames come and go.
// `order` keeps the kinds in the order they were pushed (outermost first), as the Python list does.
struct Frames {
  FrameSlots slots;
  std::array<std::int8_t, kFrameKinds> order{};
  int count = 0;

  template <class F>
  F* get() {
    auto& slot = std::get<std::optional<F>>(slots);
    return slot ? &*slot : nullptr;
  }
  template <class F>
  const F* get() const {
    const auto& slot = std::get<std::optional<F>>(slots);
    return slot ? &*slot : nullptr;
  }
  template <class F>
  F& push(F f);  // defined below State (throws when kind F is under way)
  template <class F>
  void drop() {
    auto& slot = std::get<std::optional<F>>(slots);
    if (!slot) return;
    slot.reset();
    int k = frame_kind<F>::value, j = 0;
    for (int i = 0; i < count; ++i)
      if (order[i] != k) order[j++] = order[i];
    count = j;
  }
  bool empty() const { return count == 0; }
  int size() const { return count; }
  // for conversions: the frames in order, as variants
  std::vector<Frame> list() const;
  void assign(const std::vector<Frame>& frames);
  void clear() {
    slots = FrameSlots{};
    count = 0;
  }
};

// Movement status of a creature or hero during the Movement phase (R11.2.1), as ktenv/kings_and_things/state.py.
constexpr int UNMOVED = 0, MOVING = 1, DONE = 2;

// A set of Things as bits: membership in O(1), members in ascending order (as np.flatnonzero gives them).
struct ThingBits {
  static constexpr int kWords = (kMaxThings + 63) / 64;
  std::array<std::uint64_t, kWords> w{};

  void set(int c) { w[c >> 6] |= std::uint64_t{1} << (c & 63); }
  void reset(int c) { w[c >> 6] &= ~(std::uint64_t{1} << (c & 63)); }
  bool test(int c) const { return (w[c >> 6] >> (c & 63)) & 1; }
  bool any() const {
    for (auto x : w)
      if (x) return true;
    return false;
  }
  int count() const {  // SWAR: without -mpopcnt __builtin_popcountll is a libgcc call
    int k = 0;
    for (std::uint64_t x : w) {
      x -= (x >> 1) & 0x5555555555555555ULL;
      x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
      x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
      k += static_cast<int>((x * 0x0101010101010101ULL) >> 56);
    }
    return k;
  }
  template <class F>
  void each(F f) const {  // f(c) for every member, ascending
    for (int i = 0; i < kWords; ++i)
      for (std::uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + __builtin_ctzll(x));
  }
  bool operator==(const ThingBits&) const = default;
};

// Where the Things are, indexed (derived data: never saved, never observed). A pure function of
// thing_place, thing_owner, thing_hex, thing_status and thing_mp, kept current by every write of those
// through set_place / set_owner / set_hex / set_status / set_mp, and rebuilt by reindex after a bulk change (a new game,
// a conversion, a sampled world, hand edits announced by machine::edited).
struct ThingIndex {
  ThingBits cup;                                 // thing_place == CUP
  ThingBits board;                               // thing_place == BOARD (any hex)
  std::array<ThingBits, kMaxHexes> board_at;     // ... and thing_hex == h (0 <= h < Hexes)
  std::array<ThingBits, kMaxPlayers> screen_of;  // thing_place == SCREEN, thing_owner == p
  std::array<std::int16_t, kMaxPlayers> screen_size{};  // ... how many
  ThingBits moving;                              // thing_status == MOVING
  ThingBits mp;                                  // thing_mp != 0
  bool operator==(const ThingIndex&) const = default;
};

struct Stats {
#define KTENV_DECLARE_STAT(name) std::int64_t name = 0;
  KTENV_STATS(KTENV_DECLARE_STAT)
#undef KTENV_DECLARE_STAT
};

struct Config;
struct Tables;
struct Rules;  // a game's options and tables together (game.hpp)

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
  Frames frames;  // procedures under way, outermost first
  std::vector<std::int32_t> hex_stack, hex_aside;
  Dice rng;
  std::vector<std::int32_t> winners;
  std::string reason;
  Stats stats;
  ThingIndex things;  // derived: see ThingIndex
  // the legal mask of the current decision, kept until the state changes (machine::legal_mask); anyone
  // who changes the state by other means than the machine calls machine::edited
  std::array<std::int8_t, 1024> mask_cache;
  bool mask_valid = false;
  // the game's options and tables (shared, read-only): s.cfg->victory, s.t->THING_KIND[c]
  std::shared_ptr<const Rules> rules;
  const Config* cfg = nullptr;
  const Tables* t = nullptr;

  // The frame of procedure F under way, or nullptr (Python: s.frame(F)).
  template <class F>
  F* frame() { return frames.get<F>(); }
  template <class F>
  const F* frame() const { return frames.get<F>(); }
  template <class F>
  F& push(F f) { return frames.push(std::move(f)); }
  template <class F>
  void drop() { frames.drop<F>(); }
};

// ----- keeping State::things current (the only writers of the four indexed arrays)

inline void unindex_thing(const State& s, ThingIndex& x, int c) {
  x.cup.reset(c);
  x.board.reset(c);
  x.moving.reset(c);
  x.mp.reset(c);
  const int h = s.thing_hex[c], o = s.thing_owner[c];
  if (h >= 0 && h < s.n.Hexes) x.board_at[h].reset(c);
  if (o >= 0 && o < kMaxPlayers && x.screen_of[o].test(c)) {
    x.screen_of[o].reset(c);
    --x.screen_size[o];
  }
}

inline void index_thing(const State& s, ThingIndex& x, int c) {
  const int place = s.thing_place[c], h = s.thing_hex[c], o = s.thing_owner[c];
  if (place == CUP) x.cup.set(c);
  if (place == BOARD) {
    x.board.set(c);
    if (h >= 0 && h < s.n.Hexes) x.board_at[h].set(c);
  }
  if (place == SCREEN && o >= 0 && o < kMaxPlayers) {
    x.screen_of[o].set(c);
    ++x.screen_size[o];
  }
  if (s.thing_status[c] == MOVING) x.moving.set(c);
  if (s.thing_mp[c] != 0) x.mp.set(c);
}

inline void set_place(State& s, int c, int place) {
  unindex_thing(s, s.things, c);
  s.thing_place[c] = static_cast<std::int8_t>(place);
  index_thing(s, s.things, c);
}
inline void set_owner(State& s, int c, int owner) {
  unindex_thing(s, s.things, c);
  s.thing_owner[c] = static_cast<std::int8_t>(owner);
  index_thing(s, s.things, c);
}
inline void set_hex(State& s, int c, int hx) {
  unindex_thing(s, s.things, c);
  s.thing_hex[c] = static_cast<std::int8_t>(hx);
  index_thing(s, s.things, c);
}
inline void set_status(State& s, int c, int status) {
  s.thing_status[c] = static_cast<std::int8_t>(status);
  if (status == MOVING)
    s.things.moving.set(c);
  else
    s.things.moving.reset(c);
}

inline void set_mp(State& s, int c, int mp) {
  s.thing_mp[c] = static_cast<std::int8_t>(mp);
  if (mp != 0)
    s.things.mp.set(c);
  else
    s.things.mp.reset(c);
}

// The index from scratch: reindex after arrays were written wholesale; index_of for the debug check
// (index_of(s) == s.things).
inline ThingIndex index_of(const State& s) {
  ThingIndex out;
  for (int c = 0; c < s.n.Things; ++c) index_thing(s, out, c);
  return out;
}
inline void reindex(State& s) { s.things = index_of(s); }

template <class F>
F& Frames::push(F f) {
  auto& slot = std::get<std::optional<F>>(slots);
  if (slot) throw std::logic_error(std::string("procedure '") + F::kName + "' started twice");
  slot.emplace(std::move(f));
  order[count++] = static_cast<std::int8_t>(frame_kind<F>::value);
  return *slot;
}

inline std::vector<Frame> Frames::list() const {
  std::vector<Frame> out;
  for (int i = 0; i < count; ++i) {
    int k = order[i];
#define KTENV_FRAME_TO_LIST(cls, saved) \
    if (k == frame_kind<cls>::value) out.emplace_back(*std::get<std::optional<cls>>(slots));
    KTENV_FRAMES(KTENV_FRAME_TO_LIST)
#undef KTENV_FRAME_TO_LIST
  }
  return out;
}

inline void Frames::assign(const std::vector<Frame>& frames) {
  clear();
  for (const auto& f : frames)
    std::visit([&](const auto& v) {
      using F = std::decay_t<decltype(v)>;
      if constexpr (!std::is_same_v<F, std::monostate>) push(v);
    }, f);
}

}  // namespace ktenv

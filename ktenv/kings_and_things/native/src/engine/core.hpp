// What every native engine module uses: errors, Python's integer arithmetic, fixed-capacity id
// lists (what np.flatnonzero returns), and the state's basic queries (ktenv/kings_and_things/state.py's GameState
// methods), under the same names. Include this first in every src/engine/*.cpp.
//
// Conventions (docs/native.md): one C++ file per Python module, the same function names, in namespace
// ktenv::<module>; the same order of dice, draws and ties as the Python code.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "../game.hpp"
#include "../state.hpp"

namespace ktenv {

// An action the current decision does not allow; the state is left unchanged (Python: IllegalActionError).
struct IllegalAction : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// The state broke a rule of conservation or a limit (Python: InvariantError): a bug.
struct InvariantViolation : std::logic_error {
  using std::logic_error::logic_error;
};

// UNMOVED, MOVING, DONE (the movement status of a creature or hero): state.hpp

// Python's % and // round toward minus infinity; C++'s toward zero.
constexpr int floor_mod(int a, int b) {
  int r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
constexpr int floor_div(int a, int b) {
  int q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// A list of ids with a fixed capacity, in ascending order when built by `where` (np.flatnonzero).
template <class T, int N>
struct FixedList {
  std::array<T, N> v;
  int n = 0;

  void push_back(int x) { v[n++] = static_cast<T>(x); }
  void pop_back() { --n; }
  void clear() { n = 0; }
  int size() const { return n; }
  bool empty() const { return n == 0; }
  int operator[](int i) const { return v[i]; }
  T& at(int i) { return v[i]; }
  int back() const { return v[n - 1]; }
  int front() const { return v[0]; }
  const T* begin() const { return v.data(); }
  const T* end() const { return v.data() + n; }
  T* begin() { return v.data(); }
  T* end() { return v.data() + n; }
  bool contains(int x) const {
    for (int i = 0; i < n; ++i)
      if (v[i] == x) return true;
    return false;
  }
  int index(int x) const {  // -1 when absent (Python's list.index raises)
    for (int i = 0; i < n; ++i)
      if (v[i] == x) return i;
    return -1;
  }
  void erase_at(int i) {
    for (int j = i; j + 1 < n; ++j) v[j] = v[j + 1];
    --n;
  }
  void remove(int x) {  // the first x, as Python's list.remove
    int i = index(x);
    if (i >= 0) erase_at(i);
  }
  void insert(int i, int x) {
    for (int j = n; j > i; --j) v[j] = v[j - 1];
    v[i] = static_cast<T>(x);
    ++n;
  }
};

using Ids = FixedList<std::int16_t, kMaxThings>;  // Things, hexes, hero faces, players: any ids
using HexFlags = std::array<bool, kMaxHexes>;     // a boolean per hex
using HexCounts = std::array<int, kMaxHexes>;     // a number per hex
using ThingFlags = std::array<bool, kMaxThings>;  // a boolean per Thing

// np.flatnonzero over 0..count-1 of a predicate.
template <class Pred>
Ids where(int count, Pred pred) {
  Ids out;
  for (int i = 0; i < count; ++i)
    if (pred(i)) out.push_back(i);
  return out;
}
template <class Pred>
int count_where(int count, Pred pred) {
  int k = 0;
  for (int i = 0; i < count; ++i)
    if (pred(i)) ++k;
  return k;
}

// ----- the Things' index (State::things): the same lists as the scans over every Thing, ascending

inline Ids ids_of(const ThingBits& bits) {
  Ids out;
  bits.each([&](int c) { out.push_back(c); });
  return out;
}
inline Ids moving_things(const State& s) { return ids_of(s.things.moving); }  // thing_status == MOVING
// f(c) for every Thing on the board in hex hx (thing_place == BOARD, thing_hex == hx), ascending.
template <class F>
void each_board_thing_at(const State& s, int hx, F f) {
  if (hx >= 0 && hx < s.n.Hexes) {
    s.things.board_at[hx].each(f);
  } else {
    s.things.board.each([&](int c) {
      if (s.thing_hex[c] == hx) f(c);
    });
  }
}
// where(s.n.Things, pred) over the Things on the board only (pred may assume thing_place == BOARD).
template <class Pred>
Ids where_on_board(const State& s, Pred pred) {
  Ids out;
  s.things.board.each([&](int c) {
    if (pred(c)) out.push_back(c);
  });
  return out;
}
template <class Pred>
Ids where_on_board_at(const State& s, int hx, Pred pred) {
  Ids out;
  each_board_thing_at(s, hx, [&](int c) {
    if (pred(c)) out.push_back(c);
  });
  return out;
}

// Series (a frame's list field) helpers, as Python list operations.
inline bool contains(const Series& s, int x) { return std::find(s.begin(), s.end(), x) != s.end(); }
inline int index_of(const Series& s, int x) {
  auto it = std::find(s.begin(), s.end(), x);
  return it == s.end() ? -1 : static_cast<int>(it - s.begin());
}

// ----- GameState's queries (ktenv/kings_and_things/state.py), as functions of the state

int n_players(const State& s);
using Order = FixedList<std::int8_t, kMaxPlayers>;  // players in turn order (no allocation: asked at every turn)
Order turn_order(const State& s);  // from the first player, skipping those out (R0.4.15)
int right_of(const State& s, int player);      // the previous player in turn order (RD1.4)
Ids screen(const State& s, int player);
int screen_size(const State& s, int player);
Ids cup(const State& s);
Ids owned_hexes(const State& s, int player);
int land_hex_count(const State& s, int player);
Ids heroes_of(const State& s, int player);
HexCounts army_counts(const State& s, int player);  // creatures and heroes per hex (R11.4.1)
HexCounts room_for(const State& s, int player);     // R11.4; Citadel: no limit (10_000)
HexCounts room_for(const State& s, int player, const HexCounts& counts);
int income_of(const State& s, int player);          // R6.2 (Python: s.income(player))
Ids citadel_hexes(const State& s, int player = -2);  // -2: any owner (Python: player=None)
int fort_in_use(const State& s, int level);
int open_screen(const State& s);                    // R17.1.1 / R17.1.2, -1: nobody
inline bool game_over(const State& s) { return s.phase == PHASE_GAME_OVER; }

}  // namespace ktenv

// Who fights in a battle and with what: the sides' counters, their values, the step each one attacks in,
// and the counters that can take a hit (R13.1, R13.4, R13.5, C.5, C.7, C.10, C.11).
// Python twin: engine/battle_sides.py (the same functions under the same names, in namespace ktenv::battle_sides).
#pragma once

#include <optional>

#include "core.hpp"

namespace ktenv::battle_sides {

constexpr int MAGIC_STEP = 0, RANGED_STEP = 1, MELEE_STEP = 2;
constexpr int FORT_STEP[5] = {-1, MELEE_STEP, MELEE_STEP, RANGED_STEP, MAGIC_STEP};  // R13.4.1, by fort level

constexpr int FIREWALL = magic::FIREWALL;
constexpr int GOLEM = magic::GOLEM;
constexpr int BOW = magic::MAGIC_BOW;
constexpr int SWORD = magic::MAGIC_SWORD;
constexpr int TALISMAN = magic::TALISMAN;
constexpr int BALLOON = magic::BALLOON;
constexpr int BOAT = magic::BOAT;  // R22.6 (house content)
constexpr int MARKSMAN = hero::MARKSMAN;
constexpr int SWORDMASTER = hero::SWORDMASTER;
constexpr int GOLEM_VALUE = 6;    // C.7
constexpr int BALLOON_VALUE = 3;  // C.2 [DATA M7]: printed ranged 3

// One attacker of a step: (effective value, dice, tag); tag is the Marksman's face in his value-2 mode, else -1.
struct Attack {
  int value = 0, dice = 1, tag = -1;
  bool operator==(const Attack&) const = default;
};
constexpr int kMaxAttacks = kMaxThings + kMaxFaces + 8;
struct Attacks {  // a fixed-capacity list of Attack (Python: list of tuples)
  std::array<Attack, kMaxAttacks> v;
  int n = 0;
  void push_back(const Attack& a) { v[n++] = a; }
  int size() const { return n; }
  bool empty() const { return n == 0; }
  const Attack& operator[](int i) const { return v[i]; }
  const Attack* begin() const { return v.data(); }
  const Attack* end() const { return v.data() + n; }
};

const Series& order(const State& s);  // R12.1.6: attackers from the defender's left, then the defender
int defender(const State& s);
int controller(const State& s, int side);  // R12.2.3, RD1.6
Ids creatures(const State& s, int side, int hx);
Ids heroes(const State& s, int side, int hx);
bool in_play(const State& s, int side, int item);
int town(const State& s, int side, int hx);  // R1.9.2: the side's city or village in the hex, or -1
int town_value(const State& s, int c);
int fort_value(const State& s, int side, int hx);  // R13.5.2
int firewall_value(const State& s, int side);  // C.5
bool has_golem(const State& s, int side);
bool active(const State& s, int side, int hx);  // R13.1.1 / R13.9.5
Ids active_sides(const State& s);
std::optional<Ids> balloon_riders(const State& s, int side);  // nullopt: no Balloon of the side here
Attacks attackers(const State& s, int side, int step);  // R13.4.1-R13.4.3
Attacks populous_dice(const Attacks& out, int ones, int penalty);  // R21.12
Ids hit_targets(const State& s, int side, int hex_base, int thing_base, int hero_base);  // R13.6.2
Ids retreat_hexes(const State& s, int side);  // R13.8.3

}  // namespace ktenv::battle_sides

// The Deerhunter (A.3, RD4.5): cost bookkeeping of the counters that move with him. The bookkeeping is in
// the Move frame: deerhunter (on), steps, ground_cost, qualifying (a Thing by its id, a hero face by
// n.Things + face).
// Python twin: engine/deerhunter.py (the same functions under the same names, in namespace ktenv::deerhunter).
#pragma once

#include "core.hpp"

namespace ktenv::deerhunter {

constexpr int DEERHUNTER = hero::DEERHUNTER;
constexpr int MP = 4;  // R11.1.2

// qualifying's answer: per member of `things` / `heroes`, in their order, does it pay 1 per hex and
// ignore its pin (A.3). Python: two boolean arrays.
struct Qualifying {
  FixedList<bool, kMaxThings> things;
  FixedList<bool, kMaxFaces> heroes;
};

void start(State& s, const Ids& things, const Ids& heroes);
Qualifying qualifying(const State& s, const Ids& things, const Ids& heroes);
void entered(State& s, int cost);
int normal_spent(const State& s, bool flying);
bool may_drop_thing(const State& s, int c);
bool may_drop_hero(const State& s, int f, const Ids& things, const Ids& heroes);
// c, f: the member that left (-1: none; Python's defaults), separate(s, -1, -1) = Python's separate(s)
void separate(State& s, int c, int f);
void clear(State& s);

}  // namespace ktenv::deerhunter

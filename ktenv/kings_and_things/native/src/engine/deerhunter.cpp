// ktenv/kings_and_things/engine/deerhunter.py: A.3 Deerhunter / RD4.5. A qualifying counter pays 1 MP per hex whatever
// the terrain and may leave a hex where it is pinned; the bookkeeping lives in the Move frame.
#include "deerhunter.hpp"

namespace ktenv::deerhunter {
namespace {

// Python's _qualifying: the Move frame's list, or an empty one without a move.
bool in_qualifying(const State& s, int x) {
  const Move* m = s.frame<Move>();
  return m != nullptr && contains(m->qualifying, x);
}

}  // namespace

// A move starts with these members; the Deerhunter among them turns the mode on.
void start(State& s, const Ids& things, const Ids& heroes) {
  if (!heroes.contains(DEERHUNTER)) return;
  Move* m = s.frame<Move>();
  m->deerhunter = true;
  m->steps = 0;
  m->ground_cost = 0;
  Series q(things.begin(), things.end());  // sorted(set(things) | {n_things + f})
  for (int f : heroes) q.push_back(s.n.Things + f);
  std::sort(q.begin(), q.end());
  q.erase(std::unique(q.begin(), q.end()), q.end());
  m->qualifying = std::move(q);
}

Qualifying qualifying(const State& s, const Ids& things, const Ids& heroes) {
  const Move* m = s.frame<Move>();
  bool on = m != nullptr && m->deerhunter;
  Qualifying out;
  for (int c : things) out.things.push_back(on && contains(m->qualifying, c));
  for (int f : heroes) out.heroes.push_back(on && contains(m->qualifying, s.n.Things + f));
  return out;
}

// The stack entered a hex of normal ground cost `cost`.
void entered(State& s, int cost) {
  Move* m = s.frame<Move>();
  if (m->deerhunter) {
    m->steps += 1;
    m->ground_cost += cost;
  }
}

// MP a qualifying counter would have spent so far at normal costs (flyers: 1 a hex).
int normal_spent(const State& s, bool flying) {
  const Move* m = s.frame<Move>();
  return flying ? m->steps : m->ground_cost;
}

// RD4.5: separating a qualifying Thing is illegal when its normal cost exceeds 4.
bool may_drop_thing(const State& s, int c) {
  return !in_qualifying(s, c) || normal_spent(s, s.t->THING_FLYING[c]) <= MP;
}

// Dropping the Deerhunter separates every other qualifying member (RD4.5).
bool may_drop_hero(const State& s, int f, const Ids& things, const Ids& heroes) {
  if (!in_qualifying(s, s.n.Things + f)) return true;
  if (f != DEERHUNTER) return normal_spent(s, s.t->HERO_FLYING[f]) <= MP;
  Qualifying q = qualifying(s, things, heroes);
  bool all_fly = true;
  for (int i = 0; i < things.size(); ++i)
    if (q.things[i] && !s.t->THING_FLYING[things[i]]) all_fly = false;
  for (int i = 0; i < heroes.size(); ++i)
    if (q.heroes[i] && heroes[i] != DEERHUNTER && !s.t->HERO_FLYING[heroes[i]]) all_fly = false;
  if (all_fly) return true;
  return s.frame<Move>()->ground_cost <= MP;
}

// A member left the stack: forget it; without the Deerhunter the others pay normal costs for the
// whole path from now on (RD4.5).
void separate(State& s, int c, int f) {
  Move* m = s.frame<Move>();
  if (m == nullptr || !m->deerhunter) return;
  for (int x : {c >= 0 ? c : -1, f >= 0 ? s.n.Things + f : -1}) {
    if (x < 0) continue;
    auto it = std::find(m->qualifying.begin(), m->qualifying.end(), x);
    if (it != m->qualifying.end()) m->qualifying.erase(it);
  }
  if (s.hero_status[DEERHUNTER] == MOVING && contains(m->qualifying, s.n.Things + DEERHUNTER)) return;
  Ids things = moving_things(s);
  Ids heroes = where(s.n.Faces, [&](int h) { return s.hero_status[h] == MOVING; });
  Qualifying q = qualifying(s, things, heroes);
  for (int i = 0; i < things.size(); ++i)
    if (q.things[i]) set_mp(s, things[i], std::max(0, MP - normal_spent(s, s.t->THING_FLYING[things[i]])));
  for (int i = 0; i < heroes.size(); ++i)
    if (q.heroes[i]) s.hero_mp[heroes[i]] = std::max(0, MP - normal_spent(s, s.t->HERO_FLYING[heroes[i]]));
  clear(s);
}

// The Deerhunter's company is over for this move.
void clear(State& s) {
  Move* m = s.frame<Move>();
  if (m != nullptr) {
    m->deerhunter = false;
    m->steps = 0;
    m->ground_cost = 0;
    m->qualifying.clear();
  }
}

}  // namespace ktenv::deerhunter

// ktenv/kings_and_things/engine/stacks.py: RP-5.9 / RD10.2 stacks over the limit of 10 for now, and the trim at the
// end of the owner's movement turn (the limit itself: core's room_for).
#include "stacks.hpp"

namespace ktenv::stacks {
namespace {

StackOverflow& overflow_frame(State& s) {
  if (auto* f = s.frame<StackOverflow>()) return *f;
  return s.push(StackOverflow{});
}

void overflow_drop(State& s, const StackOverflow& f) {
  bool any = false;
  for (auto v : f.owners) any |= v != 0;
  if (!f.retreat && !any) s.drop<StackOverflow>();
}

}  // namespace

void allow_overflow(State& s, int p) { overflow_frame(s).owners[p] = 1; }

bool overflow_allowed(const State& s, int p) {
  const auto* f = s.frame<StackOverflow>();
  return f != nullptr && (f->owners[p] != 0 || f->retreat);
}

void overflow_trimmed(State& s, int p) {
  if (auto* f = s.frame<StackOverflow>()) {
    f->owners[p] = 0;
    overflow_drop(s, *f);
  }
}

void retreat_overflow(State& s, bool on) {
  auto& f = overflow_frame(s);
  f.retreat = on;
  overflow_drop(s, f);
}

int over_limit(const State& s, int p) {
  HexCounts room = room_for(s, p);
  for (int h = 0; h < s.n.Hexes; ++h)
    if (room[h] < 0) return h;
  return -1;
}

bool trim(State& s, int p) {
  int hx = over_limit(s, p);
  if (hx < 0) {
    overflow_trimmed(s, p);
    s.drop<Excess>();
    return false;
  }
  Excess* ex = s.frame<Excess>();
  if (ex == nullptr) ex = &s.push(Excess{});
  ex->hex = hx;
  ex->side = p;
  s.decision = decision::RETREAT_EXCESS;
  s.actor = p;
  return true;
}

}  // namespace ktenv::stacks

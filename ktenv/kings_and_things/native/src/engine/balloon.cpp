// ktenv/kings_and_things/engine/balloon.py: C.2 the Balloon (and the Fan against it, C.3).
#include "balloon.hpp"

#include "common.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "reactions.hpp"
#include "stacks.hpp"

namespace ktenv::balloon {
namespace {

constexpr int BALLOON = magic::BALLOON;

// Face-up land hexes 1-3 from `start` with room for `load` passengers.
Ids landings(const State& s, int start, int load, const HexCounts& room) {
  const auto& dist = s.t->distance[start];
  return where(s.n.Hexes, [&](int h) {
    return dist[h] >= 1 && dist[h] <= RANGE && s.hex_terrain[h] != SEA && !s.hex_down[h] && room[h] >= load;
  });
}

// Unmoved creatures of value 3 or less (pinned ones too, RD10.12); once loading began, from the
// first passenger's hex only. One boards only if the Balloon could still come down with it (C.2),
// so a flight never reaches a destination choice with nowhere to land.
Ids loadable(const State& s, int p) {
  const BalloonFlight* f = s.frame<BalloonFlight>();
  bool loading = f != nullptr && f->n;
  Ids ids = where_on_board(s, [&](int c) {
    bool ok = s.thing_owner[c] == p && s.t->THING_KIND[c] == CREATURE &&
              s.thing_status[c] == UNMOVED && s.thing_mp[c] > 0 && s.t->THING_COMBAT[c] <= MAX_VALUE;
    if (ok && loading) ok = s.thing_hex[c] == f->hex && !contains(f->passengers, c);
    return ok;
  });
  if (ids.empty()) return ids;
  HexCounts room = room_for(s, p);
  int load = loading ? f->n + 1 : 1;
  std::array<std::int8_t, kMaxHexes> can_start{};  // 0 unknown, 1 yes, -1 no
  Ids out;
  for (int c : ids) {
    int h = s.thing_hex[c];
    if (!can_start[h]) can_start[h] = landings(s, h, load, room).empty() ? -1 : 1;
    if (can_start[h] > 0) out.push_back(c);
  }
  return out;
}

// The passengers are placed on the hex: done for the round, they entered it (R11.8.1).
void put(State& s, int hx) {
  BalloonFlight* f = flight(s);
  int owner = f->owner;
  for (int c : f->passengers) {
    set_hex(s, c, hx);
    set_status(s, c, DONE);
    s.thing_moved[c] = true;
  }
  if (army_counts(s, owner)[hx] > STACK_LIMIT && s.hex_fort[hx] != 4)
    stacks::allow_overflow(s, owner);  // blown onto a full hex: the owner trims it (RP-5.9)
}

}  // namespace

BalloonFlight* flight(State& s) { return s.frame<BalloonFlight>(); }

bool flying(const State& s) {
  const BalloonFlight* f = s.frame<BalloonFlight>();
  return f != nullptr && f->stage != BalloonStage::FLOWN;
}

Series passengers(const State& s) {
  const BalloonFlight* f = s.frame<BalloonFlight>();
  return f != nullptr ? f->passengers : Series{};
}

int held(const State& s, int p) {
  for (int c = 0; c < s.n.Things; ++c)  // R20.1: one per box
    if (s.t->THING_ORIGINAL[c] == BALLOON && s.thing_place[c] == SCREEN && s.thing_owner[c] == p) return c;
  return -1;
}

// [DECISION R20.1: with two boxes, one Balloon flight per round, like one box's one Balloon.]
bool can_fly(const State& s, int p) {
  const BalloonFlight* f = s.frame<BalloonFlight>();
  return held(s, p) >= 0 && !(f != nullptr && f->used) && !loadable(s, p).empty();
}

void begin(State& s, int c) {
  common::as_original(s, c);  // a second-box Balloon flies as the first's (R20.1)
  auto& f = s.push(BalloonFlight{});
  f.stage = BalloonStage::LOAD;
  s.decision = decision::BALLOON_LOAD;
}

void legal_load(State& s, const ActionLayout& lay, std::int8_t* mask) {
  BalloonFlight* f = flight(s);
  if (f->n < MAX_LOAD)
    for (int c : loadable(s, static_cast<int>(s.actor))) mask[lay.thing + c] = 1;
  if (f->n) mask[YES] = 1;
}

void apply_load(State& s, const ActionLayout& lay, int action) {
  BalloonFlight* f = flight(s);
  if (action == YES) {
    f->stage = BalloonStage::DEST;
    s.decision = decision::BALLOON_DEST;
    return;
  }
  int c = action - lay.thing;
  f->passengers.push_back(c);
  f->n += 1;
  f->hex = s.thing_hex[c];
}

// Land hexes 1-3 away with room for the passengers (stack limit, Citadel exempt).
Ids destinations(const State& s, int p) {
  const BalloonFlight* f = s.frame<BalloonFlight>();
  return landings(s, f->hex, f->n, room_for(s, p));
}

void legal_dest(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : destinations(s, static_cast<int>(s.actor))) mask[lay.hex + h] = 1;
}

// The Balloon is shown and played; other players may react (Dispel Magic, the Fan).
void apply_dest(State& s, const ActionLayout& lay, int action) {
  BalloonFlight* f = flight(s);
  f->dest = action - lay.hex;
  f->owner = static_cast<std::int32_t>(s.actor);
  f->used = true;
  f->stage = BalloonStage::WAIT;
  s.stats.magic_played += 1;
  set_place(s, BALLOON, BOARD);
  set_hex(s, BALLOON, f->hex);
  s.thing_in_play[BALLOON] = s.thing_face_up[BALLOON] = s.thing_public[BALLOON] = true;
  s.decision = decision::NONE;
  reactions::open_round(s, BALLOON, static_cast<int>(s.actor), 0);
}

void run(State& s) {
  BalloonFlight* f = flight(s);
  if (f->stage == BalloonStage::WAIT)
    reactions::resume_flight(s, BALLOON, *f, BalloonStage::FANNED, clear, land, f->dest);
}

// C.3: the Fan's player blows the Balloon to any hex next to its landing hex.
void legal_fan(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : s.t->neighbours[flight(s)->dest])
    if (h >= 0) mask[lay.hex + h] = 1;
}

void apply_fan(State& s, const ActionLayout& lay, int action) {
  int hx = action - lay.hex;
  s.decision = decision::NONE;
  BalloonFlight* f = flight(s);
  s.actor = f->owner;
  s.hex_down[hx] = false;  // R20.3: blown onto a face-down tile, it is turned up
  if (s.hex_terrain[hx] != SEA) {
    land(s, hx);
    return;
  }
  common::used_up(s, BALLOON);  // blown to Sea: the Balloon is lost; the passengers may escape
  f->sea = hx;
  if (!escape_hexes(s).empty()) {
    f->stage = BalloonStage::ESCAPE;
    s.decision = decision::ESCAPE_HEX;
    return;
  }
  for (int c : passengers(s)) hooks::eliminate(s, c);  // to the cup (R21.4 Brute)
  clear(s, true);
}

// The own hexes next to the Sea hex, in the board's direction order.
Ids escape_hexes(const State& s) {
  const BalloonFlight* f = s.frame<BalloonFlight>();
  Ids out;
  for (int h : s.t->neighbours[f->sea])
    if (h >= 0 && s.hex_owner[h] == f->owner) out.push_back(h);
  return out;
}

void legal_escape(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : escape_hexes(s)) mask[lay.hex + h] = 1;
  mask[PASS] = 1;
}

// R11.3.4 exception: the passengers escape together to one adjacent own hex, or are lost.
void apply_escape(State& s, const ActionLayout& lay, int action) {
  s.decision = decision::NONE;
  if (action == PASS) {
    for (int c : passengers(s)) hooks::eliminate(s, c);  // R21.4
  } else {
    put(s, action - lay.hex);
  }
  clear(s, true);
}

void land(State& s, int hx) {
  put(s, hx);
  set_hex(s, BALLOON, hx);
  clear(s, true);
}

// Keep what battles need (passengers, owner) while the Balloon flies this round.
void clear(State& s, bool keep_flight) {
  BalloonFlight* f = flight(s);
  f->stage = BalloonStage::FLOWN;
  f->hex = f->dest = f->sea = -1;
  if (!keep_flight) {
    f->passengers.clear();
    f->n = 0;
    f->owner = -1;
  }
  s.decision = decision::NONE;
}

Ids riding(const State& s, int side) {
  Ids out;
  if (!(s.thing_in_play[BALLOON] && s.thing_owner[BALLOON] == side && !s.thing_damage[BALLOON])) return out;
  Series riders = passengers(s);
  std::sort(riders.begin(), riders.end());
  for (int c : riders)
    if (s.thing_place[c] == BOARD && s.thing_hex[c] == s.thing_hex[BALLOON] && !out.contains(c)) out.push_back(c);
  return out;
}

void end_of_round(State& s) {
  if (s.thing_in_play[BALLOON]) common::used_up(s, BALLOON);
  s.drop<BalloonFlight>();
}

// D.FAN_HEX and D.ESCAPE_HEX: events' register_rules (shared with the events that ask them)
void register_rules(Registry& r) {
  r.decision(decision::BALLOON_LOAD, legal_load, apply_load);
  r.decision(decision::BALLOON_DEST, legal_dest, apply_dest);
}

}  // namespace ktenv::balloon

// ktenv/kings_and_things/engine/boat.py: R22.6 the Boat (house content).
#include "boat.hpp"

#include "common.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "reactions.hpp"
#include "stacks.hpp"

namespace ktenv::boat {
namespace {

const BoatTrip* trip_of(const State& s) { return s.frame<BoatTrip>(); }

// Face-up land hexes other than the start hex, with room for n, next to a face-up Sea hex that the path
// can still reach: start: `frm` is the (land) start hex and the path has 1..budget Sea hexes beginning
// next to it; else `frm` is the path's current Sea hex and up to `budget` more may follow (Sea hexes
// already crossed are not crossed again). Python: _destinations (a set: the order of the search is free).
Ids destinations(const State& s, int frm, int budget, int n, bool start) {
  const auto& nb = s.t->neighbours;
  HexFlags seen{}, region{};
  Ids frontier;
  if (start) {
    for (int y : nb[frm])
      if (y >= 0 && common::known_sea(s, y)) frontier.push_back(y);
  } else {
    frontier.push_back(frm);
    for (int x : trip_of(s)->path) seen[x] = true;
  }
  for (int x : frontier) seen[x] = region[x] = true;
  for (int i = 0; i < (start ? budget - 1 : budget); ++i) {
    Ids next;
    for (int x : frontier)
      for (int y : nb[x])
        if (y >= 0 && common::known_sea(s, y) && !seen[y]) {
          seen[y] = region[y] = true;
          next.push_back(y);
        }
    frontier = next;
  }
  HexFlags ok{};
  for (int x = 0; x < s.n.Hexes; ++x)
    if (region[x])
      for (int y : nb[x])
        if (y >= 0 && common::known_land(s, y)) ok[y] = true;
  ok[start ? frm : trip_of(s)->hex] = false;
  HexCounts room = room_for(s, static_cast<int>(s.actor));
  return where(s.n.Hexes, [&](int h) { return ok[h] && room[h] >= n; });
}

// Unmoved own creatures and heroes that may board: once loading began, from the first passenger's hex
// only; before, from a hex with somewhere to sail to.
Passengers loadable(const State& s, int p) {
  Passengers out;
  out.things = where(s.n.Things, [&](int c) {
    return s.thing_place[c] == BOARD && s.thing_owner[c] == p && s.t->THING_KIND[c] == CREATURE &&
           s.thing_status[c] == UNMOVED && s.thing_mp[c] > 0;
  });
  out.heroes = where(s.n.Faces, [&](int f) {
    return s.hero_owner[f] == p && s.hero_status[f] == UNMOVED && s.hero_mp[f] > 0;
  });
  const BoatTrip* f = trip_of(s);
  Passengers kept;
  if (f != nullptr && f->n) {
    for (int c : out.things)
      if (s.thing_hex[c] == f->hex && !contains(f->passengers, c)) kept.things.push_back(c);
    for (int h : out.heroes)
      if (s.hero_hex[h] == f->hex && !contains(f->passengers, ~h)) kept.heroes.push_back(h);
    return kept;
  }
  std::array<std::int8_t, kMaxHexes> can_start{};  // 0 unknown, 1 yes, -1 no
  auto starts = [&](int hx) {
    int h = hx < 0 ? hx + s.n.Hexes : hx;
    if (!can_start[h]) can_start[h] = destinations(s, h, MAX_SEA, 1, true).empty() ? -1 : 1;
    return can_start[h] > 0;
  };
  for (int c : out.things)
    if (starts(s.thing_hex[c])) kept.things.push_back(c);
  for (int h : out.heroes)
    if (starts(s.hero_hex[h])) kept.heroes.push_back(h);
  return kept;
}

// (next Sea hexes that still lead somewhere, destinations next to the current Sea hex)
struct PathOptions {
  Ids steps, dests;
};

PathOptions path_options(const State& s) {
  const BoatTrip* f = trip_of(s);
  int at = f->at, k = f->crossed, n = f->n;
  PathOptions out;
  if (k < MAX_SEA)
    for (int y : s.t->neighbours[at])
      if (y >= 0 && common::known_sea(s, y) && !contains(f->path, y) &&
          !destinations(s, y, MAX_SEA - k - 1, n, false).empty())
        out.steps.push_back(y);
  if (k >= 1) out.dests = destinations(s, at, 0, n, false);
  return out;
}

}  // namespace

BoatTrip* trip(State& s) { return s.frame<BoatTrip>(); }

bool on(const State& s) { return s.cfg->house_content; }

bool sailing(const State& s) {
  const BoatTrip* f = trip_of(s);
  return f != nullptr && f->stage != BoatStage::SAILED;
}

Passengers passengers(const State& s) {
  Passengers out;
  const BoatTrip* f = trip_of(s);
  if (f == nullptr) return out;
  for (int code : f->passengers)
    if (code >= 0) out.things.push_back(code);
  for (int code : f->passengers)
    if (code < 0) out.heroes.push_back(~code);
  return out;
}

// R22.6: held, not used this round, something to carry somewhere (house_content only).
bool can_sail(const State& s, int p) {
  const BoatTrip* f = trip_of(s);
  if (!on(s) || s.thing_place[BOAT] != SCREEN || s.thing_owner[BOAT] != p || (f != nullptr && f->used)) return false;
  Passengers l = loadable(s, p);
  return !l.things.empty() || !l.heroes.empty();
}

void begin(State& s) {
  auto& f = s.push(BoatTrip{});
  f.stage = BoatStage::LOAD;
  s.decision = decision::BOAT_LOAD;
}

void legal_load(State& s, const ActionLayout& lay, std::int8_t* mask) {
  const BoatTrip* f = trip(s);
  if (f->n < MAX_LOAD) {
    Passengers l = loadable(s, static_cast<int>(s.actor));
    for (int c : l.things) mask[lay.thing + c] = 1;
    for (int h : l.heroes) mask[lay.hero + h] = 1;
  }
  if (f->n) mask[YES] = 1;
}

void apply_load(State& s, const ActionLayout& lay, int action) {
  BoatTrip* t = trip(s);
  if (action == YES) {
    t->stage = BoatStage::PATH;
    t->at = t->hex;
    t->crossed = 0;
    s.decision = decision::BOAT_PATH;
    return;
  }
  int code, hx;
  if (action >= lay.hero) {
    int f = action - lay.hero;
    code = ~f;
    hx = s.hero_hex[f];
  } else {
    int c = action - lay.thing;
    code = c;
    hx = s.thing_hex[c];
  }
  t->passengers.push_back(code);
  t->n += 1;
  t->hex = hx;
}

void legal_path(State& s, const ActionLayout& lay, std::int8_t* mask) {
  PathOptions o = path_options(s);
  for (int h : o.steps) mask[lay.hex + h] = 1;
  for (int h : o.dests) mask[lay.hex + h] = 1;
}

void apply_path(State& s, const ActionLayout& lay, int action) {
  int hx = action - lay.hex;
  BoatTrip* f = trip(s);
  if (common::known_sea(s, hx)) {
    f->at = hx;
    f->crossed += 1;
    f->last = hx;
    f->path.push_back(hx);
    return;
  }
  f->dest = hx;
  f->owner = static_cast<std::int32_t>(s.actor);
  f->used = true;
  f->stage = BoatStage::WAIT;
  s.stats.magic_played += 1;
  set_place(s, BOAT, BOARD);
  set_hex(s, BOAT, f->hex);
  s.thing_in_play[BOAT] = s.thing_face_up[BOAT] = s.thing_public[BOAT] = true;
  s.decision = decision::NONE;
  reactions::open_round(s, BOAT, static_cast<int>(s.actor), 0);  // R18.2: Dispel Magic, the Bellows
}

// Resume after the reactions: cancelled, diverted by the Bellows, or landing.
void run(State& s) {
  BoatTrip* f = trip(s);
  reactions::resume_flight(s, BOAT, *f, BoatStage::FANNED, clear, land, f->dest);
}

// R22.6: the Bellows player picks a land hex next to the last Sea hex crossed.
Ids fan_hexes(const State& s) {
  Ids out;
  for (int y : s.t->neighbours[trip_of(s)->last])
    if (y >= 0 && common::known_land(s, y)) out.push_back(y);
  return out;
}

void legal_fan(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : fan_hexes(s)) mask[lay.hex + h] = 1;
}

void apply_fan(State& s, const ActionLayout& lay, int action) {
  s.decision = decision::NONE;
  s.actor = trip(s)->owner;
  land(s, action - lay.hex);
}

// The passengers are put on the hex: done for the round, they entered it (R11.8.1).
void land(State& s, int hx) {
  int owner = trip(s)->owner;
  Passengers p = passengers(s);
  for (int c : p.things) {
    set_hex(s, c, hx);
    set_status(s, c, DONE);
    s.thing_moved[c] = true;
  }
  for (int f : p.heroes) {
    s.hero_hex[f] = static_cast<std::int8_t>(hx);
    s.hero_status[f] = DONE;
    s.hero_moved[f] = true;
  }
  set_hex(s, BOAT, hx);
  if (army_counts(s, owner)[hx] > STACK_LIMIT && s.hex_fort[hx] != 4)
    stacks::allow_overflow(s, owner);  // diverted onto a full hex: the owner trims it (RP-5.9)
  clear(s, true);
}

void clear(State& s, bool keep_flight) {
  BoatTrip* f = trip(s);
  f->stage = BoatStage::SAILED;
  f->hex = f->at = f->last = f->dest = -1;
  f->crossed = 0;
  f->path.clear();
  if (!keep_flight) {
    f->passengers.clear();
    f->n = 0;
    f->owner = -1;
  }
  s.decision = decision::NONE;
}

// ----- the hooks

// The movement phase resumes while the Boat waits for its reactions: they go on.
bool resume(State& s) {
  if (!sailing(s)) return false;
  run(s);
  return true;
}

void sail_option(State& s, const ActionLayout& lay, std::int8_t* mask) {
  if (can_sail(s, static_cast<int>(s.actor))) mask[lay.thing + BOAT] = 1;  // a move of its own
}

bool sail_start(State& s, const ActionLayout& lay, int action) {
  if (action != lay.thing + BOAT) return false;
  begin(s);
  return true;
}

bool fan_handlers(const State& s) {
  const BoatTrip* f = trip_of(s);
  return f != nullptr && f->stage == BoatStage::FANNED;
}

// The side's Boat is in play, unhit, in the battle hex.
bool in_battle(const State& s, int side) {
  const Battle* b = s.frame<Battle>();
  return on(s) && s.thing_in_play[BOAT] && s.thing_owner[BOAT] == side && !s.thing_damage[BOAT] &&
         s.thing_hex[BOAT] == (b != nullptr ? b->hex : -1);
}

// RD7.1: the Boat fights in the ranged step (value ASSUMED, M7).
std::vector<hooks::RangedAttack> boat_attack(const State& s, int side) {
  if (!in_battle(s, side)) return {};
  return {{BOAT_VALUE, 1, -1}};
}

// Passengers (Things, hero faces) that attack as Ranged while the Boat is in play.
hooks::Riders riders(const State& s, int side) {
  hooks::Riders out;
  if (!in_battle(s, side)) return out;
  int hx = s.frame<Battle>()->hex;
  Passengers p = passengers(s);
  for (int c : p.things)
    if (s.thing_place[c] == BOARD && s.thing_hex[c] == hx && !out.things.contains(c)) out.things.push_back(c);
  for (int f : p.heroes)
    if (s.hero_owner[f] == side && s.hero_hex[f] == hx && !out.heroes.contains(f)) out.heroes.push_back(f);
  return out;
}

// Hexes reachable by Boat across one Sea hex next to the battle hex (the owner filters later), ascending.
Ids retreat_hexes(const State& s, int /*side*/, int hx) {
  HexFlags out{};
  for (int x : s.t->neighbours[hx])
    if (x >= 0 && common::known_sea(s, x))
      for (int y : s.t->neighbours[x])
        if (y >= 0 && common::known_land(s, y) && y != hx) out[y] = true;
  return where(s.n.Hexes, [&](int h) { return out[h]; });
}

// R22.6: the Boat is removed at the end of the round.
void end_of_round(State& s) {
  if (on(s) && s.thing_in_play[BOAT]) common::used_up(s, BOAT);
  s.drop<BoatTrip>();
}

void register_rules(Registry& r) {
  r.decision(decision::BOAT_LOAD, legal_load, apply_load);
  r.decision(decision::BOAT_PATH, legal_path, apply_path);
}

}  // namespace ktenv::boat

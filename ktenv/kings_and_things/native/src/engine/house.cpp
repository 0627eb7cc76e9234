// ktenv/kings_and_things/engine/house.py: R22 house content: the house heroes (R22.1-R22.4) and the Portal (R22.5).
#include "house.hpp"

#include "common.hpp"
#include "dice.hpp"
#include "events.hpp"
#include "kadab.hpp"
#include "machine.hpp"

namespace ktenv::house {
namespace {

constexpr int P_STACK = events::PORTAL_STACK, P_DEST = events::PORTAL_DEST, P_ROLLED = events::PORTAL_ROLLED,
              P_SENT = events::PORTAL_SENT;

bool is_creature(const State& s, int c) { return s.t->THING_KIND[c] == CREATURE; }
bool is_town(const State& s, int c) { return s.t->THING_KIND[c] == CITY || s.t->THING_KIND[c] == VILLAGE; }
int np_hex(const State& s, int h) { return h < 0 ? h + s.n.Hexes : h; }  // numpy's index -1: the last hex

// kadab.record_from (RD10.15): counters entering face-down `dest` remember the land hex they stood on.
void record_thing_from(State& s, int c, int dest) {
  if (s.hex_down[dest]) s.thing_from[c] = s.thing_hex[c];
}
void record_hero_from(State& s, int f, int dest) {
  if (s.hex_down[dest]) s.hero_from[f] = s.hero_hex[f];
}

// Hexes with some player's creatures or heroes on the board.
HexFlags armies(const State& s) {
  HexFlags ok{};
  for (int c = 0; c < s.n.Things; ++c)
    if (s.thing_place[c] == BOARD && is_creature(s, c) && s.thing_owner[c] >= 0 && s.thing_owner[c] < s.n.Players)
      ok[np_hex(s, s.thing_hex[c])] = true;
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] >= 0) ok[np_hex(s, s.hero_hex[f])] = true;
  return ok;
}

// Unowned hexes that are no known Sea and hold no player's army (R22.5 destinations).
HexFlags unexplored(const State& s) {
  HexFlags army = armies(s), ok{};
  for (int h = 0; h < s.n.Hexes; ++h) ok[h] = s.hex_owner[h] == NOBODY && !common::known_sea(s, h) && !army[h];
  return ok;
}

bool any(const State& s, const HexFlags& flags) {
  for (int h = 0; h < s.n.Hexes; ++h)
    if (flags[h]) return true;
  return false;
}

Ids offset_where(const State& s, const HexFlags& flags, int base) {
  Ids out;
  for (int h = 0; h < s.n.Hexes; ++h)
    if (flags[h]) out.push_back(base + h);
  return out;
}

struct Army {
  Ids things, heroes;
};

Army army(const State& s, int q, int hx) {
  Army a;
  a.things = where(s.n.Things, [&](int c) {
    return s.thing_place[c] == BOARD && is_creature(s, c) && s.thing_owner[c] == q && s.thing_hex[c] == hx;
  });
  a.heroes = where(s.n.Faces, [&](int f) { return s.hero_owner[f] == q && s.hero_hex[f] == hx; });
  return a;
}

// (town that may follow the Gypsy King or -1, whether the Tower/Keep may follow)
struct GypsyOptions {
  int town = -1;
  bool fort = false;
};

GypsyOptions gypsy_options(const State& s) {
  const MovementTurn* turn = s.frame<MovementTurn>();
  int src = turn != nullptr ? turn->gypsy_start : -1;
  int p = s.hero_owner[GYPSY_KING];
  if (src < 0 || p < 0 || s.hero_status[GYPSY_KING] != DONE || turn->gypsy_done) return {};
  int dest = s.hero_hex[GYPSY_KING];
  if (dest == src || s.hex_owner[dest] != p || s.hex_owner[src] != p) return {};
  int c = s.hex_income[src];
  GypsyOptions out;
  out.town = c >= 0 && is_town(s, c) && s.hex_income[dest] < 0 ? c : -1;
  out.fort = 1 <= s.hex_fort[src] && s.hex_fort[src] <= 2 && s.hex_fort[dest] == 0;
  return out;
}

void portal_pose(State& s, const ActionLayout& lay) {
  Event& ev = events::event(s);
  Army a = army(s, ev.other, ev.hex);
  int room = room_for(s, ev.other)[ev.dest];
  if (a.things.size() + a.heroes.size() == 0 || room <= 0) {
    s.stage = events::FINISH;
    return;
  }
  bool must = ev.n < ev.roll;
  Ids acts;
  for (int c : a.things) acts.push_back(lay.thing + c);
  for (int f : a.heroes) acts.push_back(lay.hero + f);
  if (!must) acts.push_back(YES);
  events::pose(s, decision::PORTAL_SEND, ev.other, acts, P_SENT);
}

void portal_stack(State& s, const ActionLayout& lay) {
  Event& ev = events::event(s);
  int hx = events::answer(s) - lay.hex, p = ev.player, n = s.n.Players;
  ev.hex = hx;
  for (int i = 0; i < n; ++i) {  // the first player in turn order from p with counters there
    int q = (p + i) % n;
    Army a = army(s, q, hx);
    if (a.things.size() + a.heroes.size()) {
      ev.other = q;
      break;
    }
  }
  events::pose(s, decision::EVENT_HEX, p, offset_where(s, unexplored(s), lay.hex), P_DEST);
}

void portal_dest(State& s, const ActionLayout& lay) {
  Event& ev = events::event(s);
  ev.dest = events::answer(s) - lay.hex;
  ev.n = 0;
  if (ev.other == ev.player) {
    ev.roll = 0;  // R22.5: played on oneself, no roll, as many as they like
    portal_pose(s, lay);
    return;
  }
  dice::roll(s, dice::EVENT, 1);  // a roll event (R18.5)
  s.stage = P_ROLLED;
}

void portal_rolled(State& s, const ActionLayout& lay) {
  events::event(s).roll = std::max(0, std::min(7, static_cast<int>(dice::take(s, dice::EVENT)[0])));
  portal_pose(s, lay);
}

void portal_sent(State& s, const ActionLayout& lay) {
  int a = events::answer(s);
  if (a == YES) {
    s.stage = events::FINISH;
    return;
  }
  int dest = events::event(s).dest;
  if (a >= lay.hero) {
    int f = a - lay.hero;
    record_hero_from(s, f, dest);
    s.hero_hex[f] = static_cast<std::int8_t>(dest);
  } else {
    int c = a - lay.thing;
    record_thing_from(s, c, dest);
    set_hex(s, c, dest);
  }
  events::event(s).n += 1;
  portal_pose(s, lay);
}

}  // namespace

bool on(const State& s) { return s.cfg->house_content; }

// ----- setup and the hero pool

// Without Mysterious Kadab Tycho Brahe's counter shows the Gypsy King (R22.4).
void setup(State& s) {
  if (!s.cfg->mysterious_kadab) s.hero_up[TYCHO / 2] = GYPSY_KING % 2;
}

// The house counters may be in the pool only with house_content.
bool counters_in_play(const State& s, int counter) {
  return on(s) || (counter != AHASUERUS / 2 && counter != GYPSY_KING / 2);  // printed in pairs (A/L, G/T)
}

bool may_turn(const State& s, int face) { return !(face / 2 == TYCHO / 2 && !s.cfg->mysterious_kadab); }

// ----- R22.2 Lenin

bool lenin_fights(const State& s, int side) {
  const Battle* b = s.frame<Battle>();
  return on(s) && s.hero_owner[LENIN] == side && s.hero_hex[LENIN] == (b != nullptr ? b->hex : -1);
}

// ----- R22.1 Ahasuerus

// Own hexes and hexes with own creatures, other than his, with room for him (R11.4).
Ids ahasuerus_dests(const State& s, int p) {
  HexFlags ok{};
  for (int h = 0; h < s.n.Hexes; ++h) ok[h] = s.hex_owner[h] == p;
  for (int c = 0; c < s.n.Things; ++c)
    if (s.thing_place[c] == BOARD && s.thing_owner[c] == p && is_creature(s, c)) ok[np_hex(s, s.thing_hex[c])] = true;
  ok[np_hex(s, s.hero_hex[AHASUERUS])] = false;
  HexCounts room = room_for(s, p);
  return where(s.n.Hexes, [&](int h) { return ok[h] && room[h] > 0; });
}

void ahasuerus_options(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int p = static_cast<int>(s.actor);
  if (on(s) && s.hero_owner[AHASUERUS] == p && s.hero_status[AHASUERUS] == UNMOVED && s.hero_mp[AHASUERUS] > 0 &&
      !ahasuerus_dests(s, p).empty())
    mask[lay.hero + AHASUERUS] = 1;
}

bool ahasuerus_start(State& s, const ActionLayout& lay, int action) {
  if (action != lay.hero + AHASUERUS || !on(s)) return false;
  s.decision = decision::AHASUERUS_DEST;
  return true;
}

void legal_ahasuerus(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : ahasuerus_dests(s, static_cast<int>(s.actor))) mask[lay.hex + h] = 1;
}

// RD10.17: a teleport; he entered the hex (R11.8.1) and is done for the turn.
void apply_ahasuerus(State& s, const ActionLayout& lay, int action) {
  int dest = action - lay.hex;
  record_hero_from(s, AHASUERUS, dest);
  s.hero_hex[AHASUERUS] = static_cast<std::int8_t>(dest);
  bool sea = s.cfg->mysterious_kadab && kadab::turn_up_on_entry(s, dest);  // without Kadab no tile is face down
  if (!sea && !s.hex_down[dest]) s.hero_from[AHASUERUS] = -1;               // [ER] a Sea sends him back
  s.hero_status[AHASUERUS] = DONE;
  s.hero_mp[AHASUERUS] = 0;
  s.hero_pinned[AHASUERUS] = false;
  s.hero_moved[AHASUERUS] = true;
  s.decision = decision::NONE;
}

// ----- R22.3 the Gypsy King

// R22.5 the Portal's counters wait for their exploration; R22.3 the Gypsy King's starting hex.
void turn_begins(State& s, int p) {
  hold_explorers(s, p);
  gypsy_turn_begins(s, p);
}

void gypsy_turn_begins(State& s, int p) {
  if (on(s) && s.hero_owner[GYPSY_KING] == p) s.frame<MovementTurn>()->gypsy_start = s.hero_hex[GYPSY_KING];
}

// Before the next MOVE_START: the Gypsy King's move has ended; ask what follows him.
bool gypsy_pending(State& s) {
  const MovementTurn* turn = s.frame<MovementTurn>();
  if (!on(s) || turn == nullptr || turn->gypsy_start < 0) return false;
  GypsyOptions o = gypsy_options(s);
  if (o.town < 0 && !o.fort) return false;
  s.decision = decision::GYPSY_TAKE;
  s.actor = s.hero_owner[GYPSY_KING];
  return true;
}

void legal_gypsy(State& s, const ActionLayout& lay, std::int8_t* mask) {
  GypsyOptions o = gypsy_options(s);
  mask[PASS] = 1;
  if (o.town >= 0) mask[lay.thing + o.town] = 1;
  if (o.fort) mask[lay.hex + s.frame<MovementTurn>()->gypsy_start] = 1;
}

void apply_gypsy(State& s, const ActionLayout& lay, int action) {
  MovementTurn* turn = s.frame<MovementTurn>();
  int src = turn->gypsy_start, dest = s.hero_hex[GYPSY_KING];
  s.decision = decision::NONE;
  if (action == PASS)
    turn->gypsy_done = true;
  else if (action < lay.thing)
    common::move_fort(s, src, dest);
  else
    common::move_town(s, action - lay.thing, src, dest);
}

// ----- R22.4 Tycho Brahe

// Picked for a move: his owner sees the face-down hexes next to him (private).
void tycho_looks(State& s, int face) {
  if (face != TYCHO || !on(s) || !s.cfg->mysterious_kadab || s.hero_owner[TYCHO] < 0) return;
  kadab::look(s, s.hero_owner[TYCHO], s.t->neighbours[np_hex(s, s.hero_hex[TYCHO])]);
}

// ----- R22.5 Portal

bool portal_playable(const State& s, int /*p*/) { return on(s) && any(s, armies(s)) && any(s, unexplored(s)); }

void portal_start(State& s, const ActionLayout& lay, int p) {
  if (!portal_playable(s, p)) {  // R10.1: no stack or no unexplored hex, no effect
    s.stage = events::FINISH;
    return;
  }
  events::pose(s, decision::EVENT_HEX, p, offset_where(s, armies(s), lay.hex), P_STACK);
}

void portal_stage(State& s, const ActionLayout& lay) {
  switch (s.stage) {
    case P_STACK: return portal_stack(s, lay);
    case P_DEST: return portal_dest(s, lay);
    case P_ROLLED: return portal_rolled(s, lay);
    case P_SENT: return portal_sent(s, lay);
    default: throw InvariantViolation("events: no stage " + std::to_string(s.stage));
  }
}

// R22.5: counters a Portal sent into an unexplored hex explore it; they do not move first.
void hold_explorers(State& s, int p) {
  if (!on(s)) return;
  for (int c = 0; c < s.n.Things; ++c)
    if (s.thing_owner[c] == p && is_creature(s, c) && s.thing_place[c] == BOARD &&
        s.hex_owner[std::max<int>(s.thing_hex[c], 0)] == NOBODY)
      set_mp(s, c, 0);
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] == p && s.hex_owner[std::max<int>(s.hero_hex[f], 0)] == NOBODY) s.hero_mp[f] = 0;
}

void register_rules(Registry& r) {
  r.decision(decision::PORTAL_SEND, events::legal_choice, events::apply_choice);
  r.decision(decision::AHASUERUS_DEST, legal_ahasuerus, apply_ahasuerus);
  r.decision(decision::GYPSY_TAKE, legal_gypsy, apply_gypsy);
}

}  // namespace ktenv::house

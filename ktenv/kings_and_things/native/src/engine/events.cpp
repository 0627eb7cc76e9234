// ktenv/kings_and_things/engine/events.py: R10 phase 4: play events (Appendix B, RP-4).
// The phase is the frame EventsPhase, one player's event the frame Event. Every event choice is posed
// with `pose` (legal actions in Event.posed, the answer in Event.answer, read by the stage named).
// Dice are rolled only in runner stages (R18.5 roll events) and read in the next stage.
#include "events.hpp"

#include <algorithm>

#include "balloon.hpp"
#include "common.hpp"
#include "conquest.hpp"
#include "construction.hpp"
#include "dice.hpp"
#include "heroes.hpp"
#include "hooks.hpp"
#include "losses.hpp"
#include "machine.hpp"
#include "placement_turn.hpp"
#include "reactions.hpp"
#include "support.hpp"
#include "victory.hpp"

namespace ktenv::events {
namespace {

namespace ev_id = ktenv::event;  // the events' first-box ids (R20.1: a copy acts as its original)

const ActionLayout& layout(const State& s) { return s.t->layout; }

int original(const State& s, int c) { return s.t->THING_ORIGINAL[c]; }

// Per side code: 1 for the players listed (Python: _flags).
template <class Pred>
PerSide flags(const State& s, Pred pred) {
  PerSide out{};
  for (int q = 0; q < s.n.Players; ++q)
    if (pred(q)) out[q] = 1;
  return out;
}

// Actions `base + id` for each id.
Ids offset(const Ids& ids, int base) {
  Ids out;
  for (int x : ids) out.push_back(base + x);
  return out;
}

Ids with_pass(const Ids& ids, int base) {
  Ids out;
  out.push_back(PASS);
  for (int x : ids) out.push_back(base + x);
  return out;
}

// D.2: a city's or village's value (its combat value), 0 for other counters or none.
int town_value(const State& s, int hx) {
  int c = s.hex_income[hx];
  if (c < 0) return 0;
  int kind = s.t->THING_KIND[c];
  return (kind == CITY || kind == VILLAGE) ? s.t->THING_COMBAT[c] : 0;
}

bool is_creature(const State& s, int c) { return s.t->THING_KIND[c] == CREATURE; }

Ids others(const State& s, int p) {
  Ids out;
  for (int q : order_from(s, p))
    if (q != p) out.push_back(q);
  return out;
}

// Victims as player actions, relative to the event player (lay.player + (q - p) % n).
Ids relative_players(const State& s, const ActionLayout& lay, int p, const Ids& qs) {
  Ids out;
  for (int q : qs) out.push_back(lay.player + floor_mod(q - p, s.n.Players));
  return out;
}

int player_of(const State& s, const ActionLayout& lay, int p, int action) {
  return floor_mod(p + action - lay.player, s.n.Players);
}

int dice_sum(const dice::Thrown& d) {
  int t = 0;
  for (int x : d) t += x;
  return t;
}

// ----- the phase: one event per player (R10.1)

void start_event(State& s, const ActionLayout& lay, int p);

void begin(State& s, const ActionLayout&) {
  s.push(EventsPhase{});
  s.stage = CHOOSE;
}

void choose(State& s, const ActionLayout& lay) {
  auto& done = s.frame<EventsPhase>()->done;
  int p = -1;
  for (int q : turn_order(s))
    if (!done[q]) {
      p = q;
      break;
    }
  if (p < 0) {
    s.drop<EventsPhase>();
    s.phase = PHASE_MOVEMENT;
    s.stage = 0;
    s.turn = 0;
    return;
  }
  int turn = 0;
  for (int d : done) turn += d;
  s.turn = turn;
  Ids actions;
  actions.push_back(PASS);
  for (int c : screen(s, p))
    if (s.t->THING_KIND[c] == EVENT && event_playable(s, p, c)) actions.push_back(lay.thing + c);
  if (actions.size() == 1) {
    done[p] = 1;
    return;
  }
  auto& ev = s.push(Event{});
  ev.player = p;
  pose(s, decision::EVENT_PLAY, p, actions, PLAYED);
}

void played(State& s, const ActionLayout& lay) {
  int a = answer(s), p = event(s).player;
  if (a == PASS) {
    s.drop<Event>();
    s.frame<EventsPhase>()->done[p] = 1;
    s.stage = CHOOSE;
    return;
  }
  int c = a - lay.thing;
  event(s).card = c;
  s.stats.events_played += 1;  // R10.2: shown to all
  start_event(s, lay, p);
}

// R10.2: the event goes to the cup (R17.2); support and eliminations are re-checked.
void finish(State& s, const ActionLayout&) {
  int card = event(s).card, player = event(s).player;
  common::used_up(s, card);
  s.drop<Event>();
  s.frame<EventsPhase>()->done[player] = 1;
  s.stage = CHOOSE;
  support::remove_revealed_bluffs(s);
  victory::check_eliminations(s);
}

// ----- B.1 Willing Workers

void ww_start(State& s, const ActionLayout& lay, int p) {
  pose(s, decision::EVENT_HEX, p, offset(ww_hexes(s, p), lay.hex), WW_HEX);
}

void ww_hex(State& s, const ActionLayout& lay) {
  int hx = answer(s) - lay.hex;
  auto before = s.hex_fort_round[hx];
  construction::raise_fort(s, hx, false);  // B.1: no gold is paid
  if (!s.cfg->willing_workers_counts_toward_limit)
    s.hex_fort_round[hx] = before;  // R14.2 option: the level does not count for the round
  s.stage = FINISH;
}

// ----- B.2 Terrain Disaster

void dis_start(State& s, const ActionLayout& lay, int p) {
  event(s).tried.clear();
  Ids land = where(s.n.Hexes, [&](int h) { return common::known_land(s, h); });  // R20.3: not face down
  pose(s, decision::EVENT_HEX, p, offset(land, lay.hex), DIS_HEX);
}

void dis_hex(State& s, const ActionLayout& lay) {
  int hx = answer(s) - lay.hex;
  auto& ev = event(s);
  ev.hex = hx;
  if (!contains(ev.tried, hx)) ev.tried.push_back(hx);
  s.stage = DIS_ROLL;
}

void dis_roll(State& s, const ActionLayout&) {
  dice::roll(s, dice::EVENT, 2);  // roll event (R18.5)
  s.stage = DIS_CHECK;
}

// B.2: 6-8 strikes; otherwise the next untried hex of the same terrain, until none is left.
void dis_check(State& s, const ActionLayout& lay) {
  auto& ev = event(s);
  int hx = ev.hex;
  ev.roll = dice_sum(dice::take(s, dice::EVENT));
  if (6 <= ev.roll && ev.roll <= 8) {
    int owner = s.hex_owner[hx];
    ev.other = owner;
    s.stage = owner == NOBODY ? FINISH : DIS_OWNER_ROLL;  // RD10.7: unowned, no effect
    return;
  }
  int terrain = s.hex_terrain[hx];
  Ids left = where(s.n.Hexes, [&](int h) {  // R20.3: face-down hexes are never chosen
    return s.hex_terrain[h] == terrain && !s.hex_down[h] && !contains(ev.tried, h);
  });
  if (left.empty()) {
    s.stage = FINISH;
    return;
  }
  pose(s, decision::EVENT_HEX, ev.player, offset(left, lay.hex), DIS_HEX);
}

void dis_owner_roll(State& s, const ActionLayout&) {
  dice::roll(s, dice::EVENT, 1);  // roll event (R18.5)
  s.stage = DIS_LOSS;
}

// B.2: 1 or 6 nothing; 2-5 that many losses in the struck hex, by its owner.
void dis_loss(State& s, const ActionLayout&) {
  auto& ev = event(s);
  int n = ev.roll = dice::table(dice::take(s, dice::EVENT)[0]);  // R18.5.2
  s.stage = FINISH;
  if (2 <= n && n <= 5) losses::start(s, ev.hex, ev.other, n, losses::event_flags(s, true));
}

// ----- B.3 Big Juju and B.10 Weather Control: caster, target, reactions

struct Reach {
  int hex, range;
};

// (hex, range) of a caster action: range = effective combat value (cloud -1, B.10; RT.11).
Reach caster_hex_reach(const State& s, int p, int caster, const ActionLayout& lay) {
  int hx, value;
  if (caster < lay.hero) {
    int c = caster - lay.thing;
    hx = s.thing_hex[c];
    value = s.t->THING_COMBAT[c];
  } else {
    int f = caster - lay.hero;
    hx = s.hero_hex[f];
    value = s.t->HERO_COMBAT[f];
  }
  if (s.cloud_hex == hx && hx >= 0 && s.hex_owner[hx] == p) value -= 1;
  return {hx, value};
}

// B.3: any hex but a Citadel's, if the hex stack has a tile of another terrain; B.10: land.
HexFlags valid_targets(const State& s, int c) {
  HexFlags ok{};
  if (original(s, c) == ev_id::WEATHER_CONTROL) {  // RD10.11; R20.3: not a face-down hex
    for (int h = 0; h < s.n.Hexes; ++h) ok[h] = common::known_land(s, h);
    return ok;
  }
  if (s.hex_stack.empty()) return ok;
  int first = s.hex_stack[0];
  bool one = std::all_of(s.hex_stack.begin(), s.hex_stack.end(), [&](int t) { return t == first; });
  for (int h = 0; h < s.n.Hexes; ++h) {
    ok[h] = s.hex_fort[h] != 4;
    if (one) ok[h] = ok[h] && (s.hex_terrain[h] != first || s.hex_down[h]);  // R20.3: unknown until turned up
  }
  return ok;
}

bool any_in_reach(const State& s, const HexFlags& valid, const Reach& r) {
  for (int h = 0; h < s.n.Hexes; ++h)
    if (valid[h] && s.t->distance[r.hex][h] <= r.range) return true;
  return false;
}

void cast_start(State& s, const ActionLayout& lay, int p) {
  pose(s, decision::EVENT_CASTER, p, caster_actions(s, p, event(s).card, lay), CASTER);
}

// R9.6 / RD10.8: the caster is shown; a bluff leaves and the event fails.
void caster(State& s, const ActionLayout& lay) {
  int a = answer(s), p = event(s).player;
  Reach r = caster_hex_reach(s, p, a, lay);
  if (a < lay.hero) {
    int c = a - lay.thing;
    if (!support::reveal(s, c)) {
      s.stage = FINISH;
      return;
    }
    s.thing_face_up[c] = false;  // back face down; its identity stays known (RI.4)
  }
  HexFlags valid = valid_targets(s, event(s).card);
  Ids targets = where(s.n.Hexes, [&](int h) { return valid[h] && s.t->distance[r.hex][h] <= r.range; });
  pose(s, decision::EVENT_HEX, p, offset(targets, lay.hex), TARGET);
}

void target(State& s, const ActionLayout& lay) {
  auto& ev = event(s);
  ev.hex = answer(s) - lay.hex;
  reactions::open_round(s, ev.card, ev.player, 0);  // R18.2: Dispel Magic (RD8.6), Fan (C.3)
  s.stage = REACT;
}

void weather(State& s, const ActionLayout& lay, int fan);
void juju_tile(State& s, const ActionLayout& lay);

void react(State& s, const ActionLayout& lay) {
  reactions::Result r = reactions::take_result(s);
  if (r.cancelled)  // C.8: the event fails
    s.stage = FINISH;
  else if (original(s, event(s).card) == ev_id::WEATHER_CONTROL)
    weather(s, lay, r.fan);
  else
    juju_tile(s, lay);
}

// ----- B.3 Big Juju: the new tile

// The new tile leaves the hex stack, the old one joins it; the stack is reshuffled.
void swap_tile(State& s, int i) {
  auto& ev = event(s);
  int hx = ev.hex;
  ev.terrain = s.hex_stack[i];
  s.hex_stack.erase(s.hex_stack.begin() + i);
  s.hex_stack.push_back(s.hex_terrain[hx]);
  s.rng.shuffle(s.hex_stack);
  s.stage = JUJU_APPLY;
}

// The owner of the target picks a terrain from the hex stack; otherwise draw from the top.
void juju_tile(State& s, const ActionLayout&) {
  int hx = event(s).hex, p = event(s).player;
  if (s.hex_down[hx]) common::turn_up(s, hx);  // RD10.15: Big Juju turns its target up first
  int old = s.hex_terrain[hx];
  if (s.hex_owner[hx] == p) {
    Ids terrains;
    for (int t = 0; t < N_TERRAINS; ++t)  // sorted(set(stack) - {old})
      if (t != old && std::find(s.hex_stack.begin(), s.hex_stack.end(), t) != s.hex_stack.end())
        terrains.push_back(NUMBER + t);
    if (terrains.empty()) {
      s.stage = FINISH;
      return;
    }
    pose(s, decision::EVENT_TERRAIN, p, terrains, JUJU_TERRAIN);
    return;
  }
  auto& stack = s.hex_stack;
  s.rng.shuffle(stack);
  for (int i = static_cast<int>(stack.size()) - 1; i >= 0; --i)  // same terrain: shuffled back
    if (stack[i] != old) {
      swap_tile(s, i);
      return;
    }
  s.stage = FINISH;
}

void juju_terrain(State& s, const ActionLayout&) {
  int t = answer(s) - NUMBER;
  swap_tile(s, index_of(s.hex_stack, t));
}

// Land: special income counters go, the owner may place on the hex. Sea: escape, then sink.
void juju_apply(State& s, const ActionLayout&) {
  auto& ev = event(s);
  int hx = ev.hex, fresh = ev.terrain;
  if (fresh == SEA) {
    ev.todo = flags(s, [&](int q) { return army_counts(s, q)[hx] != 0; });
    s.stage = JUJU_ESCAPE;
    return;
  }
  s.hex_terrain[hx] = static_cast<std::int8_t>(fresh);
  int c = s.hex_income[hx];
  if (c >= 0 && s.t->THING_KIND[c] == SPECIAL_INCOME) common::to_cup(s, c);  // tied to the old terrain (R8.3.4)
  support::remove_revealed_bluffs(s);  // R9.3
  s.stage = FINISH;
  int owner = s.hex_owner[hx];
  if (owner != NOBODY) placement_turn::begin_placement(s, owner, false, hx, false);  // B.3 / R8.3
}

struct Army {
  Ids things, heroes;
};

Army army(const State& s, int q, int hx) {
  return {where_on_board_at(s, hx, [&](int c) { return s.thing_owner[c] == q && is_creature(s, c); }),
          where(s.n.Faces, [&](int f) { return s.hero_owner[f] == q && s.hero_hex[f] == hx; })};
}

void eliminate(State& s, int q, int hx) {
  Army a = army(s, q, hx);
  for (int c : a.things) hooks::eliminate(s, c);  // to the cup (R21.4 Brute)
  for (int f : a.heroes) support::lose_hero(s, f);
}

Ids adjacent(const State& s, int hx) {
  Ids out;
  for (int d = 0; d < 6; ++d)
    if (s.t->neighbours[hx][d] >= 0) out.push_back(s.t->neighbours[hx][d]);
  return out;
}

// B.3 / RD10.8: each owner in turn order picks one own adjacent hex, or loses the army.
void juju_escape(State& s, const ActionLayout& lay) {
  auto& ev = event(s);
  int hx = ev.hex;
  for (int q : order_from(s, ev.player)) {
    if (!ev.todo[q]) continue;
    ev.todo[q] = 0;
    Ids dests;
    for (int h : adjacent(s, hx))
      if (s.hex_owner[h] == q) dests.push_back(h);
    if (dests.empty()) {
      eliminate(s, q, hx);
      return;
    }
    ev.other = q;
    pose(s, decision::ESCAPE_HEX, q, with_pass(dests, lay.hex), JUJU_ESCAPED);
    return;
  }
  s.stage = JUJU_SINK;
}

void juju_escaped(State& s, const ActionLayout& lay) {
  int a = answer(s), q = event(s).other, hx = event(s).hex;
  s.stage = JUJU_ESCAPE;
  if (a == PASS) {
    eliminate(s, q, hx);
    return;
  }
  int dest = a - lay.hex;
  event(s).dest = dest;
  s.stage = JUJU_MOVE;
  int excess = army_counts(s, q)[hx] - room_for(s, q)[dest];
  if (excess > 0) losses::start(s, hx, q, excess, losses::HEROES | losses::ARMY);  // stack limit
}

void juju_move(State& s, const ActionLayout&) {
  auto& ev = event(s);
  int q = ev.other, hx = ev.hex, dest = ev.dest;
  ev.dest = -1;
  Army a = army(s, q, hx);
  for (int c : a.things) set_hex(s, c, dest);
  for (int f : a.heroes) s.hero_hex[f] = static_cast<std::int8_t>(dest);
  s.stage = JUJU_ESCAPE;
}

// B.3 Sea: forts to the bank; income counters, neutrals and guarded counters to the cup.
void juju_sink(State& s, const ActionLayout&) {
  int hx = event(s).hex;
  for (int c : where(s.n.Things, [&](int c) { return s.thing_place[c] == BOARD && s.thing_hex[c] == hx; }))
    common::to_cup(s, c);
  s.hex_fort[hx] = 0;
  s.hex_owner[hx] = NOBODY;
  if (s.cloud_hex == hx) s.cloud_hex = -1;
  s.hex_terrain[hx] = SEA;
  s.stage = FINISH;
}

// ----- B.10 Weather Control

// B.10: the black cloud goes to the hex; C.3: a Fan moves it next door or removes it.
void weather(State& s, const ActionLayout& lay, int fan) {
  int hx = event(s).hex;
  s.cloud_hex = hx;
  s.stage = FINISH;
  if (fan >= 0) {
    Ids land;
    for (int h : adjacent(s, hx))
      if (s.hex_terrain[h] != SEA && !s.hex_down[h]) land.push_back(h);
    pose(s, decision::FAN_HEX, fan, with_pass(land, lay.hex), FAN);
  }
}

void fan(State& s, const ActionLayout& lay) {
  int a = answer(s);
  s.cloud_hex = a == PASS ? -1 : a - lay.hex;
  s.stage = FINISH;
}

// ----- B.4 Plague

void plague_start(State& s, const ActionLayout&, int p) {
  reactions::open_round(s, ev_id::DARK_PLAGUE, p, 0);  // R18.2: the Elixir; the player is asked last
  s.stage = PLAGUE_REACT;
}

void plague_react(State& s, const ActionLayout&) {
  int safe = reactions::take_result(s).elixir;
  event(s).todo = flags(s, [&](int q) { return s.alive[q] && !((safe >> q) & 1); });
  s.stage = PLAGUE_PLAYER;
}

// RD10.9: players in turn order from the event player.
void plague_player(State& s, const ActionLayout&) {
  auto& ev = event(s);
  for (int q : order_from(s, ev.player)) {
    if (!ev.todo[q]) continue;
    ev.todo[q] = 0;
    ev.other = q;
    HexCounts values = plague_values(s, q);
    ev.hexes.clear();
    for (int h = 0; h < s.n.Hexes; ++h)
      if (values[h]) ev.hexes.push_back(h);
    s.stage = PLAGUE_NEXT;
    return;
  }
  s.stage = FINISH;
}

// RD10.9: the player picks the order of the hexes.
void plague_next(State& s, const ActionLayout& lay) {
  auto& ev = event(s);
  if (ev.hexes.empty()) {
    s.stage = PLAGUE_PLAYER;
    return;
  }
  Ids actions;
  for (int h : ev.hexes) actions.push_back(lay.hex + h);
  pose(s, decision::PLAGUE_HEX, ev.other, actions, PLAGUE_HIT);
}

void plague_hit(State& s, const ActionLayout& lay) {
  int hx = answer(s) - lay.hex, q = event(s).other;
  auto& hexes = event(s).hexes;
  hexes.erase(std::find(hexes.begin(), hexes.end(), hx));
  s.stage = PLAGUE_NEXT;
  losses::start(s, hx, q, plague_values(s, q)[hx], losses::UNTIL_NO_CREATURE);
}

// ----- B.5 Mother Lode, B.6 Good Harvest

void lode_start(State& s, const ActionLayout&, int p) {
  s.gold[p] += static_cast<std::int32_t>(mother_lode(s, p));
  s.stage = FINISH;
}

void harvest_start(State& s, const ActionLayout&, int p) {
  s.gold[p] += static_cast<std::int32_t>(good_harvest(s, p));
  s.stage = FINISH;
}

// ----- B.7 Teenie Pox

void pox_start(State& s, const ActionLayout& lay, int p) {
  Ids victims = relative_players(s, lay, p, others(s, p));
  if (victims.empty()) {  // R10.1: nobody to infect, no effect
    s.stage = FINISH;
    return;
  }
  pose(s, decision::EVENT_PLAYER, p, victims, POX_VICTIM);
}

void pox_victim(State& s, const ActionLayout& lay) {
  int p = event(s).player;
  int q = player_of(s, lay, p, answer(s));
  event(s).other = q;
  reactions::open_round(s, ev_id::TEENIEPOX, p, 1 << q);  // R18.2: the victim's Elixir
  s.stage = POX_REACT;
}

void pox_react(State& s, const ActionLayout&) {
  int safe = reactions::take_result(s).elixir;
  s.stage = ((safe >> event(s).other) & 1) ? FINISH : POX_ROLL;
}

void pox_roll(State& s, const ActionLayout&) {
  dice::roll(s, dice::EVENT, 1);  // roll event (R18.5)
  s.stage = POX_CHECK;
}

// B.7: 1 or 6 nothing; 2-5 losses on the largest stack (ties: the victim chooses).
void pox_check(State& s, const ActionLayout& lay) {
  auto& ev = event(s);
  int n = ev.roll = dice::table(dice::take(s, dice::EVENT)[0]);  // R18.5.2
  HexCounts sizes = stack_sizes(s, ev.other);
  int top = *std::max_element(sizes.begin(), sizes.begin() + s.n.Hexes);
  if (!(2 <= n && n <= 5) || top == 0) {
    s.stage = FINISH;
    return;
  }
  ev.n = n;
  Ids largest = where(s.n.Hexes, [&](int h) { return sizes[h] == top; });
  pose(s, decision::EVENT_HEX, ev.other, offset(largest, lay.hex), POX_HIT);
}

void pox_hit(State& s, const ActionLayout& lay) {
  int hx = answer(s) - lay.hex;
  auto& ev = event(s);
  ev.hex = hx;
  s.stage = FINISH;
  losses::start(s, hx, ev.other, ev.n, losses::event_flags(s, false));
}

// ----- B.8 Defection

void def_start(State& s, const ActionLayout& lay, int p) {
  Ids heroes = defection_heroes(s, p);
  if (heroes.empty()) {  // R10.1: no hero can be chosen (RD5.3), no effect
    s.stage = FINISH;
    return;
  }
  pose(s, decision::DEFECT_HERO, p, offset(heroes, lay.hero), DEF_HERO);
}

void def_hero(State& s, const ActionLayout& lay) {
  event(s).hero = answer(s) - lay.hero;
  s.stage = DEF_ROLL_A;
}

void def_roll_a(State& s, const ActionLayout&) {
  dice::roll(s, dice::EVENT, 2);  // roll event (R18.5): the player's 2d6
  s.stage = DEF_ROLL_B;
}

void def_roll_b(State& s, const ActionLayout&) {
  dice::roll(s, dice::EVENT_B, 2);  // roll event (R18.5): the owner's 2d6 (pool: RD10.10)
  s.stage = DEF_CHECK;
}

// B.8: strictly higher wins; the hero is placed on an own land hex with room.
void def_check(State& s, const ActionLayout& lay) {
  auto& ev = event(s);
  Ids hexes = heroes::room_hexes(s, ev.player);
  ev.roll = dice_sum(dice::take(s, dice::EVENT));
  ev.roll2 = dice_sum(dice::take(s, dice::EVENT_B));
  if (ev.roll <= ev.roll2 || hexes.empty()) {
    s.stage = FINISH;
    return;
  }
  pose(s, decision::EVENT_HEX, ev.player, offset(hexes, lay.hex), DEF_PLACE);
}

Ids lords_of(const State& s, int p) {
  return where(s.n.Faces, [&](int f) { return s.hero_owner[f] == p && s.t->HERO_LORD_TERRAIN[f] >= 0; });
}

void def_place(State& s, const ActionLayout& lay) {
  int f = event(s).hero, p = event(s).player;
  s.hero_owner[f] = static_cast<std::int8_t>(p);
  s.hero_hex[f] = static_cast<std::int8_t>(answer(s) - lay.hex);
  s.hero_mp[f] = s.hero_status[f] = s.hero_damage[f] = 0;
  s.hero_pinned[f] = s.hero_moved[f] = false;
  s.stage = FINISH;
  Ids lords = lords_of(s, p);
  if (lords.size() > 1) {  // R7.10 / RD5.4: the player to the right picks the lord kept
    event(s).lord_player = p;
    pose(s, decision::LORD_KEEP, right_of(s, p), offset(lords, lay.hero), DEF_LORD);
  }
}

void def_lord(State& s, const ActionLayout& lay) {
  int keep = answer(s) - lay.hero, p = event(s).lord_player;
  event(s).lord_player = -1;
  for (int f : lords_of(s, p))
    if (f != keep) {  // back to the pool, turned over
      s.hero_owner[f] = NOBODY;
      s.hero_hex[f] = -1;
      s.hero_up[f / 2] ^= 1;
    }
  s.stage = FINISH;
}

// ----- B.9 Vandals

bool vandal_fort(const State& s, int q, int h) { return s.hex_owner[h] == q && s.hex_fort[h] > 0 && s.hex_fort[h] < 4; }

void van_start(State& s, const ActionLayout& lay, int p) {
  Ids victims = relative_players(s, lay, p, vandal_victims(s, p));
  if (victims.empty()) {  // R10.1: nobody has a fort to lose, no effect
    s.stage = FINISH;
    return;
  }
  pose(s, decision::EVENT_PLAYER, p, victims, VAN_VICTIM);
}

// B.9: the victim picks the fort (option vandals_chooser=event_player: the player).
void van_victim(State& s, const ActionLayout& lay) {
  int p = event(s).player;
  int q = player_of(s, lay, p, answer(s));
  event(s).other = q;
  int chooser = s.cfg->vandals_chooser == option::vandals_chooser_victim ? q : p;
  Ids forts = where(s.n.Hexes, [&](int h) { return vandal_fort(s, q, h); });
  pose(s, decision::EVENT_HEX, chooser, offset(forts, lay.hex), VAN_FORT);
}

void van_fort(State& s, const ActionLayout& lay) {
  conquest::reduce_fort(s, answer(s) - lay.hex);  // a Tower goes back to the bank
  s.stage = FINISH;
}

// ----- tables (Python: START, STAGES)

void start_event(State& s, const ActionLayout& lay, int p) {
  switch (original(s, event(s).card)) {
    case ev_id::WILLING_WORKERS: return ww_start(s, lay, p);
    case ev_id::TERRAIN_DISASTER: return dis_start(s, lay, p);
    case ev_id::BIG_JUJU: return cast_start(s, lay, p);
    case ev_id::DARK_PLAGUE: return plague_start(s, lay, p);
    case ev_id::MOTHER_LODE: return lode_start(s, lay, p);
    case ev_id::GOOD_HARVEST: return harvest_start(s, lay, p);
    case ev_id::TEENIEPOX: return pox_start(s, lay, p);
    case ev_id::DEFECTION: return def_start(s, lay, p);
    case ev_id::VANDALS: return van_start(s, lay, p);
    case ev_id::WEATHER_CONTROL: return cast_start(s, lay, p);
    case ev_id::PORTAL: return house::portal_start(s, lay, p);  // R22.5 (events.add_event)
    default: throw InvariantViolation("events: no event " + std::to_string(event(s).card));
  }
}

using Stage = void (*)(State&, const ActionLayout&);

constexpr Stage kStages[] = {
    begin, choose, played, finish, ww_hex, dis_hex, dis_roll, dis_check, dis_owner_roll, dis_loss, caster,
    target, react, juju_terrain, juju_apply, juju_escape, juju_escaped, juju_move, juju_sink, fan, plague_react,
    plague_player, plague_next, plague_hit, pox_victim, pox_react, pox_roll, pox_check, pox_hit, def_hero,
    def_roll_a, def_roll_b, def_check, def_place, def_lord, van_victim, van_fort,
};
static_assert(sizeof(kStages) / sizeof(kStages[0]) == VAN_FORT + 1);

// FAN_HEX and ESCAPE_HEX are asked by events (Weather Control, Big Juju), which keep their own posed
// choice, by the Balloon (C.2) and by an optional rule's move (hooks::fan_handlers, R22.6 the
// Bellows diverts the Boat): route each decision to the part that asked it.
void legal_fan_hex(State& s, const ActionLayout& lay, std::int8_t* mask) {
  if (posed(s)) return legal_choice(s, lay, mask);
  if (hooks::fan_handlers(s)) return boat::legal_fan(s, lay, mask);
  balloon::legal_fan(s, lay, mask);
}

void apply_fan_hex(State& s, const ActionLayout& lay, int action) {
  if (posed(s)) return apply_choice(s, lay, action);
  if (hooks::fan_handlers(s)) return boat::apply_fan(s, lay, action);
  balloon::apply_fan(s, lay, action);
}

void legal_escape_hex(State& s, const ActionLayout& lay, std::int8_t* mask) {
  if (posed(s)) return legal_choice(s, lay, mask);
  if (hooks::fan_handlers(s)) return boat::legal_fan(s, lay, mask);
  balloon::legal_escape(s, lay, mask);
}

void apply_escape_hex(State& s, const ActionLayout& lay, int action) {
  if (posed(s)) return apply_choice(s, lay, action);
  if (hooks::fan_handlers(s)) return boat::apply_fan(s, lay, action);
  balloon::apply_escape(s, lay, action);
}

}  // namespace

void run(State& s) {
  auto stage = s.stage;
  if (stage >= PORTAL_STACK && stage <= PORTAL_SENT) return house::portal_stage(s, layout(s));  // R22.5
  if (stage < 0 || stage > VAN_FORT) throw InvariantViolation("events: no stage " + std::to_string(stage));
  kStages[stage](s, layout(s));
}

Event& event(State& s) { return *s.frame<Event>(); }

// Ask `actor` to pick one of `actions` (never empty); stage `then` reads the answer.
void pose(State& s, int decision, int actor, const Ids& actions, int then) {
  if (actions.empty())
    throw InvariantViolation("decision " + std::to_string(decision) + " posed with no legal action");
  Series sorted(actions.begin(), actions.end());  // np.flatnonzero of the bits: ascending, once each
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  event(s).posed = std::move(sorted);
  s.stage = then;
  s.decision = decision;
  s.actor = actor;
}

bool posed(const State& s) {
  const Event* ev = s.frame<Event>();
  return ev != nullptr && !ev->posed.empty();
}

void legal_choice(State& s, const ActionLayout&, std::int8_t* mask) {
  for (int a : event(s).posed) mask[a] = 1;
}

void apply_choice(State& s, const ActionLayout&, int action) {
  auto& ev = event(s);
  ev.posed.clear();
  ev.answer = action;
  s.decision = decision::NONE;
}

int answer(State& s) {
  auto& ev = event(s);
  int a = ev.answer;
  ev.answer = -1;
  return a;
}

Ids order_from(const State& s, int p) {
  Ids out;
  int n = s.n.Players;
  for (int i = 0; i < n; ++i) {
    int q = (p + i) % n;
    if (s.alive[q]) out.push_back(q);
  }
  return out;
}

// B.1 / RD10.6: own hexes that can get a Tower or one level more (never a Citadel).
Ids ww_hexes(const State& s, int p) {
  HexFlags ok{};
  for (int h = 0; h < s.n.Hexes; ++h) {
    ok[h] = s.hex_owner[h] == p && s.hex_fort[h] < 3;
    if (s.cfg->willing_workers_counts_toward_limit)
      ok[h] = ok[h] && s.hex_fort_round[h] != s.round;  // R14.2: one level per hex per round
  }
  for (int level = 1; level <= 3; ++level)
    if (!construction::supply_left(s, level))  // R14.5
      for (int h = 0; h < s.n.Hexes; ++h) ok[h] = ok[h] && s.hex_fort[h] != level - 1;
  return where(s.n.Hexes, [&](int h) { return ok[h]; });
}

// Magic creatures and magic heroes of `p` on the board with a valid target in range (RD10.8).
Ids caster_actions(const State& s, int p, int c, const ActionLayout& lay) {
  HexFlags valid = valid_targets(s, c);
  Ids out;
  for (int t = 0; t < s.n.Things; ++t)
    if (is_creature(s, t) && s.t->THING_MAGIC[t] && s.thing_owner[t] == p && s.thing_place[t] == BOARD) {
      int a = lay.thing + t;
      if (any_in_reach(s, valid, caster_hex_reach(s, p, a, lay))) out.push_back(a);
    }
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] == p && s.t->HERO_MAGIC[f]) {
      int a = lay.hero + f;
      if (any_in_reach(s, valid, caster_hex_reach(s, p, a, lay))) out.push_back(a);
    }
  return out;
}

// B.4 per hex of q with a creature of q: forts (Citadel 4) + city/village values; else 0.
HexCounts plague_values(const State& s, int q) {
  HexFlags has{};
  s.things.board.each([&](int c) {
    if (s.thing_owner[c] == q && is_creature(s, c)) has[s.thing_hex[c]] = true;
  });
  HexCounts out{};
  for (int h = 0; h < s.n.Hexes; ++h)
    if (has[h] && s.hex_owner[h] == q) out[h] = s.hex_fort[h] + town_value(s, h);
  return out;
}

// B.5: twice the income counters' values (cities and villages too); mines four times with the
// Dwarf King (A.9).
std::int64_t mother_lode(const State& s, int p) {
  bool dwarf = s.hero_owner[hero::DWARF_KING] == p;
  std::int64_t total = 0;
  for (int h = 0; h < s.n.Hexes; ++h) {
    int c = s.hex_income[h];
    if (s.hex_owner[h] != p || c < 0) continue;
    std::int64_t value = s.t->THING_INCOME[c];
    if (dwarf && s.t->THING_IS_MINE[c]) value *= 2;
    total += value;
  }
  return 2 * total;
}

// B.6: land hexes + fort levels (+ heroes, option good_harvest_counts_heroes).
std::int64_t good_harvest(const State& s, int p) {
  std::int64_t gold = 0;
  for (int h = 0; h < s.n.Hexes; ++h)
    if (s.hex_owner[h] == p) gold += 1 + s.hex_fort[h];
  if (s.cfg->good_harvest_counts_heroes) gold += count_where(s.n.Faces, [&](int f) { return s.hero_owner[f] == p; });
  return gold;
}

// B.7 per hex: q's creatures and heroes + q's fort (Citadel 4) and city/village values.
HexCounts stack_sizes(const State& s, int q) {
  HexCounts sizes = army_counts(s, q);
  for (int h = 0; h < s.n.Hexes; ++h)
    if (s.hex_owner[h] == q) sizes[h] += s.hex_fort[h] + town_value(s, h);
  return sizes;
}

// B.8 / RD5.3: pool heroes (face-up side) and other players' heroes, if p has room for one.
Ids defection_heroes(const State& s, int p) {
  if (heroes::room_hexes(s, p).empty()) return {};
  Ids out = heroes::pool_faces(s);
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] != NOBODY && s.hero_owner[f] != p) out.push_back(f);
  return out;
}

Ids vandal_victims(const State& s, int p) {
  Ids out;
  for (int q : others(s, p))
    if (count_where(s.n.Hexes, [&](int h) { return vandal_fort(s, q, h); })) out.push_back(q);
  return out;
}

// R10.1 / RD1.8: any event may be played (one with nothing to act on goes to the cup without effect),
// except where Appendix B states a condition (B.1, B.3, B.10). Option events_playable=with_effect: only
// with a legal target or effect. R20.1: a copy acts as its original. An optional rule's event is never
// played with its rule off (events.add_event's in_game: R22.5 the Portal).
bool event_playable(State& s, int p, int c) {
  int o = original(s, c);
  if (o == ev_id::PORTAL && !house::on(s)) return false;
  bool stated = o == ev_id::WILLING_WORKERS || o == ev_id::BIG_JUJU || o == ev_id::WEATHER_CONTROL;
  if (s.cfg->events_playable == option::events_playable_any && !stated) return true;
  const ActionLayout& lay = layout(s);
  switch (o) {
    case ev_id::WILLING_WORKERS: return !ww_hexes(s, p).empty();
    case ev_id::TERRAIN_DISASTER: return true;
    case ev_id::BIG_JUJU: return !caster_actions(s, p, ev_id::BIG_JUJU, lay).empty();
    case ev_id::DARK_PLAGUE: return true;
    case ev_id::MOTHER_LODE: return mother_lode(s, p) > 0;
    case ev_id::GOOD_HARVEST: return good_harvest(s, p) > 0;
    case ev_id::TEENIEPOX: return !others(s, p).empty();
    case ev_id::DEFECTION: return !defection_heroes(s, p).empty();
    case ev_id::VANDALS: return !vandal_victims(s, p).empty();
    case ev_id::WEATHER_CONTROL: return !caster_actions(s, p, ev_id::WEATHER_CONTROL, lay).empty();
    case ev_id::PORTAL: return house::portal_playable(s, p);  // R22.5 (events.add_event)
    default: throw InvariantViolation("events: no event " + std::to_string(c));
  }
}

void register_rules(Registry& r) {
  for (int code : {decision::EVENT_PLAY, decision::EVENT_HEX, decision::EVENT_PLAYER, decision::EVENT_CASTER,
                   decision::EVENT_TERRAIN, decision::PLAGUE_HEX, decision::DEFECT_HERO, decision::LORD_KEEP})
    r.decision(code, legal_choice, apply_choice);
  losses::register_rules(r);  // losses.DECISIONS come in with these in Python's table
  r.decision(decision::FAN_HEX, legal_fan_hex, apply_fan_hex);
  r.decision(decision::ESCAPE_HEX, legal_escape_hex, apply_escape_hex);
  r.runner[PHASE_EVENTS] = run;
}

}  // namespace ktenv::events

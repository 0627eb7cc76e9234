// ktenv/kings_and_things/engine/movement.py: R11 phase 5: movement, flyers (R11.6), pins (R11.5, R11.7), conquest by
// movement (R11.8), the income-counter window (R11.9). Same order of checks and ties as the Python code.
#include "movement.hpp"

#include "balloon.hpp"
#include "common.hpp"
#include "conquest.hpp"
#include "creatures.hpp"
#include "deerhunter.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "stacks.hpp"
#include "support.hpp"

namespace ktenv::movement {
namespace {

namespace dh = deerhunter;
using deerhunter::DEERHUNTER;
using deerhunter::MP;

constexpr int TURNS = 0, WINDOW = 1;  // stages: the players' movement turns, then the R11.9 window
constexpr int FAR = 1'000;            // "no ground member": any terrain cost fits

// numpy's indexing: -1 is the last entry (a hero without a hex would mark the last hex, as in Python)
int wrap(int i, int n) { return i < 0 ? i + n : i; }

bool is_creature(const State& s, int c) { return s.t->THING_KIND[c] == CREATURE; }
bool combat_thing(const State& s, int c) {  // R0.4.10 (forts: per hex)
  int k = s.t->THING_KIND[c];
  return k == CREATURE || k == CITY || k == VILLAGE;
}
bool hero_flies(const State& s, int f) { return s.t->HERO_FLYING[f]; }
using common::known_sea;

int mover(const State& s) { return turn_order(s)[s.turn]; }

void add(Series& members, int x) {  // a set kept as a list (hero faces, hexes)
  if (!contains(members, x)) members.push_back(x);
}

bool any_moving(const State& s) {
  if (s.things.moving.any()) return true;
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_status[f] == MOVING) return true;
  return false;
}

// The moving stack (only the mover's counters are ever MOVING).
Members members(const State& s) {
  return {moving_things(s), where(s.n.Faces, [&](int f) { return s.hero_status[f] == MOVING; })};
}

// The mover's unmoved creatures and heroes: only they are UNMOVED with MP (R11.2.1).
Members unmoved(const State& s) {
  Ids things;
  s.things.mp.each([&](int c) {
    if (s.thing_status[c] == UNMOVED && s.thing_mp[c] > 0) things.push_back(c);
  });
  return {things,
          where(s.n.Faces,
                [&](int f) { return s.hero_status[f] == UNMOVED && s.hero_mp[f] > 0 && s.hero_owner[f] >= 0; })};
}

Members unmoved_at(const State& s, int hx) {
  Members u = unmoved(s), out;
  for (int c : u.things)
    if (s.thing_hex[c] == hx) out.things.push_back(c);
  for (int f : u.heroes)
    if (s.hero_hex[f] == hx) out.heroes.push_back(f);
  return out;
}

bool any_pinned(const State& s, const Members& m) {
  for (int c : m.things)
    if (s.thing_pinned[c]) return true;
  for (int f : m.heroes)
    if (s.hero_pinned[f]) return true;
  return false;
}

// Every member is done where it stands (R11.2.3 end, R11.3 stop); the Deerhunter's company ends too.
void end_move(State& s) {
  for (int c : moving_things(s)) set_status(s, c, DONE);
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_status[f] == MOVING) s.hero_status[f] = DONE;
  s.drop<Move>();
  s.decision = decision::NONE;
}

// A revealed bluff left the board (R9.5): it no longer moves.
void gone(State& s, int c) {
  set_mp(s, c, 0);
  set_status(s, c, 0);
  s.thing_pinned[c] = false;
  s.thing_moved[c] = false;
  dh::separate(s, c, -1);
}

// Players' creatures in the hex face down; any shown stay known to all (RI.4).
void hide(State& s, int hx) {
  each_board_thing_at(s, hx, [&](int c) {
    if (s.thing_face_up[c] && s.thing_owner[c] != NEUTRAL && is_creature(s, c)) {
      s.thing_public[c] = true;
      s.thing_face_up[c] = false;
    }
  });
}

// ----- the runner

// R11.1.2 4 MP each; R11.5.1 pinned where enemies stand at the start of the turn.
void begin_turn(State& s, int p) {
  HexFlags pres = enemy_presence(s, p);
  int nh = s.n.Hexes;
  s.things.board.each([&](int c) {
    if (s.thing_owner[c] == p && is_creature(s, c)) {
      set_mp(s, c, MP);
      s.thing_pinned[c] = pres[wrap(s.thing_hex[c], nh)];
    }
  });
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] == p) {
      s.hero_mp[f] = MP;
      s.hero_pinned[f] = pres[wrap(s.hero_hex[f], nh)];
    }
  auto& t = s.push(MovementTurn{});
  t.fort_spent.assign(s.n.Hexes, 0);
  t.town_spent.assign(s.n.Things, 0);
  hooks::movement_turn_begins(s, p);  // R22.5, R22.3
}

void end_turn(State& s) {
  conquer_by_movement(s, mover(s));
  const int nt = s.n.Things;
  std::fill_n(s.thing_mp.begin(), nt, 0);
  std::fill_n(s.thing_status.begin(), nt, 0);
  std::fill_n(s.thing_pinned.begin(), nt, false);
  std::fill_n(s.thing_moved.begin(), nt, false);
  s.things.mp = s.things.moving = ThingBits{};  // no Thing moves or has MP now
  for (int f = 0; f < s.n.Faces; ++f) {
    s.hero_mp[f] = 0;
    s.hero_status[f] = 0;
    s.hero_pinned[f] = false;
    s.hero_moved[f] = false;
  }
  s.drop<Move>();
  s.drop<MovementTurn>();
  s.turn += 1;
  s.decision = decision::NONE;
}

// ----- MOVE_START (RP-5.1)

// Hexes with an unmoved counter that may leave (R11.5.2), or a pin to challenge (R11.7).
Ids start_hexes(State& s, int p) {
  Members u = unmoved(s);
  ThingFlags fly = creatures::flying(s);
  HexFlags ok{}, pinned{};
  int nh = s.n.Hexes;
  for (int c : u.things) (!s.thing_pinned[c] || fly[c] ? ok : pinned)[wrap(s.thing_hex[c], nh)] = true;
  for (int f : u.heroes) {
    bool free = !s.hero_pinned[f] || hero_flies(s, f) || f == DEERHUNTER;
    (free ? ok : pinned)[wrap(s.hero_hex[f], nh)] = true;
  }
  const Series& offered = turn(s)->challenged;
  HexFlags candidates{};
  for (int hx = 0; hx < nh; ++hx) candidates[hx] = pinned[hx] && !ok[hx];
  for (int hx = 0; hx < nh; ++hx)
    if (candidates[hx] && !contains(offered, hx) && pin_challengeable(s, p, hx)) ok[hx] = true;
  for (int hx : hooks::extra_start_hexes(s, p)) ok[wrap(hx, nh)] = true;  // R21.2: the Aviator's flyer
  return where(nh, [&](int hx) { return ok[hx]; });
}

void legal_start(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int p = static_cast<int>(s.actor);
  Ids starts = start_hexes(s, p);
  for (int hx : starts) mask[lay.hex + hx] = 1;
  hooks::move_options(s, lay, mask);  // R21.10, R22.1
  if (s.cfg->stack_limit_check == option::stack_limit_check_end_of_movement) {  // R11.4.4
    HexCounts room = room_for(s, p);
    for (int hx : starts)
      if (room[hx] < 0) return;  // no end while a move can fix it
  }
  mask[PASS] = 1;  // anything still over the limit is trimmed by its owner (RP-5.9)
  if (balloon::can_fly(s, p)) mask[lay.thing + balloon::held(s, p)] = 1;  // C.2: a move of its own
  hooks::vehicle_moves(s, lay, mask);  // R22.6
}

void apply_start(State& s, const ActionLayout& lay, int action) {
  if (hooks::move_start(s, lay, action)) return;  // R21.10, R22.1, R22.6
  if (action == PASS) {
    turn(s)->ending = true;  // R11.2.5, R11.8 (after RP-5.9)
    s.decision = decision::NONE;
    return;
  }
  if (action >= lay.thing && action - lay.thing == balloon::held(s, static_cast<int>(s.actor))) {
    balloon::begin(s, action - lay.thing);
    return;
  }
  int hx = action - lay.hex;
  s.push(Move{}).start = hx;
  if (hooks::move_begins_in(s, hx)) return;  // R21.2
  start_from(s, hx);
}

// ----- MOVE_SELECT (RP-5.1)

// YES: at least one chosen; pinned non-flyers only with the Deerhunter (R11.5.2).
bool selection_ok(const State& s) {
  Members m = members(s);
  if (m.things.empty() && m.heroes.empty()) return false;
  if (s.hero_status[DEERHUNTER] == MOVING) return true;
  ThingFlags fly = creatures::flying(s);
  for (int c : m.things)
    if (s.thing_pinned[c] && !fly[c]) return false;
  for (int f : m.heroes)
    if (s.hero_pinned[f] && !hero_flies(s, f)) return false;
  return true;
}

// Counters are only added: every chosen hex moves at least one counter, so a turn always ends.
void legal_select(State& s, const ActionLayout& lay, std::int8_t* mask) {
  Members sel = selectable(s, move(s)->start);
  for (int c : sel.things)
    if (s.thing_status[c] == UNMOVED) mask[lay.thing + c] = 1;
  for (int f : sel.heroes)
    if (s.hero_status[f] == UNMOVED) mask[lay.hero + f] = 1;
  if (selection_ok(s)) mask[YES] = 1;
}

void start_blocking(State& s);

// R11.2.2: the move starts. Pinned flyers without the Deerhunter first pass R11.6 (leaving).
void go(State& s) {
  Move* m = move(s);
  int hx = m->hex = m->start;
  Members mem = members(s);
  dh::start(s, mem.things, mem.heroes);
  if (m->deerhunter || !any_pinned(s, mem)) {
    s.decision = decision::MOVE_STACK;
    return;
  }
  m->fly = FlyStage::LEAVE;
  m->intending.assign(mem.heroes.begin(), mem.heroes.end());  // sorted(set(...)): already ascending
  hide(s, hx);
  for (int c : mem.things)
    if (!support::reveal(s, c)) gone(s, c);
  start_blocking(s);
}

void apply_select(State& s, const ActionLayout& lay, int action) {
  if (action == YES) {
    go(s);
  } else if (action < lay.hero) {
    set_status(s, action - lay.thing, MOVING);
  } else {
    s.hero_status[action - lay.hero] = MOVING;
    hooks::hero_picked(s, action - lay.hero);  // R22.4
  }
}

// ----- MOVE_STACK (RP-5.2)

// R11.4.4 option end_of_movement: a step may overfill a hex for now, but flyers may never enter a
// hex that already holds 10 of their owner's counters (R11.4.3).
bool limit_waits(const State& s, int room, const Members& m, const ThingFlags& fly) {
  if (s.cfg->stack_limit_check != option::stack_limit_check_end_of_movement) return false;
  if (room > 0) return true;
  for (int c : m.things)
    if (fly[c]) return false;
  for (int f : m.heroes)
    if (hero_flies(s, f)) return false;
  return true;
}

// From Sea hex `sea` with `budget` MP: a land hex the stack may enter is in reach (R11.3.4).
bool land_within(const State& s, int sea, int budget, const HexCounts& room, int n) {
  HexFlags seen{};
  Ids frontier;
  frontier.push_back(sea);
  seen[sea] = true;
  for (int i = 0; i < budget; ++i) {
    Ids next;
    for (int x : frontier)
      for (int y : s.t->neighbours[x]) {
        if (y < 0 || seen[y]) continue;
        seen[y] = true;
        if (s.hex_terrain[y] != SEA || s.hex_down[y]) {  // R20.3: a face-down tile counts as land
          if (room[y] >= n) return true;
        } else {
          next.push_back(y);
        }
      }
    frontier = next;
  }
  return false;
}

// Directions the whole stack may step: on board, each member can pay (R11.1.2, RD4.7), no member
// pinned there (R11.5), only flyers over Sea toward land in reach (R11.3.4), the stack limit (RD4.2).
FixedList<std::int8_t, kDirections> legal_steps(const State& s, int p) {
  FixedList<std::int8_t, kDirections> out;
  Members m = members(s);
  int n = m.things.size() + m.heroes.size();
  if (n == 0) return out;
  dh::Qualifying q = dh::qualifying(s, m.things, m.heroes);
  for (int i = 0; i < m.things.size(); ++i)
    if (s.thing_pinned[m.things[i]] && !q.things[i]) return out;
  for (int i = 0; i < m.heroes.size(); ++i)
    if (s.hero_pinned[m.heroes[i]] && !q.heroes[i]) return out;
  ThingFlags fly = creatures::flying(s);
  int low = FAR * 10, low_ground = FAR;
  bool all_fly = true;
  for (int i = 0; i < m.things.size(); ++i) {
    int c = m.things[i], mp = s.thing_mp[c];
    low = std::min(low, mp);
    if (!fly[c] && !q.things[i]) low_ground = std::min(low_ground, mp);
    all_fly = all_fly && fly[c];
  }
  for (int i = 0; i < m.heroes.size(); ++i) {
    int f = m.heroes[i], mp = s.hero_mp[f];
    low = std::min(low, mp);
    if (!hero_flies(s, f) && !q.heroes[i] && f != DEERHUNTER) low_ground = std::min(low_ground, mp);
    all_fly = all_fly && hero_flies(s, f);
  }
  if (low < 1) return out;
  HexCounts room = room_for(s, p, army_counts_still(s, p));
  const auto& nb = s.t->neighbours[s.frame<Move>()->hex];
  for (int d = 0; d < kDirections; ++d) {
    int t = nb[d];
    if (t < 0) continue;
    if (known_sea(s, t)) {
      if (all_fly && land_within(s, t, low - 1, room, n)) out.push_back(d);
    } else if ((s.hex_down[t] ? 1 : s.t->move_cost[s.hex_terrain[t]]) <= low_ground &&  // R20.3: face down costs 1
               (room[t] >= n || limit_waits(s, room[t], m, fly))) {
      out.push_back(d);
    }
  }
  return out;
}

void legal_stack(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int p = static_cast<int>(s.actor), hx = move(s)->hex;
  for (int d : legal_steps(s, p)) mask[lay.direction + d] = 1;
  if (known_sea(s, hx)) return;  // R11.3.4: no end and no drop over Sea
  mask[PASS] = 1;
  Members m = members(s);
  for (int c : m.things)
    if (dh::may_drop_thing(s, c)) mask[lay.thing + c] = 1;
  for (int f : m.heroes)
    if (dh::may_drop_hero(s, f, m.things, m.heroes)) mask[lay.hero + f] = 1;
  Members u = unmoved_at(s, hx);  // R11.2.3 pick up (pinned counters stay, R11.5.1)
  for (int c : u.things)
    if (!s.thing_pinned[c]) mask[lay.thing + c] = 1;
  for (int f : u.heroes)
    if (!s.hero_pinned[f]) mask[lay.hero + f] = 1;
}

void after_drop(State& s) {
  if (!any_moving(s)) end_move(s);
}

void record_entry(State& s, int hx, int p);

// The whole stack enters the neighbour; stop rules R11.3 apply on arrival.
void step(State& s, int d) {
  int p = static_cast<int>(s.actor);
  Move* m = move(s);
  int t = s.t->neighbours[m->hex][d];
  int terrain = s.hex_terrain[t];
  bool down = s.hex_down[t];
  int cost = down ? 1 : s.t->move_cost[terrain];  // R20.3 / RD10.15: a face-down hex costs 1 MP
  Members mem = members(s);
  dh::Qualifying q = dh::qualifying(s, mem.things, mem.heroes);
  ThingFlags fly = creatures::flying(s);
  for (int i = 0; i < mem.things.size(); ++i) {
    int c = mem.things[i];
    set_mp(s, c, s.thing_mp[c] - (fly[c] || q.things[i] ? 1 : cost));
    s.thing_pinned[c] = false;  // it has left: the pin no longer concerns it
  }
  for (int i = 0; i < mem.heroes.size(); ++i) {
    int f = mem.heroes[i];
    s.hero_mp[f] = static_cast<std::int8_t>(s.hero_mp[f] - (hero_flies(s, f) || q.heroes[i] || f == DEERHUNTER ? 1 : cost));
    s.hero_pinned[f] = false;
  }
  dh::entered(s, cost);
  m->hex = t;
  if (down) {
    if (hooks::entered_face_down(s, mem.things, mem.heroes, t)) {
      end_move(s);  // [ER]: a Sea tile sends the stack back to the (land) hex it came from
      return;
    }
    if (!s.hex_down[t]) {
      for (int c : mem.things) s.thing_from[c] = -1;
      for (int f : mem.heroes) s.hero_from[f] = -1;
    }
  } else if (terrain == SEA) {
    return;
  }
  for (int c : mem.things) {
    set_hex(s, c, t);
    s.thing_moved[c] = true;
  }
  for (int f : mem.heroes) {
    s.hero_hex[f] = static_cast<std::int8_t>(t);
    s.hero_moved[f] = true;
  }
  if (s.hex_owner[t] == NOBODY) {
    record_entry(s, t, p);
    end_move(s);  // R11.3.1, R11.6.3: an unexplored hex stops flyers too
  } else if (enemy_presence(s, p)[t]) {
    bool flyer = false;
    for (int c : mem.things) flyer = flyer || (fly[c] && s.thing_mp[c] > 0);
    for (int f : mem.heroes) flyer = flyer || (hero_flies(s, f) && s.hero_mp[f] > 0);
    if (flyer) {
      hide(s, t);
      m->fly = FlyStage::ENTRY;  // R11.6.1
      s.decision = decision::FLY_INTEND;
    } else {
      end_move(s);  // R11.3.2
    }
  }
}

void apply_stack(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    end_move(s);
  } else if (action >= lay.direction) {
    step(s, action - lay.direction);
  } else if (action >= lay.hero) {
    int f = action - lay.hero;
    if (s.hero_status[f] == MOVING) {
      s.hero_status[f] = DONE;
      dh::separate(s, -1, f);
      after_drop(s);
    } else {
      s.hero_status[f] = MOVING;
      hooks::hero_picked(s, f);  // R22.4
    }
  } else {
    int c = action - lay.thing;
    if (s.thing_status[c] == MOVING) {
      set_status(s, c, DONE);
      dh::separate(s, c, -1);
      after_drop(s);
    } else {
      set_status(s, c, MOVING);
    }
  }
}

// The order in which players entered an unexplored hex (R12.3.2 option second_to_enter).
void record_entry(State& s, int hx, int p) {
  if (entry_order(s, hx).contains(p)) return;
  Entries* e = s.frame<Entries>();
  if (e == nullptr) e = &s.push(Entries{});
  e->hexes.push_back(hx);
  e->players.push_back(p);
}

// ----- R11.6 flyers passing enemy hexes

// Step 1: flyers with MP left that have not yet declared; PASS when done.
void legal_fly_intend(State& s, const ActionLayout& lay, std::int8_t* mask) {
  mask[PASS] = 1;
  Members m = members(s);
  ThingFlags fly = creatures::flying(s);
  for (int c : m.things)
    if (fly[c] && !s.thing_face_up[c] && s.thing_mp[c] > 0) mask[lay.thing + c] = 1;
  const Series& ih = move(s)->intending;
  for (int f : m.heroes)
    if (hero_flies(s, f) && s.hero_mp[f] > 0 && !contains(ih, f)) mask[lay.hero + f] = 1;
}

// Members that declared to continue: revealed creatures, heroes in `Move.intending`.
Members intending(State& s) {
  Members m = members(s), out;
  const Series& ih = move(s)->intending;
  for (int c : m.things)
    if (s.thing_face_up[c]) out.things.push_back(c);
  for (int f : m.heroes)
    if (contains(ih, f)) out.heroes.push_back(f);
  return out;
}

int n_intending(State& s) {
  Members m = intending(s);
  return m.things.size() + m.heroes.size();
}

void apply_fly_intend(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    if (n_intending(s) == 0)
      end_move(s);  // nobody goes on: all stop (R11.3.2)
    else
      start_blocking(s);
  } else if (action >= lay.hero) {
    add(move(s)->intending, action - lay.hero);
  } else {
    int c = action - lay.thing;
    if (!support::reveal(s, c)) {  // revealed bluffs are removed (R9.5)
      gone(s, c);
      if (!any_moving(s)) end_move(s);
    }
  }
}

// Step 2: face-down flying creatures of enemy `e` in the hex (printed flag), flying heroes not yet declared.
Members blockers(State& s, int e, int hx) {
  Members out;
  out.things = where_on_board_at(s, hx, [&](int c) {
    return s.thing_owner[c] == e && s.t->THING_FLYING[c] && is_creature(s, c) && !s.thing_face_up[c];
  });
  const Series& decl = move(s)->blocking;
  out.heroes = where(s.n.Faces, [&](int f) {
    return s.hero_hex[f] == hx && s.hero_owner[f] == e && hero_flies(s, f) && !contains(decl, f);
  });
  return out;
}

void end_move_fly(State& s, bool stop_all);

// Step 3: as many intending flyers stay as there were blockers; the mover chooses which.
void resolve_blocking(State& s, int n_int) {
  s.actor = mover(s);
  Move* m = move(s);
  int k = std::min<int>(m->blocks, n_int);
  if (k == n_int) {
    end_move_fly(s, true);
  } else if (k == 0) {
    end_move_fly(s, false);
  } else {
    m->stay = k;
    s.decision = decision::FLY_LEAVE;
  }
}

// Enemies in turn order from the mover's left, while blocking can still matter.
void next_blocker(State& s) {
  Order order = turn_order(s);
  int len = static_cast<int>(order.size());
  int p = mover(s);
  Move* m = move(s);
  int i0 = static_cast<int>(std::find(order.begin(), order.end(), p) - order.begin());
  int hx = m->hex;
  int n_int = n_intending(s);
  while (true) {
    m->asked += 1;
    int k = m->asked;
    if (k >= len || m->blocks >= n_int) {
      resolve_blocking(s, n_int);
      return;
    }
    int e = order[(i0 + k) % len];
    Members b = blockers(s, e, hx);
    if (!b.things.empty() || !b.heroes.empty()) {
      s.decision = decision::FLY_BLOCK;
      s.actor = e;
      return;
    }
  }
}

void start_blocking(State& s) {
  if (n_intending(s) == 0) {
    end_move(s);  // every intending flyer was a bluff
    return;
  }
  Move* m = move(s);
  m->blocks = 0;
  m->asked = 0;
  next_blocker(s);
}

void legal_fly_block(State& s, const ActionLayout& lay, std::int8_t* mask) {
  mask[PASS] = 1;
  Members b = blockers(s, static_cast<int>(s.actor), move(s)->hex);
  for (int c : b.things) mask[lay.thing + c] = 1;
  for (int f : b.heroes) mask[lay.hero + f] = 1;
}

void apply_fly_block(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    next_blocker(s);
    return;
  }
  Move* m = move(s);
  if (action >= lay.hero) {
    add(m->blocking, action - lay.hero);  // RD4.6
    m->blocks += 1;
  } else if (support::reveal(s, action - lay.thing)) {  // a revealed bluff leaves and does not count
    m->blocks += 1;
  }
  if (m->blocks >= n_intending(s)) next_blocker(s);
}

void legal_fly_leave(State& s, const ActionLayout& lay, std::int8_t* mask) {
  Members it = intending(s);
  for (int c : it.things) mask[lay.thing + c] = 1;
  for (int f : it.heroes) mask[lay.hero + f] = 1;
}

void apply_fly_leave(State& s, const ActionLayout& lay, int action) {
  Move* m = move(s);
  if (action >= lay.hero) {
    int f = action - lay.hero;
    s.hero_status[f] = DONE;
    int i = index_of(m->intending, f);
    if (i >= 0) m->intending.erase(m->intending.begin() + i);
    dh::separate(s, -1, f);
  } else {
    int c = action - lay.thing;
    set_status(s, c, DONE);
    dh::separate(s, c, -1);
  }
  m->stay -= 1;
  if (m->stay == 0) end_move_fly(s, false);
}

// Step 4: the other members stop (entry) or stay (leaving); intending flyers go on. Creatures
// shown in the procedure are turned face down again, still known to all (RI.4).
void end_move_fly(State& s, bool stop_all) {
  Move* m = move(s);
  FlyStage mode = m->fly;
  Members go_on = intending(s);  // before hiding: the revealed creatures
  hide(s, m->hex);
  m->fly = FlyStage::NONE;
  m->intending.clear();
  m->blocking.clear();
  m->blocks = m->asked = m->stay = 0;
  if (stop_all || go_on.things.size() + go_on.heroes.size() == 0) {
    end_move(s);
    return;
  }
  Members mem = members(s);
  for (int c : mem.things)
    if (!go_on.things.contains(c)) set_status(s, c, DONE);
  for (int f : mem.heroes)
    if (!go_on.heroes.contains(f)) s.hero_status[f] = DONE;
  if (mode == FlyStage::LEAVE) {
    for (int c : go_on.things) s.thing_pinned[c] = false;
    for (int f : go_on.heroes) s.hero_pinned[f] = false;
  }
  dh::separate(s, -1, -1);  // the Deerhunter may have stopped behind them
  s.decision = decision::MOVE_STACK;
}

// ----- R11.7 bluff challenge against a pin

void legal_pin_challenge(State&, const ActionLayout&, std::int8_t* mask) { mask[YES] = mask[PASS] = 1; }

void to_select(State& s) {
  Move* m = move(s);
  m->revealer = 0;
  s.actor = mover(s);
  Members sel = selectable(s, m->start);
  if (!sel.things.empty() || !sel.heroes.empty()) {
    s.decision = decision::MOVE_SELECT;
  } else {
    s.drop<Move>();
    s.decision = decision::NONE;
  }
}

// Supported face-down creatures of `e` in the hex (a bluff would not count, R11.7.2).
Ids revealable(const State& s, int e, int hx) {
  ThingFlags sup = support::supported_mask(s, e);
  return where(s.n.Things,
               [&](int c) { return s.thing_hex[c] == hx && s.thing_owner[c] == e && !s.thing_face_up[c] && sup[c]; });
}

void next_revealer(State& s) {
  Order order = turn_order(s);
  int len = static_cast<int>(order.size());
  Move* m = move(s);
  int p = mover(s), hx = m->start;
  int i0 = static_cast<int>(std::find(order.begin(), order.end(), p) - order.begin());
  while (true) {
    m->revealer += 1;
    int k = m->revealer;
    if (k >= len) {  // nobody showed a supported creature: unpinned (RD4.3)
      each_board_thing_at(s, hx, [&](int c) {
        if (s.thing_owner[c] == p) s.thing_pinned[c] = false;
      });
      for (int f = 0; f < s.n.Faces; ++f)
        if (s.hero_hex[f] == hx) s.hero_pinned[f] = false;  // only the mover's heroes carry pins now
      to_select(s);
      return;
    }
    int e = order[(i0 + k) % len];
    if (!revealable(s, e, hx).empty()) {
      s.decision = decision::PIN_REVEAL;
      s.actor = e;
      return;
    }
  }
}

void apply_pin_challenge(State& s, const ActionLayout&, int action) {
  if (action == YES) {
    move(s)->revealer = 0;
    next_revealer(s);
  } else {
    to_select(s);
  }
}

void legal_pin_reveal(State& s, const ActionLayout& lay, std::int8_t* mask) {
  mask[PASS] = 1;
  for (int c : revealable(s, static_cast<int>(s.actor), move(s)->start)) mask[lay.thing + c] = 1;
}

void apply_pin_reveal(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    next_revealer(s);
    return;
  }
  s.thing_public[action - lay.thing] = true;  // shown to all, turned face down again (RI.4)
  to_select(s);                                // the pin stands
}

// ----- R11.9 income-counter removal window (RD8.4)

void legal_remove_income(State& s, const ActionLayout& lay, std::int8_t* mask) {
  mask[PASS] = 1;
  for (int c : common::own_income_counters(s, static_cast<int>(s.actor))) mask[lay.thing + c] = 1;
}

void apply_remove_income(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    s.turn += 1;
    s.decision = decision::NONE;
  } else {
    common::remove_income_counter(s, action - lay.thing);
  }
}

}  // namespace

// ----- queries other modules reuse

MovementTurn* turn(State& s) { return s.frame<MovementTurn>(); }
Move* move(State& s) { return s.frame<Move>(); }

HexFlags enemy_presence(const State& s, int player) {
  HexFlags out{};
  int nh = s.n.Hexes;
  s.things.board.each([&](int c) {
    int o = s.thing_owner[c];
    if (o != player && o != NEUTRAL && (!s.thing_face_up[c] || combat_thing(s, c))) out[wrap(s.thing_hex[c], nh)] = true;
  });
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] != NOBODY && s.hero_owner[f] != player) out[wrap(s.hero_hex[f], nh)] = true;
  for (int h = 0; h < nh; ++h)
    if (s.hex_fort[h] > 0 && s.hex_owner[h] != player && s.hex_owner[h] != NOBODY) out[h] = true;
  return out;
}

HexCounts army_counts_still(const State& s, int player) {
  HexCounts counts{};
  s.things.board.each([&](int c) {
    if (s.thing_owner[c] == player && is_creature(s, c) && s.thing_status[c] != MOVING) ++counts[s.thing_hex[c]];
  });
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] == player && s.hero_status[f] != MOVING) {
      if (s.hero_hex[f] < 0) throw InvariantViolation("army_counts_still: a hero without a hex");  // np.bincount
      ++counts[s.hero_hex[f]];
    }
  return counts;
}

bool pin_challengeable(const State& s, int player, int hx) {
  int o = s.hex_owner[hx];
  if (o != player && o != NOBODY && s.hex_fort[hx] > 0) return false;
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_hex[f] == hx && s.hero_owner[f] != NOBODY && s.hero_owner[f] != player) return false;
  bool any = false, blocked = false;
  each_board_thing_at(s, hx, [&](int c) {
    int ow = s.thing_owner[c];
    if (blocked || ow == player || ow == NEUTRAL || !(!s.thing_face_up[c] || combat_thing(s, c))) return;
    if (s.thing_face_up[c] || !is_creature(s, c)) blocked = true;
    any = true;
  });
  return any && !blocked;
}

Ids conquer_by_movement(State& s, int player) {
  HexFlags moved{};
  int nh = s.n.Hexes;
  s.things.board.each([&](int c) {
    if (s.thing_moved[c] && s.thing_owner[c] == player) moved[wrap(s.thing_hex[c], nh)] = true;
  });
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_moved[f] && s.hero_owner[f] == player) moved[wrap(s.hero_hex[f], nh)] = true;
  HexFlags pres = enemy_presence(s, player);
  Ids hexes = where(nh, [&](int h) {
    int o = s.hex_owner[h];
    return moved[h] && o != player && o != NOBODY && !pres[h];
  });
  for (int hx : hexes) {
    conquest::conquer(s, hx, player);  // R13.11.1: marker, income counter, cloud, support, Citadel
    if (game_over(s)) break;
  }
  return hexes;
}

Ids entry_order(const State& s, int hx) {
  Ids out;
  const Entries* e = s.frame<Entries>();
  if (e == nullptr) return out;
  for (std::size_t i = 0; i < e->hexes.size(); ++i)
    if (e->hexes[i] == hx) out.push_back(e->players[i]);
  return out;
}

void start_from(State& s, int hx) {
  Members u = unmoved_at(s, hx);
  Series& offered = turn(s)->challenged;
  if (any_pinned(s, u) && !contains(offered, hx) && pin_challengeable(s, static_cast<int>(s.actor), hx)) {
    offered.push_back(hx);  // one offer per hex and turn
    s.decision = decision::PIN_CHALLENGE;
    return;
  }
  s.decision = decision::MOVE_SELECT;
}

Members selectable(const State& s, int hx) {
  Members u = unmoved_at(s, hx), m = members(s), all = u;
  for (int c : m.things) all.things.push_back(c);
  for (int f : m.heroes) all.heroes.push_back(f);
  if (all.heroes.contains(DEERHUNTER)) return all;  // A.3: he leads pinned counters away
  ThingFlags fly = creatures::flying(s);
  Members out;
  for (int c : all.things)
    if (!s.thing_pinned[c] || fly[c]) out.things.push_back(c);
  for (int f : all.heroes)
    if (!s.hero_pinned[f] || hero_flies(s, f)) out.heroes.push_back(f);
  return out;
}

void run(State& s) {
  Order order = turn_order(s);
  int len = static_cast<int>(order.size());
  if (balloon::flying(s)) {  // a Balloon flight waiting for its reactions (C.2)
    balloon::run(s);
    return;
  }
  if (hooks::movement_resume(s)) return;  // R22.6
  MovementTurn* current = turn(s);
  if (current != nullptr && current->ending) {  // RP-5.9 first: nobody ends the turn over the limit
    if (!stacks::trim(s, mover(s))) end_turn(s);
    return;
  }
  if (s.stage == TURNS) {
    if (s.turn >= len) {
      s.stage = WINDOW;
      s.turn = 0;
      return;
    }
    if (current == nullptr) begin_turn(s, order[s.turn]);
    if (hooks::before_move_start(s)) return;  // R22.3
    s.decision = decision::MOVE_START;
    s.actor = order[s.turn];
    return;
  }
  while (s.turn < len && common::own_income_counters(s, order[s.turn]).empty()) s.turn += 1;
  if (s.turn >= len) {
    s.phase = PHASE_COMBAT;
    s.stage = 0;
    s.turn = 0;
    return;
  }
  s.decision = decision::REMOVE_INCOME;
  s.actor = order[s.turn];
}

void register_rules(Registry& r) {
  r.runner[PHASE_MOVEMENT] = run;
  r.decision(decision::MOVE_START, legal_start, apply_start);
  r.decision(decision::MOVE_SELECT, legal_select, apply_select);
  r.decision(decision::MOVE_STACK, legal_stack, apply_stack);
  r.decision(decision::FLY_INTEND, legal_fly_intend, apply_fly_intend);
  r.decision(decision::FLY_BLOCK, legal_fly_block, apply_fly_block);
  r.decision(decision::FLY_LEAVE, legal_fly_leave, apply_fly_leave);
  r.decision(decision::PIN_CHALLENGE, legal_pin_challenge, apply_pin_challenge);
  r.decision(decision::PIN_REVEAL, legal_pin_reveal, apply_pin_reveal);
  r.decision(decision::REMOVE_INCOME, legal_remove_income, apply_remove_income);
}

}  // namespace ktenv::movement

// Phase 4 (R10): play events (Appendix B, RP-4).
// Python twin: engine/events.py (the same functions under the same names, in namespace ktenv::events).
#pragma once

#include "core.hpp"

namespace ktenv::events {

void run(State& s);  // the EVENTS phase runner
Event& event(State& s);  // the event under way
void pose(State& s, int decision, int actor, const Ids& actions, int then);  // ask, stage `then` reads the answer
bool posed(const State& s);  // is an event's choice being asked now?
void legal_choice(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_choice(State& s, const ActionLayout& lay, int action);
int answer(State& s);  // the posed choice's answer, once (Python: _answer)
Ids order_from(const State& s, int p);  // R18.6.1: players in the game in turn order from p
bool event_playable(State& s, int p, int c);  // RD1.8
Ids ww_hexes(const State& s, int p);  // B.1 / RD10.6
Ids caster_actions(const State& s, int p, int c, const ActionLayout& lay);  // RD10.8
HexCounts plague_values(const State& s, int q);  // B.4
std::int64_t mother_lode(const State& s, int p);  // B.5
std::int64_t good_harvest(const State& s, int p);  // B.6
HexCounts stack_sizes(const State& s, int q);  // B.7
Ids defection_heroes(const State& s, int p);  // B.8 / RD5.3
Ids vandal_victims(const State& s, int p);  // B.9

// Stages of the phase (s.stage): ktenv.kings_and_things.procedures.EventStage (the Portal's are house's).
enum EventStage : int {
  BEGIN = 0, CHOOSE, PLAYED, FINISH, WW_HEX, DIS_HEX, DIS_ROLL, DIS_CHECK, DIS_OWNER_ROLL, DIS_LOSS, CASTER,
  TARGET, REACT, JUJU_TERRAIN, JUJU_APPLY, JUJU_ESCAPE, JUJU_ESCAPED, JUJU_MOVE, JUJU_SINK, FAN, PLAGUE_REACT,
  PLAGUE_PLAYER, PLAGUE_NEXT, PLAGUE_HIT, POX_VICTIM, POX_REACT, POX_ROLL, POX_CHECK, POX_HIT, DEF_HERO,
  DEF_ROLL_A, DEF_ROLL_B, DEF_CHECK, DEF_PLACE, DEF_LORD, VAN_VICTIM, VAN_FORT,
  PORTAL_STACK = 100, PORTAL_DEST, PORTAL_ROLLED, PORTAL_SENT
};

}  // namespace ktenv::events

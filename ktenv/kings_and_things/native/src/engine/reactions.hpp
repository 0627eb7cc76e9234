// Reaction rounds (R18.2): Dispel Magic, the Fan (bellows) and the Elixir answer an event or item. A
// procedure calls open_round(...), waits, and reads take_result(s) when its runner is called again.
// Python twin: engine/reactions.py (the same functions under the same names, in namespace ktenv::reactions).
#pragma once

#include "common.hpp"
#include "core.hpp"

namespace ktenv {
struct Registry;
}

namespace ktenv::reactions {

constexpr int DISPEL = magic::DISPEL_MAGIC;
constexpr int FAN = magic::FAN;
constexpr int ELIXIR = magic::ELIXIR;
constexpr int MAGIC_STEP = -2;  // pseudo-trigger: another player's magic creatures are about to attack (C.8)

// take_result's answer: (cancelled, player whose Fan took effect or -1, bitmask of players saved by an Elixir)
struct Result {
  bool cancelled = false;
  int fan = -1;
  int elixir = 0;
};

// victims: bitmask of the players an Elixir may protect (Teenie Pox); Python's default is 0
void open_round(State& s, int trigger, int player, int victims);
Result take_result(State& s);
Ids eligible(const State& s, int q, int d);
bool pending(State& s);
void legal_react(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_react(State& s, const ActionLayout& lay, int action);
// DECISIONS (REACT): interrupts' register_rules calls it, as interrupts.py merges them
void register_rules(Registry& r);

// A Balloon (C.2) or Boat (R22.6) move after its reactions: Dispel Magic cancels it (`clear(s, false)`:
// keep_flight=False), a Fan/Bellows player picks where it lands (FAN_HEX; flight.stage = fanned), else
// it lands on `dest` (`land(s, dest)`).
template <class Flight, class Stage, class Clear, class Land>
void resume_flight(State& s, int item, Flight& flight, Stage fanned, Clear clear, Land land, int dest) {
  Result r = take_result(s);
  if (r.cancelled) {
    common::used_up(s, item);
    clear(s, false);
  } else if (r.fan >= 0) {
    flight.stage = fanned;
    s.decision = decision::FAN_HEX;
    s.actor = r.fan;
  } else {
    land(s, dest);
  }
}

}  // namespace ktenv::reactions

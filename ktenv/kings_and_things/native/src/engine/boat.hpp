// The Boat (Bateau, R22.6), a house magic item (only with house_content), modelled on the Balloon: a move
// of its own across 1-3 Sea hexes; its passengers fight as Ranged this round. The trip is the frame
// BoatTrip. Passenger codes: a Thing c, or ~f for hero face f (as in Python).
// Python twin: engine/boat.py (the same functions under the same names, in namespace ktenv::boat).
#pragma once

#include <vector>

#include "core.hpp"

namespace ktenv {
namespace hooks {
struct Riders;
struct RangedAttack;
}  // namespace hooks
}  // namespace ktenv

namespace ktenv::boat {

constexpr int BOAT = magic::BOAT;
constexpr int BOAT_VALUE = house_value::BOAT;  // HOUSE_ITEM_VALUE["Boat"], ASSUMED [DATA M7]
constexpr int MAX_LOAD = 3;
constexpr int MAX_SEA = 3;

// The passengers split into Things and hero faces, each in boarding order (Python: passengers).
struct Passengers {
  Ids things, heroes;
};

BoatTrip* trip(State& s);  // this round's trip (under way, or sailed), or nullptr
bool on(const State& s);
bool sailing(const State& s);  // a trip is under way (its choices or reactions pending)
Passengers passengers(const State& s);
bool can_sail(const State& s, int p);
void begin(State& s);
void legal_load(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_load(State& s, const ActionLayout& lay, int action);
void legal_path(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_path(State& s, const ActionLayout& lay, int action);
void run(State& s);  // after the reactions
Ids fan_hexes(const State& s);
void legal_fan(State& s, const ActionLayout& lay, std::int8_t* mask);  // FAN_HEX while the Bellows diverts it
void apply_fan(State& s, const ActionLayout& lay, int action);
void land(State& s, int hx);             // Python's _land
void clear(State& s, bool keep_flight);  // Python's _clear
bool resume(State& s);  // hooks.movement_resume
void sail_option(State& s, const ActionLayout& lay, std::int8_t* mask);  // hooks.vehicle_moves
bool sail_start(State& s, const ActionLayout& lay, int action);          // hooks.move_start
bool fan_handlers(const State& s);  // hooks.fan_handlers: true when FAN_HEX is this module's (legal_fan, apply_fan)
bool in_battle(const State& s, int side);
std::vector<hooks::RangedAttack> boat_attack(const State& s, int side);  // hooks.extra_ranged_attacks
hooks::Riders riders(const State& s, int side);                           // hooks.battle_riders
Ids retreat_hexes(const State& s, int side, int hx);                      // hooks.rider_retreat_hexes
void end_of_round(State& s);                                              // hooks.round_ends

}  // namespace ktenv::boat

// The hook points where the optional rules (R20-R22) change the standard rules, with the standard rules'
// answers. An optional module's implementation is one line behind its option, in the order of
// registration (machine.PARTS: powers, house, boat, kadab), combined as the Python point combines them
// ("first", "any", "each"). Call them as the Python core does: hooks::build_cost(s, player, standard).
// Python twin: engine/hooks.py (its points under the same names, in namespace ktenv::hooks).
#pragma once

#include <utility>
#include <vector>

#include "boat.hpp"
#include "core.hpp"
#include "house.hpp"
#include "powers.hpp"

namespace ktenv {
namespace common {
void to_cup(State& s, int c);
}

namespace kadab {  // R20.3 (kadab.hpp)
void lay_face_down(State& s);
void turn_up_starts(State& s);
bool entered(State& s, const Ids& things, const Ids& heroes, int hx);
bool turn_up_for_combat(State& s, int hx);
}  // namespace kadab

namespace hooks {

// ----- setup and the phases
inline void game_setup(State& s) {
  if (s.cfg->encounter_powers) powers::deal(s);
  if (s.cfg->mysterious_kadab) kadab::lay_face_down(s);
}
// R4.1: the house Things of a catalog that has them (six players, R20.1) are out of play (R22: in play)
inline void counters_setup(State& s) {
  if (s.cfg->house_content) return house::setup(s);
  for (int c : s.t->house_thing_ids) set_place(s, c, OUT);
}
// R7.3: not the house heroes' counters (in the catalog with six players, R20.1; R22: they may); per counter
inline bool hero_counters_in_play(const State& s, int counter) {
  if (s.cfg->house_content) return house::counters_in_play(s, counter);
  for (int f : s.t->house_hero_faces)
    if (s.t->HERO_COUNTER[f] == counter) return false;
  return true;
}
inline bool hero_may_turn(const State& s, int face) {
  if (s.cfg->house_content) return house::may_turn(s, face);
  return true;
}
inline void start_hexes_chosen(State& s) {
  if (s.cfg->mysterious_kadab) kadab::turn_up_starts(s);
}
inline bool interrupt(State& s) {
  if (s.cfg->encounter_powers && powers::pending(s)) return true;
  return false;
}
inline bool phase_end_question(State& s) {
  if (s.cfg->encounter_powers && powers::tax_farmer_ask(s)) return true;
  return false;
}
inline void round_ends(State& s) {
  if (s.cfg->house_content) boat::end_of_round(s);
}

// ----- economy
inline int build_cost(const State& s, int player, int standard) {
  if (s.cfg->encounter_powers) return powers::build_cost(s, player, standard);
  return standard;
}
inline int extra_free_things(const State& s, int player) {
  if (s.cfg->encounter_powers) return powers::extra_free_things(s, player);
  return 0;
}
inline int trade_ratio(const State& s, int player) {
  if (s.cfg->encounter_powers) return powers::trade_ratio(s, player);
  return 2;
}
inline int hero_roll_bonus(const State& s, int player, int face) {
  if (s.cfg->encounter_powers) return powers::hero_roll_bonus(s, player, face);
  return 0;
}
inline int hero_target(const State& s, int player, int face) {
  if (s.cfg->encounter_powers) return powers::hero_target(s, player, face);
  return 2 * s.t->HERO_COMBAT[face];
}

// ----- counters leaving play
inline void eliminate(State& s, int c) {
  if (s.cfg->encounter_powers) return powers::eliminate(s, c);
  common::to_cup(s, c);
}

// ----- movement
// per Thing: moves as a flyer (`printed`: the printed flags; creatures::flying asks)
inline ThingFlags flyers(const State& s, const ThingFlags& printed) {
  if (s.cfg->encounter_powers) return powers::flyers(s, printed);
  return printed;
}
inline void move_options(State& s, const ActionLayout& lay, std::int8_t* mask) {
  if (s.cfg->encounter_powers) powers::nomad_options(s, lay, mask);
  if (s.cfg->house_content) house::ahasuerus_options(s, lay, mask);
}
inline void vehicle_moves(State& s, const ActionLayout& lay, std::int8_t* mask) {
  if (s.cfg->house_content) boat::sail_option(s, lay, mask);
}
inline bool move_start(State& s, const ActionLayout& lay, int action) {
  if (s.cfg->encounter_powers && powers::nomad_start(s, lay, action)) return true;
  if (s.cfg->house_content && house::ahasuerus_start(s, lay, action)) return true;
  if (s.cfg->house_content && boat::sail_start(s, lay, action)) return true;
  return false;
}
inline bool move_begins_in(State& s, int hx) {
  if (s.cfg->encounter_powers && powers::aviator_offer(s, hx)) return true;
  return false;
}
inline bool movement_resume(State& s) {
  if (s.cfg->house_content && boat::resume(s)) return true;
  return false;
}
inline void movement_turn_begins(State& s, int p) {
  if (s.cfg->house_content) house::turn_begins(s, p);
}
inline bool before_move_start(State& s) {
  if (s.cfg->house_content && house::gypsy_pending(s)) return true;
  return false;
}
inline void hero_picked(State& s, int face) {
  if (s.cfg->house_content) house::tycho_looks(s, face);
}
inline bool entered_face_down(State& s, const Ids& things, const Ids& heroes, int hx) {
  if (s.cfg->mysterious_kadab && kadab::entered(s, things, heroes, hx)) return true;
  return false;
}
// Whether FAN_HEX / ESCAPE_HEX are the Boat's (boat::legal_fan, apply_fan); else the Balloon's (Python: the
// Boat's pair, else None)
inline bool fan_handlers(const State& s) {
  if (s.cfg->house_content) return boat::fan_handlers(s);
  return false;
}
inline Ids extra_start_hexes(const State& s, int p) {
  if (s.cfg->encounter_powers) return powers::aviator_hexes(s, p);
  return {};
}

// ----- battles
inline bool battle_start(State& s) {
  if (s.cfg->encounter_powers && powers::battle_start(s)) return true;
  return false;
}
inline bool combat_hex_chosen(State& s, int hx) {
  if (s.cfg->mysterious_kadab && kadab::turn_up_for_combat(s, hx)) return true;
  return false;
}
// battle_riders: (set(), set()) in the base game: no passengers
struct Riders {
  Ids things, heroes;
};
inline Riders battle_riders(const State& s, int side) {
  if (s.cfg->house_content) return boat::riders(s, side);
  return {};
}
struct RangedAttack {
  int a, b, c;
};
inline std::vector<RangedAttack> extra_ranged_attacks(const State& s, int side) {
  if (s.cfg->house_content) return boat::boat_attack(s, side);
  return {};
}
inline Ids rider_retreat_hexes(const State& s, int side, int hx) {
  if (s.cfg->house_content) return boat::retreat_hexes(s, side, hx);
  return {};
}
inline void battle_end(State& s, int won) {
  if (s.cfg->encounter_powers) powers::battle_end(s, won);
}
inline void after_battle_roll(State& s, int side, int n) {
  if (s.cfg->encounter_powers) powers::after_battle_roll(s, side, n);
}
// the hits of a round, per side
inline void hits_received(State& s, PerSide& received) {
  if (s.cfg->encounter_powers) powers::amoeba(s, received);
}
inline bool magic_to_melee(const State& s, int side) {
  if (s.cfg->encounter_powers && powers::magic_to_melee(s, side)) return true;
  return false;
}
inline bool fights_as_populous(const State& s, int side) {
  if (s.cfg->encounter_powers && powers::populous(s, side)) return true;
  if (s.cfg->house_content && house::lenin_fights(s, side)) return true;
  return false;
}
inline bool damage_destroys(const State& s, int roll) {
  if (s.cfg->encounter_powers) return powers::damage_destroys(s, roll);
  return roll == 1 || roll == 6;
}
inline bool can_fly_away(const State& s, int side) {
  if (s.cfg->encounter_powers && powers::can_fly_away(s, side)) return true;
  return false;
}
inline void retreat_options(State& s, const ActionLayout& lay, std::int8_t* mask) {
  if (s.cfg->encounter_powers) powers::retreat_options(s, lay, mask);
}
inline bool retreat_alone(State& s, const ActionLayout& lay, int action) {
  if (s.cfg->encounter_powers && powers::retreat_alone(s, lay, action)) return true;
  return false;
}

// ----- exploration
inline int defenders(const State& s, int player, int roll) {
  if (s.cfg->encounter_powers) return powers::defenders(s, player, roll);
  return (roll == 1 || roll == 6) ? 0 : roll;
}

}  // namespace hooks
}  // namespace ktenv

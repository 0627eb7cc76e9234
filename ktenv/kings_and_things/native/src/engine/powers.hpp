// The fifteen player powers of "Kings & Things Encounter" (R21, only with encounter_powers). hooks.hpp
// calls these behind the option, as the Python hooks dispatch to them.
// Python twin: engine/powers.py (the same functions under the same names, in namespace ktenv::powers).
#pragma once

#include "core.hpp"

namespace ktenv::powers {

// The power codes (config.ENCOUNTER_POWERS; code k is rule R21.(k+1)).
constexpr int AMOEBA = 0, AVIATOR = 1, BUILDER = 2, BRUTE = 3, LUCKY = 4, EXPLORER = 5, TAX_FARMER = 6,
              KING_OF_THINGS = 7, MAGICIAN = 8, NOMAD = 9, GAMBLER = 10, POPULOUS = 11, RECRUITER = 12,
              TRAFFICKER = 13, VANDAL = 14, COUNT = 15;
constexpr int MP = 4;           // R11.1.2 / R21.10: a moving fort or town has 4 MP a movement turn
constexpr int REROLL = 30;      // roll code of the Lucky re-roll (dice uses 0-10 and BATTLE + side)
constexpr int MAX_STAKE = 3;    // R21.11
constexpr int FLY_RETREAT = 4;  // RD10.16: the Aviator's flyer retreats up to 4 hexes

bool has(const State& s, int player, int power);  // does `player` (a player, or NEUTRAL / NOBODY) hold `power`?
int holder(const State& s, int power);            // the player holding `power`, or -1
// R21.0 dealing (hook game_setup)
void deal(State& s);
// hook interrupt: R21.4 screen flags, R21.2 a past flyer forgotten, R21.5 the Lucky re-roll
bool pending(State& s);
// R21.1 Amoeba (hook hits_received)
void amoeba(State& s, PerSide& received);
// R21.2 Aviator
ThingFlags flyers(const State& s, const ThingFlags& printed);
Ids aviator_hexes(const State& s, int p);
bool aviator_offer(State& s, int hx);
void legal_aviator(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_aviator(State& s, const ActionLayout& lay, int action);
Ids flyer_retreat_hexes(const State& s, int side);
bool can_fly_away(const State& s, int side);
void retreat_options(State& s, const ActionLayout& lay, std::int8_t* mask);
bool retreat_alone(State& s, const ActionLayout& lay, int action);
void legal_fly_retreat(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_fly_retreat(State& s, const ActionLayout& lay, int action);
// R21.2 / R21.9 / R21.13 hero recruitment
int hero_roll_bonus(const State& s, int player, int face);
int hero_target(const State& s, int player, int face);
int bonus_cap(const State& s, int player, int face);
// R21.3 Builder
int build_cost(const State& s, int player, int standard);
// R21.4 Brute
void eliminate(State& s, int c);
// R21.5 Lucky
void after_battle_roll(State& s, int side, int n);
void legal_reroll(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_reroll(State& s, const ActionLayout& lay, int action);
// R21.6 Explorer
int defenders(const State& s, int player, int roll);
// R21.7 Tax Farmer
bool tax_farmer_ask(State& s);
void legal_tax(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_tax(State& s, const ActionLayout& lay, int action);
// R21.8 King of Things
int extra_free_things(const State& s, int player);
// R21.9 Magician
bool magic_to_melee(const State& s, int side);
// R21.10 Nomad
void nomad_options(State& s, const ActionLayout& lay, std::int8_t* mask);
bool nomad_start(State& s, const ActionLayout& lay, int action);
void legal_nomad_fort(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_nomad_fort(State& s, const ActionLayout& lay, int action);
void legal_nomad_dest(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_nomad_dest(State& s, const ActionLayout& lay, int action);
// R21.11 Gambler
bool battle_start(State& s);
void legal_stake(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_stake(State& s, const ActionLayout& lay, int action);
void battle_end(State& s, int won);
// R21.12 Populous, R21.14 Trafficker, R21.15 Vandal
bool populous(const State& s, int side);
int trade_ratio(const State& s, int player);
bool damage_destroys(const State& s, int roll);

}  // namespace ktenv::powers

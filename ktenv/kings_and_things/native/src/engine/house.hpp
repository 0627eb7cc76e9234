// The house content (R22, option house_content): the heroes Ahasuerus, Lenin, the Gypsy King and Tycho
// Brahe (R22.1-R22.4) and the Portal event (R22.5). The Boat (R22.6) is boat.hpp. Every function checks
// the option (on) before touching a house id, as the Python module does.
// Python twin: engine/house.py (the same functions under the same names, in namespace ktenv::house).
#pragma once

#include "core.hpp"

namespace ktenv::house {

constexpr int AHASUERUS = hero::AHASUERUS;
constexpr int LENIN = hero::LENIN;
constexpr int GYPSY_KING = hero::GYPSY_KING;
constexpr int TYCHO = hero::TYCHO_BRAHE;
constexpr int PORTAL = event::PORTAL;

bool on(const State& s);
void setup(State& s);                               // hooks.counters_setup (R22.4: Tycho shows the Gypsy King)
bool counters_in_play(const State& s, int counter);  // hooks.hero_counters_in_play, per counter
bool may_turn(const State& s, int face);             // hooks.hero_may_turn
bool lenin_fights(const State& s, int side);         // hooks.fights_as_populous (R22.2)
Ids ahasuerus_dests(const State& s, int p);          // R22.1
void ahasuerus_options(State& s, const ActionLayout& lay, std::int8_t* mask);  // hooks.move_options
bool ahasuerus_start(State& s, const ActionLayout& lay, int action);           // hooks.move_start
void legal_ahasuerus(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_ahasuerus(State& s, const ActionLayout& lay, int action);
void turn_begins(State& s, int p);  // hooks.movement_turn_begins (R22.5, R22.3)
void gypsy_turn_begins(State& s, int p);
bool gypsy_pending(State& s);  // hooks.before_move_start (R22.3)
void legal_gypsy(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_gypsy(State& s, const ActionLayout& lay, int action);
void tycho_looks(State& s, int face);  // hooks.hero_picked (R22.4)
bool portal_playable(const State& s, int p);  // R22.5 (events' PLAYABLE)
void portal_start(State& s, const ActionLayout& lay, int p);  // R22.5 (events' START; Python: _portal_start)
void portal_stage(State& s, const ActionLayout& lay);  // R22.5: the Portal's stages of the events phase
void hold_explorers(State& s, int p);  // R22.5

}  // namespace ktenv::house

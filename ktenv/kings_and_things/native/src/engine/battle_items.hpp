// What acts on a battle besides dice: the item windows (R18.1) with Firewall, Golem, Talisman, Magic Bow,
// Magic Sword and Dust of Defense (C.1, C.5, C.7, C.9-C.11), Dispel Magic before a magic step (C.8), the
// heroes before the first round (A.1, A.2, A.4), the Marksman's choice (A.6), and the saving rolls of the
// Swordmaster and the Talisman (A.8, C.9).
// Python twin: engine/battle_items.py (the same functions under the same names, in namespace ktenv::battle_items).
#pragma once

#include "core.hpp"

namespace ktenv {
struct Registry;
}

namespace ktenv::battle_items {

constexpr int DUST = magic::DUST_OF_DEFENSE;
constexpr int OPENING = 0, ROUND_START = 1, STEP_START = 2;  // kinds of window (R18.1.1): Battle.window
constexpr int WARLORD = hero::WARLORD;
constexpr int ALL_SIDES = -2;  // items_home's side for every side (Python: side=None)

// What resolve() tells the battle to do next (Python: the strings 'window', 'firewall', 'bearer', 'dust').
enum class Outcome { WINDOW, FIREWALL, BEARER, DUST };

Ids held_items(const State& s, int side);
Ids dust_targets(const State& s);
Ids playable(const State& s, int side, int window);
bool window(State& s, const ActionLayout& lay);
void legal_window(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_window(State& s, const ActionLayout& lay, int action);
void play(State& s, const ActionLayout& lay, int c);
void legal_dust(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_dust(State& s, const ActionLayout& lay, int action);
Outcome resolve(State& s, const ActionLayout& lay);
void set_firewall(State& s);
Ids bearer_choices(const State& s, int item);
bool bearer_needed(State& s);
void legal_bearer(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_bearer(State& s, const ActionLayout& lay, int action);
void wall_breakers(State& s);
Ids warlord_targets(const State& s);
bool warlord_ready(const State& s);
void legal_warlord(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_warlord(State& s, const ActionLayout& lay, int action);
void warlord_roll(State& s);
bool magic_attackers(const State& s, int side);
int marksman_side(const State& s);
void legal_marksman(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_marksman(State& s, const ActionLayout& lay, int action);
bool save_roll_needed(const State& s, const ActionLayout& lay, int side, int action);
bool apply_save(State& s, const ActionLayout& lay, int side, int action);
void items_home(State& s, int side);  // side ALL_SIDES: every side's items (Python: side=None)
// DECISIONS (ITEM_WINDOW, DUST_TARGET, ITEM_BEARER, WARLORD, MARKSMAN), as Python; battle.cpp registers
// the same rules one by one (with its own apply_warlord), as battle.py merges them
void register_rules(Registry& r);

}  // namespace ktenv::battle_items

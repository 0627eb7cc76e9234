// Battles (R13): reveal, the item windows and heroes before the first round, rounds of magic / ranged /
// melee steps, hits assigned one at a time by their owners, retreats, and what follows a battle (R13.10).
// Sides and values: battle_sides.hpp; items and heroes: battle_items.hpp.
// Python twin: engine/battle.py (the same functions under the same names, in namespace ktenv::battle).
#pragma once

#include <vector>

#include "core.hpp"

namespace ktenv {
struct Registry;
}

namespace ktenv::battle {

constexpr int OWNED = static_cast<int>(BattleKind::OWNED);  // kinds of battle
constexpr int EXPLORATION = static_cast<int>(BattleKind::EXPLORATION);
constexpr int CONTEST = static_cast<int>(BattleKind::CONTEST);
constexpr int NO_HIT_LIMIT = 50;  // R13.9.6 / RD7.4

void begin(State& s, int hx, int kind, int attacker, const std::vector<int>& sides, int defender_side,
           int neutral_controller);
void run(State& s);
void apply_warlord(State& s, const ActionLayout& lay, int action);
void legal_target(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_target(State& s, const ActionLayout& lay, int action);
int target_of(const State& s, int side);
void legal_marksman_hit(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_marksman_hit(State& s, const ActionLayout& lay, int action);
void legal_assign(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_assign(State& s, const ActionLayout& lay, int action);
void legal_retreat(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_retreat(State& s, const ActionLayout& lay, int action);
void legal_excess(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_excess(State& s, const ActionLayout& lay, int action);
int winner(const State& s);
void loot(State& s, int hx, int player);  // R12.2.7 / RD6.2
void register_rules(Registry& r);  // Python: DECISIONS (with battle_items'), merged by combat

}  // namespace ktenv::battle

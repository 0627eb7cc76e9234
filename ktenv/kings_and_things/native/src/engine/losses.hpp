// The shared "take N losses in a hex" procedure: Terrain Disaster (B.2), Plague (B.4), Teenie Pox (B.7),
// and the excess of an army escaping a sunk hex (B.3). The caller sets its next stage, then calls
// start(s, hx, owner, n, flags); when the losses are taken the decision is NONE and the caller resumes.
// Python twin: engine/losses.py (the same functions under the same names, in namespace ktenv::losses).
#pragma once

#include "core.hpp"

namespace ktenv {
struct Registry;
}

namespace ktenv::losses {

constexpr int HEROES = 1;             // heroes can be lost (B.2, B.7; never by Plague, B.4)
constexpr int FIRST = 2;              // creatures and heroes first; forts and towns only when none is left
constexpr int UNTIL_NO_CREATURE = 4;  // B.4: the hex is done once none of the owner's creatures is left
constexpr int CITADEL = 8;            // a Citadel may lose levels (R19.2.2 variant B, Terrain Disaster only)
constexpr int ARMY = 16;              // creatures and heroes only (the excess of an escape, B.3)

void start(State& s, int hx, int owner, int n, int flags);
int event_flags(const State& s, bool disaster);
void legal_loss(State& s, const ActionLayout& lay, std::int8_t* mask);
void apply_loss(State& s, const ActionLayout& lay, int action);
// DECISIONS (LOSS): events' register_rules calls it, as events.py merges them
void register_rules(Registry& r);

}  // namespace ktenv::losses

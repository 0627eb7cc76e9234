// ktenv/kingsburg/observation.py's ObservationEncoder.encode: the observer's flat float32 vector, the same
// numbers in the same places (sections players, advisors, game, enemies; each stored column by column).
#pragma once

#include "state.hpp"

namespace ktenv::kingsburg {

constexpr int PLAYER_COLUMNS = 48, ENEMY_COLUMNS = 19, ENEMY_ROWS = 7, N_DECISIONS = 16, N_STAGES = 12;

inline int observation_size(int n) {
  return n * PLAYER_COLUMNS + N_ADVISORS * (2 * n + 1) + (YEARS + 8 + N_STAGES + N_DECISIONS + n + 6) +
         ENEMY_ROWS * ENEMY_COLUMNS;
}

// writes observation_size(s.n) floats to `out` (zeroed first)
void encode(const State& s, int observer, float* out);

}  // namespace ktenv::kingsburg

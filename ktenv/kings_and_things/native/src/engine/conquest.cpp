// ktenv/kings_and_things/engine/conquest.py: R13.11 conquest (any way of taking a hex), fort reduction, and what an
// emptied hex leaves.
#include "conquest.hpp"

#include "common.hpp"
#include "stacks.hpp"
#include "support.hpp"
#include "victory.hpp"

namespace ktenv::conquest {

// The conqueror's control marker; fort and income counter change hands; the black cloud goes; support
// is re-evaluated; Citadel changes are checked for victory (R13.11.1).
void conquer(State& s, int hx, int player) {
  s.hex_owner[hx] = player;
  int c = s.hex_income[hx];
  if (c >= 0) set_owner(s, c, player);
  if (s.cloud_hex == hx) s.cloud_hex = -1;  // B.10
  s.stats.hexes_conquered += 1;
  support::remove_revealed_bluffs(s);  // R9.3
  if (s.hex_fort[hx] == 4) victory::citadel_captured(s, hx);
  if (!game_over(s) && s.cfg->land_check == option::land_check_immediate &&
      s.cfg->victory == option::victory_land_conquest)
    victory::check_land_conquest(s);
}

// One level down (a Tower goes back to the bank), whatever the supply (RD7.8). A Citadel reduced to a
// Castle (R19.2.2) brings back the stack limit: a stack over 10 may stay so until trimmed (RP-5.9).
void reduce_fort(State& s, int hx) {
  bool citadel = s.hex_fort[hx] == 4;
  if (citadel) {
    s.hex_citadel_round[hx] = -1;
    s.hex_citadel_seq[hx] = -1;
    s.hex_citadel_built[hx] = false;
  }
  s.hex_fort[hx] -= 1;
  if (!citadel) return;
  for (int p = 0; p < s.n.Players; ++p)
    if (room_for(s, p)[hx] < 0) stacks::allow_overflow(s, p);
}

// RD6.3: treasures, magic items and a special income counter left in an emptied unexplored hex.
void leftovers_to_cup(State& s, int hx) {
  Ids left = where_on_board_at(s, hx, [&](int c) { return s.thing_owner[c] == NEUTRAL; });
  for (int c : left) common::to_cup(s, c);
}

}  // namespace ktenv::conquest

// ktenv/kingsburg/worlds.py's sample_world (see worlds.hpp).
#include "search/worlds.hpp"

#include <stdexcept>

namespace ktenv::kingsburg::search {

bool card_hidden(const State& s, int seat, int y) {
  if (s.game_over || y < s.year - 1) return false;  // past years' cards were revealed (K9.1)
  if (y > s.year - 1) return true;
  return s.enemy < 0 && !s.peeked[seat];  // this year's: until the winter, unless the seat peeked (D20)
}

void sample_world(const State& truth, int seat, Dice& dice, State& world) {
  if (seat < 0 || seat >= truth.n) throw std::invalid_argument("sample_world: seat is not a player of the game");
  world = truth;
  for (int y = 0; y < YEARS; ++y)
    if (card_hidden(truth, seat, y)) world.enemy_deck[y] = static_cast<std::int16_t>(deck().of_year[y][dice.below(5)]);
  world.rng = Dice::seeded(dice.next64());  // future dice: hidden from everybody (D21); no scripted dice
}

}  // namespace ktenv::kingsburg::search

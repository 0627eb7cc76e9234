// ktenv/kingsburg/battle.py: Phase 8, winter: the battle against the year's enemy (K9, K12.3, K15.D15-D17).
#include <algorithm>

#include "engine.hpp"

namespace ktenv::kingsburg::battle {

int battle_strength(const State& s, int p, const EnemyCard& card) {
  int bonus = 0;
  for (int b = 0; b < ROWS * COLUMNS; ++b)
    if (s.owns(p, b)) bonus += BUILDING_BATTLE[b];
  int special = card.enemy == E_GOBLINS ? B_BARRICADE : card.enemy == E_ZOMBIES ? B_PALISADE
              : card.enemy == E_DEMONS ? B_CHURCH : -1;  // K12.3's +1
  if (special >= 0 && s.owns(p, special)) bonus += 1;
  return s.soldiers[p] + bonus;
}

int outcome(const State& s, int p, int strength, const EnemyCard& card) {
  if (strength > card.strength || (strength == card.strength && s.owns(p, B_STONE_WALL))) return VICTORY;  // K9.4
  return strength == card.strength ? DRAW : DEFEAT;
}

void lose_building(State& s, int p) {
  for (int column = COLUMNS - 1; column >= 0; --column)
    for (int row = 0; row < ROWS; ++row)
      if (s.built[p][row][column]) {
        s.built[p][row][column] = false;
        s.vp[p] -= BUILDING_VP[row * COLUMNS + column];
        return;
      }
}

void reveal(State& s) {
  s.enemy = s.enemy_deck[s.year - 1];
  const EnemyCard& card = deck().cards[s.enemy];
  s.reinforcement = s.rng.d6();
  for (int p = 0; p < s.n; ++p) s.soldiers[p] += static_cast<std::int32_t>(s.reinforcement);
  for (int p = 0; p < s.n; ++p) {
    s.strength[p] = battle_strength(s, p, card);
    s.result[p] = static_cast<std::int8_t>(outcome(s, p, s.strength[p], card));
  }
}

void run(State& s) {
  // sub 0: reveal; sub 1: the next player's reward or losses; sub 2: a loser's buildings and VP after the
  // goods of choice (K9.7's order)
  if (s.sub == 0) {
    reveal(s);
    s.sub = 1;
    s.cursor = 0;
  }
  const EnemyCard& card = deck().cards[s.enemy];
  bool any_winner = false;
  int best = 0;
  for (int p = 0; p < s.n; ++p)
    if (s.result[p] == VICTORY) {
      best = any_winner ? std::max(best, static_cast<int>(s.strength[p])) : s.strength[p];
      any_winner = true;
    }
  while (s.cursor < s.n) {
    int p = s.order[s.cursor];
    if (s.sub == 2) {
      for (int i = 0; i < card.losses[4]; ++i) lose_building(s, p);
      s.vp[p] -= card.losses[5];
      s.sub = 1;
      s.cursor += 1;
      continue;
    }
    if (s.result[p] == VICTORY) {
      s.cursor += 1;
      for (int k = 0; k < 3; ++k) s.goods[p][k] += card.reward[k];
      s.vp[p] += card.reward[4] + static_cast<int>(s.owns(p, B_FORTRESS)) +
                 static_cast<int>(any_winner && s.strength[p] == best);  // K9.5, K9.6
      if (card.reward[3]) {
        ask(s, D_REWARD_GOOD, p, card.reward[3]);
        return;
      }
    } else if (s.result[p] == DEFEAT) {
      for (int k = 0; k < 3; ++k) s.goods[p][k] = std::max(0, s.goods[p][k] - card.losses[k]);
      s.sub = 2;
      int lose = std::min(card.losses[3], s.goods_count(p));
      if (lose) {
        ask(s, D_LOSS_GOOD, p, lose);
        return;
      }
    } else {
      s.cursor += 1;  // K9.8: a draw changes nothing
    }
  }
  s.soldiers.fill(0);  // K9.9
  end_of_year(s);
}

void end_of_year(State& s) {
  if (s.year == YEARS) {
    scoring::finish(s);
    return;
  }
  s.year += 1;
  s.peeked.fill(false);  // D20: a peek is about this year's card only
  s.enemy = -1;
  s.reinforcement = 0;
  enter(s, S_AID, 1);
}

}  // namespace ktenv::kingsburg::battle

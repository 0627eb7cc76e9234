// One Kingsburg game, field for field the Python KingsburgState (ktenv/kingsburg/state.py): the same
// scalars and arrays (fixed room for 5 players; the first n_players rows are the game's), the same
// generator (the Kings & Things engine's Dice, bit for bit ktenv/rng.py).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "generated.hpp"
#include "kings_and_things/native/src/rng.hpp"

namespace ktenv::kingsburg {

constexpr int kMaxPlayers = 5;

struct Config {  // KingsburgConfig
  int n_players = 4;
  int building_token_limit = 17;  // -1: unlimited
  bool merchants_guild_good_of_choice = false;
  bool kings_reward_requires_building = false;
  bool neutral_dice = false;  // cfg.neutral_dice: this player count gets the blocking dice
};

struct EnemyCard {  // catalog.EnemyCard
  int year = 1, enemy = 0, strength = 0;
  std::array<int, 5> reward{};  // gold, wood, stone, goods of choice, vp
  std::array<int, 6> losses{};  // gold, wood, stone, goods of choice, buildings, vp
};

// The enemy deck of ktenv/kingsburg/data/enemies.json, handed over by the bridge at import.
struct Deck {
  std::vector<EnemyCard> cards;
  std::array<std::array<int, 5>, YEARS> of_year{};  // catalog.CARDS_OF_YEAR
};
Deck& deck();
void set_deck(const std::vector<EnemyCard>& cards);

using Dice = ::ktenv::Dice;

struct State {
  Config cfg;
  int n = 4;
  Dice rng;
  bool game_over = false;
  std::vector<int> winners;
  // the scalars of state._INT_FIELDS, in that order
  std::int64_t year = 1, phase = 1, stage = S_AID, cursor = 0, sub = 0, decision = D_NONE, actor = -1, target = -1,
               group = -1, picks_left = 0, pick_kinds = 0, envoy_holder = -1, aid_player = -1, enemy = -1,
               reinforcement = 0, steps = 0;
  // the arrays of state._ARRAY_FIELDS
  std::array<std::array<std::int32_t, 3>, kMaxPlayers> goods{};
  std::array<std::int32_t, kMaxPlayers> tokens{}, vp{}, soldiers{}, strength{};
  std::array<std::array<std::array<bool, COLUMNS>, ROWS>, kMaxPlayers> built{};
  std::array<bool, kMaxPlayers> passed{}, peeked{}, pending{};
  std::array<std::array<bool, 5>, kMaxPlayers> flags{};
  std::array<std::array<std::int8_t, DIE_SLOTS>, kMaxPlayers> dice{}, die_advisor{};
  std::array<std::int8_t, kMaxPlayers> order{}, result{};
  std::array<std::int8_t, N_ADVISORS + 1> advisor_group{}, advisor_envoy{};
  std::array<std::int8_t, 5> neutral_dice{}, neutral_advisor{};
  std::array<std::int16_t, YEARS> enemy_deck{};

  State() = default;
  State(const Config& c, std::uint64_t rng_state);  // KingsburgState(cfg) with the generator's state

  // derived facts
  int season() const { return phase == 2 ? 0 : phase == 4 ? 1 : phase == 6 ? 2 : -1; }
  bool owns(int p, int building) const { return built[p][building / COLUMNS][building % COLUMNS]; }
  int building_count(int p) const;
  int goods_count(int p) const { return goods[p][0] + goods[p][1] + goods[p][2]; }
};

}  // namespace ktenv::kingsburg

// What a game is played with: its options (Config), its catalog and board (Tables) and the action
// layout, the native twins of ktenv/kings_and_things/config.py, ktenv/kings_and_things/catalog.py, ktenv/kings_and_things/board.py and
// ktenv/kings_and_things/engine/actions.py. Built once per configuration from the Python objects, then shared
// read-only by every game of a batch.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "generated.hpp"
#include "state.hpp"

namespace ktenv {

struct Config {
#define KTENV_DECLARE_OPTION(name, def) int name = def;
  KTENV_CONFIG_NUMBERS(KTENV_DECLARE_OPTION)
  KTENV_CONFIG_CHOICES(KTENV_DECLARE_OPTION)
#undef KTENV_DECLARE_OPTION
#define KTENV_DECLARE_FLAG(name, def) bool name = def;
  KTENV_CONFIG_FLAGS(KTENV_DECLARE_FLAG)
#undef KTENV_DECLARE_FLAG
  std::vector<int> powers;  // R21: the Encounter power of each seat, when assigned by name
};

constexpr int kNumbers = 16;  // the NUMBER block: 0-15
constexpr int kDirections = 6;
constexpr int PASS = 0;
constexpr int YES = 1;
constexpr int NUMBER = 2;

// First action of each block of the one flat action space (ktenv/kings_and_things/engine/actions.py).
struct ActionLayout {
  int n_hexes = 0, n_things = 0, n_hero_faces = 0, n_treasures = 0, n_seats = 0;
  int hex = 0, thing = 0, hero = 0, cash = 0, player = 0, direction = 0, size = 0;

  static ActionLayout of(int n_hexes, int n_things, int n_hero_faces, int n_treasures, int n_seats) {
    ActionLayout a{n_hexes, n_things, n_hero_faces, n_treasures, n_seats};
    a.hex = NUMBER + kNumbers;
    a.thing = a.hex + n_hexes;
    a.hero = a.thing + n_things;
    a.cash = a.hero + n_hero_faces;
    a.player = a.cash + n_treasures;
    a.direction = a.player + n_seats;
    a.size = a.direction + kDirections;
    return a;
  }
};

struct Tables {
  Sizes n;
#define KTENV_DECLARE_TABLE(name, type, size) std::array<type, kMax##size> name{};
  KTENV_CATALOG_TABLES(KTENV_DECLARE_TABLE)
#undef KTENV_DECLARE_TABLE
  std::vector<std::int16_t> creature_ids, income_ids, treasure_ids, magic_ids, event_ids;
  // R22 house counters of the catalog (six players: in the catalog, out of play without house_content)
  std::vector<std::int16_t> house_thing_ids, house_hero_faces;
  std::array<std::int8_t, 5> fort_count{};      // forts in the box per level
  std::array<std::int8_t, 8> move_cost{};       // movement points to enter, per terrain (R11.3)
  std::array<std::int8_t, 8> terrain_hex_count{};
  // board (R3.1): axial coordinates, neighbours per direction (-1 off board), distances, rings
  int radius = 0;
  std::array<std::array<std::int8_t, 2>, kMaxHexes> coords{};
  std::array<std::array<std::int8_t, 6>, kMaxHexes> neighbours{};
  std::array<std::array<std::int8_t, kMaxHexes>, kMaxHexes> distance{};
  std::array<std::int8_t, kMaxHexes> ring{};
  ActionLayout layout;
};

// A kind of game: its options and its tables, shared read-only by every game of that kind.
struct Rules {
  Config cfg;
  Tables t;
};

inline void bind_rules(State& s, std::shared_ptr<const Rules> rules) {
  s.cfg = &rules->cfg;
  s.t = &rules->t;
  s.rules = std::move(rules);
}

}  // namespace ktenv

// ktenv/kings_and_things/engine/exploration.py: R12.2 exploration: the roll, the defenders drawn by the player to the right, what
// the drawn counters do, bribery (its decision; the rules of R12.2.5 are in bribery), and the battle (R12.2.6).
#include "exploration.hpp"

#include <vector>

#include "battle.hpp"
#include "bribery.hpp"
#include "common.hpp"
#include "conquest.hpp"
#include "dice.hpp"
#include "hooks.hpp"
#include "placement_turn.hpp"

namespace ktenv::exploration {
namespace {

using Stage = ExploreStage;

Exploration& x_of(State& s) { return *s.frame<Exploration>(); }  // the exploration under way

bool is_town(int kind) { return kind == CITY || kind == VILLAGE; }

// Neutral income counters, cities and villages drawn into the hex (R12.2.4's choice).
Ids neutral_income(const State& s, int hx) {
  return where_on_board_at(s, hx, [&](int c) {
    int kind = s.t->THING_KIND[c];
    return s.thing_owner[c] == NEUTRAL && (kind == SPECIAL_INCOME || is_town(kind));
  });
}

void conquered(State& s);
void fight(State& s);

// No creature, city or village drawn: the hex is the explorer's at once (R12.2.4).
void after_sort(State& s) {
  if (neutral_defenders(s, x_of(s).hex).empty())
    conquered(s);
  else
    x_of(s).stage = Stage::BRIBE;
}

void keep(State& s, int hx, int kept, const Ids& others) {
  x_of(s).tie = false;
  for (int c : others) common::to_cup(s, c);
  s.hex_income[hx] = static_cast<std::int16_t>(kept);
  after_sort(s);
}

// R12.2.4: events back; wrong-terrain income back; the best placeable income counter stays.
void sort_draw(State& s, int hx) {
  Ids here = where_on_board_at(s, hx, [&](int c) { return s.thing_owner[c] == NEUTRAL; });
  Ids placeable;
  for (int c : here) {
    int kind = s.t->THING_KIND[c];
    if (kind == EVENT || (kind == SPECIAL_INCOME && s.t->THING_TERRAIN[c] != s.hex_terrain[hx]))
      common::to_cup(s, c);
    else if (kind == SPECIAL_INCOME || is_town(kind))
      placeable.push_back(c);
  }
  if (placeable.empty()) {
    after_sort(s);
    return;
  }
  int best = s.t->THING_INCOME[placeable[0]];
  for (int c : placeable) best = std::max(best, static_cast<int>(s.t->THING_INCOME[c]));
  Ids tied;
  for (int c : placeable)
    if (s.t->THING_INCOME[c] == best) tied.push_back(c);
  for (int c : placeable)
    if (s.t->THING_INCOME[c] != best) common::to_cup(s, c);
  if (tied.size() > 1 && s.cfg->neutral_control != option::neutral_control_policy) {
    Exploration& x = x_of(s);
    x.stage = Stage::TIE;
    x.tie = true;
    s.decision = decision::INCOME_TIE;
    s.actor = x.controller;
    return;
  }
  int first = tied[0];
  tied.erase_at(0);
  keep(s, hx, first, tied);  // RD1.6 policy: the first drawn stays
}

void roll(State& s) {
  int hx = x_of(s).hex;
  if (!neutral_defenders(s, hx).empty()) {  // R12.2.1: defenders left from earlier: no roll, no bribe
    fight(s);
    return;
  }
  dice::roll(s, dice::EXPLORE, 1);  // roll event (R18.5)
  x_of(s).stage = Stage::ROLLED;
}

// R12.2.2: on 1 or 6 the hex is undefended; on 2-5 that many defenders are drawn.
void rolled(State& s) {
  int hx = x_of(s).hex;
  int value = dice::table(dice::take(s, dice::EXPLORE)[0]);
  int count = hooks::defenders(s, x_of(s).player, value);  // R21.6 Explorer: 5-6 none, 1-4 that many
  if (count == 0) {
    conquered(s);
    return;
  }
  for (int i = 0; i < count; ++i) {  // R12.2.3: the neutral controller draws that many Things
    int c = common::draw(s, NEUTRAL);
    if (c < 0) break;
    set_place(s, c, BOARD);
    set_hex(s, c, hx);
    s.thing_face_up[c] = true;
    s.thing_public[c] = true;  // RI.1: every exploration draw is public
  }
  sort_draw(s, hx);
}

// Taken without a battle (roll 1 or 6, nothing to fight, all bribed): R12.2.2, R12.2.4, R12.2.5.
void conquered(State& s) {
  int hx = x_of(s).hex, player = x_of(s).player;
  each_board_thing_at(s, hx, [&](int c) { s.thing_damage[c] = 0; });
  conquest::conquer(s, hx, player);
  battle::loot(s, hx, player);
  if (game_over(s)) return;
  x_of(s).stage = Stage::PLACE_START;  // a runner stage: loot over the screen limit is discarded first (R17.1.2)
}

void place_start(State& s) {
  Exploration& x = x_of(s);
  x.stage = Stage::PLACE;
  placement_turn::begin_placement(s, x.player, false, x.hex, false);  // R13.11.2
}

void fight(State& s) {
  Exploration& x = x_of(s);
  x.stage = Stage::FIGHT;
  battle::begin(s, x.hex, battle::EXPLORATION, x.player, {x.player, NEUTRAL}, NEUTRAL,
                x.controller);
}

void fighting(State& s) {
  Battle* b = s.frame<Battle>();
  if (b != nullptr && b->done) {
    s.drop<Battle>();
    x_of(s).stage = Stage::DONE;
  } else {
    battle::run(s);
  }
}

void placed(State& s) { x_of(s).stage = Stage::DONE; }

void done(State& s) { x_of(s).done = true; }

void tie(State& s) {
  s.decision = decision::INCOME_TIE;
  s.actor = x_of(s).controller;
}

void bribe(State& s) {
  s.decision = decision::BRIBE;
  s.actor = x_of(s).player;
}

}  // namespace

void begin(State& s, int hx, int player) {
  auto& x = s.push(Exploration{});
  x.hex = hx;
  x.player = player;
  x.controller = right_of(s, player);
  x.stage = Stage::ROLL;
  s.stats.explorations += 1;
}

void run(State& s) {
  switch (x_of(s).stage) {
    case Stage::ROLL: roll(s); break;
    case Stage::ROLLED: rolled(s); break;
    case Stage::TIE: tie(s); break;
    case Stage::BRIBE: bribe(s); break;
    case Stage::FIGHT: fighting(s); break;
    case Stage::PLACE: placed(s); break;
    case Stage::DONE: done(s); break;
    case Stage::PLACE_START: place_start(s); break;
  }
}

// Neutral creatures, cities and villages still able to fight in the hex.
Ids neutral_defenders(const State& s, int hx) {
  return where_on_board_at(s, hx, [&](int c) {
    int kind = s.t->THING_KIND[c];
    return s.thing_owner[c] == NEUTRAL &&
           (kind == CREATURE || (is_town(kind) && s.thing_damage[c] < s.t->THING_COMBAT[c]));
  });
}

void legal_tie(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int c : neutral_income(s, x_of(s).hex)) mask[lay.thing + c] = 1;
}

void apply_tie(State& s, const ActionLayout& lay, int action) {
  int hx = x_of(s).hex;
  int kept = action - lay.thing;
  Ids others = neutral_income(s, hx);
  others.remove(kept);
  s.decision = decision::NONE;
  keep(s, hx, kept, others);
}

// ----- bribery (R12.2.5: the rules in bribery)

void legal_bribe(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int hx = x_of(s).hex;
  for (int c : bribery::bribable(s, static_cast<int>(s.actor), hx, neutral_defenders(s, hx))) mask[lay.thing + c] = 1;
  mask[PASS] = 1;
}

void apply_bribe(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    s.decision = decision::NONE;
    fight(s);
    return;
  }
  bribery::bribe(s, static_cast<int>(s.actor), x_of(s).hex, action - lay.thing);
  if (neutral_defenders(s, x_of(s).hex).empty()) {
    s.decision = decision::NONE;
    conquered(s);  // all bribed: the hex is taken, a neutralized city's damage ends
  }
}

}  // namespace ktenv::exploration

// ktenv/kings_and_things/engine/battle_items.py: the item windows (R18.1), Dispel Magic before a magic step (C.8), the
// heroes before the first round (A.1, A.2, A.4), the Marksman (A.6) and the saving rolls (A.8, C.9).
#include "battle_items.hpp"

#include "battle_sides.hpp"
#include "common.hpp"
#include "dice.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "reactions.hpp"
#include "stacks.hpp"
#include "support.hpp"

namespace ktenv::battle_items {

namespace B = battle_sides;

namespace {

constexpr int WALL_BREAKERS[2] = {hero::BARON_MUNCHAUSEN, hero::GRAND_DUKE};
constexpr int BEARER_ITEMS[2] = {B::BOW, B::SWORD};

Battle& battle(State& s) { return *s.frame<Battle>(); }
const Battle& battle(const State& s) { return *s.frame<Battle>(); }

bool neutral_policy(const State& s, int side) {
  return side == NEUTRAL && s.cfg->neutral_control == option::neutral_control_policy;
}

// Python's `i < len(flags) and bool(flags[i])` over a list of 0/1 (Battle.talisman_things/heroes).
bool flag(const Series& flags, int i) { return i < static_cast<int>(flags.size()) && flags[i]; }
void set_flag(Series& flags, int i) {
  if (i >= static_cast<int>(flags.size())) flags.resize(i + 1, 0);
  flags[i] = 1;
}

bool bearer_alive(const State& s, int item) {
  int bearer = s.thing_bearer[item], hx = battle(s).hex;
  return bearer >= 0 && s.thing_place[bearer] == BOARD && s.thing_hex[bearer] == hx &&
         s.thing_owner[bearer] == s.thing_owner[item];
}

bool bearer_asked(const Battle& b, int item) { return item == B::BOW ? b.bow_bearer_asked : b.sword_bearer_asked; }

}  // namespace

// ----- which items a side could play now

// A player's screen, or the neutral defenders' drawn items (R12.2.6).
Ids held_items(const State& s, int side) {
  if (side == NEUTRAL) {
    int hx = battle(s).hex;
    return where_on_board_at(s, hx, [&](int c) {
      return s.thing_owner[c] == NEUTRAL && s.t->THING_KIND[c] == MAGIC && !s.thing_in_play[c];
    });
  }
  Ids out;
  for (int c : screen(s, side))
    if (s.t->THING_KIND[c] == MAGIC) out.push_back(c);
  return out;
}

// RD7.9: attacking sides with something to move and a legal retreat hex.
Ids dust_targets(const State& s) {
  int hx = battle(s).hex, def = B::defender(s);
  Ids out;
  for (int side : B::active_sides(s))
    if (side != def && (!B::creatures(s, side, hx).empty() || !B::heroes(s, side, hx).empty()) &&
        !B::retreat_hexes(s, side).empty())
      out.push_back(side);
  return out;
}

// R18.1.2 / RD1.8: items with a legal effect in this window for this side.
Ids playable(const State& s, int side, int window) {
  int hx = battle(s).hex;
  Ids out;
  bool has_creature = !B::creatures(s, side, hx).empty();
  for (int c : held_items(s, side)) {
    int o = s.t->THING_ORIGINAL[c];  // R20.1: a second-box item acts as its original
    if (!common::playable_copy(s, c)) continue;
    if (o == B::FIREWALL && window == OPENING) {
      out.push_back(c);
    } else if (o == B::GOLEM || o == B::TALISMAN || ((o == B::BOW || o == B::SWORD) && has_creature)) {
      out.push_back(c);
    } else if (o == DUST && side == B::defender(s) &&
               (window == OPENING || s.cfg->dust_timing == option::dust_timing_any_window) &&
               !dust_targets(s).empty()) {
      out.push_back(c);
    }
  }
  return out;
}

// Ask the next side in battle order that can play an item; false when the window closes.
bool window(State& s, const ActionLayout& lay) {
  Battle& b = battle(s);
  while (b.window_idx < static_cast<int>(b.order.size())) {
    int side = b.order[b.window_idx];
    Ids options = B::active(s, side, b.hex) ? playable(s, side, b.window) : Ids{};
    if (!options.empty()) {
      b.side = side;
      if (neutral_policy(s, side)) {  // RD1.6: play everything
        play(s, lay, options[0]);
        return true;
      }
      s.decision = decision::ITEM_WINDOW;
      s.actor = B::controller(s, side);
      return true;
    }
    b.window_idx += 1;
  }
  return false;
}

void legal_window(State& s, const ActionLayout& lay, std::int8_t* mask) {
  const Battle& b = battle(s);
  for (int c : playable(s, b.side, b.window)) mask[lay.thing + c] = 1;
  mask[PASS] = 1;
}

void apply_window(State& s, const ActionLayout& lay, int action) {
  s.decision = decision::NONE;
  if (action == PASS) {
    battle(s).window_idx += 1;
    return;
  }
  play(s, lay, action - lay.thing);
}

// Show the item, put it in play, and open the reaction round (Dispel Magic, Fan vs Dust).
void play(State& s, const ActionLayout&, int c) {
  Battle& b = battle(s);
  int side = b.side;
  c = common::as_original(s, c);  // R20.1
  set_place(s, c, BOARD);
  set_owner(s, c, side);
  set_hex(s, c, b.hex);
  s.thing_in_play[c] = s.thing_face_up[c] = s.thing_public[c] = true;
  s.stats.magic_played += 1;
  b.item = c;
  if (c == DUST) {
    Ids targets = dust_targets(s);
    if (targets.size() > 1 && !neutral_policy(s, side)) {
      s.decision = decision::DUST_TARGET;
      s.actor = B::controller(s, side);
      return;
    }
    b.dust = targets[0];
  }
  reactions::open_round(s, c, B::controller(s, side), 0);
}

void legal_dust(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int side : dust_targets(s)) mask[lay.player + floor_mod(side - static_cast<int>(s.actor), s.n.Players)] = 1;
}

void apply_dust(State& s, const ActionLayout& lay, int action) {
  battle(s).dust = floor_mod(static_cast<int>(s.actor) + action - lay.player, s.n.Players);
  s.decision = decision::NONE;
  reactions::open_round(s, DUST, static_cast<int>(s.actor), 0);
}

// After the reaction round: the item's effect, and what the battle must do next.
Outcome resolve(State& s, const ActionLayout&) {
  Battle& b = battle(s);
  int c = b.item, side = b.side;
  b.item = -1;
  reactions::Result r = reactions::take_result(s);
  if (r.cancelled) {  // C.8: no effect, and that side's magic attacks in melee from now on
    common::used_up(s, c);
    b.dispelled |= 1 << side;
    b.dust = -1;
    return Outcome::WINDOW;
  }
  if (c == DUST) {
    common::used_up(s, c);
    if (r.fan >= 0) {  // C.3: the Fan blows the dust away
      b.dust = -1;
      return Outcome::WINDOW;
    }
    return Outcome::DUST;
  }
  if (c == B::FIREWALL) {
    dice::roll(s, dice::FIREWALL, 1);  // roll event (R18.5)
    return Outcome::FIREWALL;
  }
  if (c == B::BOW || c == B::SWORD) {
    b.bearer_item = c;
    return Outcome::BEARER;
  }
  return Outcome::WINDOW;
}

// C.5 / RT.19: the roll is the Firewall's value for this battle.
void set_firewall(State& s) { battle(s).firewall = dice::table(dice::take(s, dice::FIREWALL)[0]); }

// ----- Bow and Sword bearers (C.10, C.11)

// Own creatures in the battle that could carry the item now: all but its living bearer.
Ids bearer_choices(const State& s, int item) {
  Ids ids = B::creatures(s, s.thing_owner[item], battle(s).hex);
  if (bearer_alive(s, item)) ids.remove(s.thing_bearer[item]);
  return ids;
}

// Start of a round (C.10, C.11, RP-6.7): a Bow or Sword whose bearer died must be put on a new creature;
// a living bearer's may be moved (or kept: PASS). Once per item and round; the neutral policy keeps it.
bool bearer_needed(State& s) {
  Battle& b = battle(s);
  int hx = b.hex;
  for (int item : BEARER_ITEMS) {
    if (!(s.thing_in_play[item] && s.thing_hex[item] == hx) || bearer_asked(b, item)) continue;
    int side = s.thing_owner[item];
    if (bearer_choices(s, item).empty()) continue;
    if (neutral_policy(s, side) && bearer_alive(s, item)) continue;
    b.bearer_item = item;
    b.side = side;
    s.decision = decision::ITEM_BEARER;
    s.actor = B::controller(s, side);
    return true;
  }
  return false;
}

void legal_bearer(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int item = battle(s).bearer_item;
  for (int c : bearer_choices(s, item)) mask[lay.thing + c] = 1;
  if (bearer_alive(s, item)) mask[PASS] = 1;  // RP-6.7: moving it is optional
}

void apply_bearer(State& s, const ActionLayout& lay, int action) {
  Battle& b = battle(s);
  int item = b.bearer_item;
  b.bearer_item = -1;
  if (action != PASS) s.thing_bearer[item] = action - lay.thing;
  if (item == B::BOW)  // once per round
    b.bow_bearer_asked = true;
  else
    b.sword_bearer_asked = true;
  s.decision = decision::NONE;
}

// ----- heroes before the first round (R13.2 step 4)

// A.1 / A.2: each Baron or Grand Duke hits every enemy fort (not a Citadel), city, village and Firewall
// in the hex once (RD10.1); the damage lasts for this battle.
void wall_breakers(State& s) {
  int hx = battle(s).hex;
  for (int face : WALL_BREAKERS) {
    int side = s.hero_owner[face];
    if (side < 0 || s.hero_hex[face] != hx) continue;
    for (int enemy : B::order(s)) {
      if (enemy == side) continue;
      if (B::fort_value(s, enemy, hx) && (s.hex_fort[hx] < 4 || s.cfg->baron_hits_citadel))
        s.hex_fort_damage[hx] += 1;
      int c = B::town(s, enemy, hx);
      if (B::town_value(s, c)) s.thing_damage[c] += 1;
      if (B::firewall_value(s, enemy)) s.thing_damage[B::FIREWALL] += 1;
    }
  }
}

// The enemies' creatures in battle order (a mask: only the set matters).
Ids warlord_targets(const State& s) {
  int side = s.hero_owner[WARLORD], hx = battle(s).hex;
  Ids out;
  for (int enemy : B::order(s))
    if (enemy != side)
      for (int c : B::creatures(s, enemy, hx)) out.push_back(c);
  return out;
}

bool warlord_ready(const State& s) {
  return s.hero_owner[WARLORD] >= 0 && s.hero_hex[WARLORD] == battle(s).hex && !warlord_targets(s).empty();
}

void legal_warlord(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int c : warlord_targets(s)) mask[lay.thing + c] = 1;
  mask[PASS] = 1;
}

void apply_warlord(State& s, const ActionLayout& lay, int action) {
  s.decision = decision::NONE;
  if (action != PASS) {
    battle(s).turncoat = action - lay.thing;
    dice::roll(s, dice::WARLORD, 1);  // roll event (R18.5)
  }
}

// A.4: a roll at least the creature's printed value turns it to the Warlord's side.
void warlord_roll(State& s) {
  Battle& b = battle(s);
  int c = b.turncoat;
  b.turncoat = -1;
  int roll = dice::take(s, dice::WARLORD)[0];
  if (roll < s.t->THING_COMBAT[c]) return;
  int owner = s.hero_owner[WARLORD];
  for (int item : BEARER_ITEMS)  // RD10.2: the item stays with the former side
    if (s.thing_bearer[item] == c) s.thing_bearer[item] = -1;
  set_owner(s, c, owner);
  s.thing_fought[c] = false;
  stacks::allow_overflow(s, owner);  // RD10.2: the stack may exceed 10 until the owner next moves
  support::remove_revealed_bluffs(s);  // an unsupported defector leaves at once
}

// ----- Dispel Magic before a magic step (C.8)

bool magic_attackers(const State& s, int side) {
  const Battle& b = battle(s);
  int hx = b.hex;
  if ((b.dispelled >> side & 1) || hooks::magic_to_melee(s, side)) return false;  // C.8, R21.9
  Ids carried;
  for (int item : BEARER_ITEMS)
    if (B::in_play(s, side, item)) carried.push_back(s.thing_bearer[item]);
  for (int c : B::creatures(s, side, hx))
    if (s.t->THING_MAGIC[c] && !carried.contains(c)) return true;
  for (int f : B::heroes(s, side, hx))
    if (s.t->HERO_MAGIC[f]) return true;
  return false;
}

// ----- the Marksman (A.6)

int marksman_side(const State& s) {
  int side = s.hero_owner[B::MARKSMAN];
  return side >= 0 && s.hero_hex[B::MARKSMAN] == battle(s).hex ? side : -1;
}

void legal_marksman(State&, const ActionLayout&, std::int8_t* mask) { mask[NUMBER + 5] = mask[NUMBER + 2] = 1; }

void apply_marksman(State& s, const ActionLayout&, int action) {
  battle(s).marksman = action - NUMBER;
  s.decision = decision::NONE;
}

// ----- saving rolls (A.8, C.9)

// Does this hit get a saving roll? (Swordmaster once a round; Talisman once a step)
bool save_roll_needed(const State& s, const ActionLayout& lay, int side, int action) {
  const Battle& b = battle(s);
  if (action >= lay.hero) {
    int face = action - lay.hero;
    if (face == B::SWORDMASTER && !b.parried) return true;
    return s.cfg->talisman_covers_heroes && B::in_play(s, side, B::TALISMAN) && !flag(b.talisman_heroes, face);
  }
  int c = action - lay.thing;
  if (lay.thing <= action && action < lay.hero && s.t->THING_KIND[c] == CREATURE && B::in_play(s, side, B::TALISMAN))
    return !flag(b.talisman_things, c);
  return false;
}

// Read the saving roll: true if the hit is parried or dodged (it is used up either way).
bool apply_save(State& s, const ActionLayout& lay, int, int action) {
  int roll = dice::table(dice::take(s, dice::SAVE)[0]);
  bool saved = 2 <= roll && roll <= 5;
  Battle& b = battle(s);
  if (action >= lay.hero && action - lay.hero == B::SWORDMASTER && !b.parried) {
    b.parried = true;  // A.8: one parry a round; a later hit that round eliminates him
    return saved;
  }
  if (action >= lay.hero)
    set_flag(b.talisman_heroes, action - lay.hero);
  else
    set_flag(b.talisman_things, action - lay.thing);
  if (!saved) common::used_up(s, B::TALISMAN);  // C.9: on 1 or 6 the hit takes effect and the Talisman is gone
  return saved;
}

// Golem, Firewall, Bow, Sword and Talisman return at the end of the battle or on retreat.
void items_home(State& s, int side) {
  int hx = battle(s).hex;
  Ids here = where(s.n.Things, [&](int c) { return s.thing_in_play[c] && s.thing_hex[c] == hx; });
  for (int c : here)
    if (c != B::BALLOON && c != B::BOAT && (side == ALL_SIDES || s.thing_owner[c] == side)) common::used_up(s, c);
}

void register_rules(Registry& r) {
  r.decision(decision::ITEM_WINDOW, legal_window, apply_window);
  r.decision(decision::DUST_TARGET, legal_dust, apply_dust);
  r.decision(decision::ITEM_BEARER, legal_bearer, apply_bearer);
  r.decision(decision::WARLORD, legal_warlord, apply_warlord);
  r.decision(decision::MARKSMAN, legal_marksman, apply_marksman);
}

}  // namespace ktenv::battle_items

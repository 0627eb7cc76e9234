// ktenv/kings_and_things/engine/battle.py: R13 battles, run stage by stage from the Battle frame (so that a battle can stop
// at any decision); sides and values in battle_sides, items and heroes in battle_items.
#include "battle.hpp"

#include "battle_items.hpp"
#include "battle_sides.hpp"
#include "common.hpp"
#include "conquest.hpp"
#include "dice.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "placement_turn.hpp"
#include "reactions.hpp"
#include "stacks.hpp"
#include "support.hpp"
#include "victory.hpp"

namespace ktenv::battle {
namespace {

namespace B = battle_sides;
namespace I = battle_items;
using Stage = BattleStage;

Battle& bt(State& s) { return *s.frame<Battle>(); }
const ActionLayout& layout(const State& s) { return s.t->layout; }

// Python's _go: the next stage, its index reset (or set)
void go(State& s, Stage stage, int idx = 0) {
  Battle& b = bt(s);
  b.stage = stage;
  b.idx = idx;
}

void open_window(State& s, int kind, Stage after) {
  Battle& b = bt(s);
  b.window = kind;
  b.window_idx = 0;
  b.after_window = after;
  go(s, Stage::WINDOW);
}

Ids targets_of(const State& s, int side, const ActionLayout& lay) {
  return B::hit_targets(s, side, lay.hex, lay.thing, lay.hero);
}

// R13.9.1-R13.9.3: at most one side active, or the defender down and one attacker left.
bool ended(const State& s) {
  Ids live = B::active_sides(s);
  int def = B::defender(s), attackers = 0;
  for (int side : live) attackers += side != def;
  if (!attackers) return true;
  if (s.frame<Battle>()->kind == BattleKind::CONTEST) return live.size() <= 1;
  return !live.contains(def) && attackers == 1;
}

// ----- the start (R13.2)

// Reveal every creature of the player sides; bluff check; the opening window.
void start(State& s) {
  if (hooks::battle_start(s)) return;  // R21.11 Gambler's stake first
  Battle& b = bt(s);
  for (int side : b.order)
    for (int c : B::creatures(s, side, b.hex)) {
      s.thing_face_up[c] = true;
      s.thing_public[c] = true;
    }
  support::remove_revealed_bluffs(s);
  if (ended(s))
    go(s, Stage::END);
  else
    open_window(s, I::OPENING, Stage::PREHERO);
}

// RD1.6: with the policy, the strongest neutral creature bears the item (the first of equals).
int strongest(const State& s, const Ids& ids) {
  if (ids.empty()) throw std::logic_error("battle: no neutral creature to bear the item");
  int best = ids[0];
  for (int c : ids)
    if (s.t->THING_COMBAT[c] > s.t->THING_COMBAT[best]) best = c;
  return best;
}

// R18.1: sides in battle order play items or pass; each played item meets its reactions.
void window(State& s) {
  const ActionLayout& lay = layout(s);
  Battle& b = bt(s);
  if (b.item >= 0) {
    I::Outcome outcome = I::resolve(s, lay);
    if (outcome == I::Outcome::FIREWALL) {
      go(s, Stage::FIREWALL);
    } else if (outcome == I::Outcome::BEARER) {
      int side = b.side;
      if (side == NEUTRAL && s.cfg->neutral_control == option::neutral_control_policy) {
        s.thing_bearer[b.bearer_item] = static_cast<std::int16_t>(strongest(s, B::creatures(s, side, b.hex)));
        b.bearer_item = -1;
      } else {
        s.decision = decision::ITEM_BEARER;
        s.actor = B::controller(s, side);
      }
    } else if (outcome == I::Outcome::DUST) {  // C.1: the chosen attacking side must retreat at once
      int side = b.dust;
      b.dust = -1;
      b.force_side = b.side = side;
      b.resume = Stage::WINDOW;
      s.decision = decision::RETREAT;
      s.actor = side;
    }
    return;
  }
  if (!I::window(s, lay)) go(s, b.after_window);
}

void firewall(State& s) {
  I::set_firewall(s);
  go(s, Stage::WINDOW);
}

// R13.2 step 4: Baron and Grand Duke, then the Warlord; then bluff and end checks.
void prehero(State& s) {
  I::wall_breakers(s);
  go(s, Stage::WARLORD);
}

void warlord(State& s) {
  Battle& b = bt(s);
  if (!b.warlord_asked && I::warlord_ready(s)) {
    b.warlord_asked = true;
    s.decision = decision::WARLORD;
    s.actor = s.hero_owner[I::WARLORD];
    return;
  }
  support::remove_revealed_bluffs(s);
  go(s, ended(s) ? Stage::END : Stage::ROUND);
}

void warlord_roll(State& s) {
  I::warlord_roll(s);
  go(s, Stage::WARLORD);
}

// ----- rounds and steps (R13.3)

void round(State& s) {
  Battle& b = bt(s);
  b.round += 1;
  b.hits_this_round = false;
  b.bow_bearer_asked = b.sword_bearer_asked = b.parried = false;
  b.targets = per_side(-1);
  if (s.cfg->talisman_save_scope == option::talisman_save_scope_round) {
    b.talisman_things.clear();
    b.talisman_heroes.clear();
  }
  b.multi = B::active_sides(s).size() >= 3;
  go(s, Stage::BEARERS);
}

void bearers(State& s) {
  if (I::bearer_needed(s)) return;
  go(s, Stage::TARGETS);
}

// R13.12: each side names its target for the round (secret until all have chosen, RD7.7).
void targets(State& s) {
  Ids live = B::active_sides(s);
  Battle& b = bt(s);
  if (!b.multi || b.idx >= live.size()) {
    b.step = B::MAGIC_STEP;
    open_window(s, I::ROUND_START, Stage::STEP);
    return;
  }
  int side = live[b.idx];
  b.side = side;
  s.decision = decision::TARGET;
  s.actor = B::controller(s, side);
}

// Start of a step: the step's item window, then Dispel Magic / the Marksman's choice.
void step(State& s) {
  Battle& b = bt(s);
  if (s.cfg->talisman_save_scope == option::talisman_save_scope_step) {
    b.talisman_things.clear();
    b.talisman_heroes.clear();
  }
  b.dispel_asked = 0;
  open_window(s, I::STEP_START, Stage::STEP_PRE);
}

void step_pre(State& s) {
  Battle& b = bt(s);
  int st = b.step;
  if (st == B::MAGIC_STEP) {
    Ids live = B::active_sides(s);
    for (int i = 0; i < live.size(); ++i) {
      int side = live[i];
      if ((b.dispel_asked >> i & 1) || !I::magic_attackers(s, side)) continue;
      b.dispel_asked |= 1 << i;
      b.dispel_side = side;
      reactions::open_round(s, reactions::MAGIC_STEP, B::controller(s, side), 0);  // C.8
      go(s, Stage::DISPEL_WAIT);
      return;
    }
  }
  if (st == B::RANGED_STEP && !b.marksman_asked) {
    b.marksman_asked = true;
    int side = I::marksman_side(s);
    if (side >= 0 && B::active_sides(s).contains(side)) {
      s.decision = decision::MARKSMAN;
      s.actor = side;
      return;
    }
  }
  b.marksman_asked = false;
  go(s, Stage::ROLL);
}

void dispel_wait(State& s) {
  if (reactions::take_result(s).cancelled) {  // C.8: that side's magic attacks in melee for the rest of the battle
    Battle& b = bt(s);
    b.dispelled |= 1 << b.dispel_side;
  }
  go(s, Stage::STEP_PRE);
}

// R13.4.2: every side rolls all its dice of the step (one roll event per side, R18.5.1).
void roll(State& s) {
  Ids live = B::active_sides(s);
  Battle& b = bt(s);
  int idx = b.idx;
  if (idx == 0 && live.contains(NEUTRAL)) {  // R12.4.2: neutrals that fought can never be bribed or retreat
    int hx = b.hex;
    each_board_thing_at(s, hx, [&](int c) {
      if (s.thing_owner[c] == NEUTRAL) s.thing_fought[c] = true;
    });
  }
  if (idx >= live.size()) {
    go(s, Stage::HITS);
    return;
  }
  int side = live[idx];
  int n = 0;
  for (const B::Attack& a : B::attackers(s, side, b.step)) n += a.dice;
  dice::roll(s, dice::BATTLE + side, n);
  hooks::after_battle_roll(s, side, n);  // R21.5 Lucky: may re-roll one own die
  b.idx = idx + 1;
}

// R13.4.4: count the hits of every side, then they are assigned (Marksman's first).
void hits(State& s) {
  Battle& b = bt(s);
  int st = b.step;
  PerSide received{};                 // Python: a dict side -> hits
  std::array<bool, kSides> got{};     // its keys
  for (int side : B::active_sides(s)) {
    dice::Thrown rolled;
    if (dice::held(s, dice::BATTLE + side)) rolled = dice::take(s, dice::BATTLE + side);
    int target = target_of(s, side);
    int i = 0;
    for (const B::Attack& a : B::attackers(s, side, st)) {
      int h = 0;  // R18.5.2: modified dice as they are
      for (int k = i; k < i + a.dice && k < rolled.size(); ++k) h += rolled[k] <= a.value;
      i += a.dice;
      if (!h || target < 0) continue;
      if (a.tag >= 0) {
        b.marksman_hits += h;
        b.marksman_target = target;
        b.marksman_side = side;
      } else {
        received[target] += h;
        got[target] = true;
      }
    }
  }
  if (st == B::RANGED_STEP)
    for (int side = 0; side < kSides; ++side)
      if (got[side] && B::has_golem(s, side)) received[side] -= 1;  // C.7 / RT.18: one ranged hit fewer
  hooks::hits_received(s, received);  // R21.1 Amoeba: the first hit of a round is ignored
  for (int side : b.order) b.hits[side] = std::max(0, received[side]);
  int total = 0;
  for (int side = 0; side < kSides; ++side) total += received[side];
  if (total || b.marksman_hits) b.hits_this_round = true;
  b.marksman = 0;
  go(s, Stage::MARKSMAN_PLACE);
}

void damage(State& s, const ActionLayout& lay, int action) {
  if (lay.hex <= action && action < lay.thing)
    s.hex_fort_damage[action - lay.hex] += 1;
  else if (lay.thing <= action && action < lay.hero)
    s.thing_damage[action - lay.thing] += 1;
  else
    s.hero_damage[action - lay.hero] = 1;
}

// One hit on one counter; the Swordmaster and the Talisman roll to save it first.
void hit(State& s, const ActionLayout& lay, int side, int action, Stage back) {
  Battle& b = bt(s);
  if (I::save_roll_needed(s, lay, side, action)) {
    b.save_side = side;
    b.save_action = action;
    b.resume = back;
    dice::roll(s, dice::SAVE, 1);  // roll event (R18.5)
    go(s, Stage::SAVE, b.idx);
    return;
  }
  damage(s, lay, action);
  b.stage = back;
}

// A.6 / RD10.4: a value-2 hit is placed by the Marksman's owner, before the others.
void marksman_place(State& s) {
  const ActionLayout& lay = layout(s);
  Battle& b = bt(s);
  if (b.marksman_hits > 0 && !targets_of(s, b.marksman_target, lay).empty()) {
    b.side = b.marksman_target;
    s.decision = decision::MARKSMAN_HIT;
    s.actor = b.marksman_side;
    return;
  }
  b.marksman_hits = 0;
  b.marksman_target = b.marksman_side = -1;
  go(s, Stage::ASSIGN);
}

// RD1.6 fixed rule for neutrals: lowest-value creature, then village, then city (the first of equals).
int policy_hit(const State& s, const ActionLayout& lay) {
  Ids options = targets_of(s, s.frame<Battle>()->side, lay);
  auto rank = [&](int a) {
    int c = a - lay.thing;
    return std::pair<int, int>(s.t->THING_KIND[c] == CREATURE ? 0 : 1, s.t->THING_COMBAT[c]);
  };
  int best = options[0];
  for (int a : options)
    if (rank(a) < rank(best)) best = a;
  return best;
}

// R13.6: receiving sides in battle order assign their hits one at a time.
void assign(State& s) {
  Battle& b = bt(s);
  const ActionLayout& lay = layout(s);
  int idx = b.idx;
  while (idx < static_cast<int>(b.order.size())) {
    int side = b.order[idx];
    if (b.hits[side] > 0 && !targets_of(s, side, lay).empty()) {
      b.side = side;
      b.idx = idx;
      if (side == NEUTRAL && s.cfg->neutral_control == option::neutral_control_policy) {
        b.hits[side] -= 1;
        hit(s, lay, side, policy_hit(s, lay), Stage::ASSIGN);
        return;
      }
      s.decision = decision::ASSIGN_HIT;
      s.actor = B::controller(s, side);
      return;
    }
    b.hits[side] = 0;  // hits beyond the side's capacity are lost
    ++idx;
  }
  go(s, Stage::REMOVE);
}

void save(State& s) {
  const ActionLayout& lay = layout(s);
  Battle& b = bt(s);
  int side = b.save_side, action = b.save_action;
  b.save_side = b.save_action = -1;
  if (!I::apply_save(s, lay, side, action)) damage(s, lay, action);
  b.stage = b.resume;
  b.resume = Stage::RETREAT;
}

// R13.9.6: count the rounds in a row in which nobody scored a hit.
void count_hitless(State& s) {
  Battle& b = bt(s);
  if (b.hits_this_round) {
    b.rounds_without_hit = 0;
  } else {
    b.rounds_without_hit += 1;
    if (b.rounds_without_hit >= NO_HIT_LIMIT) b.forced = true;  // RD7.4: the attackers leave as if retreating
  }
}

// End of a step: hit creatures to the cup, hit heroes to the pool, broken items to the cup; then the
// bluff and end checks (R13.6.5).
void remove(State& s) {
  Battle& b = bt(s);
  int hx = b.hex;
  const Ids here = where_on_board_at(s, hx, [](int) { return true; });  // taken once, before anything leaves
  Ids casualties;
  for (int c : here)
    if (s.t->THING_KIND[c] == CREATURE && s.thing_damage[c] > 0) casualties.push_back(c);
  for (int c : casualties) hooks::eliminate(s, c);  // to the cup (R21.4 Brute: Charge creatures to the screen)
  Ids faces = where(s.n.Faces, [&](int f) { return s.hero_damage[f] > 0; });
  for (int f : faces) {
    s.hero_damage[f] = 0;
    support::lose_hero(s, f);
  }
  Ids items;
  for (int c : here)
    if (s.thing_in_play[c]) items.push_back(c);
  for (int c : items) {
    bool broken = c != B::FIREWALL ? s.thing_damage[c] > 0 : B::firewall_value(s, s.thing_owner[c]) == 0;
    if (broken) common::used_up(s, c);
  }
  support::remove_revealed_bluffs(s);
  if (ended(s)) {
    go(s, Stage::END);
  } else if (b.step < B::MELEE_STEP) {
    b.step += 1;
    go(s, Stage::STEP);
  } else {
    count_hitless(s);
    go(s, Stage::RETREAT);
  }
}

// ----- retreat (R13.8)

void eliminate_side(State& s, int side) {
  int hx = bt(s).hex;
  for (int c : B::creatures(s, side, hx)) hooks::eliminate(s, c);  // R21.4
  for (int f : B::heroes(s, side, hx)) support::lose_hero(s, f);
  I::items_home(s, side);
}

// Attackers in battle order, then the defender, may retreat; the battle may end at any time.
void retreat(State& s) {
  Battle& b = bt(s);
  int hx = b.hex, idx = b.idx;
  bool forced = b.forced;
  while (idx < static_cast<int>(b.order.size())) {
    if (ended(s)) {
      go(s, Stage::END);
      return;
    }
    int side = b.order[idx];
    int army = B::creatures(s, side, hx).size() + B::heroes(s, side, hx).size();
    bool is_attacker = side != B::defender(s);
    if (army && side != NEUTRAL && (!forced || is_attacker)) {
      if (!B::retreat_hexes(s, side).empty() || hooks::can_fly_away(s, side)) {  // R21.2 Aviator's flyer
        b.side = side;
        b.idx = idx;
        b.resume = Stage::RETREAT;
        s.decision = decision::RETREAT;
        s.actor = side;
        return;
      }
      if (forced) eliminate_side(s, side);  // RD7.4: attackers that cannot retreat are eliminated
    }
    ++idx;
  }
  b.forced = false;
  go(s, ended(s) ? Stage::END : Stage::ROUND);
}

void excess(State& s) {
  Excess& ex = *s.frame<Excess>();
  int side = ex.side, dest = ex.hex;
  if (army_counts(s, side)[dest] <= STACK_LIMIT) {
    s.drop<Excess>();
    stacks::retreat_overflow(s, false);
    Battle& b = bt(s);
    b.stage = b.excess_resume;
    b.excess_resume = Stage::START;
    return;
  }
  s.decision = decision::RETREAT_EXCESS;
  s.actor = side;
}

// ----- the end of a battle (R13.9, R13.10)

// R13.10 step 1: ownership (and the explorer's loot); the battle items go home.
void end(State& s) {
  Battle& b = bt(s);
  int hx = b.hex;
  BattleKind kind = b.kind;
  int won = winner(s);
  b.winner = won;
  hooks::battle_end(s, won);  // R21.11 the Gambler's stakes
  I::items_home(s, I::ALL_SIDES);
  if (kind != BattleKind::CONTEST && won >= 0 && won != NEUTRAL) {
    conquest::conquer(s, hx, won);
    if (kind == BattleKind::EXPLORATION) loot(s, hx, won);
  }
  if (game_over(s)) return;
  go(s, kind != BattleKind::CONTEST ? Stage::DAMAGE_FORT : Stage::RESET);
}

// R13.10 step 2 / RD7.5: a d6 for the fort (1 or 6: down a level; a Citadel never).
void damage_fort(State& s) {
  if (s.hex_fort[bt(s).hex] > 0) {
    dice::roll(s, dice::DAMAGE, 1);  // roll event (R18.5)
    go(s, Stage::DAMAGE_FORT_ROLLED);
  } else {
    go(s, Stage::DAMAGE_INCOME);
  }
}

void damage_fort_rolled(State& s) {
  int hx = bt(s).hex;
  int roll = dice::table(dice::take(s, dice::DAMAGE)[0]);
  bool citadel_safe = !(s.cfg->victory == option::victory_unique_b &&
                        s.cfg->unique_b_vulnerable == option::unique_b_vulnerable_combat_and_disaster);
  if (hooks::damage_destroys(s, roll) && !(s.hex_fort[hx] == 4 && citadel_safe))  // 1 or 6 (R21.15)
    conquest::reduce_fort(s, hx);
  go(s, Stage::DAMAGE_INCOME);
}

void damage_income(State& s) {
  if (s.hex_income[bt(s).hex] >= 0) {
    dice::roll(s, dice::DAMAGE, 1);  // roll event (R18.5)
    go(s, Stage::DAMAGE_INCOME_ROLLED);
  } else {
    go(s, Stage::RESET);
  }
}

// On 1 or 6 the income counter, city or village is destroyed (to the cup; R21.15 Vandal).
void damage_income_rolled(State& s) {
  if (hooks::damage_destroys(s, dice::table(dice::take(s, dice::DAMAGE)[0])))
    common::to_cup(s, s.hex_income[bt(s).hex]);
  go(s, Stage::RESET);
}

// R13.10 steps 3-6: damage healed, bluff check, creatures face down, placement.
void reset(State& s) {
  Battle& b = bt(s);
  int hx = b.hex, won = b.winner;
  BattleKind kind = b.kind;
  s.hex_fort_damage[hx] = 0;
  const Ids here = where_on_board_at(s, hx, [](int) { return true; });  // taken once, before the bluff check
  for (int c : here) s.thing_damage[c] = 0;
  for (int f = 0; f < s.n.Faces; ++f) s.hero_damage[f] = 0;
  support::remove_revealed_bluffs(s);
  for (int c : here)
    if (s.thing_owner[c] != NEUTRAL && s.t->THING_KIND[c] == CREATURE && s.thing_place[c] == BOARD)
      s.thing_face_up[c] = false;
  if (kind == BattleKind::EXPLORATION && won < 0 && !B::active(s, NEUTRAL, hx))
    conquest::leftovers_to_cup(s, hx);  // R12.4.3 / RD6.3
  victory::check_eliminations(s);
  if (game_over(s)) return;
  if (kind != BattleKind::CONTEST && won >= 0 && won != NEUTRAL && s.hex_owner[hx] == won) {
    go(s, Stage::PLACE);
    placement_turn::begin_placement(s, won, false, hx, false);  // R13.11.2
    return;
  }
  go(s, Stage::DONE);
}

void place(State& s) { go(s, Stage::DONE); }

void done(State& s) { bt(s).done = true; }

using StageRunner = void (*)(State&);
constexpr StageRunner kStages[] = {
    start,        window,          firewall,  prehero, warlord,     warlord_roll,       round,
    bearers,      targets,         step,      step_pre, dispel_wait, roll,               hits,
    marksman_place, assign,        save,      remove,  retreat,     excess,             end,
    damage_fort,  damage_fort_rolled, damage_income, damage_income_rolled, reset, place, done,
};
static_assert(std::size(kStages) == static_cast<int>(Stage::DONE) + 1);

}  // namespace

// Start a battle in `hx`; `sides` are the players (and NEUTRAL) with counters in it.
void begin(State& s, int hx, int kind, int attacker, const std::vector<int>& sides, int defender_side,
           int neutral_controller) {
  Order turn = turn_order(s);
  int n = static_cast<int>(turn.size());
  auto index = [&](int p) { return static_cast<int>(std::find(turn.begin(), turn.end(), p) - turn.begin()); };
  auto in_sides = [&](int p) { return std::find(sides.begin(), sides.end(), p) != sides.end(); };
  int start = index(defender_side) < n ? index(defender_side) + 1 : index(attacker);
  if (start == n && index(defender_side) == n)  // Python: list.index raises
    throw std::logic_error("battle::begin: the attacker is not in the turn order");
  Series order;
  for (int i = 0; i < n; ++i) {  // R12.1.6: attackers from the defender's left in turn order
    int p = turn[(start + i) % n];
    if (in_sides(p) && p != defender_side) order.push_back(p);
  }
  if (in_sides(defender_side)) order.push_back(defender_side);
  s.drop<Battle>();
  Battle& b = s.push(Battle{});
  b.hex = hx;
  b.kind = static_cast<BattleKind>(kind);
  b.defender = defender_side;
  b.attacker = attacker;
  b.controller = neutral_controller;
  b.step = B::MAGIC_STEP;
  b.order = std::move(order);
  s.stats.battles += 1;
}

void run(State& s) { kStages[static_cast<int>(bt(s).stage)](s); }

void apply_warlord(State& s, const ActionLayout& lay, int action) {
  I::apply_warlord(s, lay, action);
  if (bt(s).turncoat >= 0) go(s, Stage::WARLORD_ROLL);
}

// PLAYER actions are relative: PLAYER+i is the player i seats to the actor's left.
void legal_target(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int side = bt(s).side;
  for (int enemy : B::active_sides(s))
    if (enemy != side && enemy != NEUTRAL) mask[lay.player + floor_mod(enemy - side, s.n.Players)] = 1;
}

void apply_target(State& s, const ActionLayout& lay, int action) {
  Battle& b = bt(s);
  b.targets[b.side] = floor_mod(b.side + action - lay.player, s.n.Players);
  b.idx += 1;
  s.decision = decision::NONE;
}

int target_of(const State& s, int side) {
  const Battle& b = *s.frame<Battle>();
  if (b.multi) return b.targets[side];
  for (int o : B::active_sides(s))
    if (o != side) return o;
  return -1;
}

void legal_marksman_hit(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int a : targets_of(s, bt(s).side, lay)) mask[a] = 1;
}

void apply_marksman_hit(State& s, const ActionLayout& lay, int action) {
  s.decision = decision::NONE;
  Battle& b = bt(s);
  b.marksman_hits -= 1;
  hit(s, lay, b.side, action, Stage::MARKSMAN_PLACE);
}

void legal_assign(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int a : targets_of(s, bt(s).side, lay)) mask[a] = 1;
}

void apply_assign(State& s, const ActionLayout& lay, int action) {
  s.decision = decision::NONE;
  Battle& b = bt(s);
  b.hits[b.side] -= 1;
  hit(s, lay, b.side, action, Stage::ASSIGN);
}

void legal_retreat(State& s, const ActionLayout& lay, std::int8_t* mask) {
  Battle& b = bt(s);
  for (int h : B::retreat_hexes(s, b.side)) mask[lay.hex + h] = 1;
  if (!b.forced && b.force_side < 0) mask[PASS] = 1;
  hooks::retreat_options(s, lay, mask);  // R21.2: THING, the Aviator's flyer alone
}

void apply_retreat(State& s, const ActionLayout& lay, int action) {
  if (hooks::retreat_alone(s, lay, action)) return;  // R21.2 Aviator
  Battle& b = bt(s);
  int side = b.side;
  s.decision = decision::NONE;
  Stage back = b.resume;
  b.resume = Stage::RETREAT;
  if (b.force_side < 0) b.idx += 1;
  b.force_side = -1;
  b.stage = back;
  if (action == PASS) return;
  int dest = action - lay.hex, hx = b.hex;
  for (int c : B::creatures(s, side, hx)) {
    set_hex(s, c, dest);
    s.thing_face_up[c] = false;  // R13.8.6: face down again (their identities stay known, RI.4)
  }
  for (int f : B::heroes(s, side, hx)) s.hero_hex[f] = static_cast<std::int8_t>(dest);
  if (B::in_play(s, side, B::BALLOON)) set_hex(s, B::BALLOON, dest);  // C.2
  if (B::in_play(s, side, B::BOAT)) set_hex(s, B::BOAT, dest);        // R22.6
  I::items_home(s, side);
  if (army_counts(s, side)[dest] > STACK_LIMIT && s.hex_fort[dest] != 4) {
    Excess& ex = s.push(Excess{});
    ex.hex = dest;
    ex.side = side;
    stacks::retreat_overflow(s, true);
    b.excess_resume = back;
    b.stage = Stage::EXCESS;
  }
}

// Counters over the limit in hex Excess.hex (after a retreat, R13.8.4, or a move, RP-5.9).
void legal_excess(State& s, const ActionLayout& lay, std::int8_t* mask) {
  const Excess& ex = *s.frame<Excess>();
  for (int c : B::creatures(s, ex.side, ex.hex)) mask[lay.thing + c] = 1;
  for (int f : B::heroes(s, ex.side, ex.hex)) mask[lay.hero + f] = 1;
}

// R13.8.4: the player chooses which counters over the limit are eliminated.
void apply_excess(State& s, const ActionLayout& lay, int action) {
  if (action >= lay.hero)
    support::lose_hero(s, action - lay.hero);
  else
    hooks::eliminate(s, action - lay.thing);  // R21.4
  s.decision = decision::NONE;
}

// The side holding the field: the one attacker left if the defender is down, else -1.
int winner(const State& s) {
  Ids live = B::active_sides(s);
  int def = B::defender(s);
  Ids attackers;
  for (int side : live)
    if (side != def) attackers.push_back(side);
  if (s.frame<Battle>()->kind == BattleKind::CONTEST) return live.size() == 1 ? live[0] : -1;
  if (!live.contains(def) && attackers.size() == 1) return attackers[0];
  return -1;
}

// R12.2.7 / RD6.2: the explorer takes the treasures and unused magic items behind the screen.
void loot(State& s, int hx, int player) {
  for (int c : where_on_board_at(s, hx, [](int) { return true; })) {
    int kind = s.t->THING_KIND[c];
    if (s.thing_place[c] == BOARD && s.thing_hex[c] == hx && (kind == TREASURE || kind == MAGIC) &&
        !s.thing_in_play[c]) {
      set_place(s, c, SCREEN);
      set_owner(s, c, player);
      set_hex(s, c, -1);
      s.thing_face_up[c] = false;
      s.thing_public[c] = false;
    }
  }
}

void register_rules(Registry& r) {
  // Python: **I.DECISIONS, then battle's own (WARLORD's apply replaced)
  r.decision(decision::ITEM_WINDOW, I::legal_window, I::apply_window);
  r.decision(decision::DUST_TARGET, I::legal_dust, I::apply_dust);
  r.decision(decision::ITEM_BEARER, I::legal_bearer, I::apply_bearer);
  r.decision(decision::MARKSMAN, I::legal_marksman, I::apply_marksman);
  r.decision(decision::WARLORD, I::legal_warlord, apply_warlord);
  r.decision(decision::TARGET, legal_target, apply_target);
  r.decision(decision::MARKSMAN_HIT, legal_marksman_hit, apply_marksman_hit);
  r.decision(decision::ASSIGN_HIT, legal_assign, apply_assign);
  r.decision(decision::RETREAT, legal_retreat, apply_retreat);
  r.decision(decision::RETREAT_EXCESS, legal_excess, apply_excess);
}

}  // namespace ktenv::battle

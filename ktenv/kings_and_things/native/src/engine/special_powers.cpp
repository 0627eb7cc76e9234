// ktenv/kings_and_things/engine/special_powers.py: R15.1 phase 8, the Master Thief (A.5) and the Assassin Primus
// (A.7), each usable once per round by its owner, in the order the owner chooses.
#include "special_powers.hpp"

#include "dice.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "support.hpp"

namespace ktenv::special_powers {
namespace {

constexpr int THIEF = hero::MASTER_THIEF;
constexpr int ASSASSIN = hero::ASSASSIN_PRIMUS;
using Stage = SpecialStage;

SpecialPower& use_of(State& s) {
  auto* use = s.frame<SpecialPower>();
  return use != nullptr ? *use : s.push(SpecialPower{});
}

void end_turn(State& s) {
  s.drop<SpecialPower>();
  s.turn += 1;
}

// One power used: back to the choice (the other power may still be used this round).
void use_done(State& s) {
  auto& use = use_of(s);
  SpecialPower fresh{};
  fresh.used_thief = use.used_thief;
  fresh.used_assassin = use.used_assassin;
  use = fresh;  // the frame keeps its place in the stack, as Python's in-place replacement
  s.decision = decision::NONE;
}

// The player's Thief / Assassin not used yet this round, with something to aim at.
Ids usable(State& s, int player) {
  Ids out;
  if (s.hero_owner[THIEF] == player && !use_of(s).used_thief && turn_order(s).size() > 1) out.push_back(THIEF);
  if (s.hero_owner[ASSASSIN] == player && !use_of(s).used_assassin && !assassin_hexes(s, player).empty())
    out.push_back(ASSASSIN);
  return out;
}

int dice_count(State& s) {
  return use_of(s).hero == THIEF || s.cfg->assassin_dice == option::assassin_dice_2 ? 2 : 1;
}

// The victims the Assassin may strike in `hx`: face-down creatures and heroes of the hex owner.
struct Eligible {
  Ids things, heroes;
};
Eligible eligible(const State& s, int hx) {
  int owner = s.hex_owner[hx];
  Eligible out;
  out.things = where(s.n.Things, [&](int c) {
    return s.thing_place[c] == BOARD && s.thing_hex[c] == hx && s.thing_owner[c] == owner && !s.thing_face_up[c] &&
           s.t->THING_KIND[c] == CREATURE;
  });
  out.heroes = where(s.n.Faces, [&](int f) { return s.hero_owner[f] == owner && s.hero_hex[f] == hx; });
  return out;
}

// RD10.5: the victim is shown to all, then a creature goes to the cup, a hero to the pool.
void eliminate(State& s, int target) {
  if (target >= 0) {
    s.thing_public[target] = true;
    hooks::eliminate(s, target);  // to the cup (R21.4 Brute)
  } else {
    support::lose_hero(s, -1 - target);
  }
  s.decision = decision::NONE;
  use_done(s);
}

// RD5.5: caught in the act, the hero returns to the pool turned over.
void caught(State& s) {
  int face = use_of(s).hero;
  support::lose_hero(s, face);
  support::clear_hero_turn(s, face);
  s.hero_up[face / 2] ^= 1;
  use_done(s);
}

void assassin_success(State& s, int player) {
  auto [things, heroes] = eligible(s, use_of(s).hex);
  if (things.size() + heroes.size() == 1) {
    eliminate(s, things.size() ? things[0] : -1 - heroes[0]);
    return;
  }
  use_of(s).stage = Stage::TARGET_A;
  s.decision = decision::ASSASSIN_TARGET;
  s.actor = player;
}

// ----- the duel of dice (A.5, A.7) and the strike

void duel(State& s, int) {
  dice::roll(s, dice::DUEL_A, dice_count(s));  // roll event (R18.5): the hero's owner
  use_of(s).stage = Stage::DUEL_B;
}

void duel_b(State& s, int) {
  dice::roll(s, dice::DUEL_B, dice_count(s));  // roll event (R18.5): the victim
  use_of(s).stage = Stage::DUEL_EVAL;
}

// Higher wins; a tie is rolled again: equal or higher then is nothing, lower is caught.
void duel_eval(State& s, int player) {
  int mine = dice::sum(dice::take(s, dice::DUEL_A));
  int theirs = dice::sum(dice::take(s, dice::DUEL_B));
  auto& use = use_of(s);
  if (use.tie) {
    use.tie = false;
    if (theirs > mine)
      caught(s);
    else
      use_done(s);
    return;
  }
  if (mine == theirs) {
    use.tie = true;
    use.stage = Stage::DUEL;
    return;
  }
  if (theirs > mine) {
    use_done(s);
  } else if (use.hero == THIEF) {
    use.stage = Stage::TAKE;
    s.decision = decision::THIEF_TAKE;
    s.actor = player;
  } else {
    assassin_success(s, player);
  }
}

void strike(State& s, int) {
  dice::roll(s, dice::STRIKE, 1);  // roll event (R18.5)
  use_of(s).stage = Stage::STRIKE_EVAL;
}

// A.7: 1-3 the assassin's choice is eliminated, 4-6 the hex owner's.
void strike_eval(State& s, int) {
  int roll = dice::table(dice::take(s, dice::STRIKE)[0]);
  auto& use = use_of(s);
  eliminate(s, roll <= 3 ? use.target_a : use.target_b);
}

void run(State& s) {
  auto order = turn_order(s);
  if (s.turn >= static_cast<int>(order.size())) {
    s.phase = PHASE_CHANGE_ORDER;
    s.stage = s.turn = 0;
    return;
  }
  int player = order[s.turn];
  switch (use_of(s).stage) {
    case Stage::CHOOSE:
      if (!usable(s, player).empty()) {
        s.decision = decision::SPECIAL_USE;
        s.actor = player;
      } else {
        end_turn(s);
      }
      break;
    case Stage::DUEL: duel(s, player); break;
    case Stage::DUEL_B: duel_b(s, player); break;
    case Stage::DUEL_EVAL: duel_eval(s, player); break;
    case Stage::STRIKE: strike(s, player); break;
    case Stage::STRIKE_EVAL: strike_eval(s, player); break;
    default: throw std::logic_error("special powers: no runner for this stage (a decision is pending)");
  }
}

// ----- choosing the power and the victim

void legal_use(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int f : usable(s, static_cast<int>(s.actor))) mask[lay.hero + f] = 1;
  mask[PASS] = 1;
}

void apply_use(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    s.decision = decision::NONE;
    end_turn(s);
    return;
  }
  int face = action - lay.hero;
  auto& use = use_of(s);
  use.hero = face;
  if (face == THIEF)
    use.used_thief = true;
  else
    use.used_assassin = true;
  s.decision = face == THIEF ? decision::SPECIAL_VICTIM : decision::SPECIAL_HEX;
}

void legal_victim(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int n = s.n.Players, actor = static_cast<int>(s.actor);
  for (int q : turn_order(s))
    if (q != actor) mask[lay.player + floor_mod(q - actor, n)] = 1;
}

void apply_victim(State& s, const ActionLayout& lay, int action) {
  auto& use = use_of(s);
  use.victim = floor_mod(static_cast<int>(s.actor) + action - lay.player, s.n.Players);
  use.stage = Stage::DUEL;
  s.decision = decision::NONE;
}

void legal_hex(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : assassin_hexes(s, static_cast<int>(s.actor))) mask[lay.hex + h] = 1;
}

void apply_hex(State& s, const ActionLayout& lay, int action) {
  int hx = action - lay.hex;
  auto& use = use_of(s);
  use.hex = hx;
  use.victim = s.hex_owner[hx];
  use.stage = Stage::DUEL;
  s.decision = decision::NONE;
}

void legal_take(State& s, const ActionLayout&, std::int8_t* mask) {
  mask[NUMBER] = 1;                                           // all the victim's gold
  if (screen_size(s, use_of(s).victim)) mask[NUMBER + 1] = 1;  // RD10.3
}

void apply_take(State& s, const ActionLayout&, int action) {
  int victim = use_of(s).victim;
  if (action == NUMBER) {
    s.gold[s.actor] += s.gold[victim];
    s.gold[victim] = 0;
  } else {  // one counter at random; its identity is known to thief and victim only (RI.5)
    Ids scr = screen(s, victim);
    int c = scr[static_cast<int>(s.rng.below(scr.size()))];
    set_owner(s, c, s.actor);
    s.thing_selected[c] = false;
  }
  s.decision = decision::NONE;
  use_done(s);  // R17.1: a screen over 10 is brought down at once (interrupts)
}

// The hex owner may name any of his eligible counters. The assassin's owner names heroes and counters whose
// identity all know by id, and the others with YES: face down, they are alike to him.
void legal_target(State& s, const ActionLayout& lay, std::int8_t* mask) {
  auto [things, heroes] = eligible(s, use_of(s).hex);
  for (int f : heroes) mask[lay.hero + f] = 1;
  const bool owner = use_of(s).stage == Stage::TARGET_B;
  for (int c : things) {
    if (owner || s.thing_public[c])
      mask[lay.thing + c] = 1;
    else
      mask[YES] = 1;
  }
}

// The counter an action names: a Thing id, or -1 - hero face. YES points at one of the face-down counters
// the assassin's owner cannot tell apart, and the game's draw says which.
int named(State& s, const ActionLayout& lay, int action) {
  if (action == YES) {
    Ids unknown;
    for (int c : eligible(s, use_of(s).hex).things)
      if (!s.thing_public[c]) unknown.push_back(c);
    return unknown[static_cast<int>(s.rng.below(unknown.size()))];
  }
  return action < lay.hero ? action - lay.thing : -1 - (action - lay.hero);
}

// First the assassin's owner names a target, then the hex owner (possibly the same).
void apply_target(State& s, const ActionLayout& lay, int action) {
  auto& use = use_of(s);
  if (use.stage == Stage::TARGET_A) {
    use.target_a = named(s, lay, action);
    use.stage = Stage::TARGET_B;
    s.actor = use.victim;
    return;
  }
  use.target_b = named(s, lay, action);
  use.stage = Stage::STRIKE;
  s.decision = decision::NONE;
}

}  // namespace

// RD10.5: hexes owned by another player holding one of their heroes or face-down counters.
Ids assassin_hexes(const State& s, int player) {
  HexFlags hexes{};
  int n = s.n.Hexes;
  auto mark = [&](int hx, int owner) {  // numpy indexing: -1 is the last hex
    int h = hx < 0 ? hx + n : hx;
    if (s.hex_owner[h] == owner) hexes[h] = true;
  };
  for (int c = 0; c < s.n.Things; ++c)
    if (s.thing_place[c] == BOARD && !s.thing_face_up[c] && s.t->THING_KIND[c] == CREATURE)
      mark(s.thing_hex[c], s.thing_owner[c]);
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] >= 0) mark(s.hero_hex[f], s.hero_owner[f]);
  return where(n, [&](int h) { return hexes[h] && s.hex_owner[h] != player && s.hex_owner[h] != NOBODY; });
}

void register_rules(Registry& r) {
  r.decision(decision::SPECIAL_USE, legal_use, apply_use);
  r.decision(decision::SPECIAL_VICTIM, legal_victim, apply_victim);
  r.decision(decision::SPECIAL_HEX, legal_hex, apply_hex);
  r.decision(decision::THIEF_TAKE, legal_take, apply_take);
  r.decision(decision::ASSASSIN_TARGET, legal_target, apply_target);
  r.runner[PHASE_SPECIAL] = run;
}

}  // namespace ktenv::special_powers

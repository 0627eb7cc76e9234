#include "machine.hpp"

#include <vector>

#include "common.hpp"
#include "interrupts.hpp"
#include "setup.hpp"

namespace ktenv {

const Registry& registry() {
  static const Registry r = [] {
    Registry out;
#define KTENV_CALL_REGISTER(module) module::register_rules(out);
    KTENV_PARTS(KTENV_CALL_REGISTER)
#undef KTENV_CALL_REGISTER
    return out;
  }();
  return r;
}

namespace machine {
namespace {

// RD8.1: the actor may cash any treasure behind the screen at every own decision.
void cash_options(const State& s, const ActionLayout& lay, std::int8_t* mask) {
  const auto& ids = s.t->treasure_ids;
  for (int i = 0; i < static_cast<int>(ids.size()); ++i) {
    int c = ids[i];
    if (s.thing_place[c] == SCREEN && s.thing_owner[c] == s.actor) mask[lay.cash + i] = 1;
  }
}

std::string phase_text(const State& s) { return std::to_string(s.phase); }

}  // namespace

State new_game(std::shared_ptr<const Rules> rules, std::uint64_t seed) {
  State s;
  const Tables& t = rules->t;
  s.n = t.n;
  // the starting values of GameState.__init__ (the zeros are the struct's own)
  s.thing_place.fill(CUP);
  s.thing_owner.fill(NOBODY);
  s.thing_hex.fill(-1);
  s.thing_bearer.fill(-1);
  s.thing_from.fill(-1);
  s.hex_owner.fill(NOBODY);
  s.hex_income.fill(-1);
  s.hex_fort_round.fill(-1);
  s.hex_citadel_round.fill(-1);
  s.hex_citadel_seq.fill(-1);
  s.hero_owner.fill(NOBODY);
  s.hero_hex.fill(-1);
  s.hero_from.fill(-1);
  s.alive.fill(true);
  s.start_hex.fill(-1);
  s.power.fill(-1);
  s.power_hex.fill(-1);
  s.phase = PHASE_SETUP;
  s.actor = NOBODY;
  s.cloud_hex = -1;
  reindex(s);
  s.rng = Dice::seeded(seed);
  bind_rules(s, std::move(rules));
  setup::start_game(s);
  advance(s);
  return s;
}

void legal_mask(State& s, std::int8_t* out) {
  const ActionLayout& lay = s.t->layout;
  if (!s.mask_valid) {
    std::int8_t* mask = s.mask_cache.data();
    std::fill(mask, mask + lay.size, 0);
    if (s.decision != decision::NONE) {
      MaskRule rule = registry().mask[s.decision];
      if (rule == nullptr)
        throw std::logic_error("decision " + std::to_string(s.decision) + ": no module registered its mask");
      rule(s, lay, mask);
      cash_options(s, lay, mask);
    }
    s.mask_valid = true;
  }
  std::copy(s.mask_cache.data(), s.mask_cache.data() + lay.size, out);
}

void edited(State& s) {
  s.mask_valid = false;
  reindex(s);  // the arrays may have been written wholesale
}

void apply(State& s, int action) {
  const ActionLayout& lay = s.t->layout;
  s.mask_valid = false;
  if (lay.cash <= action && action < lay.player) {
    common::cash(s, static_cast<int>(s.actor), s.t->treasure_ids[action - lay.cash]);
    if (s.decision == decision::DISCARD) interrupts::discard_done(s);  // cashing counts toward the limit (R17.1.2)
    return;
  }
  ApplyRule rule = registry().apply[s.decision];
  if (rule == nullptr)
    throw std::logic_error("decision " + std::to_string(s.decision) + ": no module registered its apply");
  rule(s, lay, action);
}

void run_once(State& s) {
  s.mask_valid = false;
  if (interrupts::pending(s)) return;
  Runner runner = registry().runner[s.phase];
  if (runner == nullptr) throw std::logic_error("phase " + phase_text(s) + ": no module registered its runner");
  runner(s);
}

void advance(State& s) {
  std::array<std::int8_t, kMaxActions> mask;
  const int size = s.t->layout.size;
  while (true) {
    while (s.decision == decision::NONE && s.phase != PHASE_GAME_OVER) run_once(s);
    if (s.phase == PHASE_GAME_OVER) return;
    legal_mask(s, mask.data());
    std::array<int, 2> first;
    if (allowed(mask.data(), size, first.data(), 2) != 1) return;
    apply(s, first[0]);  // a forced move is no decision
  }
}

void step(State& s, int action) {
  if (s.phase == PHASE_GAME_OVER) throw IllegalAction("the game is over: no action is legal");
  std::array<std::int8_t, kMaxActions> mask;
  legal_mask(s, mask.data());
  if (action < 0 || action >= s.t->layout.size || !mask[action])
    throw IllegalAction("action " + std::to_string(action) + " is not legal now: player " + std::to_string(s.actor) +
                        " must decide " + std::to_string(s.decision) + " in phase " + phase_text(s));
  step_legal(s, action);
}

void step_legal(State& s, int action) {
  s.stats.decisions += 1;
  apply(s, action);
  advance(s);
}

}  // namespace machine
}  // namespace ktenv

// ktenv/kingsburg/machine.py: the year's phase machine; stops at a decision with two or more options.
#include <numeric>

#include "engine.hpp"

namespace ktenv::kingsburg {

namespace {

void run_stage(State& s) {  // machine.RUNNERS
  switch (s.stage) {
    case S_AID: aid::run(s); break;
    case S_SEASON_START: season::start(s); break;
    case S_REROLL: season::rerolls(s); break;
    case S_INFLUENCE: influence::run(s); break;
    case S_HELP: advisors::run(s); break;
    case S_BUILD: construction::run(s); break;
    case S_SEASON_END: season::end(s); break;
    case S_KINGS_REWARD: year::kings_reward(s); break;
    case S_ENVOY: year::kings_envoy(s); break;
    case S_RECRUIT: recruiting::run(s); break;
    case S_BATTLE: battle::run(s); break;
    default: throw std::logic_error("no rules run at stage " + std::to_string(s.stage) + " (engine bug)");
  }
}

void fill_mask(const State& s, Mask& mask) {  // machine.DECISIONS, the mask half
  switch (s.decision) {
    case D_AID_GOOD: case D_GUILD_GOOD: case D_HELP_GOOD: case D_REWARD_GOOD: pick_legal(s, mask, false); break;
    case D_REROLL: season::reroll_legal(s, mask); break;
    case D_INFLUENCE: influence::influence_legal(s, mask); break;
    case D_GROUP_DICE: influence::dice_legal(s, mask); break;
    case D_MODIFIER: influence::modifier_legal(s, mask); break;
    case D_ALCHEMIST: case D_RECRUIT_PAY: case D_LOSS_GOOD: pick_legal(s, mask, true); break;
    case D_BUILD_TURN: case D_ENVOY_BUILD: construction::build_legal(s, mask); break;
    case D_TOWN_HALL_TURN: season::town_hall_legal(s, mask); break;
    case D_RECRUIT_TURN: recruiting::recruit_legal(s, mask); break;
    default: break;
  }
}

void apply(State& s, int action) {  // machine.DECISIONS, the apply half
  switch (s.decision) {
    case D_AID_GOOD: case D_GUILD_GOOD: case D_HELP_GOOD: case D_REWARD_GOOD: aid::take_good(s, action); break;
    case D_REROLL: season::reroll_apply(s, action); break;
    case D_INFLUENCE: influence::influence_apply(s, action); break;
    case D_GROUP_DICE: influence::dice_apply(s, action); break;
    case D_MODIFIER: influence::modifier_apply(s, action); break;
    case D_ALCHEMIST: advisors::alchemist_apply(s, action); break;
    case D_BUILD_TURN: case D_ENVOY_BUILD: construction::build_apply(s, action); break;
    case D_TOWN_HALL_TURN: season::town_hall_apply(s, action); break;
    case D_RECRUIT_TURN: recruiting::recruit_apply(s, action); break;
    case D_RECRUIT_PAY: case D_LOSS_GOOD: recruiting::pay_apply(s, action); break;
    default: throw std::logic_error("no decision pending (engine bug)");
  }
}

}  // namespace

State new_game(const Config& cfg, std::uint64_t rng_state) {
  if (deck().cards.empty()) throw std::logic_error("the enemy deck is not loaded (ktenv.kingsburg.native sets it)");
  State s(cfg, rng_state);
  std::vector<int> order(s.n);
  std::iota(order.begin(), order.end(), 0);
  s.rng.shuffle(order);  // K2.2
  for (int p = 0; p < s.n; ++p) s.order[p] = static_cast<std::int8_t>(order[p]);
  for (int y = 0; y < YEARS; ++y) s.enemy_deck[y] = static_cast<std::int16_t>(deck().of_year[y][s.rng.below(5)]);  // K2.3
  advance(s);
  return s;
}

void legal_mask(const State& s, Mask& mask) {
  mask.fill(0);
  if (!s.game_over && s.decision != D_NONE) fill_mask(s, mask);
}

void step(State& s, int action) {
  if (s.game_over) throw IllegalAction("the game is over");
  Mask mask;
  legal_mask(s, mask);
  if (action < 0 || action >= N_ACTIONS || !mask[action])
    throw IllegalAction("action " + std::to_string(action) + " is not legal now");
  step_legal(s, action);
}

void step_legal(State& s, int action) {
  Mask next;
  step_legal(s, action, next);
}

void step_legal(State& s, int action, Mask& next) {
  apply(s, action);
  s.steps += 1;
  advance(s, next);
}

void advance(State& s) {
  Mask mask;
  advance(s, mask);
}

void advance(State& s, Mask& mask) {
  mask.fill(0);
  while (!s.game_over) {
    if (s.decision == D_NONE) {
      run_stage(s);
      continue;
    }
    legal_mask(s, mask);
    int count = 0, first = -1;
    for (int a = 0; a < N_ACTIONS; ++a)
      if (mask[a]) {
        if (!count) first = a;
        if (++count >= 2) return;
      }
    if (!count) throw std::logic_error("no legal action at decision " + std::to_string(s.decision) + " (engine bug)");
    apply(s, first);  // a forced move is no choice (K16)
  }
  mask.fill(0);  // the game is over: nothing is legal
}

}  // namespace ktenv::kingsburg

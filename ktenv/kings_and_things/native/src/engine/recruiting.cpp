// ktenv/kings_and_things/engine/recruiting.py: R8 phase 3, recruit Things. Paid draws and a trade set, draw, pay,
// return the trades, place (R8.2, R8.3), then the screen limit again (R17.1).
#include "recruiting.hpp"

#include "common.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "placement_turn.hpp"

namespace ktenv::recruiting {
namespace {

constexpr int MAX_PAID = 5;    // R8.1.1: at most 25 gold, 5 each
constexpr int MAX_TRADED = 5;  // R8.1.1: at most five Things by trade (ten counters)
using Step = RecruitStep;

// The player's Recruit Things turn under way (started on first use).
RecruitTurn& turn_of(State& s) {
  auto* turn = s.frame<RecruitTurn>();
  return turn != nullptr ? *turn : s.push(RecruitTurn{});
}

int paid_so_far(const State& s) {
  const auto* turn = s.frame<RecruitTurn>();
  return turn != nullptr ? turn->paid : 0;
}

Ids trade_set(const State& s, int player) {
  Ids out;
  for (int c : screen(s, player))
    if (s.thing_selected[c]) out.push_back(c);
  return out;
}

void return_trades(State& s, int player) {
  for (int c : trade_set(s, player)) common::to_cup(s, c);
  auto& turn = turn_of(s);
  turn.keep = 0;
  turn.step = Step::PLACE;
  s.decision = decision::NONE;
}

// Draws one at a time: free, then paid, then traded; stops when the cup is empty (R8.1.1, R8.1.5).
void draw_all(State& s, int player) {
  Ids trades = trade_set(s, player);
  int k = hooks::trade_ratio(s, player);  // R21.14 Trafficker: one counter a Thing
  const std::array<int, 3> wanted{free_count(s, player), turn_of(s).paid, trades.size() / k};
  std::array<int, 3> got{};
  for (int kind = 0; kind < 3; ++kind)
    for (int i = 0; i < wanted[kind]; ++i) {
      if (common::draw(s, player) < 0) break;
      got[kind] += 1;
    }
  s.gold[player] -= 5 * got[1];  // only paid draws received are paid for
  int total = got[0] + got[1] + got[2];
  s.drawn[player] = total;
  s.stats.things_drawn += total;
  int missing = wanted[2] - got[2];
  if (missing) {
    if (k * missing >= trades.size()) {  // every trade counter stays: nothing to choose
      for (int c : trades) s.thing_selected[c] = false;
    } else {
      turn_of(s).keep = k * missing;
      s.decision = decision::TRADE_KEEP;
      return;
    }
  }
  return_trades(s, player);
}

void run(State& s) {
  auto order = turn_order(s);
  if (s.turn >= static_cast<int>(order.size())) {
    s.phase = PHASE_EVENTS;
    s.stage = s.turn = 0;
    return;
  }
  int player = order[s.turn];
  auto& turn = turn_of(s);
  s.actor = player;
  switch (turn.step) {
    case Step::PAID:
      turn.open_screen = player;  // R17.1.1: the limit waits until placement is finished
      s.drawn[player] = 0;
      s.decision = decision::RECRUIT_PAID;
      break;
    case Step::TRADE:
      s.decision = decision::RECRUIT_TRADE;
      break;
    case Step::DRAW:
      draw_all(s, player);
      break;
    case Step::PLACE:
      turn.step = Step::LIMIT;
      placement_turn::begin_placement(s, player, false, -1, true);
      break;
    case Step::LIMIT:
      turn.open_screen = -1;  // placement done: over 10 now means discarding (interrupts)
      turn.step = Step::DONE;
      break;
    default:
      s.drop<RecruitTurn>();
      s.turn += 1;
  }
}

// R8.1.1: 0-5 paid Things at 5 gold. R20.2 lifts the cap: NUMBER 15 then asks for more.
void legal_paid(State& s, const ActionLayout&, std::int8_t* mask) {
  int paid = paid_so_far(s);
  int affordable = floor_div(s.gold[s.actor], 5) - paid;
  int top = std::min(s.cfg->where_will_they_stop ? kNumbers - 1 : MAX_PAID, affordable);
  for (int i = 0; i <= top; ++i) mask[NUMBER + i] = 1;
  if (!s.cfg->free_draws_mandatory && paid == 0) mask[PASS] = 1;  // X7 option: the draw may be declined
}

void apply_paid(State& s, const ActionLayout&, int action) {
  s.decision = decision::NONE;
  auto& turn = turn_of(s);
  if (action == PASS) {
    turn.step = Step::PLACE;  // no draws and no trade this round
    return;
  }
  int count = action - NUMBER;
  turn.paid += count;
  int more = floor_div(s.gold[s.actor], 5) - turn.paid;
  if (s.cfg->where_will_they_stop && count == kNumbers - 1 && more > 0) {
    s.decision = decision::RECRUIT_PAID;  // the largest amount: the player may declare more
    return;
  }
  turn.step = Step::TRADE;
}

// An even set of at most ten; a first counter of a pair only when a partner is left.
void legal_trade(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int k = hooks::trade_ratio(s, static_cast<int>(s.actor));  // R21.14 Trafficker: 1-for-1, at most five
  Ids mine = screen(s, static_cast<int>(s.actor));
  int chosen = 0;
  for (int c : mine) chosen += s.thing_selected[c];
  int free = mine.size() - chosen;
  if (chosen % k != 0 || (chosen < k * MAX_TRADED && free >= k))
    for (int c : mine)
      if (!s.thing_selected[c]) mask[lay.thing + c] = 1;
  if (chosen % k == 0) {
    mask[PASS] = 1;
  } else if (free == 0) {  // cashing a treasure left an odd set with no partner: take one back
    for (int c : mine)
      if (s.thing_selected[c]) mask[lay.thing + c] = 1;
  }
}

void apply_trade(State& s, const ActionLayout& lay, int action) {
  if (action == PASS) {
    turn_of(s).step = Step::DRAW;
    s.decision = decision::NONE;
  } else {
    int c = action - lay.thing;
    s.thing_selected[c] = !s.thing_selected[c];  // R8.1.1: the trade set is shown to all
  }
}

void legal_keep(State& s, const ActionLayout& lay, std::int8_t* mask) {
  Ids trades = trade_set(s, static_cast<int>(s.actor));
  const auto* turn = s.frame<RecruitTurn>();
  if (trades.size() > (turn != nullptr ? turn->keep : 0)) {
    for (int c : trades) mask[lay.thing + c] = 1;
  } else {  // a trade treasure was cashed meanwhile (RD8.1): what is left all stays (PASS)
    mask[PASS] = 1;
  }
}

// R8.1.5: two trade counters per traded draw not received stay behind the screen.
void apply_keep(State& s, const ActionLayout& lay, int action) {
  int player = static_cast<int>(s.actor);
  if (action == PASS) {
    for (int c : trade_set(s, player)) s.thing_selected[c] = false;
    return_trades(s, player);
    return;
  }
  s.thing_selected[action - lay.thing] = false;
  auto& turn = turn_of(s);
  turn.keep -= 1;
  if (turn.keep == 0) return_trades(s, player);
}

}  // namespace

// R8.1.1: one free Thing per two land hexes, rounded up (RT.20); R21.8 King of Things.
int free_count(const State& s, int player) {
  return -floor_div(-land_hex_count(s, player), 2) + hooks::extra_free_things(s, player);
}

void register_rules(Registry& r) {
  r.decision(decision::RECRUIT_PAID, legal_paid, apply_paid);
  r.decision(decision::RECRUIT_TRADE, legal_trade, apply_trade);
  r.decision(decision::TRADE_KEEP, legal_keep, apply_keep);
  r.runner[PHASE_RECRUIT] = run;
}

}  // namespace ktenv::recruiting

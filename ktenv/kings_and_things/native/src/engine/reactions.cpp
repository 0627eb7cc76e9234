// ktenv/kings_and_things/engine/reactions.py: R18.2 reaction rounds. Rounds stack in the Reactions frame (one entry per
// round in each list field); the innermost round closes when everyone asked has passed.
#include "reactions.hpp"

#include "common.hpp"
#include "machine.hpp"

namespace ktenv::reactions {
namespace {

// A trigger as its first-box counter (R20.1: the second box's events act as the first's).
int original(const State& s, int c) { return c >= 0 ? static_cast<int>(s.t->THING_ORIGINAL[c]) : c; }

bool is_reaction(int o) { return o == DISPEL || o == FAN || o == ELIXIR; }
// R22.6: the Bellows can divert the Boat too
bool fanned(int c) {
  return c == magic::BALLOON || c == magic::DUST_OF_DEFENSE || c == event::WEATHER_CONTROL || c == magic::BOAT;
}
bool plague(int c) { return c == event::DARK_PLAGUE || c == event::TEENIEPOX; }
bool dispellable_event(int c) { return c == event::BIG_JUJU || c == event::WEATHER_CONTROL; }

bool in_battle(const State& s, int q) {
  const Battle* b = s.frame<Battle>();
  return b != nullptr && contains(b->order, q);
}

// Every other player from the acting player's left; against Plague the player is asked last.
Ids ask_order(const State& s, int d) {
  const Reactions* rx = s.frame<Reactions>();
  int p = rx->player[d];
  Order order = turn_order(s);
  int len = static_cast<int>(order.size());
  int i = 0;
  for (int j = 0; j < len; ++j)
    if (order[j] == p) {
      i = j;
      break;
    }
  Ids out;
  for (int k = 1; k < len; ++k) out.push_back(order[(i + k) % len]);
  if (original(s, rx->trigger[d]) == event::DARK_PLAGUE) out.push_back(p);
  return out;
}

// The innermost round closes: its item resolves against the round below, or, the last round
// closed, its outcome waits for the procedure that opened it.
void close(const State& s, Reactions& rx) {
  int trigger = rx.trigger.back(), player = rx.player.back(), cancelled = rx.cancelled.back();
  int fan = rx.fan.back(), elixir = rx.elixir.back();
  rx.trigger.pop_back();
  rx.player.pop_back();
  rx.cancelled.pop_back();
  rx.fan.pop_back();
  rx.elixir.pop_back();
  rx.asked.pop_back();
  rx.victims.pop_back();
  if (rx.trigger.empty()) {
    rx.result_cancelled = cancelled != 0;
    rx.result_fan = fan;
    rx.result_elixir = elixir;
    return;
  }
  if (cancelled) return;  // a dispelled reaction has no effect
  int r = original(s, trigger);
  if (r == DISPEL)
    rx.cancelled.back() = 1;  // the battle applies C.8's lasting effect itself
  else if (r == FAN)
    rx.fan.back() = player;
  else if (r == ELIXIR)
    rx.elixir.back() |= 1 << player;
}

}  // namespace

void open_round(State& s, int trigger, int player, int victims) {
  Reactions* rx = s.frame<Reactions>();
  if (rx == nullptr) rx = &s.push(Reactions{});
  rx->trigger.push_back(trigger);
  rx->player.push_back(player);
  rx->asked.push_back(0);
  rx->cancelled.push_back(0);
  rx->fan.push_back(-1);
  rx->elixir.push_back(0);
  rx->victims.push_back(victims);
}

Result take_result(State& s) {
  Reactions* rx = s.frame<Reactions>();
  if (rx == nullptr) return {};
  Result out{rx->result_cancelled, static_cast<int>(rx->result_fan), static_cast<int>(rx->result_elixir)};
  if (!rx->trigger.empty()) {  // rounds still open (never the case when a procedure resumes): keep them
    rx->result_cancelled = false;
    rx->result_fan = -1;
    rx->result_elixir = 0;
  } else {
    s.drop<Reactions>();
  }
  return out;
}

// Reaction items on q's screen that may answer round d's trigger (every copy, either box: R20.1).
Ids eligible(const State& s, int q, int d) {
  const Reactions* rx = s.frame<Reactions>();
  int c = original(s, rx->trigger[d]), p = rx->player[d];
  Ids out;
  for (int r : screen(s, q)) {
    int o = s.t->THING_ORIGINAL[r];
    if (!is_reaction(o) || s.t->THING_KIND[r] != MAGIC) continue;
    if (o == DISPEL && q != p &&
        ((c == MAGIC_STEP && in_battle(s, q)) || (c >= 0 && s.t->THING_KIND[c] == MAGIC) ||
         (dispellable_event(c) && s.cfg->dispel_vs_events)))
      out.push_back(r);
    else if (o == FAN && q != p && fanned(c))
      out.push_back(r);
    else if (o == ELIXIR && plague(c) && (c == event::DARK_PLAGUE || (rx->victims[d] >> q & 1)))
      out.push_back(r);
  }
  return out;
}

// Ask the next holder of an eligible reaction; close rounds whose players have all answered.
bool pending(State& s) {
  Reactions* rx = s.frame<Reactions>();
  while (rx != nullptr && !rx->trigger.empty()) {
    int d = static_cast<int>(rx->trigger.size()) - 1;
    Ids order = ask_order(s, d);
    while (rx->asked[d] < order.size() && !rx->cancelled[d]) {
      int q = order[rx->asked[d]];
      if (!eligible(s, q, d).empty()) {
        s.decision = decision::REACT;
        s.actor = q;
        return true;
      }
      rx->asked[d] += 1;
    }
    close(s, *rx);
  }
  return false;
}

void legal_react(State& s, const ActionLayout& lay, std::int8_t* mask) {
  const Reactions* rx = s.frame<Reactions>();
  for (int r : eligible(s, static_cast<int>(s.actor), static_cast<int>(rx->trigger.size()) - 1)) mask[lay.thing + r] = 1;
  mask[PASS] = 1;
}

void apply_react(State& s, const ActionLayout& lay, int action) {
  Reactions* rx = s.frame<Reactions>();
  rx->asked.back() += 1;
  s.decision = decision::NONE;
  if (action == PASS) return;
  int r = action - lay.thing;
  common::used_up(s, r);  // shown to all, then to the cup (R17.2)
  s.stats.magic_played += 1;
  open_round(s, r, static_cast<int>(s.actor), 0);
}

void register_rules(Registry& r) { r.decision(decision::REACT, legal_react, apply_react); }

}  // namespace ktenv::reactions

// ktenv/kings_and_things/engine/interrupts.py: the choices the rules insert wherever play pauses (R7.11, RP-2.6,
// R17.1.2); the machine asks `pending` before resuming a phase.
#include "interrupts.hpp"

#include "common.hpp"
#include "dice.hpp"
#include "hooks.hpp"
#include "machine.hpp"
#include "reactions.hpp"
#include "support.hpp"

namespace ktenv::interrupts {
namespace {

// R17.1.2: the first player in turn order over the screen limit, other than the one whose screen is open.
int over_limit(const State& s) {
  std::array<int, kMaxPlayers> sizes{};
  int most = 0;
  for (int p = 0; p < kMaxPlayers; ++p) most = std::max(most, sizes[p] = s.things.screen_size[p]);
  if (most <= SCREEN_LIMIT) return -1;
  int open_player = open_screen(s);
  for (int p : turn_order(s))
    if (p != open_player && sizes[p] > SCREEN_LIMIT) return p;
  return -1;
}

void legal_hero_turn(State&, const ActionLayout&, std::int8_t* mask) { mask[YES] = mask[PASS] = 1; }

void apply_hero_turn(State& s, const ActionLayout&, int action) {
  int face = s.frame<HeroTurnOver>()->face;
  support::clear_hero_turn(s, face);
  if (action == YES) s.hero_up[face / 2] ^= 1;
  s.decision = decision::NONE;
}

void legal_discard(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int c : screen(s, static_cast<int>(s.actor))) mask[lay.thing + c] = 1;
}

// R17.1.2 / RD3.2: the owner discards counters of their choice to the cup (or cashes).
void apply_discard(State& s, const ActionLayout& lay, int action) {
  common::to_cup(s, action - lay.thing);
  discard_done(s);
}

}  // namespace

bool pending(State& s) {
  if (auto* turning = s.frame<HeroTurnOver>(); turning != nullptr && !turning->faces.empty()) {
    turning->face = turning->faces[0];  // the lowest pending face
    s.decision = decision::HERO_TURN;
    s.actor = turning->owners[0];
    return true;
  }
  if (dice::pending(s) || reactions::pending(s) || hooks::interrupt(s)) return true;  // R21.4 / R21.5
  if (const auto* setup = s.frame<Setup>(); setup != nullptr && setup->screens_open) return false;
  int p = over_limit(s);
  if (p < 0) return false;
  if (auto* recruiting = s.frame<RecruitTurn>()) recruiting->open_screen = -1;  // one waiver at a time
  s.drop<Discard>();
  s.push(Discard{}).player = p;  // over the limit only while discarding; the others follow
  s.decision = decision::DISCARD;
  s.actor = p;
  return true;
}

void discard_done(State& s) {
  if (screen_size(s, static_cast<int>(s.actor)) <= SCREEN_LIMIT) {
    s.drop<Discard>();
    s.decision = decision::NONE;
  }
}

void register_rules(Registry& r) {
  reactions::register_rules(r);  // Python: **reactions.DECISIONS, **dice.DECISIONS come first
  dice::register_rules(r);
  r.decision(decision::HERO_TURN, legal_hero_turn, apply_hero_turn);
  r.decision(decision::DISCARD, legal_discard, apply_discard);
}

}  // namespace ktenv::interrupts

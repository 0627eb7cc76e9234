// ktenv/kingsburg/recruiting.py: Phase 7, recruiting soldiers (K8.1, K15.D4; decision P11).
#include "engine.hpp"

namespace ktenv::kingsburg::recruiting {

int price(const State& s, int p) { return s.owns(p, B_BARRACKS) ? 1 : 2; }  // D4

void run(State& s) {
  // cursor: the player's place in the turn order; sub = 1 once that player said DONE
  while (s.cursor < s.n) {
    int p = s.order[s.cursor];
    if (s.sub == 0 && s.goods_count(p) >= price(s, p)) {
      ask(s, D_RECRUIT_TURN, p);
      return;
    }
    s.cursor += 1;
    s.sub = 0;
  }
  enter(s, S_BATTLE, 8);
}

void recruit_legal(const State&, Mask& mask) { mask[PASS] = mask[RECRUIT] = 1; }

void recruit_apply(State& s, int action) {
  int p = static_cast<int>(s.actor);
  if (action == PASS) {
    s.sub = 1;
    done(s);
    return;
  }
  s.soldiers[p] += 1;
  ask(s, D_RECRUIT_PAY, p, price(s, p), owned_kinds(s, p));
}

void pay_apply(State& s, int action) {
  s.goods[s.actor][action - PICK_GOOD] -= 1;  // also a good lost in a defeat: LOSS_GOOD, D16
  s.picks_left -= 1;
  if (s.picks_left <= 0) done(s);
}

}  // namespace ktenv::kingsburg::recruiting

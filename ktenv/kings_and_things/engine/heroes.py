"""R7 phase 2: recruit heroes. Dismiss, choose, gold before the roll, 2d6, gold after, place.

C++ twin: native/src/engine/heroes.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import NOBODY
from ..procedures import HeroRecruit
from ..state import HEROES, RECRUIT, GameState
from . import dice, hooks
from .actions import NUMBER, PASS, YES, ActionLayout
from .common import treasure_value


def run(s: GameState) -> None:
    turn = s.frame(HeroRecruit)
    if turn is not None and turn.bonus >= 0:  # the recruitment roll was made (and the Lucky Charm offered)
        _rolled(s)
        return
    order = s.turn_order()
    if s.turn >= len(order):
        s.phase, s.stage, s.turn = RECRUIT, 0, 0
        return
    s.drop(HeroRecruit)
    s.push(HeroRecruit())
    s.decision, s.actor = D.HERO_CHOOSE, order[s.turn]


def _turn(s: GameState) -> HeroRecruit:
    """The player's hero recruiting turn (a bare one outside the phase: nothing tried yet)."""
    return s.frame(HeroRecruit) or HeroRecruit()


def _end_turn(s: GameState) -> None:
    s.drop(HeroRecruit)
    s.decision = D.NONE
    s.turn += 1


def target(face: int) -> int:
    """A.0.1 / R7.5: the roll must reach twice the hero's combat value."""
    return 2 * int(cat.HERO_COMBAT[face])


def bonus_cap(face: int) -> int:
    """R7.6 / RD5.2: pre-roll bonus only up to the amount that makes success certain."""
    return max(0, target(face) - 2)


def _gold_cap(s: GameState, player: int, face: int) -> int:
    """RD5.2 as `bonus_cap`, with the optional rules' target and roll bonus (R21.2 / R21.9 / R21.13)."""
    return max(0, hooks.hero_target(s, player, face) - 2 - hooks.hero_roll_bonus(s, player, face))


def pool_faces(s: GameState) -> np.ndarray:
    """Heroes available in the pool: the face-up side of every unowned counter (R7.3)."""
    faces = np.arange(len(s.hero_up)) * 2 + s.hero_up
    return faces[(s.hero_owner[faces] == NOBODY) & hooks.hero_counters_in_play(s)]  # R22: house heroes


def room_hexes(s: GameState, player: int) -> np.ndarray:
    """R7.7: own land hexes where the stack limit leaves room for one more."""
    return np.flatnonzero((s.hex_owner == player) & (s.room_for(player) > 0))


def recruitable(s: GameState, player: int) -> np.ndarray:
    attempts = s.cfg.hero_attempts_per_round
    if attempts != "unlimited" and _turn(s).attempts >= attempts:
        return np.zeros(0, np.int64)
    if room_hexes(s, player).size == 0:  # RD5.3
        return np.zeros(0, np.int64)
    faces = pool_faces(s)
    owns_lord = (cat.HERO_LORD_TERRAIN[s.heroes_of(player)] >= 0).any()
    if owns_lord:  # R7.3: one terrain lord at a time
        faces = faces[cat.HERO_LORD_TERRAIN[faces] < 0]
    return faces


def legal_choose(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hero + s.heroes_of(s.actor)] = 1  # R7.2 dismiss
    mask[lay.hero + recruitable(s, s.actor)] = 1
    mask[PASS] = 1


def apply_choose(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        _end_turn(s)
        return
    face = action - lay.hero
    if s.hero_owner[face] == s.actor:
        dismiss(s, face)
        return
    turn = s.frame(HeroRecruit) or s.push(HeroRecruit())
    turn.hero = face
    turn.attempts += 1
    s.decision = D.HERO_BONUS


def dismiss(s: GameState, face: int) -> None:
    """R7.2: off the board, counter turned over (mandatory), the other side available at once."""
    s.hero_owner[face] = NOBODY
    s.hero_hex[face] = -1
    if hooks.hero_may_turn(s, face):  # R22.4: Tycho Brahe's counter is not turned without Kadab
        s.hero_up[face // 2] ^= 1
    s.stats["heroes_dismissed"] += 1


def legal_bonus(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    top = min(_gold_cap(s, s.actor, s.frame(HeroRecruit).hero), int(s.gold[s.actor]) // 5)  # R21.2/R21.9/R21.13
    mask[NUMBER:NUMBER + top + 1] = 1


def apply_bonus(s: GameState, lay: ActionLayout, action: int) -> None:
    """R7.4: pay 5 per +1 before the roll; then 2d6 (a roll event, R18.5)."""
    bonus = action - NUMBER
    s.gold[s.actor] -= 5 * bonus
    s.frame(HeroRecruit).bonus = bonus
    dice.roll(s, dice.HERO, 2)
    s.decision = D.NONE


def _rolled(s: GameState) -> None:
    """R7.5-R7.6: success at twice the value; short: offer the minimum post-roll payment."""
    turn = s.frame(HeroRecruit)
    face = turn.hero
    s.actor = s.turn_order()[s.turn]  # a Lucky Charm window may have asked another player meanwhile
    total = sum(dice.take(s, dice.HERO)) + turn.bonus  # R18.5.2: modified dice as they are
    turn.bonus = -1
    total += hooks.hero_roll_bonus(s, s.actor, face)  # R21.2 / R21.9
    short = hooks.hero_target(s, s.actor, face) - total  # R21.13 Recruiter
    if short <= 0:
        s.decision = D.HERO_PLACE
        return
    per10 = s.cfg.hero_post_roll_bonus_per_10
    cost = 10 * -(-short // per10)
    if s.gold[s.actor] + treasure_value(s, s.actor) >= cost:
        turn.cost = cost
        s.decision = D.HERO_PAY
    else:
        _after_attempt(s)  # R7.8: failure, gold paid is spent


def legal_pay(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[PASS] = 1
    if s.gold[s.actor] >= s.frame(HeroRecruit).cost:
        mask[YES] = 1


def apply_pay(s: GameState, lay: ActionLayout, action: int) -> None:
    turn = s.frame(HeroRecruit)
    cost, turn.cost = turn.cost, 0
    if action == YES:
        s.gold[s.actor] -= cost
        s.decision = D.HERO_PLACE
    else:
        _after_attempt(s)


def legal_place(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + room_hexes(s, s.actor)] = 1


def apply_place(s: GameState, lay: ActionLayout, action: int) -> None:
    """R7.7: the hero is placed at once, face up, on an own land hex with room."""
    face = s.frame(HeroRecruit).hero
    s.hero_owner[face] = s.actor
    s.hero_hex[face] = action - lay.hex
    s.stats["heroes_recruited"] += 1
    _after_attempt(s)


def _after_attempt(s: GameState) -> None:
    turn = s.frame(HeroRecruit)
    if turn is not None:
        turn.hero = -1
    if s.cfg.hero_attempts_per_round == "unlimited":
        s.decision = D.HERO_CHOOSE  # X6 option: more attempts in the same turn
    else:
        _end_turn(s)


DECISIONS = {
    D.HERO_CHOOSE: (legal_choose, apply_choose),
    D.HERO_BONUS: (legal_bonus, apply_bonus),
    D.HERO_PAY: (legal_pay, apply_pay),
    D.HERO_PLACE: (legal_place, apply_place),
}

RUNNERS = {HEROES: run}

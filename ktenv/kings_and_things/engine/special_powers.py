"""R15.1 phase 8: the Master Thief (A.5) and the Assassin Primus (A.7), each usable once per
round by its owner, in the order the owner chooses.

C++ twin: native/src/engine/special_powers.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CREATURE, NOBODY
from ..procedures import SpecialPower, SpecialStage
from ..state import CHANGE_ORDER, SPECIAL, GameState
from . import dice, hooks
from .actions import NUMBER, PASS, YES, ActionLayout
from .support import clear_hero_turn, lose_hero

THIEF = cat.hero_id("Master Thief")
ASSASSIN = cat.hero_id("Assassin Primus")
CHOOSE, DUEL, DUEL_B, DUEL_EVAL, TAKE, TARGET_A, TARGET_B, STRIKE, STRIKE_EVAL = SpecialStage


def run(s: GameState) -> None:
    order = s.turn_order()
    if s.turn >= len(order):
        s.phase, s.stage, s.turn = CHANGE_ORDER, 0, 0
        return
    player = order[s.turn]
    use = _use(s)
    if use.stage == CHOOSE:
        if _usable(s, player).size:
            s.decision, s.actor = D.SPECIAL_USE, player
        else:
            _end_turn(s)
    else:
        STAGES[use.stage](s, player)


def _use(s: GameState) -> SpecialPower:
    return s.frame(SpecialPower) or s.push(SpecialPower())


def _end_turn(s: GameState) -> None:
    s.drop(SpecialPower)
    s.turn += 1


def _use_done(s: GameState) -> None:
    """One power used: back to the choice (the other power may still be used this round)."""
    use = _use(s)
    s.frames[s.frames.index(use)] = SpecialPower(used_thief=use.used_thief, used_assassin=use.used_assassin)
    s.decision = D.NONE


def _usable(s: GameState, player: int) -> np.ndarray:
    """The player's Thief / Assassin not used yet this round, with something to aim at."""
    out = []
    if s.hero_owner[THIEF] == player and not _use(s).used_thief and len(s.turn_order()) > 1:
        out.append(THIEF)
    if s.hero_owner[ASSASSIN] == player and not _use(s).used_assassin and assassin_hexes(s, player).size:
        out.append(ASSASSIN)
    return np.asarray(out, np.int64)


def legal_use(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hero + _usable(s, s.actor)] = 1
    mask[PASS] = 1


def apply_use(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        s.decision = D.NONE
        _end_turn(s)
        return
    face = action - lay.hero
    use = _use(s)
    use.hero = face
    if face == THIEF:
        use.used_thief = True
    else:
        use.used_assassin = True
    s.decision = D.SPECIAL_VICTIM if face == THIEF else D.SPECIAL_HEX


# ----- choosing the victim -----

def legal_victim(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    n = s.n_players
    for q in s.turn_order():
        if q != s.actor:
            mask[lay.player + (q - s.actor) % n] = 1


def apply_victim(s: GameState, lay: ActionLayout, action: int) -> None:
    use = _use(s)
    use.victim = (s.actor + action - lay.player) % s.n_players
    use.stage = DUEL
    s.decision = D.NONE


def assassin_hexes(s: GameState, player: int) -> np.ndarray:
    """RD10.5: hexes owned by another player holding one of their heroes or face-down counters."""
    owners = s.hex_owner
    hexes = np.zeros(s.geo.n_hexes, bool)
    down = (s.thing_place == BOARD) & ~s.thing_face_up & (s.cat.THING_KIND == CREATURE)
    ids = np.flatnonzero(down)
    hexes[s.thing_hex[ids][owners[s.thing_hex[ids]] == s.thing_owner[ids]]] = True
    owned = s.hero_owner >= 0
    faces = np.flatnonzero(owned)
    hexes[s.hero_hex[faces][owners[s.hero_hex[faces]] == s.hero_owner[faces]]] = True
    return np.flatnonzero(hexes & (owners != player) & (owners != NOBODY))


def legal_hex(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + assassin_hexes(s, s.actor)] = 1


def apply_hex(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = action - lay.hex
    use = _use(s)
    use.hex, use.victim, use.stage = hx, int(s.hex_owner[hx]), DUEL
    s.decision = D.NONE


# ----- the duel of dice (A.5, A.7) -----

def _dice_count(s: GameState) -> int:
    return 2 if _use(s).hero == THIEF or s.cfg.assassin_dice == 2 else 1


def _duel(s: GameState, player: int) -> None:
    dice.roll(s, dice.DUEL_A, _dice_count(s))  # roll event (R18.5): the hero's owner
    _use(s).stage = DUEL_B


def _duel_b(s: GameState, player: int) -> None:
    dice.roll(s, dice.DUEL_B, _dice_count(s))  # roll event (R18.5): the victim
    _use(s).stage = DUEL_EVAL


def _duel_eval(s: GameState, player: int) -> None:
    """Higher wins; a tie is rolled again: equal or higher then is nothing, lower is caught."""
    mine, theirs = sum(dice.take(s, dice.DUEL_A)), sum(dice.take(s, dice.DUEL_B))
    use = _use(s)
    if use.tie:
        use.tie = False
        if theirs > mine:
            _caught(s)
        else:
            _use_done(s)
        return
    if mine == theirs:
        use.tie, use.stage = True, DUEL
        return
    if theirs > mine:
        _use_done(s)
    elif use.hero == THIEF:
        use.stage = TAKE
        s.decision, s.actor = D.THIEF_TAKE, player
    else:
        _assassin_success(s, player)


def _caught(s: GameState) -> None:
    """RD5.5: caught in the act, the hero returns to the pool turned over."""
    face = _use(s).hero
    lose_hero(s, face)
    clear_hero_turn(s, face)
    s.hero_up[face // 2] ^= 1
    _use_done(s)


def legal_take(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[NUMBER] = 1  # all the victim's gold
    if s.screen_size(_use(s).victim):  # RD10.3
        mask[NUMBER + 1] = 1


def apply_take(s: GameState, lay: ActionLayout, action: int) -> None:
    victim = _use(s).victim
    if action == NUMBER:
        s.gold[s.actor] += s.gold[victim]
        s.gold[victim] = 0
    else:  # one counter at random; its identity is known to thief and victim only (RI.5)
        screen = s.screen(victim)
        c = int(screen[s.rng.below(screen.size)])
        s.thing_owner[c] = s.actor
        s.thing_selected[c] = False
    s.decision = D.NONE
    _use_done(s)  # R17.1: a screen over 10 is brought down at once (interrupts)


# ----- the Assassin Primus's strike (A.7) -----

def _eligible(s: GameState, hx: int) -> tuple[np.ndarray, np.ndarray]:
    owner = s.hex_owner[hx]
    things = np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == owner)
                            & ~s.thing_face_up & (s.cat.THING_KIND == CREATURE))
    heroes = np.flatnonzero((s.hero_owner == owner) & (s.hero_hex == hx))
    return things, heroes


def _assassin_success(s: GameState, player: int) -> None:
    things, heroes = _eligible(s, _use(s).hex)
    if things.size + heroes.size == 1:
        _eliminate(s, int(things[0]) if things.size else -1 - int(heroes[0]))
        return
    _use(s).stage = TARGET_A
    s.decision, s.actor = D.ASSASSIN_TARGET, player


def legal_target(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """The hex owner may name any of his eligible counters. The assassin's owner names heroes and
    counters whose identity all know by id, and the others with YES: face down, they are alike to him."""
    things, heroes = _eligible(s, _use(s).hex)
    mask[lay.hero + heroes] = 1
    if _use(s).stage == TARGET_B:
        mask[lay.thing + things] = 1
        return
    mask[lay.thing + things[s.thing_public[things]]] = 1
    if not s.thing_public[things].all():
        mask[YES] = 1


def apply_target(s: GameState, lay: ActionLayout, action: int) -> None:
    """First the assassin's owner names a target, then the hex owner (possibly the same)."""
    use = _use(s)
    if use.stage == TARGET_A:
        use.target_a, use.stage = _named(s, lay, action), TARGET_B
        s.actor = use.victim
        return
    use.target_b, use.stage = _named(s, lay, action), STRIKE
    s.decision = D.NONE


def _named(s: GameState, lay: ActionLayout, action: int) -> int:
    """The counter an action names: a Thing id, or -1 - hero face. YES points at one of the face-down
    counters the assassin's owner cannot tell apart, and the game's draw says which."""
    if action == YES:
        things, _ = _eligible(s, _use(s).hex)
        unknown = things[~s.thing_public[things]]
        return int(unknown[s.rng.below(unknown.size)])
    return action - lay.thing if action < lay.hero else -1 - (action - lay.hero)


def _strike(s: GameState, player: int) -> None:
    dice.roll(s, dice.STRIKE, 1)  # roll event (R18.5)
    _use(s).stage = STRIKE_EVAL


def _strike_eval(s: GameState, player: int) -> None:
    """A.7: 1-3 the assassin's choice is eliminated, 4-6 the hex owner's."""
    roll = dice.table(dice.take(s, dice.STRIKE)[0])
    use = _use(s)
    _eliminate(s, use.target_a if roll <= 3 else use.target_b)


def _eliminate(s: GameState, target: int) -> None:
    """RD10.5: the victim is shown to all, then a creature goes to the cup, a hero to the pool."""
    if target >= 0:
        s.thing_public[target] = True
        hooks.eliminate(s, target)  # to the cup (R21.4 Brute)
    else:
        lose_hero(s, -1 - target)
    s.decision = D.NONE
    _use_done(s)


STAGES = {DUEL: _duel, DUEL_B: _duel_b, DUEL_EVAL: _duel_eval, STRIKE: _strike, STRIKE_EVAL: _strike_eval}
RUNNERS = {SPECIAL: run}
DECISIONS = {
    D.SPECIAL_USE: (legal_use, apply_use),
    D.SPECIAL_VICTIM: (legal_victim, apply_victim),
    D.SPECIAL_HEX: (legal_hex, apply_hex),
    D.THIEF_TAKE: (legal_take, apply_take),
    D.ASSASSIN_TARGET: (legal_target, apply_target),
}

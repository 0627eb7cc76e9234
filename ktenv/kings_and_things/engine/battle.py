"""R13 battles: reveal, the item windows and heroes before the first round, rounds of magic /
ranged / melee steps, hits assigned one at a time by their owners, retreats, and what follows a
battle (R13.10). Sides and values: `battle_sides`; items and heroes: `battle_items`.

The battle lives in its procedure frame (`procedures.Battle`) so that it can stop at any decision, be
saved and resume. `begin()` pushes it; the Combat phase calls `run()` until `Battle.done`.

C++ twin: native/src/engine/battle.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CREATURE, MAGIC, NEUTRAL, NOBODY, SCREEN, STACK_LIMIT, TREASURE
from ..procedures import Battle, BattleKind, BattleStage, Excess
from ..state import GameState
from . import battle_items as I
from . import battle_sides as B
from . import dice, hooks, reactions
from .actions import PASS, ActionLayout, layout
from .common import to_cup, used_up
from .conquest import conquer, leftovers_to_cup, reduce_fort
from .placement_turn import begin_placement
from .stacks import retreat_overflow
from .support import lose_hero, remove_revealed_bluffs
from .victory import check_eliminations

OWNED, EXPLORATION, CONTEST = BattleKind  # kinds of battle
(START, WINDOW, FIREWALL, PREHERO, WARLORD, WARLORD_ROLL, ROUND, BEARERS, TARGETS, STEP, STEP_PRE, DISPEL_WAIT,
 ROLL, HITS, MARKSMAN_PLACE, ASSIGN, SAVE, REMOVE, RETREAT, EXCESS, END, DAMAGE_FORT, DAMAGE_FORT_ROLLED,
 DAMAGE_INCOME, DAMAGE_INCOME_ROLLED, RESET, PLACE, DONE) = BattleStage
NO_HIT_LIMIT = 50  # R13.9.6 / RD7.4
_IS_CREATURE = cat.THING_KIND == CREATURE


def _layout(s: GameState) -> ActionLayout:
    return layout(s)


def begin(s: GameState, hx: int, kind: int, attacker: int, sides: list[int], defender_side: int,
          neutral_controller: int = NOBODY) -> None:
    """Start a battle in `hx`; `sides` are the players (and NEUTRAL) with counters in it."""
    turn = s.turn_order()
    start = turn.index(defender_side) + 1 if defender_side in turn else turn.index(attacker)
    rotated = [turn[(start + i) % len(turn)] for i in range(len(turn))]
    attackers = [p for p in rotated if p in sides and p != defender_side]
    battle_order = attackers + ([defender_side] if defender_side in sides else [])
    s.drop(Battle)
    s.push(Battle(hex=hx, kind=BattleKind(kind), defender=defender_side, attacker=attacker,
                  controller=neutral_controller, step=B.MAGIC_STEP, order=battle_order))
    s.stats["battles"] += 1


def run(s: GameState) -> None:
    STAGES[s.frame(Battle).stage](s)


def _go(s: GameState, stage: int, idx: int = 0) -> None:
    b = s.frame(Battle)
    b.stage, b.idx = stage, idx


def _open_window(s: GameState, kind: int, after: int) -> None:
    b = s.frame(Battle)
    b.window, b.window_idx, b.after_window = kind, 0, after
    _go(s, WINDOW)


# ----- the start (R13.2) -----

def _start(s: GameState) -> None:
    """Reveal every creature of the player sides; bluff check; the opening window."""
    if hooks.battle_start(s):  # R21.11 Gambler's stake first
        return
    b = s.frame(Battle)
    for side in b.order:
        ids = B.creatures(s, side, b.hex)
        s.thing_face_up[ids] = True
        s.thing_public[ids] = True
    remove_revealed_bluffs(s)
    if _ended(s):
        _go(s, END)
    else:
        _open_window(s, I.OPENING, PREHERO)


def _window(s: GameState) -> None:
    """R18.1: sides in battle order play items or pass; each played item meets its reactions."""
    lay = _layout(s)
    b = s.frame(Battle)
    if b.item >= 0:
        outcome = I.resolve(s, lay)
        if outcome == "firewall":
            _go(s, FIREWALL)
        elif outcome == "bearer":
            side = b.side
            if side == NEUTRAL and s.cfg.neutral_control == "policy":  # RD1.6: the strongest bears it
                ids = B.creatures(s, side, b.hex)
                s.thing_bearer[b.bearer_item] = int(ids[np.argmax(cat.THING_COMBAT[ids])])
                b.bearer_item = -1
            else:
                s.decision, s.actor = D.ITEM_BEARER, B.controller(s, side)
        elif outcome == "dust":  # C.1: the chosen attacking side must retreat at once
            side, b.dust = b.dust, -1
            b.force_side, b.side, b.resume = side, side, WINDOW
            s.decision, s.actor = D.RETREAT, side
        return
    if not I.window(s, lay):
        _go(s, b.after_window)


def _firewall(s: GameState) -> None:
    I.set_firewall(s)
    _go(s, WINDOW)


def _prehero(s: GameState) -> None:
    """R13.2 step 4: Baron and Grand Duke, then the Warlord; then bluff and end checks."""
    I.wall_breakers(s)
    _go(s, WARLORD)


def _warlord(s: GameState) -> None:
    b = s.frame(Battle)
    if not b.warlord_asked and I.warlord_ready(s):
        b.warlord_asked = True
        s.decision, s.actor = D.WARLORD, int(s.hero_owner[I.WARLORD])
        return
    remove_revealed_bluffs(s)
    _go(s, END if _ended(s) else ROUND)


def _warlord_roll(s: GameState) -> None:
    I.warlord_roll(s)
    _go(s, WARLORD)


def apply_warlord(s: GameState, lay: ActionLayout, action: int) -> None:
    I.apply_warlord(s, lay, action)
    if s.frame(Battle).turncoat >= 0:
        _go(s, WARLORD_ROLL)


# ----- rounds and steps (R13.3) -----

def _round(s: GameState) -> None:
    b = s.frame(Battle)
    b.round += 1
    b.hits_this_round = False
    b.bow_bearer_asked = b.sword_bearer_asked = b.parried = False
    b.targets = [-1] * len(b.targets)
    if s.cfg.talisman_save_scope == "round":
        b.talisman_things, b.talisman_heroes = [], []
    b.multi = len(B.active_sides(s)) >= 3
    _go(s, BEARERS)


def _bearers(s: GameState) -> None:
    if I.bearer_needed(s):
        return
    _go(s, TARGETS)


def _targets(s: GameState) -> None:
    """R13.12: each side names its target for the round (secret until all have chosen, RD7.7)."""
    live = B.active_sides(s)
    b = s.frame(Battle)
    if not b.multi or b.idx >= len(live):
        b.step = B.MAGIC_STEP
        _open_window(s, I.ROUND_START, STEP)
        return
    side = live[b.idx]
    b.side = side
    s.decision, s.actor = D.TARGET, B.controller(s, side)


def legal_target(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """PLAYER actions are relative: PLAYER+i is the player i seats to the actor's left."""
    side = s.frame(Battle).side
    for enemy in B.active_sides(s):
        if enemy != side and enemy != NEUTRAL:
            mask[lay.player + (enemy - side) % s.n_players] = 1


def apply_target(s: GameState, lay: ActionLayout, action: int) -> None:
    b = s.frame(Battle)
    b.targets[b.side] = (b.side + action - lay.player) % s.n_players
    b.idx += 1
    s.decision = D.NONE


def target_of(s: GameState, side: int) -> int:
    b = s.frame(Battle)
    if b.multi:
        return b.targets[side]
    others = [o for o in B.active_sides(s) if o != side]
    return others[0] if others else -1


def _step(s: GameState) -> None:
    """Start of a step: the step's item window, then Dispel Magic / the Marksman's choice."""
    b = s.frame(Battle)
    if s.cfg.talisman_save_scope == "step":
        b.talisman_things, b.talisman_heroes = [], []
    b.dispel_asked = 0
    _open_window(s, I.STEP_START, STEP_PRE)


def _step_pre(s: GameState) -> None:
    b = s.frame(Battle)
    step = b.step
    if step == B.MAGIC_STEP:
        for i, side in enumerate(B.active_sides(s)):
            if b.dispel_asked >> i & 1 or not I.magic_attackers(s, side):
                continue
            b.dispel_asked |= 1 << i
            b.dispel_side = side
            reactions.open_round(s, reactions.MAGIC_STEP, B.controller(s, side))  # C.8
            _go(s, DISPEL_WAIT)
            return
    if step == B.RANGED_STEP and not b.marksman_asked:
        b.marksman_asked = True
        side = I.marksman_side(s)
        if side >= 0 and side in B.active_sides(s):
            s.decision, s.actor = D.MARKSMAN, side
            return
    b.marksman_asked = False
    _go(s, ROLL)


def _dispel_wait(s: GameState) -> None:
    cancelled, _, _ = reactions.take_result(s)
    if cancelled:  # C.8: for the rest of the battle that side's magic attacks in the melee step
        b = s.frame(Battle)
        b.dispelled |= 1 << b.dispel_side
    _go(s, STEP_PRE)


def _roll(s: GameState) -> None:
    """R13.4.2: every side rolls all its dice of the step (one roll event per side, R18.5.1)."""
    live = B.active_sides(s)
    b = s.frame(Battle)
    idx = b.idx
    if idx == 0 and NEUTRAL in live:  # R12.4.2: neutrals that fought can never be bribed or retreat
        hx = b.hex
        s.thing_fought[(s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)] = True
    if idx >= len(live):
        _go(s, HITS)
        return
    side = live[idx]
    n = sum(d for _, d, _ in B.attackers(s, side, b.step))
    dice.roll(s, dice.BATTLE + side, n)
    hooks.after_battle_roll(s, side, n)  # R21.5 Lucky: may re-roll one own die
    b.idx = idx + 1


def _hits(s: GameState) -> None:
    """R13.4.4: count the hits of every side, then they are assigned (Marksman's first)."""
    b = s.frame(Battle)
    step = b.step
    received: dict[int, int] = {}
    for side in B.active_sides(s):
        rolled = dice.take(s, dice.BATTLE + side) if dice.held(s, dice.BATTLE + side) else []
        target = target_of(s, side)
        i = 0
        for value, n, tag in B.attackers(s, side, step):
            hits = sum(1 for d in rolled[i:i + n] if d <= value)  # R18.5.2: modified dice as they are
            i += n
            if not hits or target < 0:
                continue
            if tag >= 0:
                b.marksman_hits += hits
                b.marksman_target, b.marksman_side = target, side
            else:
                received[target] = received.get(target, 0) + hits
    if step == B.RANGED_STEP:
        for side in list(received):
            if B.has_golem(s, side):  # C.7 / RT.18: one ranged hit fewer against the Golem's side
                received[side] -= 1
    hooks.hits_received(s, received)  # R21.1 Amoeba: the first hit of a round is ignored
    for side in b.order:
        b.hits[side] = max(0, received.get(side, 0))
    if sum(received.values()) or b.marksman_hits:
        b.hits_this_round = True
    b.marksman = 0
    _go(s, MARKSMAN_PLACE)


def _marksman_place(s: GameState) -> None:
    """A.6 / RD10.4: a value-2 hit is placed by the Marksman's owner, before the others."""
    lay = _layout(s)
    b = s.frame(Battle)
    if b.marksman_hits > 0 and _targets_of(s, b.marksman_target, lay):
        b.side = b.marksman_target
        s.decision, s.actor = D.MARKSMAN_HIT, b.marksman_side
        return
    b.marksman_hits, b.marksman_target, b.marksman_side = 0, -1, -1
    _go(s, ASSIGN)


def _targets_of(s: GameState, side: int, lay: ActionLayout) -> list[int]:
    return B.hit_targets(s, side, lay.hex, lay.thing, lay.hero)


def legal_marksman_hit(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[_targets_of(s, s.frame(Battle).side, lay)] = 1


def apply_marksman_hit(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    b = s.frame(Battle)
    b.marksman_hits -= 1
    _hit(s, lay, b.side, action, MARKSMAN_PLACE)


def _assign(s: GameState) -> None:
    """R13.6: receiving sides in battle order assign their hits one at a time."""
    b = s.frame(Battle)
    sides = b.order
    lay = _layout(s)
    idx = b.idx
    while idx < len(sides):
        side = sides[idx]
        if b.hits[side] > 0 and _targets_of(s, side, lay):
            b.side, b.idx = side, idx
            if side == NEUTRAL and s.cfg.neutral_control == "policy":
                b.hits[side] -= 1
                _hit(s, lay, side, _policy_hit(s, lay), ASSIGN)
                return
            s.decision, s.actor = D.ASSIGN_HIT, B.controller(s, side)
            return
        b.hits[side] = 0  # hits beyond the side's capacity are lost
        idx += 1
    _go(s, REMOVE)


def _policy_hit(s: GameState, lay: ActionLayout) -> int:
    """RD1.6 fixed rule for neutrals: lowest-value creature, then village, then city."""
    def rank(a: int) -> tuple[int, int]:
        c = a - lay.thing
        return (0 if cat.THING_KIND[c] == CREATURE else 1, int(cat.THING_COMBAT[c]))
    return min(_targets_of(s, s.frame(Battle).side, lay), key=rank)


def legal_assign(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[_targets_of(s, s.frame(Battle).side, lay)] = 1


def apply_assign(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    b = s.frame(Battle)
    b.hits[b.side] -= 1
    _hit(s, lay, b.side, action, ASSIGN)


def _hit(s: GameState, lay: ActionLayout, side: int, action: int, back: int) -> None:
    """One hit on one counter; the Swordmaster and the Talisman roll to save it first."""
    b = s.frame(Battle)
    if I.save_roll_needed(s, lay, side, action):
        b.save_side, b.save_action, b.resume = side, action, back
        dice.roll(s, dice.SAVE, 1)  # roll event (R18.5)
        _go(s, SAVE, b.idx)
        return
    _damage(s, lay, action)
    b.stage = back


def _save(s: GameState) -> None:
    lay = _layout(s)
    b = s.frame(Battle)
    side, action = b.save_side, b.save_action
    b.save_side = b.save_action = -1
    if not I.apply_save(s, lay, side, action):
        _damage(s, lay, action)
    b.stage, b.resume = b.resume, RETREAT


def _damage(s: GameState, lay: ActionLayout, action: int) -> None:
    if lay.hex <= action < lay.thing:
        s.hex_fort_damage[action - lay.hex] += 1
    elif lay.thing <= action < lay.hero:
        s.thing_damage[action - lay.thing] += 1
    else:
        s.hero_damage[action - lay.hero] = 1


def _remove(s: GameState) -> None:
    """End of a step: hit creatures to the cup, hit heroes to the pool, broken items to the cup;
    then the bluff and end checks (R13.6.5)."""
    b = s.frame(Battle)
    hx = b.hex
    here = (s.thing_place == BOARD) & (s.thing_hex == hx)
    for c in np.flatnonzero(here & _IS_CREATURE[:s.n_things] & (s.thing_damage > 0)):
        hooks.eliminate(s, int(c))  # to the cup (R21.4 Brute: Charge creatures to the screen)
    for f in np.flatnonzero(s.hero_damage > 0):
        s.hero_damage[f] = 0
        lose_hero(s, int(f))
    for c in np.flatnonzero(here & s.thing_in_play):
        broken = s.thing_damage[c] > 0 if c != B.FIREWALL else B.firewall_value(s, int(s.thing_owner[c])) == 0
        if broken:
            used_up(s, int(c))
    remove_revealed_bluffs(s)
    if _ended(s):
        _go(s, END)
    elif b.step < B.MELEE_STEP:
        b.step += 1
        _go(s, STEP)
    else:
        _count_hitless(s)
        _go(s, RETREAT)


def _count_hitless(s: GameState) -> None:
    """R13.9.6: count the rounds in a row in which nobody scored a hit."""
    b = s.frame(Battle)
    if b.hits_this_round:
        b.rounds_without_hit = 0
    else:
        b.rounds_without_hit += 1
        if b.rounds_without_hit >= NO_HIT_LIMIT:
            b.forced = True  # RD7.4: the attackers leave as if they had retreated


# ----- retreat (R13.8) -----

def _retreat(s: GameState) -> None:
    """Attackers in battle order, then the defender, may retreat; the battle may end at any time."""
    b = s.frame(Battle)
    sides = b.order
    hx = b.hex
    idx = b.idx
    forced = b.forced
    while idx < len(sides):
        if _ended(s):
            _go(s, END)
            return
        side = sides[idx]
        army = B.creatures(s, side, hx).size + B.heroes(s, side, hx).size
        is_attacker = side != B.defender(s)
        if army and side != NEUTRAL and (not forced or is_attacker):
            if B.retreat_hexes(s, side).size or hooks.can_fly_away(s, side):  # R21.2 Aviator's flyer
                b.side, b.idx, b.resume = side, idx, RETREAT
                s.decision, s.actor = D.RETREAT, side
                return
            if forced:
                _eliminate_side(s, side)  # RD7.4: attackers that cannot retreat are eliminated
        idx += 1
    b.forced = False
    _go(s, END if _ended(s) else ROUND)


def legal_retreat(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    b = s.frame(Battle)
    mask[lay.hex + B.retreat_hexes(s, b.side)] = 1
    if not b.forced and b.force_side < 0:
        mask[PASS] = 1
    hooks.retreat_options(s, lay, mask)  # R21.2: THING, the Aviator's flyer alone


def apply_retreat(s: GameState, lay: ActionLayout, action: int) -> None:
    if hooks.retreat_alone(s, lay, action):  # R21.2 Aviator
        return
    b = s.frame(Battle)
    side = b.side
    s.decision = D.NONE
    back, b.resume = b.resume, RETREAT
    if b.force_side < 0:
        b.idx += 1
    b.force_side = -1
    b.stage = back
    if action == PASS:
        return
    dest = action - lay.hex
    hx = b.hex
    ids = B.creatures(s, side, hx)
    s.thing_hex[ids] = dest
    s.thing_face_up[ids] = False  # R13.8.6: face down again (their identities stay known, RI.4)
    s.hero_hex[B.heroes(s, side, hx)] = dest
    if B.in_play(s, side, B.BALLOON):
        s.thing_hex[B.BALLOON] = dest  # the Balloon carries its passengers away (C.2)
    if B.in_play(s, side, B.BOAT):
        s.thing_hex[B.BOAT] = dest  # so does the Boat (R22.6)
    I.items_home(s, side)
    if s.army_counts(side)[dest] > STACK_LIMIT and s.hex_fort[dest] != 4:
        s.push(Excess(hex=dest, side=side))
        retreat_overflow(s, True)
        b.excess_resume, b.stage = back, EXCESS


def _excess(s: GameState) -> None:
    ex = s.frame(Excess)
    side, dest = ex.side, ex.hex
    if s.army_counts(side)[dest] <= STACK_LIMIT:
        s.drop(Excess)
        retreat_overflow(s, False)
        b = s.frame(Battle)
        b.stage, b.excess_resume = b.excess_resume, START
        return
    s.decision, s.actor = D.RETREAT_EXCESS, side


def legal_excess(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """Counters over the limit in hex `Excess.hex` (after a retreat, R13.8.4, or a move, RP-5.9)."""
    ex = s.frame(Excess)
    side, dest = ex.side, ex.hex
    mask[lay.thing + B.creatures(s, side, dest)] = 1
    mask[lay.hero + B.heroes(s, side, dest)] = 1


def apply_excess(s: GameState, lay: ActionLayout, action: int) -> None:
    """R13.8.4: the player chooses which counters over the limit are eliminated."""
    if action >= lay.hero:
        lose_hero(s, action - lay.hero)
    else:
        hooks.eliminate(s, action - lay.thing)  # R21.4
    s.decision = D.NONE


def _eliminate_side(s: GameState, side: int) -> None:
    hx = s.frame(Battle).hex
    for c in B.creatures(s, side, hx):
        hooks.eliminate(s, int(c))  # R21.4
    for f in B.heroes(s, side, hx):
        lose_hero(s, int(f))
    I.items_home(s, side)


# ----- the end of a battle (R13.9, R13.10) -----

def _ended(s: GameState) -> bool:
    """R13.9.1-R13.9.3: at most one side active, or the defender down and one attacker left."""
    live = B.active_sides(s)
    attackers = [side for side in live if side != B.defender(s)]
    if not attackers:
        return True
    if s.frame(Battle).kind == CONTEST:
        return len(live) <= 1
    return B.defender(s) not in live and len(attackers) == 1


def winner(s: GameState) -> int:
    """The side holding the field: the one attacker left if the defender is down, else -1."""
    live = B.active_sides(s)
    attackers = [side for side in live if side != B.defender(s)]
    if s.frame(Battle).kind == CONTEST:
        return live[0] if len(live) == 1 else -1
    if B.defender(s) not in live and len(attackers) == 1:
        return attackers[0]
    return -1


def _end(s: GameState) -> None:
    """R13.10 step 1: ownership (and the explorer's loot); the battle items go home."""
    b = s.frame(Battle)
    hx, kind = b.hex, b.kind
    won = winner(s)
    b.winner = won
    hooks.battle_end(s, won)  # R21.11 the Gambler's stakes
    I.items_home(s)
    if kind in (OWNED, EXPLORATION) and won >= 0 and won != NEUTRAL:
        conquer(s, hx, won)
        if kind == EXPLORATION:
            loot(s, hx, won)
    if s.game_over:
        return
    _go(s, DAMAGE_FORT if kind != CONTEST else RESET)


def _damage_fort(s: GameState) -> None:
    """R13.10 step 2 / RD7.5: a d6 for the fort (1 or 6: down a level; a Citadel never)."""
    if s.hex_fort[s.frame(Battle).hex] > 0:
        dice.roll(s, dice.DAMAGE, 1)  # roll event (R18.5)
        _go(s, DAMAGE_FORT_ROLLED)
    else:
        _go(s, DAMAGE_INCOME)


def _damage_fort_rolled(s: GameState) -> None:
    hx = s.frame(Battle).hex
    roll = dice.table(dice.take(s, dice.DAMAGE)[0])
    citadel_safe = not (s.cfg.victory == "unique_b" and s.cfg.unique_b_vulnerable == "combat_and_disaster")
    if hooks.damage_destroys(s, roll) and not (s.hex_fort[hx] == 4 and citadel_safe):  # 1 or 6 (R21.15)
        reduce_fort(s, hx)
    _go(s, DAMAGE_INCOME)


def _damage_income(s: GameState) -> None:
    if s.hex_income[s.frame(Battle).hex] >= 0:
        dice.roll(s, dice.DAMAGE, 1)  # roll event (R18.5)
        _go(s, DAMAGE_INCOME_ROLLED)
    else:
        _go(s, RESET)


def _damage_income_rolled(s: GameState) -> None:
    """On 1 or 6 the income counter, city or village is destroyed (to the cup)."""
    if hooks.damage_destroys(s, dice.table(dice.take(s, dice.DAMAGE)[0])):  # 1 or 6 (R21.15 Vandal)
        to_cup(s, int(s.hex_income[s.frame(Battle).hex]))
    _go(s, RESET)


def _reset(s: GameState) -> None:
    """R13.10 steps 3-6: damage healed, bluff check, creatures face down, placement."""
    b = s.frame(Battle)
    hx, kind, won = b.hex, b.kind, b.winner
    s.hex_fort_damage[hx] = 0
    here = (s.thing_place == BOARD) & (s.thing_hex == hx)
    s.thing_damage[here] = 0
    s.hero_damage[:] = 0
    remove_revealed_bluffs(s)
    players = here & (s.thing_owner != NEUTRAL) & _IS_CREATURE[:s.n_things] & (s.thing_place == BOARD)
    s.thing_face_up[players] = False
    if kind == EXPLORATION and won < 0 and not B.active(s, NEUTRAL, hx):
        leftovers_to_cup(s, hx)  # R12.4.3 / RD6.3
    check_eliminations(s)
    if s.game_over:
        return
    if kind in (OWNED, EXPLORATION) and won >= 0 and won != NEUTRAL and s.hex_owner[hx] == won:
        _go(s, PLACE)
        begin_placement(s, won, only_hex=hx)  # R13.11.2
        return
    _go(s, DONE)


def loot(s: GameState, hx: int, player: int) -> None:
    """R12.2.7 / RD6.2: the explorer takes the treasures and unused magic items behind the screen."""
    kinds = (s.cat.THING_KIND == TREASURE) | (s.cat.THING_KIND == MAGIC)
    for c in np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & kinds & ~s.thing_in_play):
        s.thing_place[c], s.thing_owner[c], s.thing_hex[c] = SCREEN, player, -1
        s.thing_face_up[c] = False
        s.thing_public[c] = False


def _place(s: GameState) -> None:
    _go(s, DONE)


def _done(s: GameState) -> None:
    s.frame(Battle).done = True


STAGES = {
    START: _start, WINDOW: _window, FIREWALL: _firewall, PREHERO: _prehero, WARLORD: _warlord,
    WARLORD_ROLL: _warlord_roll, ROUND: _round, BEARERS: _bearers, TARGETS: _targets, STEP: _step,
    STEP_PRE: _step_pre, DISPEL_WAIT: _dispel_wait, ROLL: _roll, HITS: _hits, MARKSMAN_PLACE: _marksman_place,
    ASSIGN: _assign, SAVE: _save, REMOVE: _remove, RETREAT: _retreat, EXCESS: _excess, END: _end,
    DAMAGE_FORT: _damage_fort, DAMAGE_FORT_ROLLED: _damage_fort_rolled, DAMAGE_INCOME: _damage_income,
    DAMAGE_INCOME_ROLLED: _damage_income_rolled, RESET: _reset, PLACE: _place, DONE: _done,
}

DECISIONS = {
    **I.DECISIONS,
    D.WARLORD: (I.legal_warlord, apply_warlord),
    D.TARGET: (legal_target, apply_target),
    D.MARKSMAN_HIT: (legal_marksman_hit, apply_marksman_hit),
    D.ASSIGN_HIT: (legal_assign, apply_assign),
    D.RETREAT: (legal_retreat, apply_retreat),
    D.RETREAT_EXCESS: (legal_excess, apply_excess),
}

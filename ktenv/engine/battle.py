"""R13 battles: reveal, the item windows and heroes before the first round, rounds of magic /
ranged / melee steps, hits assigned one at a time by their owners, retreats, and what follows a
battle (R13.10). Sides and values: `battle_sides`; items and heroes: `battle_items`.

The battle lives in `s.reg` under `b_*` keys so that it can stop at any decision, be saved and
resume. `begin()` sets it up; the Combat phase calls `run()` until `b_done`.
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CREATURE, MAGIC, NEUTRAL, NOBODY, SCREEN, STACK_LIMIT, TREASURE
from ..state import GameState
from . import battle_items as I
from . import battle_sides as B
from . import decisions as D
from . import dice, powers, reactions
from .actions import PASS, ActionLayout
from .common import retreat_overflow, to_cup, used_up
from .conquest import conquer, leftovers_to_cup, reduce_fort
from .placement_turn import begin_placement
from .support import lose_hero, remove_revealed_bluffs
from .victory import check_eliminations

OWNED, EXPLORATION, CONTEST = range(3)  # kinds of battle
(START, WINDOW, FIREWALL, PREHERO, WARLORD, WARLORD_ROLL, ROUND, BEARERS, TARGETS, STEP, STEP_PRE, DISPEL_WAIT,
 ROLL, HITS, MARKSMAN_PLACE, ASSIGN, SAVE, REMOVE, RETREAT, EXCESS, END, DAMAGE_FORT, DAMAGE_FORT_ROLLED,
 DAMAGE_INCOME, DAMAGE_INCOME_ROLLED, RESET, PLACE, DONE) = range(28)
NO_HIT_LIMIT = 50  # R13.9.6 / RD7.4
_IS_CREATURE = cat.THING_KIND == CREATURE


def _layout(s: GameState) -> ActionLayout:
    from .machine import layout

    return layout(s)


def begin(s: GameState, hx: int, kind: int, attacker: int, sides: list[int], defender_side: int,
          neutral_controller: int = NOBODY) -> None:
    """Start a battle in `hx`; `sides` are the players (and NEUTRAL) with counters in it."""
    turn = s.turn_order()
    start = turn.index(defender_side) + 1 if defender_side in turn else turn.index(attacker)
    rotated = [turn[(start + i) % len(turn)] for i in range(len(turn))]
    attackers = [p for p in rotated if p in sides and p != defender_side]
    battle_order = attackers + ([defender_side] if defender_side in sides else [])
    for key in [k for k in s.reg if k.startswith("b_")]:
        del s.reg[key]
    s.reg.update(b_hex=hx, b_kind=kind, b_def=defender_side, b_att=attacker, b_ctrl=neutral_controller,
                 b_round=0, b_stage=START, b_nohit=0, b_step=B.MAGIC_STEP, b_order_n=len(battle_order))
    for i, side in enumerate(battle_order):
        s.reg[f"b_order_{i}"] = side
    s.stats["battles"] += 1


def run(s: GameState) -> None:
    STAGES[s.reg["b_stage"]](s)


def _go(s: GameState, stage: int, idx: int = 0) -> None:
    s.reg["b_stage"], s.reg["b_idx"] = stage, idx


def _open_window(s: GameState, kind: int, after: int) -> None:
    s.reg.update(b_win=kind, b_widx=0, b_after=after)
    _go(s, WINDOW)


# ----- the start (R13.2) -----

def _start(s: GameState) -> None:
    """Reveal every creature of the player sides; bluff check; the opening window."""
    if powers.battle_start(s):  # R21.11 Gambler's stake first
        return
    hx = s.reg["b_hex"]
    for side in B.order(s):
        ids = B.creatures(s, side, hx)
        s.thing_face_up[ids] = True
        s.thing_public[ids] = True
    remove_revealed_bluffs(s)
    s.reg["b_started"] = 1
    if _ended(s):
        _go(s, END)
    else:
        _open_window(s, I.OPENING, PREHERO)


def _window(s: GameState) -> None:
    """R18.1: sides in battle order play items or pass; each played item meets its reactions."""
    lay = _layout(s)
    if "b_item" in s.reg:
        outcome = I.resolve(s, lay)
        if outcome == "firewall":
            _go(s, FIREWALL)
        elif outcome == "bearer":
            side = s.reg["b_side"]
            if side == NEUTRAL and s.cfg.neutral_control == "policy":  # RD1.6: the strongest bears it
                ids = B.creatures(s, side, s.reg["b_hex"])
                s.thing_bearer[s.reg.pop("b_bear")] = int(ids[np.argmax(cat.THING_COMBAT[ids])])
            else:
                s.decision, s.actor = D.ITEM_BEARER, B.controller(s, side)
        elif outcome == "dust":  # C.1: the chosen attacking side must retreat at once
            side = s.reg.pop("b_dust")
            s.reg.update(b_force_side=side, b_side=side, b_return=WINDOW)
            s.decision, s.actor = D.RETREAT, side
        return
    if not I.window(s, lay):
        _go(s, s.reg["b_after"])


def _firewall(s: GameState) -> None:
    I.set_firewall(s)
    _go(s, WINDOW)


def _prehero(s: GameState) -> None:
    """R13.2 step 4: Baron and Grand Duke, then the Warlord; then bluff and end checks."""
    I.wall_breakers(s)
    _go(s, WARLORD)


def _warlord(s: GameState) -> None:
    if not s.reg.get("b_warlord") and I.warlord_ready(s):
        s.reg["b_warlord"] = 1
        s.decision, s.actor = D.WARLORD, int(s.hero_owner[I.WARLORD])
        return
    remove_revealed_bluffs(s)
    _go(s, END if _ended(s) else ROUND)


def _warlord_roll(s: GameState) -> None:
    I.warlord_roll(s)
    _go(s, WARLORD)


def apply_warlord(s: GameState, lay: ActionLayout, action: int) -> None:
    I.apply_warlord(s, lay, action)
    if "b_turncoat" in s.reg:
        _go(s, WARLORD_ROLL)


# ----- rounds and steps (R13.3) -----

def _round(s: GameState) -> None:
    s.reg["b_round"] += 1
    s.reg["b_hitsround"] = 0
    for key in [k for k in s.reg if k.startswith(("b_bore", "b_parried", "b_target"))
                or (k.startswith("b_tsave") and s.cfg.talisman_save_scope == "round")]:
        del s.reg[key]
    s.reg["b_multi"] = int(len(B.active_sides(s)) >= 3)
    _go(s, BEARERS)


def _bearers(s: GameState) -> None:
    if I.bearer_needed(s):
        return
    _go(s, TARGETS)


def _targets(s: GameState) -> None:
    """R13.12: each side names its target for the round (secret until all have chosen, RD7.7)."""
    live = B.active_sides(s)
    idx = s.reg["b_idx"]
    if not s.reg["b_multi"] or idx >= len(live):
        s.reg["b_step"] = B.MAGIC_STEP
        _open_window(s, I.ROUND_START, STEP)
        return
    side = live[idx]
    s.reg["b_side"] = side
    s.decision, s.actor = D.TARGET, B.controller(s, side)


def legal_target(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """PLAYER actions are relative: PLAYER+i is the player i seats to the actor's left."""
    side = s.reg["b_side"]
    for enemy in B.active_sides(s):
        if enemy != side and enemy != NEUTRAL:
            mask[lay.player + (enemy - side) % s.n_players] = 1


def apply_target(s: GameState, lay: ActionLayout, action: int) -> None:
    side = s.reg["b_side"]
    s.reg[f"b_target{side}"] = (side + action - lay.player) % s.n_players
    s.reg["b_idx"] += 1
    s.decision = D.NONE


def target_of(s: GameState, side: int) -> int:
    if s.reg.get("b_multi"):
        return s.reg.get(f"b_target{side}", -1)
    others = [o for o in B.active_sides(s) if o != side]
    return others[0] if others else -1


def _step(s: GameState) -> None:
    """Start of a step: the step's item window, then Dispel Magic / the Marksman's choice."""
    if s.cfg.talisman_save_scope == "step":
        for key in [k for k in s.reg if k.startswith("b_tsave")]:
            del s.reg[key]
    s.reg["b_dchecked"] = 0
    _open_window(s, I.STEP_START, STEP_PRE)


def _step_pre(s: GameState) -> None:
    step = s.reg["b_step"]
    if step == B.MAGIC_STEP:
        for i, side in enumerate(B.active_sides(s)):
            if s.reg["b_dchecked"] >> i & 1 or not I.magic_attackers(s, side):
                continue
            s.reg["b_dchecked"] |= 1 << i
            s.reg["b_dside"] = side
            reactions.open_round(s, reactions.MAGIC_STEP, B.controller(s, side))  # C.8
            _go(s, DISPEL_WAIT)
            return
    if step == B.RANGED_STEP and "b_marksman_asked" not in s.reg:
        s.reg["b_marksman_asked"] = 1
        side = I.marksman_side(s)
        if side >= 0 and side in B.active_sides(s):
            s.decision, s.actor = D.MARKSMAN, side
            return
    s.reg.pop("b_marksman_asked", None)
    _go(s, ROLL)


def _dispel_wait(s: GameState) -> None:
    cancelled, _, _ = reactions.take_result(s)
    if cancelled:  # C.8: for the rest of the battle that side's magic attacks in the melee step
        s.reg["b_dispelled"] = s.reg.get("b_dispelled", 0) | 1 << s.reg["b_dside"]
    _go(s, STEP_PRE)


def _roll(s: GameState) -> None:
    """R13.4.2: every side rolls all its dice of the step (one roll event per side, R18.5.1)."""
    live = B.active_sides(s)
    idx = s.reg["b_idx"]
    if idx == 0 and NEUTRAL in live:  # R12.4.2: neutrals that fought can never be bribed or retreat
        hx = s.reg["b_hex"]
        s.thing_fought[(s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)] = True
    if idx >= len(live):
        _go(s, HITS)
        return
    side = live[idx]
    n = sum(d for _, d, _ in B.attackers(s, side, s.reg["b_step"]))
    dice.roll(s, dice.BATTLE + side, n)
    powers.after_battle_roll(s, side, n)  # R21.5 Lucky: may re-roll one own die
    s.reg["b_idx"] = idx + 1


def _hits(s: GameState) -> None:
    """R13.4.4: count the hits of every side, then they are assigned (Marksman's first)."""
    step = s.reg["b_step"]
    received: dict[int, int] = {}
    for side in B.active_sides(s):
        rolled = dice.take(s, dice.BATTLE + side) if f"dice{dice.BATTLE + side}" in s.reg else []
        target = target_of(s, side)
        i = 0
        for value, n, tag in B.attackers(s, side, step):
            hits = sum(1 for d in rolled[i:i + n] if d <= value)  # R18.5.2: modified dice as they are
            i += n
            if not hits or target < 0:
                continue
            if tag >= 0:
                s.reg["b_mhits"] = s.reg.get("b_mhits", 0) + hits
                s.reg["b_mtarget"], s.reg["b_mside"] = target, side
            else:
                received[target] = received.get(target, 0) + hits
    if step == B.RANGED_STEP:
        for side in list(received):
            if B.has_golem(s, side):  # C.7 / RT.18: one ranged hit fewer against the Golem's side
                received[side] -= 1
    powers.amoeba(s, received)  # R21.1 Amoeba: the first hit of a round is ignored
    for side in B.order(s):
        s.reg[f"b_hits{side}"] = max(0, received.get(side, 0))
    if sum(received.values()) or s.reg.get("b_mhits"):
        s.reg["b_hitsround"] = 1
    s.reg.pop("b_marksman", None)
    _go(s, MARKSMAN_PLACE)


def _marksman_place(s: GameState) -> None:
    """A.6 / RD10.4: a value-2 hit is placed by the Marksman's owner, before the others."""
    lay = _layout(s)
    if s.reg.get("b_mhits", 0) > 0 and _targets_of(s, s.reg["b_mtarget"], lay):
        s.reg["b_side"] = s.reg["b_mtarget"]
        s.decision, s.actor = D.MARKSMAN_HIT, s.reg["b_mside"]
        return
    for key in ("b_mhits", "b_mtarget", "b_mside"):
        s.reg.pop(key, None)
    _go(s, ASSIGN)


def _targets_of(s: GameState, side: int, lay: ActionLayout) -> list[int]:
    return B.hit_targets(s, side, lay.hex, lay.thing, lay.hero)


def legal_marksman_hit(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[_targets_of(s, s.reg["b_side"], lay)] = 1


def apply_marksman_hit(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    s.reg["b_mhits"] -= 1
    _hit(s, lay, s.reg["b_side"], action, MARKSMAN_PLACE)


def _assign(s: GameState) -> None:
    """R13.6: receiving sides in battle order assign their hits one at a time."""
    sides = B.order(s)
    lay = _layout(s)
    idx = s.reg["b_idx"]
    while idx < len(sides):
        side = sides[idx]
        if s.reg.get(f"b_hits{side}", 0) > 0 and _targets_of(s, side, lay):
            s.reg["b_side"], s.reg["b_idx"] = side, idx
            if side == NEUTRAL and s.cfg.neutral_control == "policy":
                s.reg[f"b_hits{side}"] -= 1
                _hit(s, lay, side, _policy_hit(s, lay), ASSIGN)
                return
            s.decision, s.actor = D.ASSIGN_HIT, B.controller(s, side)
            return
        s.reg[f"b_hits{side}"] = 0  # hits beyond the side's capacity are lost
        idx += 1
    _go(s, REMOVE)


def _policy_hit(s: GameState, lay: ActionLayout) -> int:
    """RD1.6 fixed rule for neutrals: lowest-value creature, then village, then city."""
    def rank(a: int) -> tuple[int, int]:
        c = a - lay.thing
        return (0 if cat.THING_KIND[c] == CREATURE else 1, int(cat.THING_COMBAT[c]))
    return min(_targets_of(s, s.reg["b_side"], lay), key=rank)


def legal_assign(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[_targets_of(s, s.reg["b_side"], lay)] = 1


def apply_assign(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    s.reg[f"b_hits{s.reg['b_side']}"] -= 1
    _hit(s, lay, s.reg["b_side"], action, ASSIGN)


def _hit(s: GameState, lay: ActionLayout, side: int, action: int, back: int) -> None:
    """One hit on one counter; the Swordmaster and the Talisman roll to save it first."""
    if I.save_roll_needed(s, lay, side, action):
        s.reg.update(b_save_side=side, b_save_act=action, b_return=back)
        dice.roll(s, dice.SAVE, 1)  # roll event (R18.5)
        _go(s, SAVE, s.reg.get("b_idx", 0))
        return
    _damage(s, lay, action)
    s.reg["b_stage"] = back


def _save(s: GameState) -> None:
    lay = _layout(s)
    side, action = s.reg.pop("b_save_side"), s.reg.pop("b_save_act")
    if not I.apply_save(s, lay, side, action):
        _damage(s, lay, action)
    s.reg["b_stage"] = s.reg.pop("b_return")


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
    hx = s.reg["b_hex"]
    here = (s.thing_place == BOARD) & (s.thing_hex == hx)
    for c in np.flatnonzero(here & _IS_CREATURE[:s.n_things] & (s.thing_damage > 0)):
        powers.eliminate(s, int(c))  # to the cup (R21.4 Brute: Charge creatures to the screen)
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
    elif s.reg["b_step"] < B.MELEE_STEP:
        s.reg["b_step"] += 1
        _go(s, STEP)
    else:
        _count_hitless(s)
        _go(s, RETREAT)


def _count_hitless(s: GameState) -> None:
    """R13.9.6: count the rounds in a row in which nobody scored a hit."""
    if s.reg["b_hitsround"]:
        s.reg["b_nohit"] = 0
    else:
        s.reg["b_nohit"] += 1
        if s.reg["b_nohit"] >= NO_HIT_LIMIT:
            s.reg["b_force"] = 1  # RD7.4: the attackers leave as if they had retreated


# ----- retreat (R13.8) -----

def _retreat(s: GameState) -> None:
    """Attackers in battle order, then the defender, may retreat; the battle may end at any time."""
    sides = B.order(s)
    hx = s.reg["b_hex"]
    idx = s.reg["b_idx"]
    forced = s.reg.get("b_force", 0)
    while idx < len(sides):
        if _ended(s):
            _go(s, END)
            return
        side = sides[idx]
        army = B.creatures(s, side, hx).size + B.heroes(s, side, hx).size
        is_attacker = side != B.defender(s)
        if army and side != NEUTRAL and (not forced or is_attacker):
            if B.retreat_hexes(s, side).size or powers.can_fly_away(s, side):  # R21.2 Aviator's flyer
                s.reg.update(b_side=side, b_idx=idx, b_return=RETREAT)
                s.decision, s.actor = D.RETREAT, side
                return
            if forced:
                _eliminate_side(s, side)  # RD7.4: attackers that cannot retreat are eliminated
        idx += 1
    s.reg.pop("b_force", None)
    _go(s, END if _ended(s) else ROUND)


def legal_retreat(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + B.retreat_hexes(s, s.reg["b_side"])] = 1
    if not s.reg.get("b_force", 0) and "b_force_side" not in s.reg:
        mask[PASS] = 1
    powers.retreat_options(s, lay, mask)  # R21.2: THING, the Aviator's flyer alone


def apply_retreat(s: GameState, lay: ActionLayout, action: int) -> None:
    if powers.retreat_alone(s, lay, action):  # R21.2 Aviator
        return
    side = s.reg["b_side"]
    s.decision = D.NONE
    back = s.reg.pop("b_return", RETREAT)
    if s.reg.pop("b_force_side", None) is None:
        s.reg["b_idx"] += 1
    s.reg["b_stage"] = back
    if action == PASS:
        return
    dest = action - lay.hex
    hx = s.reg["b_hex"]
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
        s.reg.update(ex_hex=dest, ex_side=side, b_exback=back)
        retreat_overflow(s, True)
        s.reg["b_stage"] = EXCESS


def _excess(s: GameState) -> None:
    side, dest = s.reg["ex_side"], s.reg["ex_hex"]
    if s.army_counts(side)[dest] <= STACK_LIMIT:
        for key in ("ex_hex", "ex_side"):
            s.reg.pop(key, None)
        retreat_overflow(s, False)
        s.reg["b_stage"] = s.reg.pop("b_exback")
        return
    s.decision, s.actor = D.RETREAT_EXCESS, side


def legal_excess(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """Counters over the limit in hex `ex_hex` (after a retreat, R13.8.4, or a move, RP-5.9)."""
    side, dest = s.reg["ex_side"], s.reg["ex_hex"]
    mask[lay.thing + B.creatures(s, side, dest)] = 1
    mask[lay.hero + B.heroes(s, side, dest)] = 1


def apply_excess(s: GameState, lay: ActionLayout, action: int) -> None:
    """R13.8.4: the player chooses which counters over the limit are eliminated."""
    if action >= lay.hero:
        lose_hero(s, action - lay.hero)
    else:
        powers.eliminate(s, action - lay.thing)  # R21.4
    s.decision = D.NONE


def _eliminate_side(s: GameState, side: int) -> None:
    hx = s.reg["b_hex"]
    for c in B.creatures(s, side, hx):
        powers.eliminate(s, int(c))  # R21.4
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
    if s.reg["b_kind"] == CONTEST:
        return len(live) <= 1
    return B.defender(s) not in live and len(attackers) == 1


def winner(s: GameState) -> int:
    """The side holding the field: the one attacker left if the defender is down, else -1."""
    live = B.active_sides(s)
    attackers = [side for side in live if side != B.defender(s)]
    if s.reg["b_kind"] == CONTEST:
        return live[0] if len(live) == 1 else -1
    if B.defender(s) not in live and len(attackers) == 1:
        return attackers[0]
    return -1


def _end(s: GameState) -> None:
    """R13.10 step 1: ownership (and the explorer's loot); the battle items go home."""
    hx, kind = s.reg["b_hex"], s.reg["b_kind"]
    won = winner(s)
    s.reg["b_winner"] = won
    powers.battle_end(s, won)  # R21.11 the Gambler's stakes
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
    if s.hex_fort[s.reg["b_hex"]] > 0:
        dice.roll(s, dice.DAMAGE, 1)  # roll event (R18.5)
        _go(s, DAMAGE_FORT_ROLLED)
    else:
        _go(s, DAMAGE_INCOME)


def _damage_fort_rolled(s: GameState) -> None:
    hx = s.reg["b_hex"]
    roll = dice.table(dice.take(s, dice.DAMAGE)[0])
    citadel_safe = not (s.cfg.victory == "unique_b" and s.cfg.unique_b_vulnerable == "combat_and_disaster")
    if powers.damage_destroys(s, roll) and not (s.hex_fort[hx] == 4 and citadel_safe):  # 1 or 6 (R21.15)
        reduce_fort(s, hx)
    _go(s, DAMAGE_INCOME)


def _damage_income(s: GameState) -> None:
    if s.hex_income[s.reg["b_hex"]] >= 0:
        dice.roll(s, dice.DAMAGE, 1)  # roll event (R18.5)
        _go(s, DAMAGE_INCOME_ROLLED)
    else:
        _go(s, RESET)


def _damage_income_rolled(s: GameState) -> None:
    """On 1 or 6 the income counter, city or village is destroyed (to the cup)."""
    if powers.damage_destroys(s, dice.table(dice.take(s, dice.DAMAGE)[0])):  # 1 or 6 (R21.15 Vandal)
        to_cup(s, int(s.hex_income[s.reg["b_hex"]]))
    _go(s, RESET)


def _reset(s: GameState) -> None:
    """R13.10 steps 3-6: damage healed, bluff check, creatures face down, placement."""
    hx, kind, won = s.reg["b_hex"], s.reg["b_kind"], s.reg["b_winner"]
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
    s.reg["b_done"] = 1


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

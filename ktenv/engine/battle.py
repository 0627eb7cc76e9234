"""R13 battles: sides, reveal, rounds of magic / ranged / melee steps, hits assigned one at a
time by their owners, retreats, the end of a battle and what follows it (R13.10).

The battle lives in `s.reg` under `b_*` keys so that a battle can stop at any decision, be
saved, and resume. `begin()` sets it up; the Combat phase calls `run()` until `b_done`.
Engine III acts at the marked hooks (opening window, pre-battle heroes, rolls, hits, retreat).
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CITY, CREATURE, MAGIC, NEUTRAL, NOBODY, SCREEN, STACK_LIMIT, TREASURE, VILLAGE
from ..state import GameState
from . import decisions as D
from .actions import PASS, ActionLayout
from .common import to_cup
from .conquest import conquer, damage_rolls, leftovers_to_cup
from .placement_turn import begin_placement
from .support import lose_hero, remove_revealed_bluffs
from .victory import check_eliminations

# Kinds of battle.
OWNED, EXPLORATION, CONTEST = range(3)
# Steps of a round (R13.3) and stages of the procedure.
MAGIC_STEP, RANGED_STEP, MELEE_STEP = range(3)
START, ROUND, TARGETS, ROLL, ASSIGN, REMOVE, RETREAT, EXCESS, END, PLACE, DONE = range(11)
NO_HIT_LIMIT = 50  # R13.9.6 / RD7.4
FORT_STEP = (None, MELEE_STEP, MELEE_STEP, RANGED_STEP, MAGIC_STEP)  # R13.4.1, by fort level

_KIND = cat.THING_KIND
_IS_CREATURE = _KIND == CREATURE
_STEP_OF_THING = np.where(cat.THING_MAGIC, MAGIC_STEP, np.where(cat.THING_RANGED, RANGED_STEP, MELEE_STEP))
_STEP_OF_HERO = np.where(cat.HERO_MAGIC, MAGIC_STEP, np.where(cat.HERO_RANGED, RANGED_STEP, MELEE_STEP))


# ----- small register helpers: lists of sides stored as ints -----

def _get_list(s: GameState, name: str) -> list[int]:
    return [s.reg[f"{name}{i}"] for i in range(s.reg.get(f"{name}n", 0))]


def _set_list(s: GameState, name: str, values: list[int]) -> None:
    for i in range(s.reg.get(f"{name}n", 0)):
        s.reg.pop(f"{name}{i}", None)
    s.reg[f"{name}n"] = len(values)
    for i, v in enumerate(values):
        s.reg[f"{name}{i}"] = int(v)


def order(s: GameState) -> list[int]:
    """Battle order (R12.1.6): attackers from the defender's left in turn order, then the defender."""
    return _get_list(s, "b_order_")


def defender(s: GameState) -> int:
    return s.reg["b_def"]


def controller(s: GameState, side: int) -> int:
    """Who decides for a side: its player, or the neutral controller (R12.2.3, RD1.6)."""
    return s.reg["b_ctrl"] if side == NEUTRAL else side


# ----- setting a battle up -----

def begin(s: GameState, hx: int, kind: int, attacker: int, sides: list[int], defender_side: int,
          neutral_controller: int = NOBODY) -> None:
    """Start a battle in `hx`; `sides` are the players (and NEUTRAL) with counters in it."""
    turn = s.turn_order()
    if defender_side in turn:  # attackers from the defender's left (R12.1.6)
        start = turn.index(defender_side) + 1
    else:
        start = turn.index(attacker)
    rotated = [turn[(start + i) % len(turn)] for i in range(len(turn))]
    attackers = [p for p in rotated if p in sides and p != defender_side]
    battle_order = attackers + ([defender_side] if defender_side in sides or defender_side == NEUTRAL
                                else [])
    for key in [k for k in s.reg if k.startswith("b_")]:
        del s.reg[key]
    s.reg.update(b_hex=hx, b_kind=kind, b_def=defender_side, b_att=attacker, b_ctrl=neutral_controller,
                 b_round=0, b_stage=START, b_nohit=0)
    _set_list(s, "b_order_", battle_order)
    s.stats["battles"] += 1


def run(s: GameState) -> None:
    STAGES[s.reg["b_stage"]](s)


# ----- who is in the battle -----

def creatures(s: GameState, side: int, hx: int) -> np.ndarray:
    return np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == side) & _IS_CREATURE)


def heroes(s: GameState, side: int, hx: int) -> np.ndarray:
    if side == NEUTRAL:
        return np.zeros(0, np.int64)
    return np.flatnonzero((s.hero_owner == side) & (s.hero_hex == hx))


def town(s: GameState, side: int, hx: int) -> int:
    """The side's city or village in the hex (a combat counter, R1.9.2), or -1."""
    c = int(s.hex_income[hx])
    if c >= 0 and _KIND[c] in (CITY, VILLAGE) and s.thing_owner[c] == side:
        return c
    return -1


def fort_value(s: GameState, side: int, hx: int) -> int:
    """Current value of the side's fort in the hex (0: none or neutralized, R13.5.2)."""
    if side == NEUTRAL or s.hex_owner[hx] != side:
        return 0
    return max(0, int(s.hex_fort[hx]) - int(s.hex_fort_damage[hx]))


def town_value(s: GameState, c: int) -> int:
    return max(0, int(cat.THING_COMBAT[c]) - int(s.thing_damage[c])) if c >= 0 else 0


def active(s: GameState, side: int, hx: int) -> bool:
    """R13.1.1: a side is active while it has a creature, hero or a standing fort, city or village."""
    return bool(creatures(s, side, hx).size or heroes(s, side, hx).size
                or fort_value(s, side, hx) or town_value(s, town(s, side, hx)))


def _active_sides(s: GameState) -> list[int]:
    hx = s.reg["b_hex"]
    return [side for side in order(s) if active(s, side, hx)]


# ----- stages -----

def _start(s: GameState) -> None:
    """R13.2: reveal every creature of the player sides; bluff check; (Engine III windows)."""
    hx = s.reg["b_hex"]
    for side in order(s):
        ids = creatures(s, side, hx)
        s.thing_face_up[ids] = True
        s.thing_public[ids] = True
    remove_revealed_bluffs(s)
    s.reg["b_started"] = 1
    _next(s, ROUND if not _ended(s) else END)


def _next(s: GameState, stage: int, idx: int = 0) -> None:
    s.reg["b_stage"] = stage
    s.reg["b_idx"] = idx


def _round(s: GameState) -> None:
    s.reg["b_round"] += 1
    s.reg["b_hitsround"] = 0
    live = _active_sides(s)
    s.reg["b_multi"] = int(len(live) >= 3)
    _next(s, TARGETS if len(live) >= 3 else ROLL)
    s.reg["b_step"] = MAGIC_STEP


def _targets(s: GameState) -> None:
    """R13.12: each side names its target for the round (secret until all have chosen, RD7.7)."""
    live = _active_sides(s)
    idx = s.reg["b_idx"]
    if idx >= len(live):
        _next(s, ROLL)
        return
    side = live[idx]
    s.reg["b_side"] = side
    s.decision, s.actor = D.TARGET, controller(s, side)


def legal_target(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """PLAYER actions are relative: PLAYER+i is the player i seats to the actor's left."""
    side = s.reg["b_side"]
    n = s.n_players
    for enemy in _active_sides(s):
        if enemy != side and enemy != NEUTRAL:
            mask[lay.player + (enemy - side) % n] = 1


def apply_target(s: GameState, lay: ActionLayout, action: int) -> None:
    side = s.reg["b_side"]
    s.reg[f"b_target{side}"] = (side + action - lay.player) % s.n_players
    s.reg["b_idx"] += 1
    s.decision = D.NONE


def _target_of(s: GameState, side: int) -> int:
    if s.reg.get("b_multi"):
        return s.reg.get(f"b_target{side}", -1)
    others = [o for o in _active_sides(s) if o != side]
    return others[0] if others else -1


def attack_values(s: GameState, side: int, step: int) -> list[tuple[int, int]]:
    """(effective value, dice) of every attacker of `side` in this step (R13.4.1-R13.4.3)."""
    hx = s.reg["b_hex"]
    penalty = 1 if s.cloud_hex == hx and s.hex_owner[hx] == side else 0  # B.10 black cloud
    out = []
    ids = creatures(s, side, hx)
    ids = ids[_STEP_OF_THING[ids] == step]
    for c in ids:
        dice = 2 if step == MELEE_STEP and cat.THING_CHARGE[c] else 1
        out.append((int(cat.THING_COMBAT[c]) - penalty, dice))
    for f in heroes(s, side, hx):
        if _STEP_OF_HERO[f] == step:
            dice = 2 if step == MELEE_STEP and cat.HERO_CHARGE[f] else 1
            out.append((int(cat.HERO_COMBAT[f]) - penalty, dice))
    if step == MELEE_STEP:
        value = town_value(s, town(s, side, hx))
        if value:
            out.append((value - penalty, 1))
    level = fort_value(s, side, hx)
    if level and FORT_STEP[int(s.hex_fort[hx])] == step:
        out.append((level - penalty, 1))
    return out


def _roll(s: GameState) -> None:
    """R13.4.2 / R13.4.4: every side rolls all its dice for the step, then hits are counted."""
    step = s.reg["b_step"]
    received: dict[int, int] = {}
    live = _active_sides(s)
    if NEUTRAL in live:  # R12.4.2: neutral defenders that fought can never be bribed or retreat
        hx = s.reg["b_hex"]
        s.thing_fought[(s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)] = True
    for side in live:
        hits = 0
        for value, dice in attack_values(s, side, step):
            for _ in range(dice):
                if s.rng.d6() <= value:  # R18.5.2: the die as rolled; value <= 0 never hits
                    hits += 1
        target = _target_of(s, side)
        if hits and target >= 0:
            received[target] = received.get(target, 0) + hits
    for side in order(s):
        s.reg[f"b_hits{side}"] = received.get(side, 0)
    if sum(received.values()):
        s.reg["b_hitsround"] = 1
    _next(s, ASSIGN)


def capacity_targets(s: GameState, side: int, lay: ActionLayout) -> list[int]:
    """Actions naming every counter of `side` that can still take a hit this step (R13.6.2)."""
    hx = s.reg["b_hex"]
    acts = []
    ids = creatures(s, side, hx)
    acts.extend(lay.thing + ids[s.thing_damage[ids] == 0])
    c = town(s, side, hx)
    if town_value(s, c):
        acts.append(lay.thing + c)
    hs = heroes(s, side, hx)
    acts.extend(lay.hero + hs[s.hero_damage[hs] == 0])
    if fort_value(s, side, hx):
        acts.append(lay.hex + hx)
    return [int(a) for a in acts]


def _assign(s: GameState) -> None:
    """R13.6: receiving sides in battle order assign their hits one at a time."""
    sides = order(s)
    lay = _layout(s)
    idx = s.reg["b_idx"]
    while idx < len(sides):
        side = sides[idx]
        if s.reg.get(f"b_hits{side}", 0) > 0 and capacity_targets(s, side, lay):
            s.reg["b_side"] = side
            s.reg["b_idx"] = idx
            if side == NEUTRAL and s.cfg.neutral_control == "policy":
                _take_hit(s, lay, _policy_hit(s, lay))
                return
            s.decision, s.actor = D.ASSIGN_HIT, controller(s, side)
            return
        s.reg[f"b_hits{side}"] = 0  # hits beyond the side's capacity are lost
        idx += 1
    _next(s, REMOVE)


def _policy_hit(s: GameState, lay: ActionLayout) -> int:
    """RD1.6 fixed rule for neutrals: lowest-value creature, then village, then city."""
    options = capacity_targets(s, s.reg["b_side"], lay)
    return min(options, key=lambda a: (1, cat.THING_COMBAT[a - lay.thing]) if
               cat.THING_KIND[a - lay.thing] != CREATURE else (0, cat.THING_COMBAT[a - lay.thing]))


def legal_assign(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[capacity_targets(s, s.reg["b_side"], lay)] = 1


def apply_assign(s: GameState, lay: ActionLayout, action: int) -> None:
    _take_hit(s, lay, action)
    s.decision = D.NONE


def _take_hit(s: GameState, lay: ActionLayout, action: int) -> None:
    """One hit on one counter (Engine III: saving rolls of the Swordmaster and Talisman here)."""
    side = s.reg["b_side"]
    if lay.hex <= action < lay.thing:
        s.hex_fort_damage[action - lay.hex] += 1
    elif lay.thing <= action < lay.hero:
        s.thing_damage[action - lay.thing] += 1
    else:
        s.hero_damage[action - lay.hero] = 1
    s.reg[f"b_hits{side}"] -= 1


def _remove(s: GameState) -> None:
    """End of a step: hit creatures to the cup, hit heroes to the pool; bluff and end checks."""
    hx = s.reg["b_hex"]
    dead = np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & _IS_CREATURE & (s.thing_damage > 0))
    for c in dead:
        to_cup(s, int(c))
        s.thing_damage[c] = 0
    for f in np.flatnonzero(s.hero_damage > 0):
        s.hero_damage[f] = 0
        lose_hero(s, int(f))
    remove_revealed_bluffs(s)
    if _ended(s):
        _next(s, END)
    elif s.reg["b_step"] < MELEE_STEP:
        s.reg["b_step"] += 1
        _next(s, ROLL)
    else:
        _count_hitless(s)
        _next(s, RETREAT)


def _count_hitless(s: GameState) -> None:
    """R13.9.6: count the rounds in a row in which nobody scored a hit."""
    if s.reg["b_hitsround"]:
        s.reg["b_nohit"] = 0
    else:
        s.reg["b_nohit"] += 1
        if s.reg["b_nohit"] >= NO_HIT_LIMIT:
            s.reg["b_force"] = 1  # RD7.4: the attackers leave as if they had retreated


# ----- retreat (R13.8) -----

def retreat_hexes(s: GameState, side: int) -> np.ndarray:
    """Adjacent hexes the side owns that hold no enemy counters (R13.8.3)."""
    hx = s.reg["b_hex"]
    if side == NEUTRAL:
        return np.zeros(0, np.int64)  # R13.8.5: neutral defenders never retreat
    around = s.geo.neighbours[hx]
    around = around[around >= 0]
    around = around[s.hex_owner[around] == side]
    if around.size == 0:
        return around
    enemy_here = (s.thing_place == BOARD) & _IS_CREATURE & (s.thing_owner != side)
    blocked = np.zeros(s.geo.n_hexes, bool)
    blocked[s.thing_hex[enemy_here]] = True
    foes = (s.hero_owner != side) & (s.hero_owner != NOBODY)
    blocked[s.hero_hex[foes]] = True
    return around[~blocked[around]]


def _retreat(s: GameState) -> None:
    """Attackers in battle order, then the defender, may retreat; the battle may end at any time."""
    sides = order(s)
    hx = s.reg["b_hex"]
    idx = s.reg["b_idx"]
    forced = s.reg.get("b_force", 0)
    while idx < len(sides):
        if _ended(s):
            _next(s, END)
            return
        side = sides[idx]
        army = creatures(s, side, hx).size + heroes(s, side, hx).size
        is_attacker = side != defender(s)
        if army and side != NEUTRAL and (not forced or is_attacker):
            hexes = retreat_hexes(s, side)
            if hexes.size:
                s.reg["b_side"], s.reg["b_idx"] = side, idx
                s.decision, s.actor = D.RETREAT, side
                return
            if forced:
                _eliminate_side(s, side)  # RD7.4: attackers that cannot retreat are eliminated
        idx += 1
    s.reg.pop("b_force", None)
    _next(s, END if _ended(s) else ROUND)


def legal_retreat(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + retreat_hexes(s, s.reg["b_side"])] = 1
    if not s.reg.get("b_force", 0):
        mask[PASS] = 1


def apply_retreat(s: GameState, lay: ActionLayout, action: int) -> None:
    side = s.reg["b_side"]
    s.decision = D.NONE
    s.reg["b_idx"] += 1
    if action == PASS:
        return
    dest = action - lay.hex
    hx = s.reg["b_hex"]
    ids = creatures(s, side, hx)
    s.thing_hex[ids] = dest
    s.thing_face_up[ids] = False  # R13.8.6: face down again (their identities stay known, RI.4)
    s.hero_hex[heroes(s, side, hx)] = dest
    if s.army_counts(side)[dest] > STACK_LIMIT and s.hex_fort[dest] != 4:
        s.reg["b_dest"] = dest
        s.reg["stack_overflow_ok"] = 1  # until the excess is eliminated (R13.8.4)
        _next(s, EXCESS, s.reg["b_idx"])


def _excess(s: GameState) -> None:
    side, dest = s.reg["b_side"], s.reg["b_dest"]
    if s.army_counts(side)[dest] <= STACK_LIMIT:
        s.reg.pop("b_dest")
        s.reg.pop("stack_overflow_ok", None)
        _next(s, RETREAT, s.reg["b_idx"])
        return
    s.decision, s.actor = D.RETREAT_EXCESS, side


def legal_excess(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    side, dest = s.reg["b_side"], s.reg["b_dest"]
    mask[lay.thing + creatures(s, side, dest)] = 1
    mask[lay.hero + heroes(s, side, dest)] = 1


def apply_excess(s: GameState, lay: ActionLayout, action: int) -> None:
    """R13.8.4: the player chooses which counters over the limit are eliminated."""
    if action >= lay.hero:
        lose_hero(s, action - lay.hero)
    else:
        to_cup(s, action - lay.thing)
    s.decision = D.NONE


def _eliminate_side(s: GameState, side: int) -> None:
    hx = s.reg["b_hex"]
    for c in creatures(s, side, hx):
        to_cup(s, int(c))
    for f in heroes(s, side, hx):
        lose_hero(s, int(f))


# ----- the end of a battle (R13.9, R13.10) -----

def _ended(s: GameState) -> bool:
    """R13.9.1-R13.9.3: at most one side active, or the defender down and one attacker left."""
    hx = s.reg["b_hex"]
    live = [side for side in order(s) if active(s, side, hx)]
    attackers = [side for side in live if side != defender(s)]
    if not attackers:
        return True
    if s.reg["b_kind"] == CONTEST:
        return len(live) <= 1
    return defender(s) not in live and len(attackers) == 1


def winner(s: GameState) -> int:
    """The side holding the field: the one attacker left if the defender is down, else -1."""
    hx = s.reg["b_hex"]
    live = [side for side in order(s) if active(s, side, hx)]
    attackers = [side for side in live if side != defender(s)]
    if s.reg["b_kind"] == CONTEST:
        return live[0] if len(live) == 1 else -1
    if defender(s) not in live and len(attackers) == 1:
        return attackers[0]
    return -1


def _end(s: GameState) -> None:
    """R13.10 in order: ownership, damage rolls, reset, (items), bluff check and face down."""
    hx, kind = s.reg["b_hex"], s.reg["b_kind"]
    won = winner(s)
    s.reg["b_winner"] = won
    if kind in (OWNED, EXPLORATION) and won >= 0 and won != NEUTRAL:
        conquer(s, hx, won)
        if kind == EXPLORATION:
            loot(s, hx, won)
    if kind != CONTEST and s.reg.get("b_started") and not s.game_over:
        damage_rolls(s, hx)
    s.hex_fort_damage[hx] = 0
    here = (s.thing_place == BOARD) & (s.thing_hex == hx)
    s.thing_damage[here] = 0
    s.hero_damage[:] = 0
    remove_revealed_bluffs(s)
    players_here = here & (s.thing_owner != NEUTRAL) & _IS_CREATURE & (s.thing_place == BOARD)
    s.thing_face_up[players_here] = False
    if kind == EXPLORATION and won < 0:
        _after_failed_exploration(s, hx)
    check_eliminations(s)
    if s.game_over:
        return
    if kind in (OWNED, EXPLORATION) and won >= 0 and won != NEUTRAL and s.hex_owner[hx] == won:
        s.reg["b_stage"] = PLACE
        begin_placement(s, won, only_hex=hx)  # R13.11.2
        return
    s.reg["b_stage"] = DONE


def loot(s: GameState, hx: int, player: int) -> None:
    """R12.2.7 / RD6.2: the explorer takes the treasures and unused magic items behind the screen."""
    kinds = (_KIND == TREASURE) | (_KIND == MAGIC)
    for c in np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & kinds):
        s.thing_place[c] = SCREEN
        s.thing_owner[c] = player
        s.thing_hex[c] = -1
        s.thing_face_up[c] = False
        s.thing_public[c] = False


def _after_failed_exploration(s: GameState, hx: int) -> None:
    """R12.4: survivors stay face up; an emptied hex sends its leftovers to the cup (RD6.3)."""
    if not active(s, NEUTRAL, hx):
        leftovers_to_cup(s, hx)


def _place(s: GameState) -> None:
    s.reg["b_stage"] = DONE


def _done(s: GameState) -> None:
    s.reg["b_done"] = 1


def _layout(s: GameState) -> ActionLayout:
    from .machine import layout

    return layout(s)


STAGES = {START: _start, ROUND: _round, TARGETS: _targets, ROLL: _roll, ASSIGN: _assign, REMOVE: _remove,
          RETREAT: _retreat, EXCESS: _excess, END: _end, PLACE: _place, DONE: _done}

DECISIONS = {
    D.TARGET: (legal_target, apply_target),
    D.ASSIGN_HIT: (legal_assign, apply_assign),
    D.RETREAT: (legal_retreat, apply_retreat),
    D.RETREAT_EXCESS: (legal_excess, apply_excess),
}

"""Who fights in a battle and with what: the sides' counters, their values, the step each one
attacks in, and the counters that can take a hit (R13.1, R13.4, R13.5, C.5, C.7, C.10, C.11).

C++ twin: native/src/engine/battle_sides.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CITY, CREATURE, NEUTRAL, NOBODY, VILLAGE
from ..procedures import BalloonFlight, Battle
from ..state import GameState
from . import hooks

MAGIC_STEP, RANGED_STEP, MELEE_STEP = range(3)
FORT_STEP = (None, MELEE_STEP, MELEE_STEP, RANGED_STEP, MAGIC_STEP)  # R13.4.1, by fort level

FIREWALL = cat.MAGIC_ID["Firewall"]
GOLEM = cat.MAGIC_ID["Golem"]
BOW = cat.MAGIC_ID["Magic Bow"]
SWORD = cat.MAGIC_ID["Magic Sword"]
TALISMAN = cat.MAGIC_ID["Talisman"]
BALLOON = cat.MAGIC_ID["Balloon"]
BOAT = cat.MAGIC_ID["Boat"]  # R22.6 (house content)
MARKSMAN = cat.hero_id("Marksman")
SWORDMASTER = cat.hero_id("Swordmaster")
GOLEM_VALUE = 6  # C.7
BALLOON_VALUE = 3  # C.2 [DATA M7]: printed ranged 3

_KIND = cat.THING_KIND
_IS_CREATURE = _KIND == CREATURE
_STEP_OF_THING = np.where(cat.THING_MAGIC, MAGIC_STEP, np.where(cat.THING_RANGED, RANGED_STEP, MELEE_STEP))
_STEP_OF_HERO = np.where(cat.HERO_MAGIC, MAGIC_STEP, np.where(cat.HERO_RANGED, RANGED_STEP, MELEE_STEP))


def order(s: GameState) -> list[int]:
    """Battle order (R12.1.6): attackers from the defender's left in turn order, then the defender."""
    return s.frame(Battle).order


def defender(s: GameState) -> int:
    return s.frame(Battle).defender


def controller(s: GameState, side: int) -> int:
    """Who decides for a side: its player, or the neutral controller (R12.2.3, RD1.6)."""
    return s.frame(Battle).controller if side == NEUTRAL else side


def creatures(s: GameState, side: int, hx: int) -> np.ndarray:
    return np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == side)
                          & _IS_CREATURE[:s.n_things])


def heroes(s: GameState, side: int, hx: int) -> np.ndarray:
    if side == NEUTRAL:
        return np.zeros(0, np.int64)
    return np.flatnonzero((s.hero_owner == side) & (s.hero_hex == hx))


def in_play(s: GameState, side: int, item: int) -> bool:
    if item >= s.n_things:
        return False  # not in this game's catalog (the Boat without house content, R22.6)
    return bool(s.thing_in_play[item]) and s.thing_owner[item] == side and s.thing_hex[item] == s.frame(Battle).hex


def town(s: GameState, side: int, hx: int) -> int:
    """The side's city or village in the hex (a combat counter, R1.9.2), or -1."""
    c = int(s.hex_income[hx])
    if c >= 0 and _KIND[c] in (CITY, VILLAGE) and s.thing_owner[c] == side:
        return c
    return -1


def town_value(s: GameState, c: int) -> int:
    return max(0, int(cat.THING_COMBAT[c]) - int(s.thing_damage[c])) if c >= 0 else 0


def fort_value(s: GameState, side: int, hx: int) -> int:
    """Current value of the side's fort in the hex (0: none or neutralized, R13.5.2)."""
    if side == NEUTRAL or s.hex_owner[hx] != side:
        return 0
    return max(0, int(s.hex_fort[hx]) - int(s.hex_fort_damage[hx]))


def firewall_value(s: GameState, side: int) -> int:
    """C.5: a magic fort of the rolled value; hits lower it; at 0 it is gone."""
    if not in_play(s, side, FIREWALL):
        return 0
    return max(0, s.frame(Battle).firewall - int(s.thing_damage[FIREWALL]))


def has_golem(s: GameState, side: int) -> bool:
    return in_play(s, side, GOLEM) and not s.thing_damage[GOLEM]


def active(s: GameState, side: int, hx: int) -> bool:
    """R13.1.1 / R13.9.5: a creature, hero, standing fort, city, village or Firewall, or a Golem."""
    return bool(creatures(s, side, hx).size or heroes(s, side, hx).size or fort_value(s, side, hx)
                or town_value(s, town(s, side, hx)) or firewall_value(s, side) or has_golem(s, side))


def active_sides(s: GameState) -> list[int]:
    b = s.frame(Battle)
    return [side for side in b.order if active(s, side, b.hex)]


def balloon_riders(s: GameState, side: int) -> set[int] | None:
    """Passengers of the side's Balloon in this battle (None: no Balloon of the side here)."""
    if not (in_play(s, side, BALLOON) and not s.thing_damage[BALLOON]):
        return None
    f = s.frame(BalloonFlight)
    return set(f.passengers) if f is not None else set()


def _carried(s: GameState, item: int, side: int) -> int:
    return int(s.thing_bearer[item]) if in_play(s, side, item) else -1


def attackers(s: GameState, side: int, step: int) -> list[tuple[int, int, int]]:
    """(effective value, dice, tag) of each attacker of `side` in this step (R13.4.1-R13.4.3).
    tag is the Marksman's hero id in his value-2 mode (his hit is placed by his owner), else -1."""
    b = s.frame(Battle)
    hx = b.hex
    penalty = 1 if s.cloud_hex == hx and s.hex_owner[hx] == side else 0  # B.10 black cloud
    dispelled = b.dispelled >> side & 1 if side != NEUTRAL else 0  # C.8
    dispelled = dispelled or hooks.magic_to_melee(s, side)  # R21.9 Magician
    bow, sword = _carried(s, BOW, side), _carried(s, SWORD, side)
    riders = balloon_riders(s, side)
    sailors, sailing_heroes = hooks.battle_riders(s, side)  # R22.6: the Boat's passengers fire as Ranged
    if sailors:
        riders = (riders or set()) | sailors
    out = []
    ones = 0  # R21.12 Populous: value-1 creatures attacking with one die
    if step == RANGED_STEP and balloon_riders(s, side) is not None:
        out.append((BALLOON_VALUE, 1, -1))  # C.2 / RD7.1: the Balloon fires in the ranged step
    if step == RANGED_STEP:
        out += hooks.extra_ranged_attacks(s, side)  # R22.6 / RD7.1: the Boat too
    for c in creatures(s, side, hx):
        value, charge = int(cat.THING_COMBAT[c]), bool(cat.THING_CHARGE[c])
        if riders and c in riders:  # C.2: passengers fire as ranged attackers, one die each
            own_step, charge = RANGED_STEP, False
        elif c == bow:  # C.10: ranged, +1, one die; other flags replaced
            own_step, value, charge = RANGED_STEP, value + 1, False
        elif c == sword:  # C.11: charge in melee, +1, two dice
            own_step, value, charge = MELEE_STEP, value + 1, True
        else:
            own_step = _STEP_OF_THING[c]
            if own_step == MAGIC_STEP and dispelled:
                own_step = MELEE_STEP
        if own_step == step:
            out.append((value - penalty, 2 if charge and step == MELEE_STEP else 1, -1))
            ones += value == 1 and not (charge and step == MELEE_STEP)
    for f in heroes(s, side, hx):
        own_step = _STEP_OF_HERO[f]
        if own_step == MAGIC_STEP and dispelled:
            own_step = MELEE_STEP
        if f in sailing_heroes:
            own_step = RANGED_STEP  # R22.6: heroes aboard attack as Ranged, one die
        if own_step != step:
            continue
        value = int(cat.HERO_COMBAT[f])
        tag = -1
        if f == MARKSMAN and b.marksman == 2:  # A.6
            value, tag = int(cat.HERO_ALT_VALUE[f]), int(f)
        out.append((value - penalty, 2 if cat.HERO_CHARGE[f] and step == MELEE_STEP and f not in sailing_heroes
                    else 1, tag))
    if step == MELEE_STEP:
        value = town_value(s, town(s, side, hx))
        if value:
            out.append((value - penalty, 1, -1))
        if has_golem(s, side):
            out.append((GOLEM_VALUE, 1, -1))  # the Golem is no counter of the hex: no cloud penalty
    level = fort_value(s, side, hx)
    if level and FORT_STEP[int(s.hex_fort[hx])] == step:
        out.append((level - penalty, 1, -1))
    if step == MAGIC_STEP and firewall_value(s, side):
        out.append((firewall_value(s, side) - penalty, 1, -1))
    if ones and hooks.fights_as_populous(s, side):  # R21.12 Populous, R22.2 Lenin
        return populous_dice(out, ones, penalty)
    return out


def populous_dice(out: list[tuple[int, int, int]], ones: int, penalty: int) -> list[tuple[int, int, int]]:
    """R21.12: n value-1 creatures attacking in a step roll 3n - 1 dice instead of n."""
    single, kept, dropped = (1 - penalty, 1, -1), [], 0
    for entry in out:  # equal entries are interchangeable: drop n of the one-die value-1 attacks
        if dropped < ones and entry == single:
            dropped += 1
        else:
            kept.append(entry)
    kept.append((1 - penalty, 3 * ones - 1, -1))
    return kept


def hit_targets(s: GameState, side: int, hex_base: int, thing_base: int, hero_base: int) -> list[int]:
    """Actions naming every counter of `side` that can still take a hit in this step (R13.6.2)."""
    b = s.frame(Battle)
    hx, step = b.hex, b.step
    acts = []
    ids = creatures(s, side, hx)
    acts.extend(thing_base + ids[s.thing_damage[ids] == 0])
    c = town(s, side, hx)
    if town_value(s, c):
        acts.append(thing_base + c)
    hs = heroes(s, side, hx)
    acts.extend(hero_base + hs[s.hero_damage[hs] == 0])
    if fort_value(s, side, hx):
        acts.append(hex_base + hx)
    if firewall_value(s, side):
        acts.append(thing_base + FIREWALL)
    if has_golem(s, side) and step != RANGED_STEP:  # C.7: no ranged hits on the Golem
        acts.append(thing_base + GOLEM)
    for item in (BOW, SWORD, BALLOON, BOAT):  # R13.5.3 / R22.6: one hit eliminates the item
        if in_play(s, side, item) and not s.thing_damage[item]:
            acts.append(thing_base + item)
    return [int(a) for a in acts]


def retreat_hexes(s: GameState, side: int) -> np.ndarray:
    """Adjacent hexes the side owns that hold no enemy counters (R13.8.3)."""
    hx = s.frame(Battle).hex
    if side == NEUTRAL:
        return np.zeros(0, np.int64)  # R13.8.5: neutral defenders never retreat
    around = s.geo.neighbours[hx]
    around = around[around >= 0]
    riders = balloon_riders(s, side)
    if riders and set(creatures(s, side, hx).tolist()) <= riders and not heroes(s, side, hx).size:
        reach = s.geo.distance[hx] <= (3 if s.cfg.balloon_retreat == "within_3" else 99)
        around = np.flatnonzero(reach & (np.arange(s.geo.n_hexes) != hx))  # C.2: with the Balloon
    sailors, sailing_heroes = hooks.battle_riders(s, side)
    if sailors or sailing_heroes:
        aboard = set(creatures(s, side, hx).tolist()) <= sailors
        aboard &= set(heroes(s, side, hx).tolist()) <= sailing_heroes
        if aboard:  # R22.6: by Boat across one Sea hex
            around = np.union1d(around, hooks.rider_retreat_hexes(s, side, hx))
    around = around[s.hex_owner[around] == side]
    if around.size == 0:
        return around.astype(np.int64)
    enemy = (s.thing_place == BOARD) & _IS_CREATURE[:s.n_things] & (s.thing_owner != side)
    blocked = np.zeros(s.geo.n_hexes, bool)
    blocked[s.thing_hex[enemy]] = True
    foes = (s.hero_owner != side) & (s.hero_owner != NOBODY)
    blocked[s.hero_hex[foes]] = True
    return around[~blocked[around]].astype(np.int64)

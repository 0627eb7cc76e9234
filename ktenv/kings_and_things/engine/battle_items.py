"""What acts on a battle besides dice: the item windows (R18.1) with Firewall, Golem, Talisman,
Magic Bow, Magic Sword and Dust of Defense (C.1, C.5, C.7, C.9-C.11), Dispel Magic before a magic
step (C.8), the heroes before the first round (A.1, A.2, A.4), the Marksman's choice (A.6), and
the saving rolls of the Swordmaster and the Talisman (A.8, C.9).

C++ twin: native/src/engine/battle_items.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CREATURE, MAGIC, NEUTRAL, SCREEN
from ..procedures import Battle
from ..state import GameState
from . import battle_sides as B
from . import dice, hooks, reactions
from .actions import NUMBER, PASS, ActionLayout
from .common import as_original, playable_copy, used_up
from .stacks import allow_overflow
from .support import remove_revealed_bluffs

DUST = cat.MAGIC_ID["Dust of Defense"]
OPENING, ROUND_START, STEP_START = range(3)  # kinds of window (R18.1.1)
_ANY_WINDOW = (B.GOLEM, B.TALISMAN, B.BOW, B.SWORD)
WALL_BREAKERS = (cat.hero_id("Baron Munchausen"), cat.hero_id("Grand Duke"))
WARLORD = cat.hero_id("Warlord")


# ----- which items a side could play now -----

def held_items(s: GameState, side: int) -> np.ndarray:
    """Magic items a side holds: a player's screen, or the neutral defenders' drawn items (R12.2.6)."""
    if side == NEUTRAL:
        hx = s.frame(Battle).hex
        return np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)
                              & (s.cat.THING_KIND == MAGIC) & ~s.thing_in_play)
    return np.flatnonzero((s.thing_place == SCREEN) & (s.thing_owner == side) & (s.cat.THING_KIND == MAGIC))


def dust_targets(s: GameState) -> list[int]:
    """RD7.9: attacking sides with something to move and a legal retreat hex."""
    hx = s.frame(Battle).hex
    return [side for side in B.active_sides(s) if side != B.defender(s)
            and (B.creatures(s, side, hx).size or B.heroes(s, side, hx).size) and B.retreat_hexes(s, side).size]


def playable(s: GameState, side: int, window: int) -> list[int]:
    """R18.1.2 / RD1.8: items with a legal effect in this window for this side."""
    hx = s.frame(Battle).hex
    out = []
    has_creature = B.creatures(s, side, hx).size > 0
    for c in held_items(s, side):
        c = int(c)
        o = int(cat.THING_ORIGINAL[c])  # R20.1: a second-box item acts as its original
        if not playable_copy(s, c):
            continue
        if o == B.FIREWALL and window == OPENING:
            out.append(c)
        elif o in (B.GOLEM, B.TALISMAN) or (o in (B.BOW, B.SWORD) and has_creature):
            out.append(c)
        elif o == DUST and side == B.defender(s) and (window == OPENING or s.cfg.dust_timing == "any_window") \
                and dust_targets(s):
            out.append(c)
    return out


def window(s: GameState, lay: ActionLayout) -> bool:
    """Ask the next side in battle order that can play an item; False when the window closes."""
    b = s.frame(Battle)
    sides = b.order
    while b.window_idx < len(sides):
        side = sides[b.window_idx]
        options = playable(s, side, b.window) if B.active(s, side, b.hex) else []
        if options:
            b.side = side
            if side == NEUTRAL and s.cfg.neutral_control == "policy":  # RD1.6: play everything
                play(s, lay, options[0])
                return True
            s.decision, s.actor = D.ITEM_WINDOW, B.controller(s, side)
            return True
        b.window_idx += 1
    return False


def legal_window(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    b = s.frame(Battle)
    mask[lay.thing + np.asarray(playable(s, b.side, b.window), np.int64)] = 1
    mask[PASS] = 1


def apply_window(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    if action == PASS:
        s.frame(Battle).window_idx += 1
        return
    play(s, lay, action - lay.thing)


def play(s: GameState, lay: ActionLayout, c: int) -> None:
    """Show the item, put it in play, and open the reaction round (Dispel Magic, Fan vs Dust)."""
    b = s.frame(Battle)
    side = b.side
    c = as_original(s, c)  # R20.1
    s.thing_place[c], s.thing_owner[c], s.thing_hex[c] = BOARD, side, b.hex
    s.thing_in_play[c] = s.thing_face_up[c] = s.thing_public[c] = True
    s.stats["magic_played"] += 1
    b.item = c
    if c == DUST:
        targets = dust_targets(s)
        if len(targets) > 1 and not (side == NEUTRAL and s.cfg.neutral_control == "policy"):
            s.decision, s.actor = D.DUST_TARGET, B.controller(s, side)
            return
        b.dust = targets[0]
    reactions.open_round(s, c, B.controller(s, side))


def legal_dust(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    for side in dust_targets(s):
        mask[lay.player + (side - s.actor) % s.n_players] = 1


def apply_dust(s: GameState, lay: ActionLayout, action: int) -> None:
    s.frame(Battle).dust = (s.actor + action - lay.player) % s.n_players
    s.decision = D.NONE
    reactions.open_round(s, DUST, s.actor)


def resolve(s: GameState, lay: ActionLayout) -> str:
    """After the reaction round: the item's effect. Returns what the battle must do next:
    'window' (continue the window), 'firewall' (roll its value), 'bearer', or 'dust'."""
    b = s.frame(Battle)
    c, side = b.item, b.side
    b.item = -1
    cancelled, fan, _ = reactions.take_result(s)
    if cancelled:  # C.8: the item has no effect and that side's magic attacks in melee from now on
        used_up(s, c)
        b.dispelled |= 1 << side
        b.dust = -1
        return "window"
    if c == DUST:
        used_up(s, c)
        if fan >= 0:  # C.3: the Fan blows the dust away
            b.dust = -1
            return "window"
        return "dust"
    if c == B.FIREWALL:
        dice.roll(s, dice.FIREWALL, 1)  # roll event (R18.5)
        return "firewall"
    if c in (B.BOW, B.SWORD):
        b.bearer_item = c
        return "bearer"
    return "window"


def set_firewall(s: GameState) -> None:
    """C.5 / RT.19: the roll is the Firewall's value for this battle."""
    s.frame(Battle).firewall = dice.table(dice.take(s, dice.FIREWALL)[0])


# ----- Bow and Sword bearers (C.10, C.11) -----

def _bearer_alive(s: GameState, item: int) -> bool:
    bearer, hx = int(s.thing_bearer[item]), s.frame(Battle).hex
    return bearer >= 0 and s.thing_place[bearer] == BOARD and s.thing_hex[bearer] == hx \
        and s.thing_owner[bearer] == s.thing_owner[item]


def bearer_choices(s: GameState, item: int) -> np.ndarray:
    """Own creatures in the battle that could carry the item now: all but its living bearer."""
    ids = B.creatures(s, int(s.thing_owner[item]), s.frame(Battle).hex)
    return ids[ids != s.thing_bearer[item]] if _bearer_alive(s, item) else ids


def bearer_needed(s: GameState) -> bool:
    """Start of a round (C.10, C.11, RP-6.7): a Bow or Sword whose bearer died must be put on a new
    creature; one whose bearer lives may be moved to another own creature in the battle (or kept:
    PASS). Asked once per item and round; the neutral policy keeps a living bearer (RD1.6)."""
    b = s.frame(Battle)
    hx = b.hex
    for item in (B.BOW, B.SWORD):
        if not (s.thing_in_play[item] and s.thing_hex[item] == hx) or _bearer_asked(b, item):
            continue
        side = int(s.thing_owner[item])
        if not bearer_choices(s, item).size:
            continue
        if side == NEUTRAL and s.cfg.neutral_control == "policy" and _bearer_alive(s, item):
            continue
        b.bearer_item, b.side = item, side
        s.decision, s.actor = D.ITEM_BEARER, B.controller(s, side)
        return True
    return False


def _bearer_asked(b: Battle, item: int) -> bool:
    return b.bow_bearer_asked if item == B.BOW else b.sword_bearer_asked


def legal_bearer(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    item = s.frame(Battle).bearer_item
    mask[lay.thing + bearer_choices(s, item)] = 1
    if _bearer_alive(s, item):
        mask[PASS] = 1  # RP-6.7: moving it is optional


def apply_bearer(s: GameState, lay: ActionLayout, action: int) -> None:
    b = s.frame(Battle)
    item, b.bearer_item = b.bearer_item, -1
    if action != PASS:
        s.thing_bearer[item] = action - lay.thing
    if item == B.BOW:  # once per round
        b.bow_bearer_asked = True
    else:
        b.sword_bearer_asked = True
    s.decision = D.NONE


# ----- heroes before the first round (R13.2 step 4) -----

def wall_breakers(s: GameState) -> None:
    """A.1 / A.2: each Baron or Grand Duke hits every enemy fort (not a Citadel), city, village
    and Firewall in the hex once (RD10.1); the damage lasts for this battle."""
    hx = s.frame(Battle).hex
    for face in WALL_BREAKERS:
        side = int(s.hero_owner[face])
        if side < 0 or s.hero_hex[face] != hx:
            continue
        for enemy in B.order(s):
            if enemy == side:
                continue
            if B.fort_value(s, enemy, hx) and (s.hex_fort[hx] < 4 or s.cfg.baron_hits_citadel):
                s.hex_fort_damage[hx] += 1
            c = B.town(s, enemy, hx)
            if B.town_value(s, c):
                s.thing_damage[c] += 1
            if B.firewall_value(s, enemy):
                s.thing_damage[B.FIREWALL] += 1


def warlord_targets(s: GameState) -> np.ndarray:
    side, hx = int(s.hero_owner[WARLORD]), s.frame(Battle).hex
    foes = [B.creatures(s, enemy, hx) for enemy in B.order(s) if enemy != side]
    return np.concatenate(foes) if foes else np.zeros(0, np.int64)


def warlord_ready(s: GameState) -> bool:
    return s.hero_owner[WARLORD] >= 0 and s.hero_hex[WARLORD] == s.frame(Battle).hex and warlord_targets(s).size > 0


def legal_warlord(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.thing + warlord_targets(s)] = 1
    mask[PASS] = 1


def apply_warlord(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    if action != PASS:
        s.frame(Battle).turncoat = action - lay.thing
        dice.roll(s, dice.WARLORD, 1)  # roll event (R18.5)


def warlord_roll(s: GameState) -> None:
    """A.4: a roll at least the creature's printed value turns it to the Warlord's side."""
    b = s.frame(Battle)
    c, b.turncoat = b.turncoat, -1
    roll = dice.take(s, dice.WARLORD)[0]
    if roll < cat.THING_COMBAT[c]:
        return
    owner = int(s.hero_owner[WARLORD])
    for item in (B.BOW, B.SWORD):  # RD10.2: the item stays with the former side
        if s.thing_bearer[item] == c:
            s.thing_bearer[item] = -1
    s.thing_owner[c] = owner
    s.thing_fought[c] = False
    allow_overflow(s, owner)  # RD10.2: the stack may exceed 10 until the owner next moves
    remove_revealed_bluffs(s)  # an unsupported defector leaves at once


# ----- Dispel Magic before a magic step (C.8) -----

def magic_attackers(s: GameState, side: int) -> bool:
    b = s.frame(Battle)
    hx = b.hex
    if b.dispelled >> side & 1 or hooks.magic_to_melee(s, side):  # C.8, R21.9
        return False
    ids = B.creatures(s, side, hx)
    hs = B.heroes(s, side, hx)
    carried = {int(s.thing_bearer[i]) for i in (B.BOW, B.SWORD) if B.in_play(s, side, i)}
    return any(cat.THING_MAGIC[c] and int(c) not in carried for c in ids) or bool(cat.HERO_MAGIC[hs].any())


# ----- the Marksman (A.6) -----

def marksman_side(s: GameState) -> int:
    side = int(s.hero_owner[B.MARKSMAN])
    return side if side >= 0 and s.hero_hex[B.MARKSMAN] == s.frame(Battle).hex else -1


def legal_marksman(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[NUMBER + 5] = mask[NUMBER + 2] = 1


def apply_marksman(s: GameState, lay: ActionLayout, action: int) -> None:
    s.frame(Battle).marksman = action - NUMBER
    s.decision = D.NONE


# ----- saving rolls (A.8, C.9) -----

def save_roll_needed(s: GameState, lay: ActionLayout, side: int, action: int) -> bool:
    """Does this hit get a saving roll? (Swordmaster once a round; Talisman once a step)"""
    b = s.frame(Battle)
    if action >= lay.hero:
        face = action - lay.hero
        if face == B.SWORDMASTER and not b.parried:
            return True
        return bool(s.cfg.talisman_covers_heroes and B.in_play(s, side, B.TALISMAN)
                    and not _flag(b.talisman_heroes, face))
    c = action - lay.thing
    if lay.thing <= action < lay.hero and cat.THING_KIND[c] == CREATURE and B.in_play(s, side, B.TALISMAN):
        return not _flag(b.talisman_things, c)
    return False


def _flag(flags: list[int], i: int) -> bool:
    return i < len(flags) and bool(flags[i])


def _set_flag(flags: list[int], i: int) -> None:
    if i >= len(flags):
        flags.extend([0] * (i + 1 - len(flags)))
    flags[i] = 1


def apply_save(s: GameState, lay: ActionLayout, side: int, action: int) -> bool:
    """Read the saving roll: True if the hit is parried or dodged (it is used up either way)."""
    roll = dice.table(dice.take(s, dice.SAVE)[0])
    saved = 2 <= roll <= 5
    b = s.frame(Battle)
    if action >= lay.hero and action - lay.hero == B.SWORDMASTER and not b.parried:
        b.parried = True  # A.8: one parry a round; a later hit that round eliminates him
        return saved
    if action >= lay.hero:
        _set_flag(b.talisman_heroes, action - lay.hero)
    else:
        _set_flag(b.talisman_things, action - lay.thing)
    if not saved:
        used_up(s, B.TALISMAN)  # C.9: on 1 or 6 the hit takes effect and the Talisman is gone
    return saved


def items_home(s: GameState, side: int | None = None) -> None:
    """Golem, Firewall, Bow, Sword and Talisman return at the end of the battle or on retreat."""
    hx = s.frame(Battle).hex
    for c in np.flatnonzero(s.thing_in_play & (s.thing_hex == hx)):
        if c != B.BALLOON and c != B.BOAT and (side is None or s.thing_owner[c] == side):
            used_up(s, int(c))


DECISIONS = {
    D.ITEM_WINDOW: (legal_window, apply_window),
    D.DUST_TARGET: (legal_dust, apply_dust),
    D.ITEM_BEARER: (legal_bearer, apply_bearer),
    D.WARLORD: (legal_warlord, apply_warlord),
    D.MARKSMAN: (legal_marksman, apply_marksman),
}

"""The shared "take N losses in a hex" procedure: Terrain Disaster (B.2), Plague (B.4), Teenie Pox
(B.7), and the excess of an army escaping a sunk hex (B.3).

The caller sets its own next stage, then calls `start(s, hx, owner, n, flags)`. The owner gives
up one counter at a time (LOSS: THING creature / city / village, HERO, or HEX = one fort level);
losses nobody can choose between (everything offered must go) are taken at once. When the losses
are taken, or nothing that may be lost is left, the decision is NONE again and the caller resumes.
Registers: ls_hex, ls_owner, ls_n (losses still to take), ls_flags.
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import BOARD, CITY, CREATURE, VILLAGE
from ..state import GameState
from . import decisions as D
from .actions import ActionLayout
from .common import to_cup
from .conquest import reduce_fort
from .powers import eliminate
from .support import lose_hero

HEROES = 1  # heroes can be lost (B.2, B.7; never by Plague, B.4)
FIRST = 2  # creatures and heroes first; forts and towns only when none is left (event_losses default)
UNTIL_NO_CREATURE = 4  # B.4: the hex is done once none of the owner's creatures is left
CITADEL = 8  # a Citadel may lose levels (R19.2.2 variant B, Terrain Disaster only)
ARMY = 16  # creatures and heroes only (the excess of an escape, B.3)

_IS_CREATURE = cat.THING_KIND == CREATURE
_IS_TOWN = (cat.THING_KIND == CITY) | (cat.THING_KIND == VILLAGE)
_NO_HEROES = np.zeros(0, np.int64)


def start(s: GameState, hx: int, owner: int, n: int, flags: int) -> None:
    """Begin taking `n` losses of `owner` in `hx` (a LOSS decision, or nothing if none is a choice)."""
    s.reg.update(ls_hex=hx, ls_owner=owner, ls_n=n, ls_flags=flags)
    _settle(s)


def event_flags(s: GameState, disaster: bool) -> int:
    """Flags of B.2 / B.7 losses: heroes count; event_losses option; Citadels per R19.2.2."""
    flags = HEROES | (FIRST if s.cfg.event_losses == "creatures_first" else 0)
    if disaster and s.cfg.victory == "unique_b" and (
            s.cfg.unique_b_vulnerable == "combat_and_disaster" or s.citadel_hexes().size >= 2):
        flags |= CITADEL
    return flags


def _offer(s: GameState) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(creatures, heroes, town or -1, fort levels) the owner may lose next."""
    hx, q, flags = s.reg["ls_hex"], s.reg["ls_owner"], s.reg["ls_flags"]
    cr = np.flatnonzero((s.thing_hex == hx) & (s.thing_owner == q) & (s.thing_place == BOARD)
                        & _IS_CREATURE[:s.n_things])
    he = np.flatnonzero((s.hero_owner == q) & (s.hero_hex == hx)) if flags & HEROES else _NO_HEROES
    town, fort = -1, 0
    if not flags & ARMY and s.hex_owner[hx] == q and not (flags & FIRST and (cr.size or he.size)):
        c = int(s.hex_income[hx])
        town = c if c >= 0 and _IS_TOWN[c] else -1
        fort = int(s.hex_fort[hx])
        if fort == 4 and not flags & CITADEL:
            fort = 0  # R14.4: a Citadel is never reduced
    return cr, he, town, fort


def _settle(s: GameState) -> None:
    """Take forced losses; ask when there is a choice; finish when done."""
    while True:
        left, flags = s.reg["ls_n"], s.reg["ls_flags"]
        cr, he, town, fort = _offer(s)
        cap = cr.size + he.size + (town >= 0) + fort
        if left <= 0 or cap == 0 or (flags & UNTIL_NO_CREATURE and cr.size == 0):
            for key in ("ls_hex", "ls_owner", "ls_n", "ls_flags"):
                del s.reg[key]
            s.decision = D.NONE
            return
        only_creatures = he.size == 0 and town < 0 and fort == 0
        if left < cap or (flags & UNTIL_NO_CREATURE and not only_creatures):
            s.decision, s.actor = D.LOSS, s.reg["ls_owner"]
            return
        for c in cr:  # everything offered must go: no choice to make
            eliminate(s, int(c))  # R21.4 Brute
        for f in he:
            lose_hero(s, int(f))
        if town >= 0:
            to_cup(s, town)
        for _ in range(fort):
            reduce_fort(s, s.reg["ls_hex"])
        s.reg["ls_n"] = left - cap


def legal_loss(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    cr, he, town, fort = _offer(s)
    mask[lay.thing + cr] = 1
    mask[lay.hero + he] = 1
    if town >= 0:
        mask[lay.thing + town] = 1
    if fort:
        mask[lay.hex + s.reg["ls_hex"]] = 1


def apply_loss(s: GameState, lay: ActionLayout, action: int) -> None:
    """One loss: a creature, city or village to the cup, a hero to the pool, or a fort level."""
    if action < lay.thing:
        reduce_fort(s, action - lay.hex)  # a Tower goes back to the bank
    elif action < lay.hero:
        eliminate(s, action - lay.thing)  # to the cup (R21.4 Brute)
    else:
        lose_hero(s, action - lay.hero)
    s.reg["ls_n"] -= 1
    _settle(s)


DECISIONS = {D.LOSS: (legal_loss, apply_loss)}

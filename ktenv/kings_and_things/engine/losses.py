"""The shared "take N losses in a hex" procedure: Terrain Disaster (B.2), Plague (B.4), Teenie Pox
(B.7), and the excess of an army escaping a sunk hex (B.3).

The caller sets its own next stage, then calls `start(s, hx, owner, n, flags)`. The owner gives
up one counter at a time (LOSS: THING creature / city / village, HERO, or HEX = one fort level);
losses nobody can choose between (everything offered must go) are taken at once. When the losses
are taken, or nothing that may be lost is left, the decision is NONE again and the caller resumes.
The procedure's state is the `Losses` frame.

C++ twin: native/src/engine/losses.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CITY, CREATURE, VILLAGE
from ..procedures import Losses
from ..state import GameState
from . import hooks
from .actions import ActionLayout
from .common import to_cup
from .conquest import reduce_fort
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
    s.push(Losses(hex=hx, owner=owner, left=n, heroes=bool(flags & HEROES), creatures_first=bool(flags & FIRST),
                  until_no_creature=bool(flags & UNTIL_NO_CREATURE), citadel=bool(flags & CITADEL),
                  army_only=bool(flags & ARMY)))
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
    ls = s.frame(Losses)
    hx, q = ls.hex, ls.owner
    cr = np.flatnonzero((s.thing_hex == hx) & (s.thing_owner == q) & (s.thing_place == BOARD)
                        & _IS_CREATURE[:s.n_things])
    he = np.flatnonzero((s.hero_owner == q) & (s.hero_hex == hx)) if ls.heroes else _NO_HEROES
    town, fort = -1, 0
    if not ls.army_only and s.hex_owner[hx] == q and not (ls.creatures_first and (cr.size or he.size)):
        c = int(s.hex_income[hx])
        town = c if c >= 0 and _IS_TOWN[c] else -1
        fort = int(s.hex_fort[hx])
        if fort == 4 and not ls.citadel:
            fort = 0  # R14.4: a Citadel is never reduced
    return cr, he, town, fort


def _settle(s: GameState) -> None:
    """Take forced losses; ask when there is a choice; finish when done."""
    ls = s.frame(Losses)
    while True:
        left = ls.left
        cr, he, town, fort = _offer(s)
        cap = cr.size + he.size + (town >= 0) + fort
        if left <= 0 or cap == 0 or (ls.until_no_creature and cr.size == 0):
            s.drop(Losses)
            s.decision = D.NONE
            return
        only_creatures = he.size == 0 and town < 0 and fort == 0
        if left < cap or (ls.until_no_creature and not only_creatures):
            s.decision, s.actor = D.LOSS, ls.owner
            return
        for c in cr:  # everything offered must go: no choice to make
            hooks.eliminate(s, int(c))  # R21.4 Brute
        for f in he:
            lose_hero(s, int(f))
        if town >= 0:
            to_cup(s, town)
        for _ in range(fort):
            reduce_fort(s, ls.hex)
        ls.left = left - cap


def legal_loss(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    cr, he, town, fort = _offer(s)
    mask[lay.thing + cr] = 1
    mask[lay.hero + he] = 1
    if town >= 0:
        mask[lay.thing + town] = 1
    if fort:
        mask[lay.hex + s.frame(Losses).hex] = 1


def apply_loss(s: GameState, lay: ActionLayout, action: int) -> None:
    """One loss: a creature, city or village to the cup, a hero to the pool, or a fort level."""
    if action < lay.thing:
        reduce_fort(s, action - lay.hex)  # a Tower goes back to the bank
    elif action < lay.hero:
        hooks.eliminate(s, action - lay.thing)  # to the cup (R21.4 Brute)
    else:
        lose_hero(s, action - lay.hero)
    s.frame(Losses).left -= 1
    _settle(s)


DECISIONS = {D.LOSS: (legal_loss, apply_loss)}

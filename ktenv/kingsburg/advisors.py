"""Help from the advisors (K5.4, K11, K15.D5, D10, D11): advisors 1 to 18 in order, the original group
first, then the Envoy group; choices of goods are PICK_GOOD decisions (P7), one good at a time."""

from __future__ import annotations

from . import actions as A
from . import catalog as cat
from .common import ask, done, enter, owned_kinds, stable_bonus
from .state import BUILD, HELP, KingsburgState

G, W, S = 1 << cat.GOLD, 1 << cat.WOOD, 1 << cat.STONE


def _gain(s: KingsburgState, p: int, gold: int = 0, wood: int = 0, stone: int = 0) -> None:
    s.goods[p] += (gold, wood, stone)


def _soldiers(s: KingsburgState, p: int, n: int) -> None:
    s.soldiers[p] += n + stable_bonus(s, p)


def help_player(s: KingsburgState, advisor: int, p: int) -> None:
    """Give `advisor`'s help to `p`: the fixed part at once, a choice as a pending decision (K11)."""
    if advisor == 1:
        s.vp[p] += 1
    elif advisor == 2:
        _gain(s, p, gold=1)
    elif advisor == 3:
        _gain(s, p, wood=1)
    elif advisor == 4:
        ask(s, A.HELP_GOOD, p, 1, G | W)
    elif advisor == 5:
        _soldiers(s, p, 1)
    elif advisor == 6:
        if s.goods[p].any():  # D11: with no goods the Alchemist gives nothing
            ask(s, A.ALCHEMIST, p, 1, owned_kinds(s, p))
    elif advisor == 7:
        s.tokens[p] += 1
        ask(s, A.HELP_GOOD, p, 1)
    elif advisor == 8:
        _gain(s, p, gold=2)
    elif advisor == 9:
        _gain(s, p, wood=1)
        ask(s, A.HELP_GOOD, p, 1, G | S)
    elif advisor == 10:
        _soldiers(s, p, 2)
        s.peeked[p] = True
    elif advisor == 11:
        _gain(s, p, stone=1)
        ask(s, A.HELP_GOOD, p, 1, W | G)
    elif advisor == 12:
        s.tokens[p] += 1
        ask(s, A.HELP_GOOD, p, 2)
    elif advisor == 13:
        _gain(s, p, stone=3)
    elif advisor == 14:
        s.vp[p] -= 1  # D10: paid even below 0 [clar.]
        ask(s, A.HELP_GOOD, p, 3)
    elif advisor == 15:
        _gain(s, p, 1, 1, 1)
    elif advisor == 16:
        _gain(s, p, gold=4)
    elif advisor == 17:
        s.peeked[p] = True
        s.vp[p] += 3
        ask(s, A.HELP_GOOD, p, 2)
    else:
        _gain(s, p, 1, 1, 1)
        _soldiers(s, p, 1)


def run(s: KingsburgState) -> None:
    """cursor = 2 * (advisor - 1) + (0: original group, 1: Envoy group); sub = 1 once its help started."""
    while s.cursor < 2 * cat.N_ADVISORS:
        advisor, envoy = divmod(s.cursor, 2)
        advisor += 1
        owner = int(s.advisor_envoy[advisor] if envoy else s.advisor_group[advisor])
        if owner >= 0 and s.sub == 0:
            s.sub = 1
            help_player(s, advisor, owner)
            if s.decision != A.NONE:
                return
        s.cursor += 1
        s.sub = 0
    # K5.4.4: every die goes back; the white dice and the aid die go to the supply
    players = s.advisor_group >= 0
    s.advisor_group[players] = -1
    s.advisor_envoy[:] = -1
    s.dice[:] = 0
    s.die_advisor[:] = -1
    if s.season == 0:
        s.aid_player = -1
    enter(s, BUILD)


def alchemist_apply(s: KingsburgState, action: int) -> None:
    """D11: return the picked kind, take one of each of the two others."""
    kind = action - A.PICK_GOOD
    s.goods[s.actor] += 1
    s.goods[s.actor, kind] -= 2
    done(s)


RUNNERS = {HELP: run}

"""R12.2 exploration: the roll, the defenders drawn by the player to the right, what the drawn
counters do, bribery (its decision; the rules of R12.2.5 are in bribery.py), and the battle against
the defenders (R12.2.6).

C++ twin: native/src/engine/exploration.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import BOARD, CITY, CREATURE, EVENT, NEUTRAL, SPECIAL_INCOME, VILLAGE
from ..procedures import Battle, Exploration, ExploreStage
from ..state import GameState
from . import battle, bribery, dice, hooks
from .actions import PASS, ActionLayout
from .common import draw, to_cup
from .conquest import conquer
from .placement_turn import begin_placement

ROLL, ROLLED, TIE, BRIBE, FIGHT, PLACE, DONE, PLACE_START = ExploreStage
_KIND = cat.THING_KIND


def begin(s: GameState, hx: int, player: int) -> None:
    s.push(Exploration(hex=hx, player=player, controller=s.right_of(player), stage=ROLL))
    s.stats["explorations"] += 1


def _x(s: GameState) -> Exploration:
    """The exploration under way."""
    return s.frame(Exploration)


def run(s: GameState) -> None:
    STAGES[_x(s).stage](s)


def neutral_defenders(s: GameState, hx: int) -> np.ndarray:
    """Neutral creatures, cities and villages still able to fight in the hex."""
    ids = np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)
                         & np.isin(s.cat.THING_KIND, (CREATURE, CITY, VILLAGE)))
    return ids[(s.thing_damage[ids] < cat.THING_COMBAT[ids]) | (_KIND[ids] == CREATURE)]


def _roll(s: GameState) -> None:
    hx = _x(s).hex
    if neutral_defenders(s, hx).size:  # R12.2.1: defenders left from earlier: no roll, no bribe
        _fight(s)
        return
    dice.roll(s, dice.EXPLORE, 1)  # roll event (R18.5)
    _x(s).stage = ROLLED


def _rolled(s: GameState) -> None:
    """R12.2.2: on 1 or 6 the hex is undefended; on 2-5 that many defenders are drawn."""
    hx = _x(s).hex
    roll = dice.table(dice.take(s, dice.EXPLORE)[0])
    count = hooks.defenders(s, _x(s).player, roll)  # R21.6 Explorer: 5-6 none, 1-4 that many
    if count == 0:
        _conquered(s)
        return
    for _ in range(count):  # R12.2.3: the neutral controller draws that many Things
        c = draw(s, NEUTRAL)
        if c < 0:
            break
        s.thing_place[c] = BOARD
        s.thing_hex[c] = hx
        s.thing_face_up[c] = True
        s.thing_public[c] = True  # RI.1: every exploration draw is public
    _sort_draw(s, hx)


def _sort_draw(s: GameState, hx: int) -> None:
    """R12.2.4: events back; wrong-terrain income back; the best placeable income counter stays."""
    here = np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL))
    placeable = []
    for c in here:
        kind = _KIND[c]
        if kind == EVENT or (kind == SPECIAL_INCOME and cat.THING_TERRAIN[c] != s.hex_terrain[hx]):
            to_cup(s, int(c))
        elif kind in (SPECIAL_INCOME, CITY, VILLAGE):
            placeable.append(int(c))
    if not placeable:
        _after_sort(s)
        return
    best = max(cat.THING_INCOME[c] for c in placeable)
    tied = [c for c in placeable if cat.THING_INCOME[c] == best]
    for c in placeable:
        if cat.THING_INCOME[c] != best:
            to_cup(s, c)
    if len(tied) > 1 and s.cfg.neutral_control != "policy":
        x = _x(s)
        x.stage, x.tie = TIE, True
        s.decision, s.actor = D.INCOME_TIE, x.controller
        return
    _keep(s, hx, tied[0], tied[1:])  # RD1.6 policy: the first drawn stays


def _keep(s: GameState, hx: int, kept: int, others: list[int]) -> None:
    _x(s).tie = False
    for c in others:
        to_cup(s, int(c))
    s.hex_income[hx] = kept
    _after_sort(s)


def legal_tie(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    hx = _x(s).hex
    here = np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)
                          & np.isin(s.cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE)))
    mask[lay.thing + here] = 1


def apply_tie(s: GameState, lay: ActionLayout, action: int) -> None:
    hx = _x(s).hex
    kept = action - lay.thing
    here = np.flatnonzero((s.thing_place == BOARD) & (s.thing_hex == hx) & (s.thing_owner == NEUTRAL)
                          & np.isin(s.cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE)))
    s.decision = D.NONE
    _keep(s, hx, kept, [int(c) for c in here if c != kept])


def _after_sort(s: GameState) -> None:
    """No creature, city or village drawn: the hex is the explorer's at once (R12.2.4)."""
    if neutral_defenders(s, _x(s).hex).size == 0:
        _conquered(s)
    else:
        _x(s).stage = BRIBE


# ----- bribery (R12.2.5: the rules in bribery.py) -----

def _bribe(s: GameState) -> None:
    s.decision, s.actor = D.BRIBE, _x(s).player


def legal_bribe(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    hx = _x(s).hex
    mask[lay.thing + bribery.bribable(s, s.actor, hx, neutral_defenders(s, hx))] = 1
    mask[PASS] = 1


def apply_bribe(s: GameState, lay: ActionLayout, action: int) -> None:
    if action == PASS:
        s.decision = D.NONE
        _fight(s)
        return
    bribery.bribe(s, s.actor, _x(s).hex, action - lay.thing)
    if neutral_defenders(s, _x(s).hex).size == 0:
        s.decision = D.NONE
        _conquered(s)  # all bribed: the hex is taken, a neutralized city's damage ends


# ----- outcomes -----

def _conquered(s: GameState) -> None:
    """Taken without a battle (roll 1 or 6, nothing to fight, all bribed): R12.2.2, R12.2.4, R12.2.5."""
    hx, player = _x(s).hex, _x(s).player
    here = (s.thing_place == BOARD) & (s.thing_hex == hx)
    s.thing_damage[here] = 0
    conquer(s, hx, player)
    battle.loot(s, hx, player)
    if s.game_over:
        return
    _x(s).stage = PLACE_START  # a runner stage: loot over the screen limit is discarded first (R17.1.2)


def _place_start(s: GameState) -> None:
    x = _x(s)
    x.stage = PLACE
    begin_placement(s, x.player, only_hex=x.hex)  # R13.11.2


def _fight(s: GameState) -> None:
    x = _x(s)
    x.stage = FIGHT
    battle.begin(s, x.hex, battle.EXPLORATION, x.player, [x.player, NEUTRAL], NEUTRAL, x.controller)


def _fighting(s: GameState) -> None:
    b = s.frame(Battle)
    if b is not None and b.done:
        s.drop(Battle)
        _x(s).stage = DONE
    else:
        battle.run(s)


def _placed(s: GameState) -> None:
    _x(s).stage = DONE


def _done(s: GameState) -> None:
    _x(s).done = True


def _tie(s: GameState) -> None:
    s.decision, s.actor = D.INCOME_TIE, _x(s).controller


STAGES = {ROLL: _roll, ROLLED: _rolled, TIE: _tie, BRIBE: _bribe, FIGHT: _fighting, PLACE: _placed, DONE: _done,
          PLACE_START: _place_start}

DECISIONS = {
    D.INCOME_TIE: (legal_tie, apply_tie),
    D.BRIBE: (legal_bribe, apply_bribe),
}

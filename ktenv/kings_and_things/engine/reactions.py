"""R18.2 reaction rounds: Dispel Magic, the Fan (bellows) and the Elixir answer an event or item.

A procedure that plays an event or item calls `open_round(...)`, sets its own stage to wait,
and reads `take_result(s)` when its runner is called again. Rounds stack: a reaction opens its
own round, and when a round closes with everyone passing, the most recent unresolved item
resolves against the one below it. Only players holding an eligible reaction are asked.

C++ twin: native/src/engine/reactions.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..constants import SCREEN
from ..procedures import Battle, Reactions
from ..state import GameState
from .actions import PASS, ActionLayout
from .common import used_up

DISPEL = cat.MAGIC_ID["Dispel Magic"]
FAN = cat.MAGIC_ID["Fan"]
ELIXIR = cat.MAGIC_ID["Elixir"]
REACTIONS = (DISPEL, FAN, ELIXIR)
# R20.1: every copy of a reaction item in either box (a second-box copy acts as its original)
_REACTION_COPIES = np.flatnonzero(np.isin(cat.THING_ORIGINAL, REACTIONS) & (cat.THING_KIND == 5))
MAGIC_STEP = -2  # pseudo-trigger: another player's magic creatures are about to attack (C.8)
_FANNED = (cat.MAGIC_ID["Balloon"], cat.MAGIC_ID["Dust of Defense"], cat.EVENT_ID["Weather Control"],
           cat.MAGIC_ID["Boat"])  # R22.6: the Bellows can divert the Boat
_PLAGUES = (cat.EVENT_ID["Dark Plague"], cat.EVENT_ID["Teeniepox"])
_DISPELLABLE_EVENTS = (cat.EVENT_ID["Big Juju"], cat.EVENT_ID["Weather Control"])


def _original(c: int) -> int:
    """A trigger as its first-box counter (R20.1: the second box's events act as the first's)."""
    return int(cat.THING_ORIGINAL[c]) if c >= 0 else c


def open_round(s: GameState, trigger: int, player: int, victims: int = 0) -> None:
    """Push a reaction round for `trigger` (a Thing id or MAGIC_STEP) played by `player`;
    `victims` is a bitmask of the players an Elixir may protect (Teenie Pox)."""
    rx = s.frame(Reactions) or s.push(Reactions())
    rx.trigger.append(trigger)
    rx.player.append(player)
    rx.asked.append(0)
    rx.cancelled.append(0)
    rx.fan.append(-1)
    rx.elixir.append(0)
    rx.victims.append(victims)


def take_result(s: GameState) -> tuple[bool, int, int]:
    """(cancelled, player whose Fan took effect or -1, bitmask of players saved by an Elixir)."""
    rx = s.frame(Reactions)
    if rx is None:
        return False, -1, 0
    out = (rx.result_cancelled, rx.result_fan, rx.result_elixir)
    if rx.trigger:  # rounds still open (never the case when a procedure resumes): keep them
        rx.result_cancelled, rx.result_fan, rx.result_elixir = False, -1, 0
    else:
        s.drop(Reactions)
    return out


def resume_flight(s: GameState, item: int, flight, fanned: int, clear, land, dest: int) -> None:
    """A Balloon (C.2) or Boat (R22.6) move after its reactions: Dispel Magic cancels it (C.8: no
    effect, the passengers have not moved: `clear`), a Fan/Bellows player picks where it lands
    (FAN_HEX; the `flight` frame's stage = `fanned`), else it lands on `dest` (`land`)."""
    cancelled, fan, _ = take_result(s)
    if cancelled:
        used_up(s, item)
        clear(s, keep_flight=False)
    elif fan >= 0:
        flight.stage = fanned
        s.decision, s.actor = D.FAN_HEX, fan
    else:
        land(s, dest)


def _ask_order(s: GameState, d: int) -> list[int]:
    """Every other player from the acting player's left; against Plague the player is asked last."""
    rx = s.frame(Reactions)
    p = rx.player[d]
    order = s.turn_order()
    i = order.index(p) if p in order else 0
    out = [order[(i + k) % len(order)] for k in range(1, len(order))]
    if _original(rx.trigger[d]) == _PLAGUES[0]:
        out.append(p)
    return out


def eligible(s: GameState, q: int, d: int) -> list[int]:
    """Reaction items on q's screen that may answer round d's trigger."""
    rx = s.frame(Reactions)
    c, p = _original(rx.trigger[d]), rx.player[d]
    out = []
    copies = _REACTION_COPIES[_REACTION_COPIES < s.n_things]
    for r in copies[(s.thing_place[copies] == SCREEN) & (s.thing_owner[copies] == q)].tolist():
        o = _original(r)
        if o == DISPEL and q != p and ((c == MAGIC_STEP and _in_battle(s, q)) or (c >= 0 and cat.THING_KIND[c] == 5)
                                       or (c in _DISPELLABLE_EVENTS and s.cfg.dispel_vs_events)):
            out.append(r)
        elif o == FAN and q != p and c in _FANNED:
            out.append(r)
        elif o == ELIXIR and c in _PLAGUES and (c == _PLAGUES[0] or rx.victims[d] >> q & 1):
            out.append(r)
    return out


def _in_battle(s: GameState, q: int) -> bool:
    b = s.frame(Battle)
    return b is not None and q in b.order


def pending(s: GameState) -> bool:
    """Ask the next holder of an eligible reaction; close rounds whose players have all answered."""
    rx = s.frame(Reactions)
    while rx is not None and rx.trigger:
        d = len(rx.trigger) - 1
        order = _ask_order(s, d)
        while rx.asked[d] < len(order) and not rx.cancelled[d]:
            q = order[rx.asked[d]]
            if eligible(s, q, d):
                s.decision, s.actor = D.REACT, q
                return True
            rx.asked[d] += 1
        _close(rx)
    return False


def _close(rx: Reactions) -> None:
    """The innermost round closes: its item resolves against the round below, or, the last round
    closed, its outcome waits for the procedure that opened it."""
    trigger, player, cancelled = rx.trigger.pop(), rx.player.pop(), rx.cancelled.pop()
    fan, elixir = rx.fan.pop(), rx.elixir.pop()
    rx.asked.pop()
    rx.victims.pop()
    if not rx.trigger:
        rx.result_cancelled, rx.result_fan, rx.result_elixir = bool(cancelled), fan, elixir
        return
    if cancelled:
        return  # a dispelled reaction has no effect
    r = _original(trigger)
    if r == DISPEL:
        rx.cancelled[-1] = 1  # the battle applies C.8's lasting effect itself
    elif r == FAN:
        rx.fan[-1] = player
    elif r == ELIXIR:
        rx.elixir[-1] |= 1 << player


def legal_react(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    rx = s.frame(Reactions)
    mask[lay.thing + np.asarray(eligible(s, s.actor, len(rx.trigger) - 1), np.int64)] = 1
    mask[PASS] = 1


def apply_react(s: GameState, lay: ActionLayout, action: int) -> None:
    rx = s.frame(Reactions)
    rx.asked[-1] += 1
    s.decision = D.NONE
    if action == PASS:
        return
    r = action - lay.thing
    used_up(s, r)  # shown to all, then to the cup (R17.2)
    s.stats["magic_played"] += 1
    open_round(s, r, s.actor)


DECISIONS = {D.REACT: (legal_react, apply_react)}

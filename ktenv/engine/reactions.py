"""R18.2 reaction rounds: Dispel Magic, the Fan (bellows) and the Elixir answer an event or item.

A procedure that plays an event or item calls `open_round(...)`, sets its own stage to wait,
and reads `take_result(s)` when its runner is called again. Rounds stack: a reaction opens its
own round, and when a round closes with everyone passing, the most recent unresolved item
resolves against the one below it. Only players holding an eligible reaction are asked.
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from ..constants import SCREEN
from ..state import GameState
from . import decisions as D
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
    d = s.reg.get("rx_n", 0)
    s.reg.update({f"rx{d}_c": trigger, f"rx{d}_p": player, f"rx{d}_ask": 0, f"rx{d}_cancel": 0,
                  f"rx{d}_fan": -1, f"rx{d}_elixir": 0, f"rx{d}_victims": victims, "rx_n": d + 1})


def take_result(s: GameState) -> tuple[bool, int, int]:
    """(cancelled, player whose Fan took effect or -1, bitmask of players saved by an Elixir)."""
    out = (bool(s.reg.pop("rx_cancel", 0)), s.reg.pop("rx_fan", -1), s.reg.pop("rx_elixir", 0))
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
    p = s.reg[f"rx{d}_p"]
    order = s.turn_order()
    i = order.index(p) if p in order else 0
    out = [order[(i + k) % len(order)] for k in range(1, len(order))]
    if _original(s.reg[f"rx{d}_c"]) == _PLAGUES[0]:
        out.append(p)
    return out


def eligible(s: GameState, q: int, d: int) -> list[int]:
    """Reaction items on q's screen that may answer round d's trigger."""
    c, p = _original(s.reg[f"rx{d}_c"]), s.reg[f"rx{d}_p"]
    out = []
    copies = _REACTION_COPIES[_REACTION_COPIES < s.n_things]
    for r in copies[(s.thing_place[copies] == SCREEN) & (s.thing_owner[copies] == q)].tolist():
        o = _original(r)
        if o == DISPEL and q != p and ((c == MAGIC_STEP and _in_battle(s, q)) or (c >= 0 and cat.THING_KIND[c] == 5)
                                       or (c in _DISPELLABLE_EVENTS and s.cfg.dispel_vs_events)):
            out.append(r)
        elif o == FAN and q != p and c in _FANNED:
            out.append(r)
        elif o == ELIXIR and c in _PLAGUES and (c == _PLAGUES[0] or s.reg[f"rx{d}_victims"] >> q & 1):
            out.append(r)
    return out


def _in_battle(s: GameState, q: int) -> bool:
    return any(s.reg.get(f"b_order_{i}") == q for i in range(s.reg.get("b_order_n", 0)))


def pending(s: GameState) -> bool:
    """Ask the next holder of an eligible reaction; close rounds whose players have all answered."""
    while s.reg.get("rx_n", 0):
        d = s.reg["rx_n"] - 1
        order = _ask_order(s, d)
        while s.reg[f"rx{d}_ask"] < len(order) and not s.reg[f"rx{d}_cancel"]:
            q = order[s.reg[f"rx{d}_ask"]]
            if eligible(s, q, d):
                s.decision, s.actor = D.REACT, q
                return True
            s.reg[f"rx{d}_ask"] += 1
        _close(s, d)
    return False


def _close(s: GameState, d: int) -> None:
    frame = {k: s.reg.pop(f"rx{d}_{k}") for k in ("c", "p", "ask", "cancel", "fan", "elixir", "victims")}
    s.reg["rx_n"] = d
    if d == 0:
        del s.reg["rx_n"]
        s.reg.update(rx_cancel=frame["cancel"], rx_fan=frame["fan"], rx_elixir=frame["elixir"])
        return
    if frame["cancel"]:
        return  # a dispelled reaction has no effect
    parent = d - 1
    r, q = _original(frame["c"]), frame["p"]
    if r == DISPEL:
        s.reg[f"rx{parent}_cancel"] = 1  # the battle applies C.8's lasting effect itself
    elif r == FAN:
        s.reg[f"rx{parent}_fan"] = q
    elif r == ELIXIR:
        s.reg[f"rx{parent}_elixir"] |= 1 << q


def legal_react(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.thing + np.asarray(eligible(s, s.actor, s.reg["rx_n"] - 1), np.int64)] = 1
    mask[PASS] = 1


def apply_react(s: GameState, lay: ActionLayout, action: int) -> None:
    d = s.reg["rx_n"] - 1
    s.reg[f"rx{d}_ask"] += 1
    s.decision = D.NONE
    if action == PASS:
        return
    r = action - lay.thing
    used_up(s, r)  # shown to all, then to the cup (R17.2)
    s.stats["magic_played"] += 1
    open_round(s, r, s.actor)


DECISIONS = {D.REACT: (legal_react, apply_react)}

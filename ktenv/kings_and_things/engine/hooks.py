"""Extension points: where the optional rules (R20, R21, R22) change the standard rules.

Each hook point is declared once, below, as a function with its signature and the standard rules'
answer. An optional module (``powers``: R21 Encounter; ``house`` and ``boat``: R22 house content;
``kadab``: R20.3 Mysterious Kadab) registers its implementation for a point together with the
option that switches it on::

    @hooks.build_cost.implement("encounter_powers")
    def build_cost(s, player, standard): ...

and the core calls the point by name, ``hooks.build_cost(s, player, BUILD_COST)``. An implementation
applies only in a game whose config has its option on; in a game without it the point gives the
standard answer (one attribute read per registered implementation, then the declaration's body).
So the core modules never import the optional ones: the optional modules import the core, and the
machine (which assembles the parts of the turn) imports them all, which registers their hooks.

How the implementations of one point combine (``combine=``):

- ``"first"``: the first implementation whose option is on answers; none: the standard answer.
- ``"any"``: the implementations whose option is on are asked in order of registration until one
  answers truthy, which is the answer; none: the standard answer (falsy).
- ``"each"``: every implementation whose option is on runs (a mask to widen, a turn to prepare);
  the standard body runs too, first (a declaration with a docstring only is not called at all).

C++ twin: native/src/engine/hooks.hpp
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from operator import attrgetter
from typing import Any, Generic, ParamSpec, TypeVar

import numpy as np

from .. import catalog as cat
from ..config import GameConfig
from ..constants import OUT
from ..state import GameState
from .actions import ActionLayout
from .common import to_cup

P = ParamSpec("P")
R = TypeVar("R")

_HOUSE_HERO_COUNTERS = cat.HERO_COUNTER[cat.HOUSE_HERO_FACES]


def _nothing(s: GameState) -> None:
    """A declaration without a body (its code is compared, not run)."""


class Hook(Generic[P, R]):
    """One named extension point: the standard rules' answer plus the registered implementations.

    The module attribute of the point's name is its dispatcher: a plain function, rebuilt at each
    registration, that calls the implementations whose options are on (so a call costs one function
    call, one option read per implementation, and the answering function). Call it as ``hooks.<point>(...)``, never
    through ``from .hooks import <point>`` (that would keep the dispatcher of import time)."""

    def __init__(self, standard: Callable[P, R], combine: str) -> None:
        if combine not in ("first", "any", "each"):
            raise ValueError(f"hook {standard.__name__}: combine must be first, any or each, not {combine!r}")
        self.name = standard.__name__
        self.standard = standard
        self.combine = combine
        self.impls: list[tuple[Callable[[GameConfig], bool], Callable[P, R], str]] = []
        self._arity = len(inspect.signature(standard).parameters)
        self.__doc__ = standard.__doc__

    def implement(self, option: str | tuple[str, ...]) -> Callable[[Callable[P, R]], Callable[P, R]]:
        """Decorator: register the implementation for games where `option` (a GameConfig field, or any
        of several) is on. The implementation takes the declaration's parameters."""
        names = (option,) if isinstance(option, str) else tuple(option)
        for n in names:
            if n not in GameConfig.__dataclass_fields__:
                raise ValueError(f"hook {self.name}: {n!r} is not a GameConfig option")

        def register(impl: Callable[P, R]) -> Callable[P, R]:
            arity = len(inspect.signature(impl).parameters)
            if arity != self._arity:
                raise TypeError(f"hook {self.name}: {impl.__module__}.{impl.__qualname__} takes {arity} "
                                f"parameters, the declaration {self._arity}")
            if len(names) == 1:
                active = attrgetter(names[0])
            else:
                def active(cfg: GameConfig) -> bool:
                    return any(getattr(cfg, n) for n in names)
            self.impls.append((active, impl, "/".join(names)))
            globals()[self.name] = self.dispatcher()
            return impl

        return register

    def dispatcher(self) -> Callable[P, R]:
        """The calling function for the implementations registered so far. It is written out with the
        declaration's own parameters and one test per implementation (no loop, no ``*args``: these
        points sit on the hot paths of movement and battles), as `dataclasses` writes its methods.
        Its own names start with ``_hook_`` (no declaration's parameter does)."""
        names = list(inspect.signature(self.standard).parameters)
        assert not any(n.startswith("_hook_") for n in names), self.name
        params = ", ".join(names)
        env: dict[str, Any] = {"_hook_standard": self.standard}
        body = []
        if self.combine == "each" and self.standard.__code__.co_code != _nothing.__code__.co_code:
            body.append(f"    _hook_standard({params})")
        if self.impls:
            body.append(f"    _hook_cfg = {names[0]}.cfg")
        for i, (active, impl, _) in enumerate(self.impls):
            env[f"_hook_on{i}"], env[f"_hook_impl{i}"] = active, impl
            body.append(f"    if _hook_on{i}(_hook_cfg):")
            if self.combine == "first":
                body.append(f"        return _hook_impl{i}({params})")
            elif self.combine == "any":
                body += [f"        _hook_out = _hook_impl{i}({params})", "        if _hook_out:",
                         "            return _hook_out"]
            else:
                body.append(f"        _hook_impl{i}({params})")
        if self.combine != "each":
            body.append(f"    return _hook_standard({params})")
        source = f"def {self.name}({params}):\n" + ("\n".join(body) or "    pass") + "\n"
        exec(compile(source, f"<hook {self.name}>", "exec"), env)  # generated from the declaration
        call = env[self.name]
        call.__qualname__ = self.name
        call.__doc__ = self.__doc__
        call.hook = self  # type: ignore[attr-defined]
        call.implement = self.implement  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    def __repr__(self) -> str:
        by = ", ".join(f"{f.__module__}.{f.__qualname__} [{o}]" for _, f, o in self.impls) or "standard rules only"
        return f"<hook {self.name} ({self.combine}): {by}>"


POINTS: dict[str, Hook] = {}


def point(combine: str = "first") -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Declare a hook point: the decorated function is its signature and the standard rules' answer.
    The name becomes the point's dispatcher (with ``.implement(option)`` and ``.hook``)."""
    def declare(standard: Callable[P, R]) -> Callable[P, R]:
        h = Hook(standard, combine)
        POINTS[h.name] = h
        return h.dispatcher()

    return declare


# ----- setup and the phases -----

@point("each")
def game_setup(s: GameState) -> None:
    """New game, after the board is laid and the box counters drawn: R21.0 deal the Encounter powers,
    R22 house counters in or out of play, R20.3 tiles face down."""


@point()
def counters_setup(s: GameState) -> None:
    """R4.1 before the board is laid: the house Things of a catalog that has them (six players) are out
    of play (R22 house content: in play; Tycho Brahe's counter shows the Gypsy King without Kadab)."""
    s.thing_place[s.cat.HOUSE_THING_IDS] = OUT


@point()
def hero_counters_in_play(s: GameState) -> np.ndarray:
    """Per hero counter of the game: may it be in the pool (R7.3)? Not the house heroes (R22: they may)."""
    return ~np.isin(np.arange(len(s.hero_up)), _HOUSE_HERO_COUNTERS)


@point()
def hero_may_turn(s: GameState, face: int) -> bool:
    """R7.2 / R7.11 a dismissed or killed hero's counter is turned over (R22.4 not Tycho Brahe's
    without Mysterious Kadab)."""
    return True


@point("each")
def start_hexes_chosen(s: GameState) -> None:
    """RD2.1 the start positions are taken (R20.3: they and their neighbours are turned up)."""


@point("any")
def interrupt(s: GameState) -> bool:
    """Before any phase runner resumes: an optional rule's pending question (R21.4 / R21.5); True when
    it set a decision."""
    return False


@point("any")
def phase_end_question(s: GameState) -> bool:
    """End of the Income phase: R21.7 the Tax Farmer marks a hex; True when a decision was set."""
    return False


@point("each")
def round_ends(s: GameState) -> None:
    """Phase 9, before the turn order changes (R22.6 the Boat is removed)."""


# ----- economy -----

@point()
def build_cost(s: GameState, player: int, standard: int) -> int:
    """R14.1 the gold a fort level costs (R21.3 Builder)."""
    return standard


@point()
def extra_free_things(s: GameState, player: int) -> int:
    """R8.1.1 Things drawn free beyond half the land hexes (R21.8 King of Things)."""
    return 0


@point()
def trade_ratio(s: GameState, player: int) -> int:
    """R8.1.1 counters traded for one Thing (R21.14 Trafficker)."""
    return 2


@point()
def hero_roll_bonus(s: GameState, player: int, face: int) -> int:
    """R7.4 added to a hero's recruitment roll (R21.2 / R21.9)."""
    return 0


@point()
def hero_target(s: GameState, player: int, face: int) -> int:
    """R7.5 the recruitment roll needed: twice the hero's value (R21.13 Recruiter)."""
    return 2 * int(cat.HERO_COMBAT[face])


# ----- counters leaving play -----

@point()
def eliminate(s: GameState, c: int) -> None:
    """A Thing is eliminated: to the cup (R21.4 Brute: his Charge creatures go to his screen)."""
    to_cup(s, c)


# ----- movement -----

@point()
def flyers(s: GameState, printed: np.ndarray) -> np.ndarray:
    """Per Thing: moves as a flyer (`creatures.flying`: `printed` is the printed flag; R21.2 adds the
    Aviator's creature of this round). Never changes `printed` in place."""
    return printed


@point("each")
def move_options(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """Start of a move: further moves (R21.10 the Nomad's fort or town; R22.1 Ahasuerus teleports)."""


@point("each")
def vehicle_moves(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """Start of a move, where PASS is offered: a vehicle's move of its own (R22.6 THING the Boat)."""


@point("any")
def move_start(s: GameState, lay: ActionLayout, action: int) -> bool:
    """A move begins with `action`: True when an optional rule took it (R21.10, R22.1, R22.6). The
    implementations answer disjoint actions."""
    return False


@point("any")
def move_begins_in(s: GameState, hx: int) -> bool:
    """A move starts in `hx`: True when an optional rule asks a question first (R21.2 Aviator)."""
    return False


@point("any")
def movement_resume(s: GameState) -> bool:
    """The movement phase resumes: True when an optional rule's move was under way and went on
    (R22.6 the Boat waiting for its reactions)."""
    return False


@point("each")
def movement_turn_begins(s: GameState, p: int) -> None:
    """`p`'s movement turn begins, after MP and pins are set (R22.5 the Portal's counters wait for their
    exploration; R22.3 the Gypsy King's starting hex)."""


@point("any")
def before_move_start(s: GameState) -> bool:
    """Before each MOVE_START: True when an optional rule asks something first (R22.3 Gypsy King)."""
    return False


@point("each")
def hero_picked(s: GameState, face: int) -> None:
    """A hero joins the moving stack (R22.4 Tycho Brahe looks at the face-down hexes next to him)."""


@point("any")
def entered_face_down(s: GameState, things: np.ndarray, heroes: np.ndarray, hx: int) -> bool:
    """A stack entered face-down `hx` (R20.3): True when the tile turned out Sea and sent it back."""
    return False


@point()
def fan_handlers(s: GameState) -> tuple[Callable, Callable] | None:
    """FAN_HEX asked by an optional rule's move: its (legal, apply) pair (R22.6 the Bellows diverts
    the Boat), else None (the Balloon's)."""
    return None


@point()
def extra_start_hexes(s: GameState, p: int) -> np.ndarray:
    """Hexes where a move may start besides the ones with free counters (R21.2 the Aviator's flyer)."""
    return np.zeros(0, np.int64)


# ----- battles -----

@point("any")
def battle_start(s: GameState) -> bool:
    """A battle begins: True when an optional rule asks first (R21.11 the Gambler's stakes)."""
    return False


@point("any")
def combat_hex_chosen(s: GameState, hx: int) -> bool:
    """R12.1 the hex of the next exploration or contest is chosen: True when the segment is over
    before it starts (R20.3 a face-down tile turned up Sea sends everybody back)."""
    return False


@point()
def battle_riders(s: GameState, side: int) -> tuple[set[int], set[int]]:
    """Things and hero faces of `side` that attack as Ranged from a vehicle other than the Balloon
    (R22.6 the Boat's passengers)."""
    return set(), set()


@point()
def extra_ranged_attacks(s: GameState, side: int) -> list[tuple[int, int, int]]:
    """(value, dice, tag) attacks of `side` in the ranged step beyond its counters (R22.6 the Boat)."""
    return []


@point()
def rider_retreat_hexes(s: GameState, side: int, hx: int) -> np.ndarray:
    """R13.8 further retreat hexes of a side made only of vehicle riders (R22.6 by Boat across a Sea)."""
    return np.zeros(0, np.int64)


@point("each")
def battle_end(s: GameState, won: int) -> None:
    """A battle is over (R21.11 the stakes are paid)."""


@point("each")
def after_battle_roll(s: GameState, side: int, n: int) -> None:
    """`side` rolled `n` battle dice (R21.5 Lucky may re-roll one)."""


@point("each")
def hits_received(s: GameState, received: dict[int, int]) -> None:
    """The hits of a round are known, per side (R21.1 Amoeba ignores the first)."""


@point("any")
def magic_to_melee(s: GameState, side: int) -> bool:
    """`side`'s Magic creatures fire as Melee (C.8 Dispell is separate; R21.9 Magician)."""
    return False


@point("any")
def fights_as_populous(s: GameState, side: int) -> bool:
    """R21.12 Populous (R22.2 Lenin too): `side`'s value-1 attackers roll 3n - 1 dice."""
    return False


@point()
def damage_destroys(s: GameState, roll: int) -> bool:
    """R13.10 a damage roll of 1 or 6 destroys (R21.15 Vandal)."""
    return roll in (1, 6)


@point("any")
def can_fly_away(s: GameState, side: int) -> bool:
    """Something of `side` may retreat alone (R21.2 the Aviator's flyer)."""
    return False


@point("each")
def retreat_options(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """RETREAT: further answers (R21.2 the Aviator's flyer alone)."""


@point("any")
def retreat_alone(s: GameState, lay: ActionLayout, action: int) -> bool:
    """RETREAT answered: True when an optional rule took the answer (R21.2)."""
    return False


# ----- exploration -----

@point()
def defenders(s: GameState, player: int, roll: int) -> int:
    """R12.2.2 the defenders an exploration roll draws: 1 or 6 none, else the roll (R21.6 Explorer)."""
    return 0 if roll in (1, 6) else roll

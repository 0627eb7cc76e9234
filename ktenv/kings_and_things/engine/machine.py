"""The phase machine: stops at a decision point, exposes the legal actions, resumes on one.

`new_game(config, seed)` -> state at its first decision; `legal_mask(state)` -> int8 mask;
`step(state, action)` applies one legal action and runs the automatic parts of the rules up to
the next decision. A decision with a single legal action is taken automatically (it is no
choice), so every decision an agent sees has at least two options.

C++ twin: native/src/engine/machine.cpp
"""

from __future__ import annotations

import numpy as np

from ...errors import IllegalActionError
from ...gamekit.native import resolve_backend as resolve_native
from .. import decisions as D
from ..config import GameConfig
from ..constants import SCREEN
from ..state import (
    GAME_OVER,
    PHASE_NAMES,
    GameState,
)
from . import (
    balloon,
    boat,
    combat,
    construction,
    events,
    heroes,
    house,
    income,
    interrupts,
    kadab,
    movement,
    placement_turn,
    powers,
    recruiting,
    setup,
    special_powers,
    victory,
)
from .actions import NUMBER, PASS, YES, ActionLayout, layout
from .common import cash
from .describe import describe_action

# Each part of the turn registers its phase runner(s) and decision rules. The optional rules (kadab: R20.3,
# powers: R21, house and boat: R22) register their hook implementations (`hooks`) when imported here; the
# core modules never import them.
PARTS = (setup, income, heroes, recruiting, placement_turn, events, movement, balloon, combat, construction,
         special_powers, victory, interrupts, powers, house, boat, kadab)
RUNNERS: dict = {}
DECISIONS: dict[int, tuple] = {}
for _part in PARTS:
    RUNNERS.update(getattr(_part, "RUNNERS", {}))
    DECISIONS.update(getattr(_part, "DECISIONS", {}))




def new_game(config: GameConfig | None = None, seed: int = 0, backend: str = "auto") -> GameState:
    """A new game at its first decision. `backend`: "python" (this engine, the reference), "native" (the
    C++ core in `native`: the same game bit for bit) or "auto" (native when it is built, else Python)."""
    cfg = config or GameConfig()
    if resolve_backend(backend) == "native":
        from ..native.game import NativeGame

        return NativeGame.new(cfg, seed)
    s = GameState(cfg, seed)
    setup.start_game(s)
    _advance(s)
    return s


def resolve_backend(backend: str = "auto") -> str:
    """"native" or "python": what `backend` means here (`ktenv.gamekit.native.resolve_backend`)."""
    from .. import native

    return resolve_native(backend, native)


def legal_mask(s: GameState) -> np.ndarray:
    """int8 mask over the whole action space; all zeros once the game is over."""
    if type(s) is not GameState:
        return s.legal_mask()  # a native game
    if s._mask is None:
        lay = layout(s)
        mask = np.zeros(lay.size, np.int8)
        if s.decision != D.NONE:
            DECISIONS[s.decision][0](s, lay, mask)
            _cash_options(s, lay, mask)
        s._mask = mask
    return s._mask


def _cash_options(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """RD8.1: the actor may cash any treasure behind the screen at every own decision."""
    for i, c in enumerate(lay.treasure_ids):
        if s.thing_place[c] == SCREEN and s.thing_owner[c] == s.actor:
            mask[lay.cash + i] = 1


def legal_actions(s: GameState) -> np.ndarray:
    return np.flatnonzero(legal_mask(s))


# A checker the test suite installs (tests/conftest.py): shadow(s, action, play) plays the step on the
# native engine too and compares; None in normal use.
shadow = None


def step(s: GameState, action: int) -> None:
    """Apply one action of the current actor; an illegal one raises and changes nothing."""
    if type(s) is not GameState:
        s.step(action)  # a native game
        return
    if shadow is not None:
        shadow(s, action, _step)
        return
    _step(s, action)


def _step(s: GameState, action: int) -> None:
    mask = legal_mask(s)
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]  # a 0-d array, as a policy's predict() returns
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"action {action!r} ({type(action).__name__}) is not an action: expected a "
                                 "whole number (24.7 is not 24)")
    action = int(action)
    if s.phase == GAME_OVER:
        raise IllegalActionError("the game is over: no action is legal")
    if not 0 <= action < mask.size or not mask[action]:
        raise IllegalActionError(
            f"action {action} ({describe_action(s, action)}) is not legal now: "
            f"player {s.actor} must decide '{D.NAMES[s.decision]}' in phase '{PHASE_NAMES[s.phase]}'")
    s.stats["decisions"] += 1
    _apply(s, action)
    _advance(s)


def _apply(s: GameState, action: int) -> None:
    lay = layout(s)
    s._mask = None
    if lay.cash <= action < lay.player:
        cash(s, s.actor, lay.treasure_ids[action - lay.cash])
        if s.decision == D.DISCARD:
            interrupts.discard_done(s)  # cashing counts toward the limit (R17.1.2)
        return
    DECISIONS[s.decision][1](s, lay, action)


def _advance(s: GameState) -> None:
    """Run automatic rules until someone must choose between at least two actions."""
    while True:
        while s.decision == D.NONE and s.phase != GAME_OVER:
            if not interrupts.pending(s):
                RUNNERS[s.phase](s)
        if s.phase == GAME_OVER:
            s._mask = None
            return
        s._mask = None
        legal = np.flatnonzero(legal_mask(s))
        if legal.size != 1:
            return
        _apply(s, int(legal[0]))  # a forced move is no decision


def resume(s: GameState) -> GameState:
    """Run the automatic rules from `s` up to the next decision (one with at least two legal actions),
    as `step` does after an action: for a state arranged or edited by hand. Drops the cached mask first
    (`GameState.edited`). Returns the state."""
    if type(s) is not GameState:
        return s.resume()  # a native game
    s.edited()
    _advance(s)
    return s


__all__ = ["new_game", "legal_mask", "legal_actions", "step", "resume", "describe_action", "IllegalActionError",
           "layout", "NUMBER", "PASS", "YES"]

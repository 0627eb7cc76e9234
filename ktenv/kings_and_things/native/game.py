"""A game on the native engine, offering what a Python `GameState` offers its callers.

`NativeGame.new(cfg, seed)` plays the same game as `ktenv.kings_and_things.engine.new_game(cfg, seed)` on the Python
engine, bit for bit. It has the scalars (`actor`, `decision`, `phase`, `round`, ...), the state's arrays
(numpy views of native memory), `game_over`, `winners`, `reason`, `stats`, `legal_mask()`, `step()`
(an illegal action raises `IllegalActionError` and changes nothing), `describe_action()`, `copy()`,
`to_dict()` / `to_json()` (the same text as the Python state's) and pickling. Anything else a caller asks
for (the procedure frames, `check_invariants`, `screen(p)`, ...) is answered by the equivalent Python
`GameState`, built from the native state when first asked for after a step (`to_python()`).
Every config is played natively: the base game and the optional content of R20-R22.
"""

from __future__ import annotations

import json

import numpy as np

from ...errors import IllegalActionError
from ...rng import Dice
from .. import decisions as D
from ..config import GameConfig
from ..engine.describe import describe_action
from ..procedures import frame_from_dict
from ..state import _ARRAYS, _KADAB_ARRAYS, _SCALARS, GAME_OVER, PHASE_NAMES, SCHEMA, SCHEMA_VERSION, GameState
from . import core
from .bridge import rules_for


class NativeGame:
    """One game in native memory (see the module's docstring)."""

    __slots__ = ("cfg", "_s", "_mask", "_py")

    def __init__(self, cfg: GameConfig, state) -> None:
        self.cfg = cfg
        self._s = state
        self._mask: np.ndarray | None = None
        self._py: GameState | None = None

    @classmethod
    def new(cls, cfg: GameConfig, seed: int = 0) -> NativeGame:
        return cls(cfg, core().State.new_game(rules_for(cfg), int(seed)))

    @classmethod
    def from_python(cls, s: GameState) -> NativeGame:
        return cls(s.cfg, core().State.from_python_with(s, rules_for(s.cfg)))

    # ----- what callers use
    @property
    def native(self):
        """The native state (ktenv.kings_and_things.native._core.State)."""
        return self._s

    @property
    def game_over(self) -> bool:
        return self._s.phase == GAME_OVER

    # the scalars read at every step, without __getattr__'s detour
    @property
    def actor(self) -> int:
        return self._s.actor

    @property
    def phase(self) -> int:
        return self._s.phase

    @property
    def decision(self) -> int:
        return self._s.decision

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def n_players(self) -> int:
        return self.cfg.n_players

    @property
    def winners(self) -> list[int]:
        return list(self._s.winners)

    @property
    def reason(self) -> str:
        return self._s.reason

    @property
    def stats(self) -> dict:
        return self._s.stats

    def legal_mask(self) -> np.ndarray:
        if self._mask is None:
            mask = np.zeros(self._s.layout_size, np.int8)
            self._s.legal_mask(mask)
            self._mask = mask
        return self._mask

    def step(self, action) -> None:
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action {action!r} ({type(action).__name__}) is not an action: expected a "
                                     "whole number (24.7 is not 24)")
        action = int(action)
        mask = self.legal_mask()
        if self.game_over:
            raise IllegalActionError("the game is over: no action is legal")
        if not 0 <= action < mask.size or not mask[action]:
            raise IllegalActionError(
                f"action {action} ({self.describe_action(action)}) is not legal now: player {self._s.actor} must "
                f"decide '{D.NAMES[self._s.decision]}' in phase '{PHASE_NAMES[self._s.phase]}'")
        self._s.step_legal(action)  # checked above against the same mask
        self._mask = None
        self._py = None

    def edited(self) -> NativeGame:
        """Say that the arrays were changed by hand (through their views): cached answers are dropped."""
        self._mask = None
        self._py = None
        self._s.edited()
        return self

    def resume(self) -> NativeGame:
        """Run the automatic rules up to the next decision (ktenv.kings_and_things.engine.resume)."""
        self.edited()
        self._s.advance()
        return self

    # ----- observations (ktenv.kings_and_things.env.observation's encoder hands native games here)
    def encode_observation(self, encoder, p: int) -> np.ndarray:
        """Player `p`'s observation in `encoder`'s layout (a Python ObservationEncoder), encoded natively."""
        from .observation import encoder_like

        return encoder_like(encoder).encode(self, p)

    def encode_observation_into(self, encoder, p: int, row: np.ndarray) -> None:
        from .observation import encoder_like

        encoder_like(encoder).encode_into(self, p, row)

    def player_stats(self) -> np.ndarray:
        """ktenv.kings_and_things.env.stats.player_stats, computed natively."""
        from .observation import stats_encoder

        return stats_encoder(self.cfg).player_stats(self)

    def describe_action(self, action: int) -> str:
        return describe_action(self.to_python(), action)

    def copy(self) -> NativeGame:
        return NativeGame(self.cfg, self._s.copy())

    def to_python(self) -> GameState:
        """The same game as a Python GameState (built once per position)."""
        if self._py is None:
            s, ns = GameState(self.cfg), self._s
            for name in _ARRAYS:
                getattr(s, name)[...] = getattr(ns, name)
            for name in _SCALARS:
                setattr(s, name, getattr(ns, name))
            s.frames = [frame_from_dict(f) for f in ns.frames_list()]
            s.hex_stack, s.hex_aside = list(ns.hex_stack), list(ns.hex_aside)
            s.rng = Dice.from_json({"state": ns.rng_state, "script": ns.rng_script})
            s.winners, s.reason, s.stats = list(ns.winners), ns.reason, dict(ns.stats)
            self._py = s
        return self._py

    def to_dict(self) -> dict:
        native = self._s.to_dict()
        data = {"schema": SCHEMA, "version": SCHEMA_VERSION, "config": self.cfg.to_dict()}
        for name in _ARRAYS:
            if name in _KADAB_ARRAYS and not self.cfg.mysterious_kadab:
                continue
            data[name] = native[name]
        for name in _SCALARS:
            data[name] = native[name]
        for name in ("frames", "hex_stack", "hex_aside", "rng", "winners", "reason", "stats"):
            data[name] = native[name]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> NativeGame:
        return cls.from_python(GameState.from_json(text))

    def __getstate__(self) -> str:
        return self.to_json()

    def __setstate__(self, text: str) -> None:
        other = NativeGame.from_json(text)
        self.cfg, self._s, self._mask, self._py = other.cfg, other._s, None, None

    def __deepcopy__(self, memo: dict) -> NativeGame:
        return self.copy()

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _SCALARS or name in _ARRAYS:
            return getattr(self._s, name)
        return getattr(self.to_python(), name)

    def __repr__(self) -> str:
        return (f"<NativeGame {self.cfg.n_players} players, round {self._s.round}, phase {self._s.phase}, "
                f"decision {self._s.decision}, actor {self._s.actor}>")

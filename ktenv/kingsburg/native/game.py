"""A Kingsburg game on the native engine, offering what a Python `KingsburgState` offers its callers.

`NativeKingsburg.new(cfg, seed)` plays the same game as `machine.new_game(cfg, seed, backend="python")`, bit for
bit. It has the state's scalars and arrays (numpy views of native memory), `game_over`, `winners`, `season`,
`owns`, `building_count`, `goods_count`, `copy()`, `to_json()` (the Python state's text), pickling and the
state's checks (`check_invariants`, which read the native arrays); `machine.legal_mask` and `machine.step` play
it. `to_python()` gives the equal Python state.
"""

from __future__ import annotations

import json

import numpy as np

from ...rng import Dice
from ..config import KingsburgConfig
from ..state import _ARRAY_FIELDS, _INT_FIELDS, SCHEMA, SEASON_OF_PHASE, KingsburgState
from . import core


class NativeKingsburg(KingsburgState):
    """One game in native memory (see the module's docstring). A `KingsburgState` to its callers (environments
    restore it, `==` compares the saved text); every field reads the native game."""

    __slots__ = ("_s",)

    def __init__(self, cfg: KingsburgConfig, state) -> None:
        self.cfg = cfg
        self._s = state

    @classmethod
    def new(cls, cfg: KingsburgConfig, seed: int = 0) -> NativeKingsburg:
        return cls(cfg, core().State.new_game(cfg, Dice(seed).state))

    @classmethod
    def from_python(cls, s: KingsburgState) -> NativeKingsburg:
        return cls(s.cfg, core().State.from_python(s))

    @classmethod
    def from_json(cls, text: str) -> NativeKingsburg:
        """A native game from a saved game's text (checked as `KingsburgState.from_json` checks it)."""
        return cls.from_python(KingsburgState.from_json(text))

    @property
    def native(self):
        """The native state (ktenv.kingsburg.native._kingsburg_core.State)."""
        return self._s

    @property
    def n_players(self) -> int:
        return self.cfg.n_players

    @property
    def game_over(self) -> bool:
        return self._s.game_over

    @property
    def winners(self) -> list[int]:
        return list(self._s.winners)

    @property
    def rng(self) -> Dice:
        """A copy of the game's generator (drawing from it does not change the game)."""
        dice = Dice(state=self._s.rng_state)
        dice.script = list(self._s.rng_script)
        return dice

    # ----- derived facts, as KingsburgState has them
    @property
    def season(self) -> int:
        return SEASON_OF_PHASE.get(self._s.phase, -1)

    def owns(self, player: int, building: tuple[int, int]) -> bool:
        return bool(self._s.built[player, building[0], building[1]])

    def building_count(self, player: int) -> int:
        return int(self._s.built[player].sum())

    def goods_count(self, player: int) -> int:
        return int(self._s.goods[player].sum())

    # ----- the engine (machine.legal_mask and machine.step call these)
    def legal_mask(self) -> np.ndarray:
        return self._s.legal_mask()

    def apply(self, action: int) -> None:
        """A legal action (machine.step has checked it), played natively."""
        self._s.apply(int(action))

    # ----- copy, JSON, pickling, comparison
    def copy(self) -> NativeKingsburg:
        return NativeKingsburg(self.cfg, self._s.copy())

    def __deepcopy__(self, memo) -> NativeKingsburg:
        return self.copy()

    def to_json(self) -> str:
        d = {"schema": SCHEMA, "config": self.cfg.to_dict(), "rng": self.rng.to_json()}
        d.update(self._s.fields())
        return json.dumps(d, separators=(",", ":"))

    def to_python(self) -> KingsburgState:
        """The equal Python state."""
        s = KingsburgState(self.cfg)
        s.rng = self.rng
        fields = self._s.fields()
        s.game_over, s.winners = fields["game_over"], fields["winners"]
        for name in _INT_FIELDS:
            setattr(s, name, fields[name])
        for name, (dtype, _) in _ARRAY_FIELDS.items():
            setattr(s, name, np.array(fields[name], dtype))
        return s

    def __getstate__(self) -> str:
        return self.to_json()

    def __setstate__(self, text: str) -> None:
        s = KingsburgState.from_json(text)
        self.cfg, self._s = s.cfg, core().State.from_python(s)

    __hash__ = None


def _scalar(name: str) -> property:
    return property(lambda self: getattr(self._s, name), doc=f"the state's {name}")


for _name in (*_INT_FIELDS, *_ARRAY_FIELDS):
    setattr(NativeKingsburg, _name, _scalar(_name))

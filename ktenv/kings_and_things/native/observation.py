"""The observation encoder in native code, bit-exact with `ktenv.kings_and_things.env.observation.ObservationEncoder`.

The layout stays defined in Python: `plan_numbers(encoder)` reads every offset, lookup table and
register of a Python `ObservationEncoder` and the native plan (`_core.ObservationPlan`) is built from
them once per config, so the two encoders can never disagree on where a value goes.

`NativeObservationEncoder` has the Python encoder's API (`encode`, `encode_into`, `size`, `layout`)
for native games (`ktenv.kings_and_things.native.game.NativeGame`, or a `_core.State`); a Python `GameState` is
converted first (slow: for tests). `encode_all` writes every seat's observation at once.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..env.observation import (
    _INC_COMBAT1,
    _INC_VALUE1,
    _KING,
    _LORD_FACES,
    _TERRAIN9,
    ACTOR,
    HERO,
    HEX,
    LENGTH,
    OWN_SIDE,
    OWNER,
    PER_SIDE,
    PUBLIC,
    SCALAR,
    SIDE,
    THING,
    ObservationEncoder,
)
from ..env.stats import _DWARF_KING, _INCOME_VALUE
from . import core

_KINDS = {SCALAR: 0, HEX: 1, THING: 2, HERO: 3, SIDE: 4, PER_SIDE: 5, OWN_SIDE: 6}
_VISIBLE = {PUBLIC: 0, ACTOR: 1, OWNER: 2}
_FIELD = -2  # the native code of "the field itself" (Python: index None)


def plan_numbers(enc: ObservationEncoder) -> tuple[dict, dict, list]:
    """(ints, tables, registers) of a Python encoder, as `_core.ObservationPlan.make` takes them."""
    cfg, n, nt, nf = enc.cfg, enc.n, enc.n_things, enc.n_faces
    catalog = cat.catalog_for(n, cfg.house_content)
    ints = {k: int(v) for k, v in enc.o.items()}
    ints.update(
        n=n, h=enc.h, nt=nt, nf=nf, size=enc.size, n_decisions=D.N_DECISIONS,
        players_start=enc.players_start,
        max_rounds=-1 if cfg.max_rounds is None else int(cfg.max_rounds),
        cup_size_public=int(bool(cfg.cup_size_public)),
        fort_unlimited=int(cfg.fort_supply == "unlimited"),
        encounter_powers=int(bool(cfg.encounter_powers)),
        king_power=_KING, dwarf_king=_DWARF_KING,
    )

    def flat(a) -> list[float]:
        return np.asarray(a, np.float64).ravel().tolist()

    counter, side = enc._face_up
    tables = {
        "side_of": flat(enc.side_of),
        "hex_owner_lut": flat(enc.hex_owner_lut),
        "thing_owner_lut": flat(enc.thing_owner_lut),
        "hero_owner_lut": flat(enc.hero_owner_lut),
        "stack_lut": flat(enc.stack_lut),
        "income_kind_lut": flat(enc.income_kind_lut),
        "kind": flat(enc._kind),
        "terrain9": flat(_TERRAIN9[:nt]),
        "thing_terrain": flat(catalog.THING_TERRAIN),
        "feature_key": flat(enc.feature_key),
        "income_value": flat(_INCOME_VALUE[:nt]),
        "inc_value1": flat(_INC_VALUE1[:nt + 1]),
        "inc_combat1": flat(_INC_COMBAT1[:nt + 1]),
        "combat": flat(enc._combat),
        "gold": flat(enc._gold),
        "hero_combat": flat(enc._hero_combat),
        "not_income": flat(enc._not_income),
        "is_creature": flat(enc._is_creature),
        "is_mine": flat(cat.THING_IS_MINE[:nt]),
        "face_counter": flat(counter),
        "face_side": flat(side),
        "lord_terrain": flat(cat.HERO_LORD_TERRAIN[:nf]),
        "lord_faces": flat(_LORD_FACES),
        "fort_count": flat(enc.fort_count),
    }
    registers = []
    for cls, plan in enc.frame_plan.items():
        for name, r, offset, index in plan:
            code = _FIELD if index is None else (LENGTH if index == LENGTH else int(index))
            registers.append((cls.__name__, name, _KINDS[r.kind], _VISIBLE[r.visible], float(r.high),
                              int(offset), code))
    return ints, tables, registers


def native_state(state):
    """The native state of a NativeGame, a `_core.State` as is, a Python GameState converted."""
    c = core()
    if isinstance(state, c.State):
        return state
    native = getattr(state, "native", None)
    if native is not None and isinstance(native, c.State):
        return native
    from .bridge import to_native

    return to_native(state)


class NativeObservationEncoder:
    """`ObservationEncoder`'s API over the native encoder (one plan per config)."""

    def __init__(self, cfg, n_hexes: int | None = None, *, encoder: ObservationEncoder | None = None) -> None:
        if encoder is None:
            if n_hexes is None:
                from ..board import board_radius, geometry

                n_hexes = geometry(board_radius(cfg.n_players)).n_hexes
            encoder = ObservationEncoder(cfg, n_hexes)
        self.python = encoder
        self.cfg = encoder.cfg
        self.layout = encoder.layout
        self.size = encoder.size
        self.n = encoder.n
        self.plan = core().ObservationPlan.make(*plan_numbers(encoder))

    def encode(self, state, p: int, stats=None) -> np.ndarray:
        """The observation of player `p`: a new float32 array of `self.size`."""
        out = np.empty(self.size, np.float32)
        self.plan.encode(native_state(state), int(p), out)
        return out

    def encode_into(self, state, p: int, row: np.ndarray, stats=None) -> None:
        """Write the observation of player `p` into `row` (no allocation when it is C-contiguous float32)."""
        if row.dtype == np.float32 and row.flags.c_contiguous and row.ndim == 1 and row.flags.writeable:
            self.plan.encode(native_state(state), int(p), row)
        else:
            row[:] = self.encode(state, p)

    def encode_all(self, state, out: np.ndarray | None = None) -> np.ndarray:
        """Every seat's observation, out[p] for p = 0 .. n-1 (float32[n_players, size])."""
        if out is None:
            out = np.empty((self.n, self.size), np.float32)
        self.plan.encode_all(native_state(state), out)
        return out

    def player_stats(self, state) -> np.ndarray:
        """`ktenv.kings_and_things.env.stats.player_stats` of the state, computed natively."""
        return self.plan.player_stats(native_state(state))

    def time_encode(self, state, player: int, count: int = 10_000) -> float:
        """Seconds per observation measured in native code (player -1: a whole encode_all per call)."""
        return self.plan.time_encode(native_state(state), int(player), int(count))


_LIKE: dict = {}  # (config, board) -> native encoder
_BY_ID: dict = {}  # id(python encoder) -> (weak reference to it, native encoder): the fast path


def encoder_like(enc: ObservationEncoder) -> NativeObservationEncoder:
    """The native encoder with `enc`'s layout (one per config and board, shared: the plan holds no state)."""
    entry = _BY_ID.get(id(enc))
    if entry is not None and entry[0]() is enc:
        return entry[1]
    key = (enc.cfg, enc.h)  # GameConfig is frozen: equal configs share a key
    native = _LIKE.get(key)
    if native is None:
        native = _LIKE[key] = NativeObservationEncoder(enc.cfg, encoder=enc)
    if len(_BY_ID) > 1024:
        _BY_ID.clear()
    _BY_ID[id(enc)] = (weakref.ref(enc), native)
    return native


def stats_encoder(cfg) -> NativeObservationEncoder:
    """A native encoder of `cfg` (for its player statistics), built once per config."""
    key = cfg  # frozen and hashable (not to_dict(): that deep-copies on every call)
    native = _STATS.get(key)
    if native is None:
        native = _STATS[key] = NativeObservationEncoder(cfg)
    return native


_STATS: dict = {}

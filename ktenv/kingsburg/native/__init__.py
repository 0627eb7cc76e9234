"""Kingsburg's native engine (C++20, nanobind; sources in src/), built by `pip install -e .` beside the Kings &
Things core (CMakeLists.txt, target ``_kingsburg_core``).

The Python engine (ktenv/kingsburg/*.py) is the reference and the oracle; this one is bit-exact with it: the
same generator (ktenv/rng.py), the same order of rolls, the same decisions, masks and saved state
(tests/kingsburg/test_kingsburg_native.py). `available()` says whether the compiled module loaded; `core()`
returns it, with the enemy deck of ``data/enemies.json`` handed over, or raises `NativeUnavailableError`.
`NativeKingsburg` (game.py) is a game on it that offers what a `KingsburgState` offers.
"""

from __future__ import annotations

from types import ModuleType

from ...gamekit.native import BUILD_HINT, NativeUnavailableError, unavailable

try:
    from . import _kingsburg_core as _core  # type: ignore[attr-defined]

    _REASON = ""
except ImportError as exc:  # a source checkout that was never built, or a build for another Python
    _core = None
    _REASON = str(exc)

if _core is not None:
    from .. import catalog as _cat

    _core.set_deck([(c.year, _cat.ENEMY_TYPES.index(c.enemy), c.strength, list(c.reward), list(c.losses))
                    for c in _cat.ENEMY_CARDS])

__all__ = ["BUILD_HINT", "NativeUnavailableError", "available", "core"]


def available() -> bool:
    return _core is not None


def core() -> ModuleType:
    if _core is None:
        raise unavailable("the native Kingsburg engine", _REASON)
    return _core

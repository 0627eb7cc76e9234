"""The native core (C++20, nanobind): built by `pip install -e .` (scikit-build-core, CMakeLists.txt).

`available()` says whether the compiled module loaded; `core()` returns it or raises `NativeUnavailableError`
with the reason and the command that builds it. The Python engine (ktenv.kings_and_things.engine) is the reference
and the oracle: everything here is bit-exact with it (tests/native/test_native.py).
"""

from __future__ import annotations

from types import ModuleType

from ...gamekit.native import BUILD_HINT, NativeUnavailableError, unavailable

try:
    from . import _core  # type: ignore[attr-defined]

    _REASON = ""
except ImportError as exc:  # a source checkout that was never built, or a build for another Python
    _core = None
    _REASON = str(exc)


def available() -> bool:
    return _core is not None


def core() -> ModuleType:
    if _core is None:
        raise unavailable("the native core", _REASON)
    return _core


__all__ = ["BUILD_HINT", "NativeUnavailableError", "available", "core"]

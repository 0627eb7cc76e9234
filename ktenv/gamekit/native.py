"""A game's compiled engine: the error when it is not built, and what an engine name means.

Each game's native package (``ktenv/<game>/native/``) imports its compiled module and keeps ``available()`` and
``core()``; the games' ``resolve_backend`` is `resolve_backend` here, over that package."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

BACKENDS = ("auto", "python", "native")
BUILD_HINT = "pip install -e .  (builds the native engines with the machine's C++20 compiler and CMake)"


class NativeUnavailableError(ImportError):
    """A game's compiled engine is not built in this checkout or install."""


class NativePackage(Protocol):
    def available(self) -> bool: ...

    def core(self) -> ModuleType: ...


def unavailable(what: str, reason: str) -> NativeUnavailableError:
    """The error for `what` (e.g. "the native core") not built, with why and the command that builds it."""
    return NativeUnavailableError(f"{what} is not built ({reason}); build it with: {BUILD_HINT}")


def resolve_backend(backend: str, native: NativePackage) -> str:
    """"native" or "python": what `backend` means ("auto": native when it is built). ConfigError for an unknown
    name; NativeUnavailableError for "native" when the engine is not built."""
    if backend not in BACKENDS:
        from ..errors import ConfigError

        raise ConfigError(f"engine {backend!r}: one of {', '.join(BACKENDS)}")
    if backend == "python":
        return "python"
    if backend == "auto":
        return "native" if native.available() else "python"
    native.core()  # raises NativeUnavailableError with the build command
    return "native"


def seed_words(seed) -> np.ndarray:
    """A seed as numpy's SeedSequence reads it: the 32-bit words of a non-negative int, least significant first
    (what a native agent seeds its copy of ``numpy.random.default_rng`` with); None draws fresh entropy from
    the OS, like ``numpy.random.default_rng(None)``."""
    import numpy as np

    if seed is None:
        seed = np.random.SeedSequence().entropy
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"native agent: the seed must be a non-negative int or None, not {seed!r}")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"native agent: the seed must be non-negative, not {seed}")
    words = [seed & 0xFFFFFFFF]
    seed >>= 32
    while seed:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
    return np.array(words, np.uint32)

"""The decision codes, as the engine's parts name them (``from . import decisions as D``).

The codes live in `ktenv.decisions`, beside the state whose ``decision`` field holds them (the state
checks a saved code against them without importing the engine); this module re-exports every name.

C++ twin: native/src/generated.hpp (namespace decision, written by native/gen.py)
"""

from ..decisions import *  # noqa: F403
from ..decisions import N_DECISIONS, NAMES, n_decisions  # noqa: F401 (named for readers and type checkers)

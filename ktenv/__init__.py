"""ktenv: a research environment and bot arena for the board game Kings & Things.

``ktenv.env(**config)`` is the PettingZoo AEC environment, ``ktenv.raw_env`` its bare class and
``ktenv.SingleAgentEnv`` the Gymnasium single-agent wrapper, registered on import as
``gymnasium.make("ktenv/KingsAndThings-v0", ...)``. The environment modules (and PettingZoo) are
imported on first use, so ``import ktenv.engine`` stays light.
"""

import importlib.abc
import importlib.util
import sys
from pathlib import Path

__version__ = "0.2.0"

GYM_ID = "ktenv/KingsAndThings-v0"
KINGSBURG_GYM_ID = "ktenv/Kingsburg-v0"

# name -> (module, attribute); `ktenv.env` is the callable package ktenv/env (ktenv.env(**config)).
_LAZY = {"env": ("ktenv.env", None), "raw_env": ("ktenv.env.aec", "raw_env"),
         "SingleAgentEnv": ("ktenv.env.single", "SingleAgentEnv")}

__all__ = ["GYM_ID", "SingleAgentEnv", "__version__", "env", "raw_env"]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module_name, attribute = _LAZY[name]
        value = importlib.import_module(module_name)
        if attribute is not None:
            value = getattr(value, attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ktenv' has no attribute {name!r}")


def _register() -> None:
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # gymnasium is a core dependency; tolerate its absence for engine-only use
        return
    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="ktenv.env.single:SingleAgentEnv")
    if KINGSBURG_GYM_ID not in registry:  # the second game (issue 19): ktenv/kingsburg/single.py
        register(id=KINGSBURG_GYM_ID, entry_point="ktenv.kingsburg.single:KingsburgSingleEnv")


_register()


# The repository keeps agents/ and training/ beside ktenv/; an install maps them to ktenv.agents and
# ktenv.training (pyproject.toml). Running from a source checkout that was not installed (or beside
# another checkout's install) maps them the same way, so a checkout always runs its own code.
_ROOT = Path(__file__).resolve().parent.parent
_SOURCE_PACKAGES = {"ktenv.agents": _ROOT / "agents", "ktenv.training": _ROOT / "training"}


class _SourceCheckoutFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        folder = _SOURCE_PACKAGES.get(fullname)
        if folder is None:
            return None
        return importlib.util.spec_from_file_location(fullname, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])


if (_ROOT / "pyproject.toml").is_file() and all((f / "__init__.py").is_file() for f in _SOURCE_PACKAGES.values()):
    sys.meta_path.insert(0, _SourceCheckoutFinder())

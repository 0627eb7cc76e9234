"""ktenv: a research environment and bot arena for the board game Kings & Things.

``ktenv.env(**config)`` is the PettingZoo AEC environment, ``ktenv.raw_env`` its bare class and
``ktenv.SingleAgentEnv`` the Gymnasium single-agent wrapper, registered on import as
``gymnasium.make("ktenv/KingsAndThings-v0", ...)``. The environment modules (and PettingZoo) are
imported on first use, so ``import ktenv.engine`` stays light.
"""

__version__ = "0.1.0"

GYM_ID = "ktenv/KingsAndThings-v0"

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


_register()

"""ktenv: a research environment and bot arena for board games with hidden information (`ktenv.registry`).

``ktenv.env(**config)`` is the default game's PettingZoo AEC environment (``ktenv.env(game=NAME)``
another's), ``ktenv.raw_env`` its bare class, ``ktenv.SingleAgentEnv`` its Gymnasium single-agent
wrapper and ``ktenv.VectorEnv`` its batched games. Every registered game is a Gymnasium id on import
(its spec's ``gym_id``, for ``gymnasium.make``). Nothing heavy is imported here: the games' modules
load on first use.
"""

from __future__ import annotations

from typing import Any

from . import registry

__version__ = "0.3.0"

__all__ = ["GYM_ID", "SingleAgentEnv", "VectorEnv", "__version__", "env", "raw_env", "registry"]


def env(game: str | None = None, **config: Any):
    """The AEC environment of `game` (the default game when None) with PettingZoo's usual wrappers."""
    return registry.game(game).env(**config)


def __getattr__(name: str):
    if name == "raw_env":
        return registry.default().raw_env
    if name == "SingleAgentEnv":
        return registry.default().single_env
    if name == "GYM_ID":
        return registry.default().gym_id
    if name == "VectorEnv":  # the default game's batched games
        return registry.default().vector_env
    raise AttributeError(f"module 'ktenv' has no attribute {name!r}")


def _register_gym_ids() -> None:
    try:
        from gymnasium.envs.registration import register
        from gymnasium.envs.registration import registry as gym_registry
    except ImportError:  # gymnasium is a core dependency; tolerate its absence for engine-only use
        return
    for name in registry.names():
        spec = registry.game(name)
        if spec.gym_id not in gym_registry:
            register(id=spec.gym_id, entry_point=spec.parts["single_env"])


_register_gym_ids()

"""Learned agents: a model trained by `ktenv train` behind the agent protocol.

    agents.make("ppo:runs/ppo_2p/final.zip")          # the most likely legal action
    agents.make("ppo-sample:runs/ppo_2p/final.zip")   # sampled from the masked policy

The model zip is read safely and without torch (`agents.network`: the weights through an unpickler
that refuses anything but tensors, the network description from JSON) and plays the policy's actor
path in numpy, so the first move comes within a second and tournament workers never import torch.
Each process loads a file once (a cache keyed by path and modification time), so a tournament that
makes a fresh agent every game pays the load once. Sampling uses the agent's own seeded generator,
never torch's global one, so a seed reproduces a game.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .base import ModelCache
from .network import ModelFileError, load_actor

_CACHE = ModelCache(load_actor, ModelFileError)


def load_cached(path: str | Path):
    """(`ActorNetwork`, meta) of a model file, loaded once per process."""
    return _CACHE.get(path)


class PPOAgent:
    """A trained MaskablePPO policy; `deterministic` takes the best legal action, else samples."""

    needs_observation = True

    def __init__(self, path: str | Path, deterministic: bool = True, seed: int | None = None) -> None:
        self.path = str(path)
        self.network, self.meta = load_cached(path)
        self.deterministic = deterministic
        self.name = ("ppo:" if deterministic else "ppo-sample:") + self.path
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask: np.ndarray) -> int:
        if isinstance(observation, dict):
            observation = observation["observation"]
        if observation is None:
            raise ValueError(f"{self.name}: needs the observation vector")
        size = self.meta["observation_size"]
        if observation.shape != (size,):
            raise ValueError(f"{self.name}: observation has shape {observation.shape}, the model was trained on "
                             f"({size},) (another player count or game options?)")
        legal = np.asarray(action_mask, bool)
        if not legal.any():
            raise ValueError(f"{self.name}: the action mask allows no action")
        logits = np.where(legal, self.network.logits(observation)[0].astype(np.float64), -np.inf)
        if self.deterministic:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        return int(self.rng.choice(p.size, p=p / p.sum()))


def make_deterministic(path: str, seed: int | None = None) -> PPOAgent:
    return PPOAgent(path, deterministic=True, seed=seed)


def make_sampled(path: str, seed: int | None = None) -> PPOAgent:
    return PPOAgent(path, deterministic=False, seed=seed)

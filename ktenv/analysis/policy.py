"""A trained model as the analysis reads it: its probabilities over the legal actions, and its value.

`load_policy("ppo:PATH")` reads the actor without torch (`ktenv.agents.network`: the same logits the
``ppo:`` agent plays by) and, when torch is installed, the critic through `ktenv.training.policy.load_network`;
``rllib:PATH`` reads both heads of an RLlib-trained model (`ktenv.agents.rllib_agent`, needs torch).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Policy:
    """`logits(observations) -> [rows, actions]`; `values(observations) -> [rows]` or None without a critic."""

    spec: str
    logits_of: Any
    values_of: Any = None

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The masked policy: a probability for every action, 0 for the illegal ones."""
        legal = np.asarray(mask, bool)
        if not legal.any():
            raise ValueError(f"{self.spec}: the action mask allows no action")
        logits = np.asarray(self.logits_of(observation[None]), np.float64)[0]
        logits = np.where(legal, logits, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def values(self, observations: np.ndarray, batch: int = 512) -> np.ndarray | None:
        """The critic's values of observations [rows, size], or None without a critic."""
        if self.values_of is None:
            return None
        parts = [np.asarray(self.values_of(observations[i:i + batch])).reshape(-1)
                 for i in range(0, len(observations), batch)]
        return np.concatenate(parts) if parts else np.zeros(0)


def entropy(p: np.ndarray) -> float:
    """In nats, over the actions of nonzero probability."""
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


def _torch_values(path: str):
    """The PPO critic, or None when torch (the ``train`` extra) is not installed."""
    try:
        import torch

        from ..training.policy import load_network
    except ImportError:
        return None
    network, _ = load_network(path)

    def values(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(observations, np.float32))
            return network.predict_values(x).reshape(-1).numpy()

    return values


def _rllib(path: str, spec: str) -> Policy:
    import torch

    from ..agents.rllib_agent import load_cached

    network, _ = load_cached(path)

    def embed(observations: np.ndarray):
        return network.embed(torch.as_tensor(np.asarray(observations, np.float32)))

    def logits(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return network.pi(embed(observations)).numpy()

    def values(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return network.value(embed(observations)).numpy()

    return Policy(spec, logits, values)


def load_policy(spec: str, value: bool = True) -> Policy:
    """``ppo:PATH`` (or ``ppo-sample:PATH``) or ``rllib:PATH``; `value=False` skips the critic (no torch)."""
    kind, _, path = spec.partition(":")
    if not path:
        raise ValueError(f"expected ppo:PATH or rllib:PATH, got {spec!r}")
    if kind == "rllib":
        return _rllib(path, spec)
    if kind not in ("ppo", "ppo-sample"):
        raise ValueError(f"{spec!r}: probes read ppo:PATH and rllib:PATH models")
    from ..agents.ppo import load_cached

    actor, _ = load_cached(path)
    return Policy(spec, actor.logits, _torch_values(path) if value else None)


__all__ = ["Policy", "entropy", "load_policy"]

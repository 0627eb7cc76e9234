"""A policy trained on RLlib (`ktenv train` with ``trainer: rllib``) behind the agent protocol.

    agents.make("rllib:runs/rllib_2p/final.zip")    # the most likely legal action

The network is plain torch, the same module the RLlib trainer wraps (training/rllib_train.py):

    symlog(observation) -> Linear(features) + ReLU -> policy MLP `pi` -> logits over Discrete(N)
                                                   -> value MLP `vf`  -> V

A model file is a zip with ``policy.pth`` (the network's state dict) and ``ktenv.json`` (the network,
the game, the step, ``"trainer": "rllib"``). It loads with ``torch.load(weights_only=True)`` and
JSON: nothing is unpickled, and playing needs torch only, not Ray. The agent sees its observation
and mask, nothing else.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import zipfile
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .base import ModelCache

FORMAT = 1
META_ENTRY = "ktenv.json"
WEIGHTS_ENTRY = "policy.pth"
TRAINER = "rllib"
ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh, "elu": nn.ELU}


class ModelFileError(ValueError):
    """A model file that cannot be used (missing, corrupt, not an RLlib-trained ktenv model)."""


def _mlp(width_in: int, widths: list[int], activation: str, width_out: int) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in widths:
        layers += [nn.Linear(width_in, width), ACTIVATIONS[activation]()]
        width_in = width
    return nn.Sequential(*layers, nn.Linear(width_in, width_out))


class ActorCritic(nn.Module):
    """symlog -> shared layer -> policy logits and value (see the module docstring)."""

    def __init__(self, observation_size: int, action_size: int, features: int, pi: list[int], vf: list[int],
                 activation: str = "relu") -> None:
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(observation_size, features), nn.ReLU())
        self.pi = _mlp(features, list(pi), activation, action_size)
        self.vf = _mlp(features, list(vf), activation, 1)

    def embed(self, observations: torch.Tensor) -> torch.Tensor:
        return self.shared(torch.sign(observations) * torch.log1p(torch.abs(observations)))

    def masked_logits(self, embeddings: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
        """Logits with the illegal actions at the float minimum (their probability 0)."""
        logits = self.pi(embeddings)
        return torch.where(action_mask > 0, logits, torch.finfo(logits.dtype).min)

    def value(self, embeddings: torch.Tensor) -> torch.Tensor:
        return self.vf(embeddings).squeeze(-1)


def build_network(meta: dict) -> ActorCritic:
    net = meta["network"]
    return ActorCritic(int(meta["observation_size"]), int(meta["action_size"]), int(net["features"]),
                       list(net["pi"]), list(net["vf"]), net.get("activation", "relu"))


# ----------------------------------------------------------------------------- files

def save_model(network: ActorCritic, path: str | Path, meta: dict) -> Path:
    """Weights and ``ktenv.json``, written under a temporary name first (never half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    weights = io.BytesIO()
    torch.save(network.state_dict(), weights)
    tmp = path.with_name(path.stem + ".partial.zip")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(WEIGHTS_ENTRY, weights.getvalue())
        archive.writestr(META_ENTRY, json.dumps({"format": FORMAT, "trainer": TRAINER, **meta}, indent=1))
    os.replace(tmp, path)
    return path


def load_model(path: str | Path) -> tuple[ActorCritic, dict]:
    """(network in eval mode, meta) from a model zip, safely (see the module docstring)."""
    path = Path(path)
    if not path.is_file():
        raise ModelFileError(f"{path}: no such model file")
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if META_ENTRY not in names or WEIGHTS_ENTRY not in names:
                raise ModelFileError(f"{path}: not a ktenv model ({META_ENTRY} and {WEIGHTS_ENTRY} expected inside)")
            meta = json.loads(archive.read(META_ENTRY).decode())
            blob = archive.read(WEIGHTS_ENTRY)
    except (zipfile.BadZipFile, OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFileError(f"{path}: not a readable model zip ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("trainer") != TRAINER:
        raise ModelFileError(f"{path}: not a model trained on RLlib by ktenv (format {FORMAT}, trainer "
                             f"'{TRAINER}'); a model of trainer sb3 plays as ppo:PATH")
    try:
        network = build_network(meta)
        network.load_state_dict(torch.load(io.BytesIO(blob), map_location="cpu", weights_only=True), strict=True)
    except (KeyError, TypeError, ValueError, RuntimeError, EOFError, pickle.UnpicklingError) as exc:
        raise ModelFileError(f"{path}: the weights do not fit the network in {META_ENTRY} ({exc})") from None
    network.eval()
    return network, meta


_CACHE = ModelCache(load_model, ModelFileError)


def load_cached(path: str | Path) -> tuple[ActorCritic, dict]:
    """(network, meta) of a model file, loaded once per process."""
    return _CACHE.get(path)


# ----------------------------------------------------------------------------- the agent

class RLlibAgent:
    """The trained policy's most likely legal action for its own observation."""

    needs_observation = True

    def __init__(self, path: str | Path, seed: int | None = None) -> None:
        self.path = str(path)
        self.network, self.meta = load_cached(path)
        self.name = f"rllib:{self.path}"

    def reset(self, seed: int | None = None) -> None:
        pass  # deterministic: the same observation and mask, the same action

    def act(self, observation, action_mask: np.ndarray) -> int:
        if isinstance(observation, dict):
            observation = observation["observation"]
        if observation is None:
            raise ValueError(f"{self.name}: needs the observation vector")
        size = self.meta["observation_size"]
        if np.shape(observation) != (size,):
            raise ValueError(f"{self.name}: observation has shape {np.shape(observation)}, the model was trained on "
                             f"({size},) (another player count or game options?)")
        legal = np.asarray(action_mask, bool)
        if not legal.any():
            raise ValueError(f"{self.name}: the action mask allows no action")
        with torch.no_grad():
            obs = torch.as_tensor(np.asarray(observation, np.float32)[None])
            logits = self.network.pi(self.network.embed(obs))[0].numpy().astype(np.float64)
        return int(np.argmax(np.where(legal, logits, -np.inf)))


def make(path: str, seed: int | None = None) -> RLlibAgent:
    return RLlibAgent(path, seed=seed)

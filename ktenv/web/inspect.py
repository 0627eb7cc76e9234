"""Asking an agent what it thinks of a position, from the seat's observation and mask alone.

A trained model shows its most likely legal actions with their probabilities and its value estimate: a
``ppo:PATH`` model's from its torch-free actor (the value when torch is installed: the value head is not in
that actor), an ``rllib:PATH`` model's from its torch network, which holds both heads; a rule agent with
``scores`` (``greedy``, ``expert``) shows its scores; a paired search (``ismcts``) its candidates with their
mean paired rollout differences from the first (the expert's move), and each seat's chance to win estimated
from worlds the seat cannot tell apart (where the game provides ``win_chances``); any other agent the action
it would play.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import agents as agent_table
from ..errors import ConfigError
from .session import action_list
from .views import view_of

TOP = 8  # actions shown


def inspect(spec: Any, state: Any, seat: int, agent_name: str) -> dict:
    """What `agent_name` (an agent of `spec`'s game) makes of `seat`'s decision in `state`."""
    if state.game_over or state.actor != seat:
        raise ConfigError("that seat has no decision to inspect at this position")
    if not agent_table.known(agent_name, spec.name) or agent_name == "human":
        raise ConfigError(f"unknown agent {agent_name!r} for {spec.title}")
    try:
        agent = agent_table.make(agent_name, spec.name, seed=0)
    except (OSError, ValueError) as exc:  # a missing or corrupt model file, a bad option
        raise ConfigError(f"agent {agent_name!r}: {exc}") from None
    view = view_of(spec)
    mask = spec.engine.legal_mask(state)
    obs = view.encode(state, seat)
    n = state.cfg.n_players
    names = ["you"] + [f"seat {(seat + k) % n + 1}" for k in range(1, n)]
    labels = {a["action"]: a["label"] for a in action_list(view, obs, mask, names)}
    out: dict = {"agent": agent_name}
    if getattr(agent, "network", None) is not None:
        logits, value = _model_outputs(agent, obs)
        logits = np.where(mask > 0, logits.astype(np.float64), -np.inf)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        order = [int(a) for a in np.argsort(-p) if mask[a]][:TOP]
        out["kind"] = "probabilities"
        out["actions"] = [{"action": a, "label": labels.get(a, str(a)), "value": round(float(p[a]), 4)} for a in order]
        out["value"] = value
        return out
    scores = getattr(agent, "scores", None)
    if scores is not None:
        legal, values = scores(obs, mask)
        order = np.argsort(-np.asarray(values, np.float64), kind="stable")[:TOP]
        out["kind"] = "scores"
        out["actions"] = [{"action": int(legal[i]), "label": labels.get(int(legal[i]), ""),
                           "value": round(float(values[i]), 3)} for i in order]
        return out
    chances = getattr(view, "win_chances", None)
    if getattr(agent, "needs_worlds", False) and chances is not None:  # a search: the seat's chances as well
        out["chances"] = chances(state.copy(), seat)
    a = int(agent.act(view.agent_observation(agent, state, seat, mask), mask))
    choices, gains = list(getattr(agent, "last_choices", []) or []), list(getattr(agent, "last_gains", []) or [])
    if choices and len(choices) == len(gains):  # a paired search: its candidates and their mean differences
        out["kind"] = "mean difference from the first candidate"
        out["actions"] = [{"action": int(c), "label": labels.get(int(c), str(c)) + (" (played)" if c == a else ""),
                           "value": round(float(g), 4)} for c, g in zip(choices, gains)]
        out["rounds"] = int(getattr(agent, "last_rounds", 0))
        return out
    out["kind"] = "choice"
    out["actions"] = [{"action": a, "label": labels.get(a, str(a)), "value": None}]
    return out


def _model_outputs(agent: Any, obs: np.ndarray) -> tuple[np.ndarray, float | None]:
    """A model agent's logits over every action and its value estimate (None where it cannot be had)."""
    size = (getattr(agent, "meta", None) or {}).get("observation_size")
    if size is not None and int(size) != obs.size:
        raise ConfigError(f"{agent.name}: the model was trained on observations of size {size}, this position's "
                          f"is {obs.size} (another player count or game options?)")
    network = agent.network
    if hasattr(network, "logits"):  # the torch-free actor of a ppo: model
        return network.logits(obs)[0], _value(agent, obs)
    import torch  # an rllib: model is a torch network with both heads

    with torch.no_grad():
        embedding = network.embed(torch.as_tensor(obs[None], dtype=torch.float32))
        return network.pi(embedding)[0].numpy(), round(float(network.value(embedding).reshape(-1)[0]), 4)


@lru_cache(maxsize=4)
def _torch_policy(load_network: Any, path: str, mtime: float) -> Any:
    """The model's torch policy, loaded once per file version (loading takes seconds)."""
    return load_network(path)[0]


def _value(agent: Any, obs: np.ndarray) -> float | None:
    """The model's value estimate of the position for the seat; None without torch."""
    try:
        import torch
        from ktenv.training.policy import load_network
    except ImportError:
        return None
    policy = _torch_policy(load_network, agent.path, Path(agent.path).stat().st_mtime)
    with torch.no_grad():
        value = policy.predict_values(torch.as_tensor(obs[None], dtype=torch.float32))
    return round(float(value.reshape(-1)[0]), 4)

"""What the tests of the network's options (the focus, the steer, the row scores) share: a model file with a
broken table, a game that refuses the option, and a smoke run that trains with it and plays."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest


def refuses_broken_meta(path: Path, meta: dict, match: str) -> None:
    """A copy of the model at `path` with `meta` as its ktenv.json is refused by the arena's loader."""
    from ktenv.agents.network import ModelFileError, load_actor
    from ktenv.training.policy import meta_bytes

    broken = path.with_name("broken.zip")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("ktenv.json", meta_bytes(meta))
        archive.writestr("policy.pth", source.read("policy.pth"))
    with pytest.raises(ModelFileError, match=match):
        load_actor(broken)


def refused_for_kingsburg(option: str) -> None:
    """A training config for Kingsburg with `policy.<option>` on is refused, naming the key."""
    from ktenv.training.config import TrainConfig

    from ktenv.errors import ConfigError

    with pytest.raises(ConfigError, match=f"policy.{option}"):
        TrainConfig.from_mapping({"env": {"game_name": "kingsburg", "players": 2}, "vec_env": "subproc",
                                  "policy": {option: True}, "imitation": {"teacher": None},
                                  "league": {"opponents": {"random": 1.0}}, "eval": {"opponents": ["random"],
                                                                                     "best_against": None}})


def train_and_play(tmp_path: Path, option: str, resume: bool = False, more: tuple[str, ...] = ()) -> dict:
    """A smoke run with `policy.<option>` on (and the options `more`, each KEY=VALUE, resumed once when asked), its
    final model then playing two arena games; returns the model's ktenv.json."""
    from ktenv.training.train_ppo import main as train_main

    from ktenv.arena import TournamentConfig, run_tournament

    from .test_training import SMOKE

    out = tmp_path / option
    args = ["--config", str(SMOKE), "--out", str(out), "--set", f"policy.{option}=true", "--set", "total_steps=1024",
            "--set", "eval.every=0", "--set", "env.max_rounds=3", *(a for m in more for a in ("--set", m))]
    assert train_main(args) == 0
    if resume:
        assert train_main(args + ["--resume", "--total-steps", "2048"]) == 0  # the checkpoint rebuilds its policy
    cfg = TournamentConfig(agents=[f"ppo:{out / 'final.zip'}", "random"], players=2, games=2, max_rounds=3,
                           seed=4, db=str(tmp_path / "t.sqlite"), workers=1, progress=False)
    report = run_tournament(cfg)
    assert len(report["games"]) == 2 and sum(s.games for s in report["standings"]) >= 2
    return json.loads(zipfile.ZipFile(out / "final.zip").read("ktenv.json"))


def small_model(folder: Path, option: str, table: dict, seed: int = 0, adjust=None):
    """(path, torch policy, meta) of an untrained 2-player model with `network.<option>` = `table` (`adjust`:
    `untrained_model`'s)."""
    from ktenv.kings_and_things.env.aec import game_config
    from ktenv.kings_and_things.vector import VectorEnv

    from ..models import untrained_model

    probe = VectorEnv(1, 2)
    meta = {"observation_size": probe.observation_size, "action_size": probe.n_actions,
            "network": {"features": 48, "pi": [32], "vf": [8], "activation": "relu", option: table},
            "game": game_config({"n_players": 2}).to_dict()}
    path = folder / f"{option}.zip"
    return path, untrained_model(path, meta, seed, adjust), meta


def reads_alike(path: Path, policy, rows):
    """The logits of `policy` (the torch network written at `path`) for observations `rows`, checked to be what the
    arena's numpy actor, `PlayingNetwork`, the file loaded back into torch, the training pass (`evaluate_actions`)
    and the native policy seat compute; returns (the numpy actor, the logits)."""
    import numpy as np
    import torch
    from ktenv.agents.network import load_actor
    from ktenv.training.policy import PlayingNetwork, batch_logits, load_network

    from ktenv.kings_and_things import native

    obs = torch.from_numpy(rows)
    with torch.no_grad():
        expected = batch_logits(policy, obs).numpy()
    tolerance = {"rtol": 1e-5, "atol": 1e-4 * np.abs(expected).max()}
    actor, _ = load_actor(path)
    np.testing.assert_allclose(actor.logits(rows), expected, **tolerance)
    np.testing.assert_allclose(PlayingNetwork(policy).logits(rows), expected, **tolerance)
    loaded, _ = load_network(path)
    with torch.no_grad():
        np.testing.assert_allclose(batch_logits(loaded, obs).numpy(), expected, rtol=1e-6, atol=1e-6)
        masks = torch.ones(expected.shape, dtype=torch.bool)
        actions = torch.as_tensor(expected.argmax(1))
        _, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
        np.testing.assert_allclose(log_prob.numpy(), torch.log_softmax(torch.from_numpy(expected), 1).gather(
            1, actions[:, None])[:, 0].numpy(), rtol=1e-5, atol=1e-5)
        chosen, _, _ = policy(obs, deterministic=True, action_masks=masks.numpy())
        np.testing.assert_array_equal(chosen.numpy(), expected.argmax(1))
    if native.available():
        from ktenv.kings_and_things.vector import native_policy

        np.testing.assert_allclose(native_policy(actor, False, f"ppo:{path}").logits(rows), expected, **tolerance)
    return actor, expected

"""RLlib training (`trainer: rllib`): configs/rllib_smoke.yaml on a local Ray cluster, resumed, then played in
the arena as rllib:PATH. The config checks run without Ray; the rest needs the 'ray' extra (the README's test
command installs it)."""

from __future__ import annotations

import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from ktenv.training.config import TrainConfig  # noqa: E402

from ktenv.errors import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "rllib_smoke.yaml"


def test_the_rllib_configs_load_and_bad_keys_are_named():
    for name in ("rllib_2p.yaml", "rllib_smoke.yaml"):
        cfg = TrainConfig.from_yaml(ROOT / "configs" / name)
        assert cfg.trainer == "rllib" and cfg.imitation.teacher is None
    with pytest.raises(ConfigError, match="'trainer'"):
        TrainConfig.from_yaml(SMOKE, {"trainer": "jax"})
    with pytest.raises(ConfigError, match="'rllib.env_runners'"):
        TrainConfig.from_yaml(SMOKE, {"rllib.env_runners": -1})
    with pytest.raises(ConfigError, match="'imitation.teacher'.*trainer sb3 only"):
        TrainConfig.from_yaml(SMOKE, {"imitation.teacher": "expert"})


def test_an_rllib_model_file_is_checked_before_it_plays(tmp_path):
    from ktenv.agents.rllib_agent import ActorCritic, ModelFileError, save_model

    from ktenv import agents

    with pytest.raises(ModelFileError, match="no such model file"):
        agents.make(f"rllib:{tmp_path / 'missing.zip'}")
    (tmp_path / "junk.zip").write_bytes(b"not a zip" * 10)
    with pytest.raises(ModelFileError, match="not a readable model zip"):
        agents.make(f"rllib:{tmp_path / 'junk.zip'}")
    meta = {"observation_size": 5, "action_size": 3, "network": {"features": 4, "pi": [4], "vf": [4],
                                                                 "activation": "relu"}, "game": {}}
    path = save_model(ActorCritic(5, 3, 4, [4], [4]), tmp_path / "m.zip", meta)
    with zipfile.ZipFile(path) as z:
        assert json.loads(z.read("ktenv.json"))["trainer"] == "rllib"
    agent = agents.make(f"rllib:{path}")
    assert agent.act(np.ones(5, np.float32), np.array([0, 0, 1], np.int8)) == 2  # the only legal action
    with pytest.raises(ValueError, match="shape"):
        agent.act(np.ones(7, np.float32), np.array([1, 1, 1], np.int8))
    with pytest.raises(ValueError, match="allows no action"):
        agent.act(np.ones(5, np.float32), np.zeros(3, np.int8))
    sb3_like = tmp_path / "sb3.zip"
    with zipfile.ZipFile(sb3_like, "w") as z:  # a model of the other trainer
        z.writestr("ktenv.json", json.dumps({"format": 1, **meta}))
        z.writestr("policy.pth", b"")
    with pytest.raises(ModelFileError, match="plays as ppo:PATH"):
        agents.make(f"rllib:{sb3_like}")


# ----------------------------------------------------------------------------- training on a local Ray cluster

@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """The smoke run, then --resume with more steps, on one local Ray cluster (started once: 10-30 s)."""
    ray = pytest.importorskip("ray")
    from ktenv.cli import main

    out = tmp_path_factory.mktemp("rllib") / "run"
    assert not ray.is_initialized()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert main(["train", "--config", str(SMOKE), "--out", str(out)]) == 0
        first = json.loads((out / "checkpoints" / "latest.json").read_text())
        (out / "first_step.json").write_text(json.dumps(first))
        assert main(["train", "--config", str(SMOKE), "--out", str(out), "--resume",
                     "--total-steps", str(first["step"] + 512)]) == 0
    finally:
        ray.shutdown()
    return out


def test_the_run_folder_holds_config_checkpoints_league_and_model(run):
    assert TrainConfig.from_yaml(run / "config.yaml").trainer == "rllib"
    first = json.loads((run / "first_step.json").read_text())["step"]
    latest = json.loads((run / "checkpoints" / "latest.json").read_text())
    assert first >= 1024 and latest["step"] >= first + 512  # the resumed run went on from its checkpoint
    folder = run / latest["path"]
    state = json.loads((folder / "ktenv_state.json").read_text())
    assert state["step"] == latest["step"]
    # a snapshot every 512 steps into max_snapshots 2 slots: the third one replaced the oldest (slot 0)
    assert [e["module"] for e in state["league"]] == ["snapshot_1", "snapshot_0"]
    assert state["league"][0]["step"] < state["league"][1]["step"] == state["step"]
    modules = folder / "learner_group" / "learner" / "rl_module"  # RLlib's pickles, of this test's own run
    weights = {m: pickle.loads((modules / m / "module_state.pkl").read_bytes()) for m in
               ("learner", "snapshot_0", "snapshot_1")}
    same = {m: all(np.array_equal(np.asarray(w[k]), np.asarray(weights["learner"][k])) for k in w)
            for m, w in weights.items()}
    assert same == {"learner": True, "snapshot_0": True, "snapshot_1": False}  # the newest is the learner now
    assert len([p for p in (run / "checkpoints").glob("step_*") if p.is_dir()]) == 1  # keep_checkpoints 1
    with zipfile.ZipFile(run / "final.zip") as z:
        assert json.loads(z.read("ktenv.json"))["step"] == latest["step"]
    assert (run / "learning_curve.png").stat().st_size > 1000
    assert list((run / "eval").glob("final_vs_random.sqlite"))


def test_tensorboard_has_speed_win_rates_and_losses(run):
    from ktenv.training.curve import read_scalars

    scalars = read_scalars(run)
    for tag in ("speed/steps_per_second", "game/win_rate", "game/games", "train/policy_loss",
                "eval/win_rate_vs_random"):
        assert tag in scalars, sorted(scalars)
    assert all(v > 0 for _, v in scalars["speed/steps_per_second"]), scalars["speed/steps_per_second"]
    assert any(tag.startswith("game/win_rate_vs_") for tag in scalars), sorted(scalars)


def test_the_trained_policy_plays_in_the_arena(run, tmp_path):
    from ktenv.arena.config import TournamentConfig
    from ktenv.arena.tournament import run_tournament

    me = f"rllib:{run / 'final.zip'}"
    report = run_tournament(TournamentConfig(agents=[me, "random"], players=2, games=2, max_rounds=4, workers=1,
                                             progress=False, db=str(tmp_path / "t.sqlite")))
    assert report["played"] == 2 and me in report["agent_files"]


def test_a_wrong_cluster_address_stops_training_at_once(tmp_path, capsys):
    pytest.importorskip("ray")
    import socket
    import time

    from ktenv.cli import main

    with pytest.raises(ConfigError, match="'rllib.ray_address'"):
        TrainConfig.from_yaml(SMOKE, {"rllib.ray_address": "nowhere"})
    with socket.socket() as silent:  # bound, never listening: a connection is refused
        silent.bind(("127.0.0.1", 0))
        port = silent.getsockname()[1]
        t0 = time.perf_counter()
        code = main(["train", "--config", str(SMOKE), "--out", str(tmp_path / "r"), "--ray-address",
                     f"127.0.0.1:{port}"])
    assert code == 1 and time.perf_counter() - t0 < 30
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in capsys.readouterr().err
    assert not (tmp_path / "r" / "checkpoints").exists()

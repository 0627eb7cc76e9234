"""RLlib training (`trainer: rllib`): configs/rllib_smoke.yaml on a local Ray cluster, resumed, then played in
the arena as rllib:PATH. The config checks run without Ray; the rest needs the 'ray' extra (the README's test
command installs it)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ktenv.training.config import TrainConfig  # noqa: E402

from ktenv.errors import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "rllib_smoke.yaml"


def test_gathered_minibatches_match_rllibs_cyclic_iterator():
    """The learner's minibatches, gathered by index: RLlib's count and sizes (one pass running on into the
    next), every row the same number of times (+-1) over the passes, a seeded order, nested columns kept."""
    pytest.importorskip("ray")
    from ktenv.training.rllib_train import GatheredMinibatches
    from ray.rllib.policy.sample_batch import MultiAgentBatch, SampleBatch
    from ray.rllib.utils.minibatch_utils import MiniBatchCyclicIterator

    rows = 1040
    batch = MultiAgentBatch({"learner": SampleBatch({
        "obs": {"observations": torch.arange(rows).float()[:, None] * 2, "action_mask": torch.ones(rows, 3)},
        "row": torch.arange(rows)})}, rows)

    def rows_of(minibatches):
        return [mb.policy_batches["learner"]["row"].numpy() for mb in minibatches]

    ours = rows_of(GatheredMinibatches(batch, 128, 4, True, 0, np.random.default_rng(7)))
    theirs = rows_of(MiniBatchCyclicIterator(batch, minibatch_size=128, num_epochs=4, shuffle_batch_per_epoch=True))
    assert [len(r) for r in ours] == [len(r) for r in theirs]
    uses = np.bincount(np.concatenate(ours), minlength=rows)
    assert uses.min() >= 4 and uses.max() <= 5
    whole = rows // 128  # the minibatches inside the first pass: its order, seeded
    assert np.array_equal(np.concatenate(ours[:whole]), np.random.default_rng(7).permutation(rows)[:whole * 128])
    first = next(iter(GatheredMinibatches(batch, 128, 4, True, 0, np.random.default_rng(7)))).policy_batches["learner"]
    assert torch.equal(first["obs"]["observations"][:, 0], first["row"].float() * 2)
    assert len(rows_of(GatheredMinibatches(batch, 128, 4, False, 3, np.random.default_rng(0)))) == 3


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


def test_the_runners_league_draws_are_seeded_and_snapshots_keep_their_layers(tmp_path):
    from ktenv.agents.network import load_actor
    from ktenv.agents.rllib_agent import ActorCritic
    from ktenv.training.rllib_vector import RunnerLeague, snapshot_weights, write_policy_zip

    league = RunnerLeague({"random": 1.0, "greedy": 1.0, "expert": 0.0}, snapshots=2.0, play="sample")
    assert {league(0, 0, np.random.default_rng(s)) for s in range(50)} == {"random", "greedy"}  # no pool yet
    league.pool = ["ppo-sample:a.zip", "ppo-sample:b.zip"]
    draws = [league(0, 0, np.random.default_rng([7, g])) for g in range(400)]
    assert draws == [league(0, 0, np.random.default_rng([7, g])) for g in range(400)]  # a seed, the same games
    assert 0.4 < sum(d.startswith("ppo-sample:") for d in draws) / len(draws) < 0.6  # 2 of 4 shares
    network = ActorCritic(5, 3, 4, [6], [4])
    weights = snapshot_weights({f"network.{k}": v for k, v in network.state_dict().items()})
    assert sorted(weights) == sorted(f"{layer}.{part}" for layer in ("pi_features_extractor.linear.0",
                                                                     "mlp_extractor.policy_net.0", "action_net")
                                     for part in ("weight", "bias"))
    meta = {"observation_size": 5, "action_size": 3, "network": {"features": 4, "pi": [6], "vf": [4],
                                                                 "activation": "relu"}, "game": {}}
    actor, _ = load_actor(write_policy_zip(weights, meta, tmp_path / "s.zip"))  # what a native seat reads
    x = np.array([[0.0, 2.0, -1.0, 5.0, 0.5]], np.float32)
    with torch.no_grad():
        expected = network.pi(network.embed(torch.from_numpy(x))).numpy()
    assert np.allclose(actor.logits(x), expected, atol=1e-5)


# before the module's cluster starts: joining one checks the address only when no cluster is connected
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


# ----------------------------------------------------------------------------- training on a local Ray cluster

@pytest.fixture(scope="module")
def cluster() -> str:
    """One local Ray cluster for the module's runs (started once: 10-30 s); its address, for a driver process."""
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def run(cluster, tmp_path_factory) -> Path:
    """The smoke run (Kings & Things: the batched games), then --resume with more steps."""
    from ktenv.cli import main

    out = tmp_path_factory.mktemp("rllib") / "run"
    assert main(["train", "--config", str(SMOKE), "--out", str(out)]) == 0
    first = json.loads((out / "checkpoints" / "latest.json").read_text())
    (out / "first_step.json").write_text(json.dumps(first))
    assert main(["train", "--config", str(SMOKE), "--out", str(out), "--resume",
                 "--total-steps", str(first["step"] + 512)]) == 0
    return out


def test_the_run_folder_holds_config_checkpoints_league_and_model(run):
    from ktenv.agents.network import read_state

    assert TrainConfig.from_yaml(run / "config.yaml").trainer == "rllib"
    first = json.loads((run / "first_step.json").read_text())["step"]
    latest = json.loads((run / "checkpoints" / "latest.json").read_text())
    # 4 games x 128 steps = 512 learner decisions an iteration: exactly the steps asked, before and after resuming
    assert first == 1024 and latest["step"] == first + 512
    folder = run / latest["path"]
    state = json.loads((folder / "ktenv_state.json").read_text())
    assert state["step"] == latest["step"]
    # a snapshot every 512 steps, max_snapshots 2: the oldest left the pool and its zip the disk
    assert [e["step"] for e in state["league"]] == [1024, 1536]
    assert sorted(p.name for p in (run / "league").iterdir()) == ["snapshot_0000001024.zip",
                                                                  "snapshot_0000001536.zip"]
    # the newest snapshot is the learner's actor at that step, under the names a native policy seat reads
    actor = read_state(run / state["league"][-1]["path"])
    with zipfile.ZipFile(folder / "policy.zip") as z:
        learner = torch.load(io.BytesIO(z.read("policy.pth")), weights_only=True)
    assert np.array_equal(actor["pi_features_extractor.linear.0.weight"], learner["shared.0.weight"].numpy())
    assert np.array_equal(actor["action_net.bias"], learner["pi.2.bias"].numpy())
    assert len([p for p in (run / "checkpoints").glob("step_*") if p.is_dir()]) == 1  # keep_checkpoints 1
    with zipfile.ZipFile(run / "final.zip") as z:
        assert json.loads(z.read("ktenv.json"))["step"] == latest["step"]
    assert (run / "learning_curve.png").stat().st_size > 1000
    assert list((run / "eval").glob("final_vs_random.sqlite"))


def test_a_snapshot_plays_as_a_native_policy_seat(run):
    from ktenv.kings_and_things.vector.learner import LearnerGames

    snapshot = sorted((run / "league").glob("snapshot_*.zip"))[-1]
    games = LearnerGames(4, num_players=2, max_rounds=2, opponents=f"ppo-sample:{snapshot}")
    games.reset(seed=1)
    for _ in range(40):
        masks = games.action_masks()
        games.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert games.games.seats(0)[1 - int(games.learner[0])] == f"ppo-sample:{snapshot}"
    games.close()


def test_tensorboard_has_speed_win_rates_and_losses(run):
    from ktenv.training.curve import read_scalars

    scalars = read_scalars(run)
    for tag in ("speed/steps_per_second", "speed/learner_share", "game/win_rate", "game/games", "train/policy_loss",
                "eval/win_rate_vs_random"):
        assert tag in scalars, sorted(scalars)
    assert all(v > 0 for _, v in scalars["speed/steps_per_second"]), scalars["speed/steps_per_second"]
    assert all(0 < v < 1 for _, v in scalars["speed/learner_share"]), scalars["speed/learner_share"]
    assert any(tag.startswith("game/win_rate_vs_") for tag in scalars), sorted(scalars)


def test_the_trained_policy_plays_in_the_arena(run, tmp_path):
    from ktenv.arena.config import TournamentConfig
    from ktenv.arena.tournament import run_tournament

    me = f"rllib:{run / 'final.zip'}"
    report = run_tournament(TournamentConfig(agents=[me, "random"], players=2, games=2, max_rounds=4, workers=1,
                                             progress=False, db=str(tmp_path / "t.sqlite")))
    assert report["played"] == 2 and me in report["agent_files"]


@pytest.mark.slow  # 10-30 s on the module's cluster; CI runs it
def test_a_dead_env_runner_is_replaced_and_the_run_goes_on(cluster, tmp_path):
    """One env runner, SIGKILLed after the first iteration: RLlib starts another, which gets the league and a seed
    stream of its own, and the run reaches its steps."""
    from ktenv.training.rllib_train import Run, build_algorithm, network_meta, seed_streams

    cfg = TrainConfig.from_yaml(SMOKE, {"rllib.env_runners": 1, "total_steps": 2048})
    algo = build_algorithm(cfg, [])
    try:
        seed_streams(algo, 0)
        run = Run(cfg, tmp_path, algo, network_meta(cfg, algo), 0, [])
        run.iterate()
        assert run.step == 512 and [e["step"] for e in run.league] == [512]
        group = algo.env_runner_group
        pid = group.foreach_env_runner(lambda r: os.getpid(), local_env_runner=False)[0]
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 240  # the new runner's start takes seconds alone, minutes on a loaded machine
        while run.step < cfg.total_steps and time.monotonic() < deadline:
            run.iterate()
        assert run.step == cfg.total_steps
        assert group.foreach_env_runner(lambda r: os.getpid(), local_env_runner=False)[0] != pid
        assert group.foreach_env_runner(lambda r: r.league_steps(), local_env_runner=False) == [
            [e["step"] for e in run.league]]
        run.writer.close()
    finally:
        algo.stop()


@pytest.mark.slow  # 10-30 s on the module's cluster; CI runs it
def test_a_driver_killed_mid_run_resumes_from_its_last_checkpoint(cluster, tmp_path):
    """``ktenv train`` on the cluster, SIGKILLed once it has checkpointed; --resume goes on from that checkpoint:
    its step, its league, no snapshot taken after it, every later iteration counted once."""
    from ktenv.cli import main

    out = tmp_path / "run"
    driver = subprocess.Popen([sys.executable, "-m", "ktenv.cli", "train", "--config", str(SMOKE), "--out", str(out),
                               "--ray-address", cluster, "--total-steps", "100000"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        latest = out / "checkpoints" / "latest.json"
        deadline = time.monotonic() + 240
        while not (latest.exists() and json.loads(latest.read_text())["step"] >= 1024):
            assert driver.poll() is None and time.monotonic() < deadline, "the driver did not checkpoint"
            time.sleep(0.2)
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait()
    killed = json.loads(latest.read_text())
    state = json.loads((out / killed["path"] / "ktenv_state.json").read_text())
    assert main(["train", "--config", str(SMOKE), "--out", str(out), "--resume",
                 "--total-steps", str(killed["step"] + 1024)]) == 0
    resumed = json.loads(latest.read_text())
    assert resumed["step"] == killed["step"] + 1024  # two iterations of 512, counted once
    league = json.loads((out / resumed["path"] / "ktenv_state.json").read_text())["league"]
    assert all(e in state["league"] or e["step"] > killed["step"] for e in league), (state["league"], league)
    assert sorted(p.name for p in (out / "league").iterdir()) == sorted(Path(e["path"]).name for e in league)


@pytest.mark.slow  # 10-30 s each on the module's cluster; CI runs it
@pytest.mark.parametrize("path", ["batched", "multi_agent"])
def test_kingsburg_trains_on_its_batched_games_and_on_the_multi_agent_env(cluster, tmp_path, monkeypatch, path):
    """Kingsburg has native batched games (its learner_vec_env): the batched path; a game without them plays the
    multi-agent path (every seat an RLlib agent), same run folder: Kingsburg with `batched` answering no."""
    from ktenv.training import rllib_train

    from ktenv.cli import main

    sets = {"env.game_name": "kingsburg", "vec_env": "dummy", "n_envs": 2, "ppo.n_steps": 64, "ppo.batch_size": 64,
            "total_steps": 128, "checkpoint_every": 128, "league.snapshot_every": 128}
    cfg = TrainConfig.from_yaml(SMOKE, sets)
    assert rllib_train.batched(cfg) and rllib_train.batched(TrainConfig.from_yaml(SMOKE))
    if path == "multi_agent":
        monkeypatch.setattr(rllib_train, "batched", lambda cfg: False)
    out = tmp_path / "kingsburg"
    args = ["train", "--config", str(SMOKE), "--out", str(out)]
    for key, value in sets.items():
        args += ["--set", f"{key}={json.dumps(value)}"]
    assert main(args) == 0
    assert json.loads((out / "checkpoints" / "latest.json").read_text())["step"] >= 128
    assert (out / "final.zip").exists()

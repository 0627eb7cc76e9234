"""Training: configs, the smoke run (train, save, resume, agent, tournament), checkpoints.

The smoke run trains a tiny network for a few thousand steps in subprocess games, so masks cross
a process boundary; everything else reuses its run folder."""

from __future__ import annotations

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

pytest.importorskip("sb3_contrib")

from ktenv.training.config import TrainConfig  # noqa: E402
from ktenv.training.league import read_pool  # noqa: E402
from ktenv.training.policy import CheckpointError, load_network  # noqa: E402
from ktenv.training.train_ppo import main as train_main  # noqa: E402

from ktenv import agents  # noqa: E402
from ktenv.arena.config import TournamentConfig  # noqa: E402
from ktenv.arena.tournament import run_tournament  # noqa: E402
from ktenv.errors import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "ppo_smoke.yaml"


# ----------------------------------------------------------------------------- configs

def test_every_shipped_training_config_loads():
    from tests.arena.test_arena import TRAINING_CONFIGS

    for name in TRAINING_CONFIGS:
        cfg = TrainConfig.from_yaml(ROOT / "configs" / name)
        assert cfg.env.players == (4 if "_4p" in name else 2) and cfg.total_steps > 0


@pytest.mark.parametrize("overrides, message", [
    ({"ppo.batch_sise": 64}, "unknown training key 'ppo.batch_sise'"),
    ({"learning_rate": 1e-3}, "unknown training key 'learning_rate'"),
    ({"ppo.batch_size": "big"}, "'ppo.batch_size'"),
    ({"ppo.gamma": 1.5}, "'ppo.gamma'"),
    ({"ppo.batch_size": 100_000}, "more than one rollout"),
    ({"env.players": 7}, "'env.players'"),
    ({"env.reward": "points"}, "'env.reward'"),
    ({"env.game": {"victory": "nonsense"}}, "env.game"),
    ({"env.game": {"n_players": 3}}, "env.game.n_players"),
    ({"league.opponents": {"wizard": 1.0}}, "'league.opponents'"),
    ({"league.opponents": {"random": 0.0}}, "league.opponents"),
    ({"policy.activation": "swish"}, "'policy.activation'"),
    ({"eval.opponents": ["ppo"]}, "'eval.opponents'"),
    ({"eval.best_against": "greedy"}, "eval.best_against: 'greedy' is not one of eval.opponents"),
    ({"n_envs": 0}, "'n_envs'"),
    ({"vec_env": "threads"}, "'vec_env'"),
    ({"env.engine": "python"}, "'vec_env': 'vector' runs native games"),
    ({"keep_checkpoints": -1}, "'keep_checkpoints'"),
    ({"learner_precision": "fp16"}, "'learner_precision'"),
])
def test_a_bad_config_names_the_key(overrides, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(".", r"\.")):
        TrainConfig.from_yaml(SMOKE, overrides)


def test_an_error_names_the_override_that_brought_it_in(capsys, tmp_path):
    """The source is `--set key=value` (or --total-steps) when the bad value came from there."""
    for args, source in ((["--set", "ppo.batch_size=big"], "--set ppo.batch_size=big: "),
                         (["--set", "ppo.n_steps=8"], "--set ppo.n_steps=8: "),  # a rollout smaller than a batch
                         (["--total-steps", "0"], "--total-steps 0: ")):
        assert train_main(["--config", str(SMOKE), "--out", str(tmp_path / "r"), "--set", "seed=4", *args]) == 2
        err = capsys.readouterr().err
        assert source in err and "ppo_smoke.yaml" not in err, err
    assert not (tmp_path / "r").exists()
    bad = tmp_path / "bad.yaml"
    bad.write_text(SMOKE.read_text().replace("n_envs: 8", "n_envs: 0"))
    assert train_main(["--config", str(bad), "--out", str(tmp_path / "r"), "--set", "seed=4"]) == 2
    assert f"{bad}: training key 'n_envs'" in capsys.readouterr().err  # the file's own error names the file


def test_the_resolved_config_round_trips(tmp_path):
    cfg = TrainConfig.from_yaml(SMOKE, {"ppo.learning_rate": 1e-4})
    cfg.save(tmp_path / "c.yaml")
    again = TrainConfig.from_yaml(tmp_path / "c.yaml")
    assert again == cfg and again.ppo.learning_rate == 1e-4


# ----------------------------------------------------------------------------- the smoke run

@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """Train the smoke config in subprocess games, then resume it to 3,072 steps."""
    out = tmp_path_factory.mktemp("smoke") / "run"
    args = ["--config", str(SMOKE), "--out", str(out), "--set", "vec_env=subproc", "--set", "n_envs=2",
            "--set", "ppo.n_steps=256"]
    assert train_main(args) == 0
    assert train_main(args) == 2  # a second start into the same folder is refused (use --resume)
    assert train_main([*args, "--resume", "--total-steps", "3072"]) == 0
    return out


def copy_run(run: Path, tmp_path: Path) -> Path:
    import shutil

    return Path(shutil.copytree(run, tmp_path / "copy"))


def tree(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder`: relative name -> (size, modification time): to show nothing changed."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def test_the_run_leaves_everything_a_user_needs(run):
    for name in ("config.yaml", "final.zip", "learning_curve.png", "checkpoints/latest.json", "league.json"):
        assert (run / name).exists(), name
    latest = json.loads((run / "checkpoints/latest.json").read_text())
    assert latest["step"] == 3072  # the resumed run went on from 2,048, it did not start over
    pool = read_pool(run)
    assert [e["step"] for e in pool] == [2048, 3072]  # max_snapshots 2: the oldest left the pool
    assert all((run / e["path"]).exists() for e in pool)
    assert not (run / "league" / "snapshot_0000001024.zip").exists()
    # keep_checkpoints 2: step 1,024's checkpoint went; no half-written file is left behind
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == [
        "latest.json", "step_0000002048.zip", "step_0000003072.zip"]


def test_the_best_model_is_kept_with_its_record(run):
    best = json.loads((run / "best.json").read_text())
    assert best["against"] == "random" and best["step"] in (2048, 3072)
    assert load_network(run / "best.zip")[1]["step"] == best["step"]


def test_best_zip_follows_the_highest_win_rate_and_survives_a_corrupt_record(tmp_path, capsys):
    from ktenv.training.checkpoints import keep_if_best, read_best

    models = {}
    for step in (1, 2, 3, 4):
        models[step] = tmp_path / f"step_{step}.zip"
        models[step].write_bytes(f"model {step}".encode())
    kept = [keep_if_best(tmp_path, models[1], {"greedy": 0.4, "random": 1.0}, "greedy", 1),
            keep_if_best(tmp_path, models[2], {"greedy": 0.3, "random": 1.0}, "greedy", 2),
            keep_if_best(tmp_path, models[3], {"greedy": 0.4}, "greedy", 3),  # a tie keeps the earlier model
            keep_if_best(tmp_path, models[4], {"greedy": 0.9}, None, 4)]  # switched off
    assert kept == [True, False, False, False]
    assert (tmp_path / "best.zip").read_bytes() == b"model 1"
    assert read_best(tmp_path) == {"step": 1, "against": "greedy", "win_rate": 0.4, "model": "step_1.zip"}
    assert keep_if_best(tmp_path, models[4], {"greedy": 0.5}, "greedy", 4)
    assert (tmp_path / "best.zip").read_bytes() == b"model 4" and read_best(tmp_path)["step"] == 4
    (tmp_path / "best.json").write_text("{not json")
    assert read_best(tmp_path) is None and "best.json is corrupt" in capsys.readouterr().err
    assert (tmp_path / "best.zip").read_bytes() == b"model 4"  # kept until a new evaluation replaces it
    assert keep_if_best(tmp_path, models[2], {"greedy": 0.1}, "greedy", 5)
    assert read_best(tmp_path)["win_rate"] == 0.1 and not list(tmp_path.glob("*.partial"))
    assert keep_if_best(tmp_path, models[3], {"greedy": 0.9, "expert": 0.05}, "expert", 6)  # another opponent
    assert read_best(tmp_path) == {"step": 6, "against": "expert", "win_rate": 0.05, "model": "step_3.zip"}


def test_tensorboard_has_the_game_scalars_and_no_illegal_action(run):
    from ktenv.training.curve import read_scalars

    scalars = read_scalars(run)
    for tag in ("game/win_rate", "game/income", "game/hexes", "game/rounds", "game/length", "game/illegal_actions",
                "speed/steps_per_second", "speed/env_share", "eval/win_rate_vs_random", "train/loss"):
        assert tag in scalars, tag
    assert all(v == 0 for _, v in scalars["game/illegal_actions"])
    steps = [s for s, _ in scalars["game/games"]]
    assert steps == sorted(steps) and steps[-1] >= 3072 - 256


def test_the_model_is_an_agent_in_the_arena(run):
    final = run / "final.zip"
    tcfg = TournamentConfig(agents=[f"ppo:{final}", "random"], players=2, games=2, workers=1, seed=5,
                            max_rounds=4, progress=False, db=str(run / "t.sqlite"))
    report = run_tournament(tcfg)
    assert len(report["games"]) == 2 and all(g["reason"] != "engine_error" for g in report["games"])


def test_learned_agents_reproduce_their_games(run):
    from ktenv.kings_and_things.arena import play_game

    cfg = TrainConfig.from_yaml(run / "config.yaml").env.game_config()
    for name in (f"ppo:{run / 'final.zip'}", f"ppo-sample:{run / 'final.zip'}"):
        a = play_game(cfg, 11, [name, "random"], record=True)
        b = play_game(cfg, 11, [name, "random"], record=True)
        assert a.actions == b.actions


def test_the_agent_plays_only_legal_actions_and_checks_its_input(run):
    agent = agents.make(f"ppo:{run / 'final.zip'}")
    mask = np.zeros(agent.meta["action_size"], np.int8)
    mask[[3, 17]] = 1
    obs = np.zeros(agent.meta["observation_size"], np.float32)
    assert agent.act(obs, mask) in (3, 17)
    with pytest.raises(ValueError, match="observation has shape"):
        agent.act(np.zeros(5, np.float32), mask)


def test_the_batched_games_train_resume_and_log_env_share(tmp_path, capsys):
    """Vec_env 'vector' (the default): league snapshots play as batched opponents, speed/env_share
    is logged, and --resume goes on from the checkpoint."""
    from ktenv.training.curve import read_scalars

    out = tmp_path / "vec"
    args = ["--config", str(SMOKE), "--out", str(out), "--set", "eval.every=0", "--set", "eval.games=1",
            "--set", "env.max_rounds=2"]  # short games: some are played against the first snapshot
    assert TrainConfig.from_yaml(SMOKE).vec_env == "vector"
    assert train_main(args) == 0
    assert "(vector)" in capsys.readouterr().err
    games_before = read_scalars(out)["game/games"][-1][1]
    assert games_before > 0
    assert train_main([*args, "--resume", "--total-steps", "3072"]) == 0
    assert "resumed from" in capsys.readouterr().err
    assert json.loads((out / "checkpoints/latest.json").read_text())["step"] == 3072
    scalars = read_scalars(out)
    counts = [v for _, v in scalars["game/games"]]
    assert counts == sorted(counts) and counts[-1] > games_before  # the total goes on after --resume
    for tag in ("speed/env_share", "speed/steps_per_second", "game/win_rate", "game/length", "rollout/ep_rew_mean",
                "game/win_rate_vs_snapshot"):
        assert tag in scalars, tag
    assert all(v == 0 for _, v in scalars["game/illegal_actions"])
    assert all(0 < v < 1 for _, v in scalars["speed/env_share"])


# ----------------------------------------------------------------------------- bad files

def test_corrupt_model_files_get_clear_errors(run, tmp_path):
    good = run / "final.zip"
    cut = tmp_path / "cut.zip"
    cut.write_bytes(good.read_bytes()[:2000])
    with pytest.raises(CheckpointError, match="not a readable model zip"):
        load_network(cut)
    plain = tmp_path / "plain.zip"  # an SB3 zip without ktenv.json
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(plain, "w") as dst:
        for item in src.namelist():
            if item != "ktenv.json":
                dst.writestr(item, src.read(item))
    with pytest.raises(CheckpointError, match="not a ktenv model"):
        load_network(plain)
    bad_weights = tmp_path / "weights.zip"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad_weights, "w") as dst:
        for item in src.namelist():
            dst.writestr(item, b"garbage" if item == "policy.pth" else src.read(item))
    with pytest.raises(CheckpointError, match="policy.pth is corrupt"):
        load_network(bad_weights)
    with pytest.raises(CheckpointError, match="no such model file"):
        load_network(tmp_path / "missing.zip")
    with pytest.raises(ConfigError, match="cannot be loaded"):
        TournamentConfig(agents=[f"ppo:{cut}", "random"], players=2)


def test_resume_with_no_intact_checkpoint_is_refused_and_changes_nothing(run, tmp_path, capsys):
    copy = copy_run(run, tmp_path)
    for ckpt in (copy / "checkpoints").glob("step_*.zip"):
        ckpt.write_bytes(ckpt.read_bytes()[:1000])
    before = tree(copy)
    assert train_main(["--config", str(SMOKE), "--out", str(copy), "--resume", "--total-steps", "5000"]) == 2
    err = capsys.readouterr().err
    assert "no intact checkpoint" in err and "step_0000002048.zip" in err and "step_0000003072.zip" in err
    assert tree(copy) == before


def test_resume_falls_back_to_the_previous_intact_checkpoint_and_applies_overrides(run, tmp_path, capsys):
    """A corrupt latest checkpoint is skipped with a warning naming it; --set ppo.* applies."""
    from ktenv.training.curve import read_scalars

    copy = copy_run(run, tmp_path)
    corrupt = copy / "checkpoints" / "step_0000003072.zip"
    corrupt.write_bytes(corrupt.read_bytes()[:1000])
    assert train_main(["--out", str(copy), "--resume", "--total-steps", "2560", "--set", "ppo.learning_rate=0.0001",
                       "--set", "eval.games=1"]) == 0
    err = capsys.readouterr().err
    assert f"warning: skipping a checkpoint that cannot be used: {corrupt}" in err
    assert f"resumed from {copy / 'checkpoints' / 'step_0000002048.zip'} at step 2,048" in err
    assert "resumed with ppo.learning_rate = 0.0001 (was 0.0003)" in err
    assert json.loads((copy / "checkpoints/latest.json").read_text())["step"] == 2560
    assert [e["step"] for e in read_pool(copy)] == [2048]  # the snapshot taken after 2,048 is forgotten
    saved = TrainConfig.from_yaml(copy / "config.yaml")
    assert saved.ppo.learning_rate == 1e-4 and saved.total_steps == 2560 and saved.eval.games == 1
    rates = read_scalars(copy)["train/learning_rate"]
    assert rates[-1] == (2560, pytest.approx(1e-4))  # used; the abandoned steps after 2,048 left the curve


def test_a_checkpoint_does_not_take_back_the_fused_optimizer(run, tmp_path):
    """A checkpoint saved by an older run (Adam with fused=None) is loaded into this run's fused Adam: the learned
    state comes in, the kernel choice stays this run's."""
    from ktenv.training import train_ppo
    from ktenv.training.checkpoints import load_checkpoint, save_model
    from ktenv.training.policy import fused_adam

    if not fused_adam():
        pytest.skip("this torch has no fused Adam on the CPU")
    cfg = TrainConfig.from_yaml(run / "config.yaml", {"vec_env": "dummy", "n_envs": 1})
    venv = train_ppo.make_vec_env(cfg, str(tmp_path))
    meta = train_ppo.network_meta(cfg, venv)
    old = train_ppo.build_model(cfg, venv)
    load_checkpoint(old, sorted((run / "checkpoints").glob("step_*.zip"))[-1], meta)  # some learned Adam state
    for group in old.policy.optimizer.param_groups:
        group["fused"] = None
    saved = save_model(old, tmp_path / "old.zip", meta)
    model = train_ppo.build_model(cfg, venv)
    load_checkpoint(model, saved, meta)
    optimizer = model.policy.optimizer
    assert all(group["fused"] for group in optimizer.param_groups)
    assert optimizer.state_dict()["state"][0]["step"] == old.policy.optimizer.state_dict()["state"][0]["step"] > 0
    sum(p.sum() for p in model.policy.parameters()).backward()
    optimizer.step()  # fused Adam takes the loaded state
    venv.close()


def test_resume_refuses_to_change_the_seed_game_or_network(run, tmp_path, capsys):
    from ktenv.training.train_ppo import prepare_run

    copy = copy_run(run, tmp_path)
    before = tree(copy)
    for item in ("policy.features=128", "env.max_rounds=9", "seed=5", "env.reward=win"):
        assert train_main(["--out", str(copy), "--resume", "--set", item]) == 2
        err = capsys.readouterr().err
        assert f"--resume: --set {item}: '{item.split('=')[0]}' cannot change" in err, err
    cfg, _ = prepare_run(None, True, {"out": str(copy), "seed": 3, "ppo.n_epochs": 3, "league.snapshots": 0.5})
    assert (cfg.ppo.n_epochs, cfg.league.snapshots, cfg.seed) == (3, 0.5, 3)  # the same seed is no change
    assert tree(copy) == before  # saved by train() only once the run goes on


def test_resume_names_the_edits_of_the_config_file_it_does_not_apply(run, tmp_path, capsys):
    """--resume goes on with the run's own config.yaml: a --config file edited since says which of its keys are
    left out (a --set of the same key applies, and is no longer named)."""
    from ktenv.training.train_ppo import prepare_run

    copy = copy_run(run, tmp_path)
    edited = TrainConfig.from_yaml(copy / "config.yaml")
    edited.ppo.learning_rate, edited.league.snapshots = 0.123, 0.4
    edited.save(tmp_path / "edited.yaml")
    capsys.readouterr()
    cfg, _ = prepare_run(str(tmp_path / "edited.yaml"), True, {"out": str(copy), "league.snapshots": 0.4})
    err = capsys.readouterr().err
    assert "ppo.learning_rate = 0.123" in err and "not applied" in err and "league.snapshots" not in err
    assert cfg.ppo.learning_rate != 0.123 and cfg.league.snapshots == 0.4
    prepare_run(str(copy / "config.yaml"), True, {"out": str(copy)})
    assert "warning" not in capsys.readouterr().err  # the run's own file: nothing to say


def test_resuming_a_finished_run_says_so_and_changes_nothing(run, tmp_path, capsys):
    """Was AttributeError: 'Monitor' object has no attribute 'model'."""
    copy = copy_run(run, tmp_path)
    before = tree(copy)
    for extra in ([], ["--total-steps", "1000"]):
        assert train_main(["--out", str(copy), "--resume", *extra]) == 0
        err = capsys.readouterr().err
        assert "nothing to train: the run is at step 3,072" in err and f"its model: {copy / 'final.zip'}" in err
        assert "resumed from" not in err
    (copy / "checkpoints/latest.json").write_text("{not json")  # also found by the file names alone
    before["checkpoints/latest.json"] = tree(copy)["checkpoints/latest.json"]
    assert train_main(["--out", str(copy), "--resume"]) == 0
    err = capsys.readouterr().err
    assert "latest.json: corrupt" in err and "nothing to train: the run is at step 3,072" in err
    assert tree(copy) == before


# ----------------------------------------------------------------------------- what a run keeps

def test_snapshots_hold_the_policy_only_and_load_as_agents_and_opponents(run):
    """No optimizer state in snapshots; every zip deflated; snapshots still play."""
    from ktenv.training.config import LeagueSection
    from ktenv.training.league import LeagueOpponent

    for entry in read_pool(run):
        path = run / entry["path"]
        with zipfile.ZipFile(path) as archive:
            assert sorted(archive.namelist()) == ["ktenv.json", "policy.pth"]
            assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_DEFLATED}
        agent = agents.make(f"ppo:{path}")
        mask = np.zeros(agent.meta["action_size"], np.int8)
        mask[[2, 9]] = 1
        assert agent.act(np.zeros(agent.meta["observation_size"], np.float32), mask) in (2, 9)
    opponent = LeagueOpponent(run, LeagueSection(opponents={"random": 1e-9}, snapshots=1.0), seed=1)
    opponent.reset(seed=2)
    assert opponent.name == "snapshot" and opponent.current.deterministic is False
    for name in ("final.zip", "checkpoints/step_0000003072.zip"):  # what resuming needs stays
        with zipfile.ZipFile(run / name) as archive:
            assert "policy.optimizer.pth" in archive.namelist()
            assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_DEFLATED}
    assert (run / read_pool(run)[-1]["path"]).stat().st_size < (run / "final.zip").stat().st_size


def test_pruning_keeps_the_newest_checkpoints_and_the_one_latest_names(tmp_path):
    from ktenv.training.checkpoints import prune_checkpoints, write_latest

    folder = tmp_path / "checkpoints"
    folder.mkdir()
    for step in range(1, 6):
        (folder / f"step_{step:010d}.zip").write_bytes(b"x")
    (folder / "step_0000000009.partial.zip").write_bytes(b"x")  # being written: not a checkpoint yet
    write_latest(tmp_path, folder / "step_0000000001.zip", 1)
    assert prune_checkpoints(tmp_path, 0) == []  # 0 keeps all
    removed = prune_checkpoints(tmp_path, 2)
    assert sorted(p.name for p in removed) == ["step_0000000002.zip", "step_0000000003.zip"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "latest.json", "step_0000000001.zip", "step_0000000004.zip", "step_0000000005.zip",
        "step_0000000009.partial.zip"]


def test_the_first_console_line_comes_before_the_games_start(tmp_path, capsys, monkeypatch):
    """A line at once, and the first progress line after seconds, not log_every_seconds."""
    from ktenv.training import train_ppo
    from ktenv.training.monitor import FIRST_LOG_SECONDS, Monitor

    def no_games(*args):
        raise RuntimeError("the games would start here")

    monkeypatch.setattr(train_ppo, "make_vec_env", no_games)
    with pytest.raises(RuntimeError, match="games would start"):
        train_main(["--config", str(SMOKE), "--out", str(tmp_path / "r"), "--set", "log_every_seconds=60"])
    assert capsys.readouterr().err.startswith(f"[ktenv train] starting {tmp_path / 'r'}: 2,048 steps")
    monitor = Monitor(TrainConfig.from_yaml(SMOKE, {"log_every_seconds": 60}), tmp_path, {}, 0)
    assert monitor.next_log - monitor.t0 == FIRST_LOG_SECONDS < 60


# ----------------------------------------------------------------------------- the learning curve

def test_the_curve_keeps_every_line_visible_and_the_return_apart():
    """Lines at 0% nest (distinct colour, dashes, marker; thinner on top); the return has its panel."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from ktenv.training.curve import COLOURS, draw_curve
    from matplotlib.colors import to_hex

    zero = [(s, 0.0) for s in range(0, 40_000, 1024)]
    scalars = {"game/win_rate": zero, "game/win_rate_vs_random": zero, "game/win_rate_vs_greedy": zero,
               "game/win_rate_vs_snapshot": zero, "eval/win_rate_vs_random": zero[::10],
               "eval/win_rate_vs_greedy": zero[::10], "rollout/ep_rew_mean": [(s, -3.0) for s, _ in zero]}
    fig = draw_curve(scalars, "t")
    games, evals, returns = fig.axes  # three panels, no twin axis
    assert [line.get_label() for line in returns.lines] == ["return per game"]
    for ax, count in ((games, 4), (evals, 2)):
        lines = sorted(ax.lines, key=lambda line: line.get_zorder())
        assert len(lines) == count
        looks = {(line.get_color(), line.get_linestyle(), line.get_marker()) for line in lines}
        assert len(looks) == count and all(to_hex(line.get_color()) in [c.lower() for c in COLOURS] for line in lines)
        widths = [line.get_linewidth() for line in lines]
        sizes = [line.get_markersize() for line in lines]
        assert widths == sorted(widths, reverse=True) and len(set(widths)) == count  # each peeks out below the next
        assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == count
    plt.close(fig)


# ----------------------------------------------------------------------------- interruption

def _terminated(cmd: list[str], ready, what: str, settle: float = 0.0) -> tuple[int, str]:
    """Run `cmd`, send SIGTERM once `ready()` holds (and `settle` seconds more); (return code, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not ready():
            time.sleep(0.5)
        assert ready(), f"{what} did not get going"
        time.sleep(settle)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    return proc.returncode, err


def test_sigterm_saves_a_checkpoint_and_resume_continues(tmp_path):
    """A run stopped by SIGTERM keeps its progress; --resume goes on from there."""
    out = tmp_path / "long"
    cmd = [sys.executable, "-m", "ktenv.training.train_ppo", "--config", str(SMOKE), "--out", str(out),
           "--total-steps", "1000000", "--set", "eval.every=0", "--set", "checkpoint_every=100000"]
    # the first snapshot (1,024 steps) proves learning is under way
    returncode, err = _terminated(cmd, lambda: list((out / "league").glob("snapshot_*.zip")), "training")
    assert returncode == 130, err
    assert "interrupted: checkpoint" in err
    latest = json.loads((out / "checkpoints/latest.json").read_text())
    assert latest["step"] >= 1024
    assert train_main(["--out", str(out), "--resume", "--total-steps", str(latest["step"] + 256),
                       "--set", "eval.games=1"]) == 0
    assert json.loads((out / "checkpoints/latest.json").read_text())["step"] >= latest["step"] + 256


def test_sigterm_before_ppo_says_what_is_kept(tmp_path):
    """SIGTERM in the imitation's long collection stops the run with a line, not silently."""
    out = tmp_path / "warm"
    cmd = [sys.executable, "-m", "ktenv.training.train_ppo", "--config", str(SMOKE), "--out", str(out),
           "--set", "imitation.teacher=greedy", "--set", "imitation.decisions=100000000", "--set", "eval.every=0"]
    # the imitation's writer: the collection is under way
    returncode, err = _terminated(cmd, lambda: list((out / "tb").glob("events.*")), "the imitation", settle=1.0)
    assert returncode == 130, err
    assert "interrupted before PPO" in err and "--resume" in err
    assert not (out / "imitation.zip").exists()  # nothing half-written


def test_an_exported_half_precision_model_is_smaller_and_plays(run, tmp_path, capsys):
    """The shipped model is the policy only, in float16 (python -m ktenv.training.export)."""
    from ktenv.training.export import main as export_main

    full, half = tmp_path / "full.zip", tmp_path / "half.zip"
    assert export_main([str(run / "final.zip"), str(full)]) == 0
    assert export_main([str(run / "final.zip"), str(half), "--half"]) == 0
    assert half.stat().st_size < 0.7 * full.stat().st_size < 0.7 * (run / "final.zip").stat().st_size
    policy, meta = load_network(half)
    assert meta["precision"] == "float16" and meta["contents"] == "policy"
    assert all(p.dtype.is_floating_point and p.dtype.itemsize == 4 for p in policy.parameters())  # widened back
    original, _ = load_network(run / "final.zip")
    import torch

    with torch.no_grad():
        for a, b in zip(policy.parameters(), original.parameters()):
            torch.testing.assert_close(a, b.half().float())
    tcfg = TournamentConfig(agents=[f"ppo:{half}", "random"], players=2, games=2, workers=1, seed=5, max_rounds=4,
                            progress=False, db=str(tmp_path / "t.sqlite"))
    assert len(run_tournament(tcfg)["games"]) == 2
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    assert export_main([str(tmp_path / "bad.zip"), str(tmp_path / "out.zip")]) == 2
    assert "not a readable model zip" in capsys.readouterr().err and not (tmp_path / "out.zip").exists()

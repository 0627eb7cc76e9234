"""Training (issue 7): configs, the smoke run (train, save, resume, agent, tournament), checkpoints.

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
from ktenv.config import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "ppo_smoke.yaml"


# ----------------------------------------------------------------------------- configs

def test_every_shipped_training_config_loads():
    from tests.test_arena import TRAINING_CONFIGS

    for name in TRAINING_CONFIGS:
        cfg = TrainConfig.from_yaml(ROOT / "configs" / name)
        assert cfg.env.players == 2 and cfg.total_steps > 0


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
    ({"n_envs": 0}, "'n_envs'"),
    ({"vec_env": "threads"}, "'vec_env'"),
])
def test_a_bad_config_names_the_key(overrides, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(".", r"\.")):
        TrainConfig.from_yaml(SMOKE, overrides)


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
    args = ["--config", str(SMOKE), "--out", str(out), "--set", "vec_env=subproc"]
    assert train_main(args) == 0
    assert train_main(args) == 2  # a second start into the same folder is refused (use --resume)
    assert train_main([*args, "--resume", "--total-steps", "3072"]) == 0
    return out


def test_the_run_leaves_everything_a_user_needs(run):
    for name in ("config.yaml", "final.zip", "learning_curve.png", "checkpoints/latest.json", "league.json"):
        assert (run / name).exists(), name
    latest = json.loads((run / "checkpoints/latest.json").read_text())
    assert latest["step"] == 3072  # the resumed run went on from 2,048, it did not start over
    pool = read_pool(run)
    assert [e["step"] for e in pool] == [2048, 3072]  # max_snapshots 2: the oldest left the pool
    assert all((run / e["path"]).exists() for e in pool)
    assert not (run / "league" / "snapshot_0000001024.zip").exists()


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
    from ktenv.arena.game import play_game

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


def test_resume_from_a_corrupt_checkpoint_is_refused_and_changes_nothing(run, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    latest = json.loads((copy / "checkpoints/latest.json").read_text())
    ckpt = copy / latest["path"]
    ckpt.write_bytes(ckpt.read_bytes()[:1000])
    before = sorted(p.name for p in copy.rglob("*"))
    assert train_main(["--config", str(SMOKE), "--out", str(copy), "--resume", "--total-steps", "5000"]) == 2
    assert sorted(p.name for p in copy.rglob("*")) == before


# ----------------------------------------------------------------------------- the learning curve

def test_the_curve_keeps_every_line_visible_and_the_return_apart():
    """Issue 12.9: lines at 0% nest (distinct colour, dashes, marker; thinner on top); the return has its panel."""
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

def test_sigterm_saves_a_checkpoint_and_resume_continues(tmp_path):
    """A run stopped by SIGTERM keeps its progress; --resume goes on from there."""
    out = tmp_path / "long"
    cmd = [sys.executable, "-m", "ktenv.training.train_ppo", "--config", str(SMOKE), "--out", str(out),
           "--total-steps", "1000000", "--set", "eval.every=0", "--set", "checkpoint_every=100000"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not list((out / "league").glob("snapshot_*.zip")):
            time.sleep(0.5)  # the first snapshot (1,024 steps) proves learning is under way
        assert list((out / "league").glob("snapshot_*.zip")), "training did not get going"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted: checkpoint" in err
    latest = json.loads((out / "checkpoints/latest.json").read_text())
    assert latest["step"] >= 1024
    assert train_main(["--out", str(out), "--resume", "--total-steps", str(latest["step"] + 256),
                       "--set", "eval.games=1"]) == 0
    assert json.loads((out / "checkpoints/latest.json").read_text())["step"] >= latest["step"] + 256

"""Kingsburg training: configs/ppo_kingsburg_4p.yaml and ppo_kingsburg_2p.yaml load, short smoke runs of
`ktenv train` on Kingsburg train (one after an imitation warm start), evaluate with the arena, and leave a
model that plays as an agent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from ktenv.training.config import TrainConfig  # noqa: E402
from ktenv.training.train_ppo import main as train_main  # noqa: E402

from ktenv.errors import ConfigError  # noqa: E402
from ktenv.kingsburg import KingsburgConfig  # noqa: E402
from ktenv.kingsburg.arena import play  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "ppo_kingsburg_4p.yaml"


def test_the_kingsburg_config_loads_and_checks_its_keys():
    cfg = TrainConfig.from_yaml(CONFIG)
    assert cfg.env.game_name == "kingsburg" and cfg.env.players == 4
    assert isinstance(cfg.env.game_config(), KingsburgConfig)
    with pytest.raises(ConfigError, match="vec_env"):
        TrainConfig.from_yaml(CONFIG, {"vec_env": "vector"})
    with pytest.raises(ConfigError, match="env.players"):
        TrainConfig.from_yaml(CONFIG, {"env.players": 6})


def test_smoke_run_trains_evaluates_and_plays(tmp_path):
    out = tmp_path / "run"
    args = ["--config", str(CONFIG), "--out", str(out), "--total-steps", "512", "--set", "vec_env=dummy",
            "--set", "n_envs=2", "--set", "ppo.n_steps=128", "--set", "ppo.batch_size=128",
            "--set", "policy.features=32", "--set", "policy.pi=[16]", "--set", "policy.vf=[16]",
            "--set", "checkpoint_every=256", "--set", "league.snapshot_every=256", "--set", "eval.every=0",
            "--set", "eval.games=2", "--set", "eval.workers=1", "--set", "eval.opponents=[random]",
            "--set", "env.players=2"]
    assert train_main(args) == 0
    final = out / "final.zip"
    assert final.is_file() and (out / "learning_curve.png").is_file()
    assert list((out / "eval").glob("final_vs_random.sqlite"))
    s, actions = play(KingsburgConfig(n_players=2), 3, [f"ppo:{final}", "random"])
    assert s.game_over and actions


CONFIG_2P = ROOT / "configs" / "ppo_kingsburg_2p.yaml"


def test_the_two_player_config_loads_and_warm_starts_from_expert():
    cfg = TrainConfig.from_yaml(CONFIG_2P)
    assert cfg.env.game_name == "kingsburg" and cfg.env.players == 2
    assert cfg.imitation.teacher == "expert"
    assert cfg.league.opponents["expert"] >= max(cfg.league.opponents.values())  # heavy on expert


def test_the_teacher_is_watched_in_kingsburg_batched_games():
    from ktenv.training import imitation

    demos = imitation.collect("greedy", 300, players=2, game={}, reward="shaped", gamma=0.99,
                              opponents={"teacher": 1, "random": 1}, seed=5, num_envs=4, game_name="kingsburg")
    assert len(demos) >= 300 and demos.games >= 1
    assert demos.masks[np.arange(len(demos)), demos.actions].all()  # every label legal where it was given
    assert 0.0 <= demos.acting_wins <= 1.0  # greedy against random seats
    with pytest.raises(ConfigError, match="seat"):  # the batched games seat only random beside the teacher
        imitation.collect("greedy", 10, players=2, game={}, reward="shaped", gamma=0.99,
                          opponents={"expert": 1}, seed=5, num_envs=2, game_name="kingsburg")


def test_smoke_run_with_the_imitation_warm_start(tmp_path):
    out = tmp_path / "im"
    args = ["--config", str(CONFIG_2P), "--out", str(out), "--total-steps", "256", "--set", "vec_env=dummy",
            "--set", "n_envs=2", "--set", "ppo.n_steps=128", "--set", "ppo.batch_size=128",
            "--set", "policy.features=32", "--set", "policy.pi=[16]", "--set", "policy.vf=[16]",
            "--set", "imitation.teacher=greedy", "--set", "imitation.decisions=400",
            "--set", "imitation.dagger_rounds=1", "--set", "imitation.dagger_decisions=200",
            "--set", "imitation.games=4", "--set", "imitation.epochs=1", "--set", "eval.every=0",
            "--set", "eval.games=2", "--set", "eval.workers=1", "--set", "eval.opponents=[random]",
            "--set", "eval.best_against=null", "--set", "league.opponents={random: 1.0}", "--set", "league.snapshots=0"]
    assert train_main(args) == 0
    assert (out / "imitation.zip").is_file() and (out / "final.zip").is_file()

"""Kingsburg training: configs/ppo_kingsburg_4p.yaml and ppo_kingsburg_2p.yaml load, and short smoke runs of
`ktenv train` on Kingsburg (one game per env, and the batched native games with the imitation warm start)
train, evaluate with the arena, and leave a model that plays as an agent."""

from __future__ import annotations

from pathlib import Path

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
    assert TrainConfig.from_yaml(CONFIG, {"vec_env": "dummy"}).vec_env == "dummy"
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


SMALL = ["--set", "policy.features=32", "--set", "policy.pi=[16]", "--set", "policy.vf=[16]", "--set", "eval.every=0",
         "--set", "eval.games=2", "--set", "eval.workers=1", "--set", "eval.opponents=[random]"]


def test_smoke_run_on_the_batched_games_with_an_imitation_warm_start(tmp_path, capsys):
    from ktenv.kingsburg import native

    if not native.available():
        pytest.skip("the native Kingsburg engine is not built")
    out = tmp_path / "vector"
    args = ["--config", str(CONFIG), "--out", str(out), "--total-steps", "1024", "--set", "vec_env=vector",
            "--set", "n_envs=8", "--set", "ppo.n_steps=128", "--set", "ppo.batch_size=256",
            "--set", "checkpoint_every=512", "--set", "league.snapshot_every=512", "--set", "env.players=3",
            "--set", "imitation.teacher=expert", "--set", "imitation.decisions=300", "--set", "imitation.games=8",
            "--set", "imitation.dagger_rounds=1", "--set", "imitation.dagger_decisions=100", *SMALL]
    assert train_main(args) == 0
    err = capsys.readouterr().err
    assert "agreement with expert" in err and (out / "imitation.zip").is_file()
    final = out / "final.zip"
    assert final.is_file()
    s, actions = play(KingsburgConfig(n_players=3), 4, [f"ppo:{final}", "expert", "random"])
    assert s.game_over and actions


SHIPPED = ROOT / "models" / "ppo_kingsburg_2p.zip"


def test_the_shipped_model_is_a_policy_of_two_player_kingsburg_and_plays_in_the_tournament(tmp_path, capsys):
    import zipfile

    from ktenv.agents import model_game

    from ktenv.cli import main

    with zipfile.ZipFile(SHIPPED) as archive:
        assert sorted(archive.namelist()) == ["ktenv.json", "policy.pth"]  # weights only, no optimizer, no pickle
    assert model_game(f"ppo:{SHIPPED}") == ("kingsburg", 2)
    args = ["tournament", "--game", "kingsburg", "--players", "2", "--agents", f"ppo:{SHIPPED},random",
            "--games", "4", "--seed", "5", "--workers", "1", "--db", str(tmp_path / "t.sqlite"), "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"ppo:{SHIPPED}" in out and "4 games of 2 players" in out
    assert f"ppo:{SHIPPED}" in out.splitlines()[3]  # first of the standings: it beats random

"""The command line (`ktenv play`): JSON summary, readable summary, options and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ktenv.cli import main
from ktenv.errors import ConfigError
from ktenv.kings_and_things.state import GameState

COUNT_KEYS = ("explorations", "battles", "hexes_conquered", "bribes", "heroes_recruited", "events_played",
              "magic_played", "decisions")


def _play_json(capsys, *args: str) -> dict:
    assert main(["play", *args, "--json"]) == 0
    out = capsys.readouterr().out
    return json.loads(out)


def test_play_json_summary(capsys):
    info = _play_json(capsys, "--players", "2", "--seed", "3")
    for key in ("rounds", "winner", "reason", "players", *COUNT_KEYS):
        assert key in info
    assert isinstance(info["rounds"], int) and info["rounds"] >= 1
    assert info["winner"] in (0, 1) or (info["winner"] is None and len(info["winners"]) > 1)
    assert info["reason"]
    assert len(info["players"]) == 2
    for row in info["players"]:
        for key in ("hexes", "income", "gold", "forts"):
            assert key in row
        assert all(1 <= f <= 4 for f in row["forts"])
        assert row["gold"] >= 0 and row["income"] >= 0
    assert all(isinstance(info[k], int) and info[k] >= 0 for k in COUNT_KEYS)
    assert info["decisions"] > 0


def test_play_is_reproducible(capsys):
    a = _play_json(capsys, "--players", "3", "--seed", "5", "--max-rounds", "6")
    b = _play_json(capsys, "--players", "3", "--seed", "5", "--max-rounds", "6")
    assert a == b
    assert a["rounds"] <= 6


def test_play_readable_summary(capsys):
    assert main(["play", "--players", "2", "--seed", "1", "--max-rounds", "3"]) == 0
    out = capsys.readouterr().out
    assert "Game over after" in out and "Winner" in out and "player" in out


def test_victory_and_set_options(capsys):
    info = _play_json(capsys, "--players", "2", "--seed", "2", "--victory", "fixed_rounds",
                      "--set", "fixed_rounds=3", "--max-rounds", "0")
    assert info["reason"] == "fixed_rounds" and info["rounds"] == 3
    info = _play_json(capsys, "--players", "2", "--seed", "2", "--set", "citadel_income_2p=20",
                      "--set", "free_draws_mandatory=false", "--max-rounds", "4")
    assert info["rounds"] <= 4


def test_save_writes_a_loadable_game(capsys, tmp_path):
    path = tmp_path / "game.json"
    assert main(["play", "--players", "2", "--seed", "4", "--max-rounds", "3", "--save", str(path)]) == 0
    capsys.readouterr()
    s = GameState.from_json(path.read_text())
    assert s.game_over and s.winners


@pytest.mark.parametrize("args,needle", [
    (["--set", "no_such_option=1"], "no_such_option"),
    (["--set", "victory=fastest"], "victory"),
    (["--set", "citadel_income_2p=17"], "citadel_income_2p"),
    (["--set", "justtext"], "justtext"),
    (["--players", "5"], "n_players"),
    (["--victory", "nobody"], "victory"),
    (["--agents", "random,random,random"], "agents"),
    (["--agents", "nosuchagent"], "nosuchagent"),
])
def test_bad_options_exit_2_naming_the_problem(capsys, args, needle):
    players = [] if "--players" in args else ["--players", "2"]
    assert main(["play", "--seed", "1", *players, *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and "error" in err


def test_unknown_command_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["fly"])
    assert exc.value.code == 2


# ----- small CLI gaps and errors that came too late

def test_version(capsys):
    from ktenv import __version__

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"ktenv {__version__}"


@pytest.mark.parametrize("command, needles", [
    ("play", ["Play one seeded game", "(default random)", "else 4)"]),
    ("render", ["Draw a game saved by"]),
    ("train", ["Train a MaskablePPO agent"]),
])
def test_subcommands_describe_themselves(capsys, command, needles):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps the help text
    for needle in needles:
        assert needle in out


@pytest.mark.parametrize("args, message", [
    (["--players", "2", "--set", "n_players=3"], "--set n_players=3 conflicts with --players 2"),
    (["--max-rounds", "5", "--set", "max_rounds=8"], "--set max_rounds=8 conflicts with --max-rounds 5"),
    (["--victory", "quick", "--set", "victory=standard"], "conflicts with --victory quick"),
])
def test_a_flag_and_set_that_disagree_are_refused(capsys, monkeypatch, args, message):

    import ktenv.kings_and_things.arena as arena

    monkeypatch.setattr(arena, "play_out", lambda *a, **k: pytest.fail("the game must not be played"))
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_flag_and_set_that_agree_play(capsys):
    info = _play_json(capsys, "--players", "2", "--set", "n_players=2", "--max-rounds", "3")
    assert len(info["players"]) == 2


def test_save_into_a_missing_folder_makes_it(capsys, tmp_path):
    path = tmp_path / "new" / "folder" / "game.json"
    assert main(["play", "--players", "2", "--seed", "4", "--max-rounds", "2", "--save", str(path)]) == 0
    capsys.readouterr()
    assert GameState.from_json(path.read_text()).game_over


@pytest.mark.parametrize("target", ["folder", "under_a_file"])
def test_an_unwritable_save_path_is_refused_before_the_game(capsys, monkeypatch, tmp_path, target):

    (tmp_path / "plain.txt").write_text("x")
    path = tmp_path if target == "folder" else tmp_path / "plain.txt" / "game.json"
    import ktenv.kings_and_things.arena as arena

    monkeypatch.setattr(arena, "play_out", lambda *a, **k: pytest.fail("the game must not be played"))
    assert main(["play", "--players", "2", "--save", str(path)]) == 2
    assert "--save" in capsys.readouterr().err


@pytest.mark.parametrize("width", ["0", "-10"])
def test_render_width_must_be_positive(capsys, monkeypatch, tmp_path, width):
    import ktenv.kings_and_things.render as render

    monkeypatch.setattr(render, "render_command", lambda args: pytest.fail("the renderer must not be called"))
    assert main(["render", str(tmp_path / "game.json"), "--width", width]) == 2
    assert f"--width: expected a positive number of pixels, got {width}" in capsys.readouterr().err


@pytest.mark.parametrize("argv, hint", [
    (["play", "--set", "victry=quick"], "did you mean 'victory'?"),
    (["play", "--game", "kingsburg", "--set", "building_token_limt=5"], "did you mean 'building_token_limit'?"),
    (["tournament", "--set", "max_round=3", "--games", "1"], "did you mean 'max_rounds'"),
])
def test_a_misspelt_key_gets_a_suggestion(capsys, argv, hint):
    assert main(argv) == 2
    assert hint in capsys.readouterr().err


def test_a_misspelt_training_key_gets_a_suggestion():
    from ktenv.training.config import TrainConfig

    from ktenv.errors import did_you_mean

    with pytest.raises(ConfigError, match=r"unknown training key 'ppo.batch_sise' \(did you mean 'batch_size'\?\)"):
        TrainConfig.from_mapping({"ppo": {"batch_sise": 64}})
    assert did_you_mean("zzz", ["victory", "seed"]) == ""


MODEL = Path(__file__).resolve().parents[2] / "models" / "ppo_2p.zip"


@pytest.mark.parametrize("argv, wanted", [
    (["tournament", "--agents", f"ppo:{MODEL},random", "--players", "4", "--games", "1"],
     "is a model of kings_and_things for 2 players; this plays kings_and_things with 4 players"),
    (["tournament", "--game", "kingsburg", "--agents", f"ppo:{MODEL},random", "--players", "2", "--games", "1"],
     "is a model of kings_and_things for 2 players; this plays kingsburg with 2 players"),
    (["play", "--agents", f"ppo-sample:{MODEL}", "--players", "3"],
     "is a model of kings_and_things for 2 players; this plays kings_and_things with 3 players"),
])
def test_a_model_of_another_game_or_player_count_is_refused_before_any_game(capsys, argv, wanted):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert wanted in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_model_read_for_its_game_without_loading_it(tmp_path):
    from ktenv.agents import model_game

    assert model_game(f"ppo:{MODEL}") == ("kings_and_things", 2)
    assert model_game("greedy") is None and model_game(f"ppo:{tmp_path / 'missing.zip'}") is None


def test_export_and_curve_are_subcommands(tmp_path, capsys):
    pytest.importorskip("torch")
    out = tmp_path / "half.zip"
    assert main(["export", str(MODEL), str(out), "--half"]) == 0
    assert out.is_file() and "MB" in capsys.readouterr().out
    assert main(["export", str(tmp_path / "missing.zip"), str(out)]) == 2
    assert main(["curve", str(tmp_path / "no_run")]) == 2
    assert "usage: ktenv curve" in _help(capsys, "curve")


def _help(capsys, command: str) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return capsys.readouterr().out


def test_play_names_the_agents_and_a_typo_gets_a_suggestion(capsys):
    assert main(["play", "--players", "2", "--seed", "1", "--max-rounds", "2", "--agents", "greedy,random"]) == 0
    assert "agents: 0=greedy, 1=random" in capsys.readouterr().out
    assert main(["play", "--players", "2", "--max-rounds", "2", "--agents", "greedyy"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'greedy'?" in err and "ismcts:OPTIONS" in err and "ismcts:PATH" not in err
    assert main(["play", "--players", "2", "--seed", "1", "--max-rounds", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["agents"] == ["random", "random"]


@pytest.mark.parametrize("game, agents", [("kings_and_things", "me=expert,random"), ("kingsburg", "expert,greedy")])
def test_play_record_replays_and_equals_the_tournament_game(tmp_path, capsys, game, agents):
    """`ktenv play --record FILE` writes a record that `ktenv replay` verifies; `ktenv play` and a tournament
    play the same game for the same seed and agents (one game loop, one seeding)."""
    from ktenv.arena.records import GameRecord
    from ktenv.registry import game as lookup

    path = tmp_path / "deep" / "g.json"
    args = ["play", "--game", game, "--agents", agents, "--seed", "7", "--record", str(path)]
    if game == "kings_and_things":
        args += ["--max-rounds", "4"]
    assert main(args) == 0
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert "verified" in capsys.readouterr().out
    rec = GameRecord.load(path)
    specs = rec.agent_specs or rec.agents
    assert rec.agents[0] == agents.split(",")[0].split("=")[0] and specs[0] == agents.split(",")[0].split("=")[-1]
    result = lookup(game).play_game(rec.config, 7, specs, record=True)
    assert result.record["actions"] == rec.to_dict()["actions"]


def test_play_record_path_is_checked_before_the_game(tmp_path, monkeypatch):
    from ktenv.kings_and_things import arena

    monkeypatch.setattr(arena, "play_out", lambda *a, **k: pytest.fail("the game must not be played"))
    assert main(["play", "--players", "2", "--record", str(tmp_path)]) == 2

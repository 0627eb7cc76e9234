"""Kingsburg in the arena: `ktenv play|tournament|replay|render --game kingsburg`, records that replay
exactly (and a tampered one refused), tournaments that resume, the agents' basic strength order."""

from __future__ import annotations

import json

import numpy as np
import pytest
from ktenv.agents import kingsburg as agents

from ktenv.arena.config import TournamentConfig
from ktenv.arena.records import GameRecord, RecordError, replay
from ktenv.cli import main
from ktenv.errors import ConfigError
from ktenv.kingsburg import KingsburgConfig, KingsburgState
from ktenv.kingsburg.arena import play, play_game


def test_play_save_render_and_text(tmp_path, capsys):
    save = tmp_path / "g.json"
    args = ["play", "--game", "kingsburg", "--players", "3", "--agents", "expert,greedy,random", "--seed", "4"]
    assert main([*args, "--json", "--save", str(save)]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["game"] == "kingsburg" and info["year"] == 5 and len(info["players"]) == 3 and info["winners"]
    s = KingsburgState.from_json(save.read_text())
    assert s.game_over and sorted(info["winners"]) == s.winners
    assert main(args) == 0 and "Kingsburg: player" in capsys.readouterr().out  # the same game, readable
    out = tmp_path / "g.png"
    assert main(["render", str(save), "--game", "kingsburg", "--out", str(out), "--width", "600", "--text"]) == 0
    assert out.stat().st_size > 5000 and "advisors:" in capsys.readouterr().out
    out.unlink()
    assert main(["render", str(save), "--out", str(out), "--text"]) == 0  # the save's schema says Kingsburg
    assert out.stat().st_size > 5000 and "advisors:" in capsys.readouterr().out
    assert main(["play", "--game", "kingsburg", "--players", "6"]) == 2
    assert main(["play", "--game", "kingsburg", "--max-rounds", "3"]) == 2
    assert main(["play", "--game", "kingsburg", "--agents", "nobody"]) == 2


def test_tournament_records_replay_and_resume(tmp_path, capsys):
    db, records = tmp_path / "t.sqlite", tmp_path / "records"
    base = ["tournament", "--game", "kingsburg", "--players", "2", "--agents", "expert,random", "--workers", "1",
            "--no-progress", "--db", str(db), "--seed", "3"]
    assert main([*base, "--games", "4", "--records", str(records)]) == 0
    out = capsys.readouterr().out
    assert "Kingsburg tournament" in out and "VP" in out and "expert" in out
    assert main([*base, "--games", "6", "--resume"]) == 0
    assert "played now: 2 games" in capsys.readouterr().out
    files = sorted(records.glob("*.json"))
    assert len(files) == 4
    rec = GameRecord.load(files[1])
    assert isinstance(rec.config, KingsburgConfig)
    done = replay(rec)
    assert done.verified and done.state.game_over
    assert main(["replay", str(files[1]), "--show", "10", "--list"]) == 0
    text = capsys.readouterr().out
    assert "verified" in text and "move 10: year" in text
    assert main(["replay", str(files[1]), "--game", "kings_and_things"]) == 2
    data = json.loads(files[1].read_text())
    data["result"]["income"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="income"):
        replay(GameRecord.load(bad))


def test_tournament_config_checks_the_game():
    with pytest.raises(ConfigError, match="2 to 5"):
        TournamentConfig(game_name="kingsburg", players=6, agents=["random", "greedy"])
    with pytest.raises(ConfigError, match="game_name"):
        TournamentConfig(game_name="chess")
    with pytest.raises(ConfigError, match="unknown Kingsburg option"):
        TournamentConfig(game_name="kingsburg", players=2, agents=["random"], game={"victory": "quick"})
    cfg = TournamentConfig(game_name="kingsburg", players=5, agents=["random", "greedy"], games=2, workers=1,
                           progress=False, db=None, fresh=True)
    assert cfg.name.startswith("kingsburg_") and cfg.identity()["game"]["game"] == "kingsburg"


def test_agents_follow_the_protocol_and_play_whole_games():
    assert agents.AGENTS.names() == ["expert", "greedy", "human", "random", "search"]
    with pytest.raises(ValueError, match="unknown agent 'ismcts' for Kingsburg"):
        agents.AGENTS.make("ismcts")
    cfg = KingsburgConfig(n_players=4)
    s, actions = play(cfg, 2, ["expert", "greedy", "random", "expert"])
    assert s.game_over and len(actions) == s.steps
    result = play_game(KingsburgConfig(n_players=5), 1, ["greedy"] * 5)
    assert result.reason == "game_end" and result.rounds == 5


def test_expert_and_greedy_beat_random():  # the measured targets (README): here a small CI form
    wins = {"expert": 0.0, "greedy": 0.0}
    for g in range(8):
        for name in wins:
            names = [name, "random"] if g % 2 == 0 else ["random", name]
            s, _ = play(KingsburgConfig(n_players=2), 100 + g, names)
            wins[name] += sum(1 / len(s.winners) for w in s.winners if names[w] == name)
    assert wins["expert"] >= 7 and wins["greedy"] >= 7
    assert np.isfinite(list(wins.values())).all()

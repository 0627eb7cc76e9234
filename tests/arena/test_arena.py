"""Tournaments: schedule, configs, the SQLite store, interruption and --resume, standings, plots."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ktenv.arena.config import TournamentConfig
from ktenv.arena.ratings import head_to_head, wilson
from ktenv.arena.tournament import TournamentError, run_tournament, schedule, tables
from ktenv.cli import main
from ktenv.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
FAST = {"agents": ["random", "greedy"], "players": 2, "max_rounds": 6, "progress": False}


def cfg(tmp_path: Path, **kw) -> TournamentConfig:
    values = {**FAST, "games": 6, "workers": 1, "db": str(tmp_path / "t.sqlite"), **kw}
    return TournamentConfig(**values)


# ----- schedule

def test_seats_are_rotated_and_balanced():
    for agent_list, players in ((["a", "b"], 2), (["a", "b", "c"], 4), (["a", "b", "c", "d", "e"], 3)):
        tabs = tables(agent_list, players)
        seats = Counter((seat, name) for t in tabs for seat, name in enumerate(t))
        for seat in range(players):
            counts = {name: seats[seat, name] for name in agent_list}
            assert len(set(counts.values())) == 1, (agent_list, players, counts)
    two = schedule(TournamentConfig(agents=["expert", "random"], players=2, games=4))
    assert [g[2] for g in two] == [["expert", "random"], ["random", "expert"]] * 2
    assert len({g[1] for g in two}) == 4


# ----- configs

def test_yaml_config_and_flag_overrides(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("agents: [greedy, random]\nplayers: 2\ngames: 7\ngame:\n  victory: quick\n")
    c = TournamentConfig.from_yaml(path, {"games": 9})
    assert c.agents == ["greedy", "random"] and c.games == 9 and c.game_config().victory == "quick"


@pytest.mark.parametrize("text, key", [
    ("players: 7\n", "players"),
    ("gamez: 3\n", "gamez"),
    ("agents: [expert, nobody]\n", "agents"),
    ("games: many\n", "games"),
    ("game: {victory: sudden}\n", "victory"),
    ("game: {colour: red}\n", "colour"),
    ("game: {n_players: 3}\n", "game.n_players"),
    ("backend: threads\n", "backend"),
    ("resume: maybe\n", "resume"),
])
def test_config_errors_name_the_key(tmp_path, text, key):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"'{key}'"):
        TournamentConfig.from_yaml(path)


def test_bad_yaml_and_cli_errors(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("agents: [expert\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        TournamentConfig.from_yaml(path)
    assert main(["tournament", "--config", str(path)]) == 2
    assert "not valid YAML" in capsys.readouterr().err
    assert main(["tournament", "--agents", "expert,nobody", "--db", str(tmp_path / "x.sqlite")]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert main(["tournament", "--players", "9", "--db", str(tmp_path / "x.sqlite")]) == 2
    assert "'players'" in capsys.readouterr().err


# checked by tests/training/test_training.py and tests/training/test_rllib.py
TRAINING_CONFIGS = ("expert_iteration_2p.yaml", "exploiter.yaml", "ppo_2p.yaml", "ppo_2p_expert.yaml",
                    "ppo_2p_focus.yaml", "ppo_2p_row_steps.yaml", "ppo_2p_rows.yaml", "ppo_2p_steer.yaml",
                    "ppo_4p_row_steps.yaml", "ppo_4p_vs_expert.yaml", "ppo_5min.yaml", "ppo_smoke.yaml",
                    "rllib_2p.yaml", "rllib_smoke.yaml")
# checked by tests/kingsburg/test_kingsburg_training.py
OTHER_TRAINING_CONFIGS = ("ppo_kingsburg_2p.yaml", "ppo_kingsburg_4p.yaml")


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "configs").glob("*.yaml")
                                        if p.name not in TRAINING_CONFIGS + OTHER_TRAINING_CONFIGS))
def test_shipped_configs_are_valid(name):
    c = TournamentConfig.from_yaml(ROOT / "configs" / name)
    assert c.games >= 1 and len(schedule(c)) == c.games


# ----- the tournament, the store, interruption and resume

def test_short_tournament_with_two_workers(tmp_path, capsys):
    summary = tmp_path / "standings.json"
    plot = tmp_path / "standings.png"
    try:
        import matplotlib  # noqa: F401
        plotting = ["--plot", str(plot)]
    except ImportError:  # the plot is checked where matplotlib is installed
        plotting = []
    code = main(["tournament", "--agents", "greedy,random", "--players", "2", "--games", "4", "--workers", "2",
                 "--max-rounds", "6", "--seed", "3", "--db", str(tmp_path / "t.sqlite"), "--no-progress",
                 "--summary-json", str(summary), "--records", str(tmp_path / "records"), *plotting])
    assert code == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "rating" in out and "games/s" in out
    data = json.loads(summary.read_text())
    assert (data["schema"], data["version"]) == ("ktenv.standings", 2)
    assert data["settings"]["agents"] == {"greedy": "greedy", "random": "random"}
    assert (data["settings"]["players"], data["settings"]["seed"], data["settings"]["max_rounds"]) == (2, 3, 6)
    assert data["settings"]["game_config"]["n_players"] == 2 and data["games_stored"] == 4
    rows = data["standings"]
    assert {r["agent"] for r in rows} == {"greedy", "random"}
    for r in rows:
        assert {"agent", "games", "wins", "win_rate", "rating_mu", "rating_sigma"} <= set(r)
        assert r["games"] == 4
    h2h = data["head_to_head"]
    assert h2h["agents"] == [r["agent"] for r in rows]
    i, j = h2h["agents"].index("greedy"), h2h["agents"].index("random")
    assert h2h["ahead"][i][i] is None and h2h["ahead"][i][j] + h2h["ahead"][j][i] == 1.0
    assert sum(data["ends"].values()) == 4
    if plotting:
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list((tmp_path / "records").glob("*.json"))) == 4
    record = sorted((tmp_path / "records").glob("*.json"))[0]
    assert main(["replay", str(record)]) == 0
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 4


def test_interrupted_tournament_resumes_without_losing_or_repeating_games(tmp_path):
    full = run_tournament(cfg(tmp_path, db=str(tmp_path / "full.sqlite")))
    seen = []

    def stop_after_two(index, result):
        seen.append(index)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(cfg(tmp_path), on_game=stop_after_two)
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    with pytest.raises(TournamentError, match="already holds 2 finished games.*--resume"):
        run_tournament(cfg(tmp_path))
    resumed = run_tournament(cfg(tmp_path, resume=True))
    assert resumed["played"] == 4
    assert [g["index"] for g in resumed["games"]] == list(range(6))
    strip = [{k: v for k, v in g.items() if k != "seconds"} for g in resumed["games"]]
    assert strip == [{k: v for k, v in g.items() if k != "seconds"} for g in full["games"]]
    assert [s.to_dict() for s in resumed["standings"]] == [s.to_dict() for s in full["standings"]]
    again = run_tournament(cfg(tmp_path, resume=True, games=8))  # more games extend the same tournament
    assert again["played"] == 2 and len(again["games"]) == 8


def test_a_store_of_another_tournament_is_refused(tmp_path):
    run_tournament(cfg(tmp_path, games=1))
    with pytest.raises(TournamentError, match="different tournament.*'seed'"):
        run_tournament(cfg(tmp_path, games=1, seed=99, resume=True))
    fresh = run_tournament(cfg(tmp_path, games=1, seed=99, fresh=True))
    assert fresh["played"] == 1
    with pytest.raises(TournamentError, match="different tournament.*'max_decisions'"):  # cuts other games
        run_tournament(cfg(tmp_path, games=1, seed=99, resume=True, max_decisions=50))
    (tmp_path / "junk.sqlite").write_text("not a database at all" * 100)
    with pytest.raises(TournamentError, match="not a usable tournament database"):
        run_tournament(cfg(tmp_path, db=str(tmp_path / "junk.sqlite")))


def test_killed_tournament_process_resumes(tmp_path):
    """Kill the whole tournament (parent and workers) mid-run, then --resume."""
    db = tmp_path / "k.sqlite"
    games = 400  # enough that the run is still going when the poll below sees its first games stored
    args = [sys.executable, "-m", "ktenv.cli", "tournament", "--agents", "random,greedy", "--players", "2",
            "--games", str(games), "--workers", "2", "--max-rounds", "6", "--db", str(db), "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.time() + 120
    count = 0
    try:
        while time.time() < deadline and proc.poll() is None:
            time.sleep(0.2)
            if db.exists():
                try:
                    with sqlite3.connect(db) as c:
                        count = c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                except sqlite3.OperationalError:
                    continue
                if count >= 3:
                    break
    finally:
        killed = proc.poll() is None
        if killed:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert killed, "the tournament ended before it could be killed"
    with sqlite3.connect(db) as c:
        before = c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 3 <= before < games
    done = subprocess.run(args + ["--resume"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as c:
        indices = [r[0] for r in c.execute("SELECT game_index FROM games ORDER BY game_index")]
    assert indices == list(range(games))
    assert f"played now: {games - before} games" in done.stdout


def test_ray_backend_runs_or_says_what_is_missing(tmp_path):
    try:
        import ray  # noqa: F401
    except ImportError:
        with pytest.raises(TournamentError, match="needs the 'ray' package"):
            run_tournament(cfg(tmp_path, games=1, backend="ray"))
        return
    pytest.skip("ray is installed: the ray backend is exercised by tests/arena/test_ray_tournament.py")


def test_ratings_helpers():
    low, high = wilson(95, 100)
    assert 0.88 < low < 0.95 < high < 0.99
    games = [{"agents": ["a", "b"], "winners": [0], "income": [5, 3], "hexes": [3, 3]},
             {"agents": ["b", "a"], "winners": [1], "income": [4, 6], "hexes": [3, 3]}]
    assert head_to_head(games, ["a", "b"]) == [[None, 1.0], [0.0, None]]


def test_engine_dead_ends_are_stored_but_not_counted():
    from ktenv.arena.ratings import standings

    ok = {"index": 0, "agents": ["a", "b"], "winners": [0], "income": [5, 3], "hexes": [3, 3], "reason": "sole_citadel"}
    broken = {"index": 1, "agents": ["a", "b"], "winners": [], "income": [1, 9], "hexes": [1, 9],
              "reason": "engine_error"}
    rows = {s.agent: s for s in standings([ok, broken], ["a", "b"])}
    assert rows["a"].games == 1 and rows["a"].wins == 1 and rows["b"].wins == 0


def test_a_failing_agent_stops_the_game_with_a_clear_error():
    from ktenv import agents
    from ktenv.arena import AgentError, play_game
    from ktenv.kings_and_things.config import GameConfig

    class Illegal:
        def reset(self, seed=None):
            pass

        def act(self, observation, action_mask):
            return int(len(action_mask) + 5)

    agents.register("illegal_test_only", lambda seed=None: Illegal())
    try:
        with pytest.raises(AgentError, match="'illegal_test_only' \\(seat 1\\) played an illegal action"):
            play_game(GameConfig(n_players=2, max_rounds=3), 1, ["random", "illegal_test_only"])
    finally:
        agents.table().named.pop("illegal_test_only")


def test_cli_flags_override_the_yaml_and_set_game_options(tmp_path, capsys):
    path = tmp_path / "t.yaml"
    path.write_text("agents: [random, greedy]\nplayers: 3\ngames: 50\nmax_rounds: 4\nprogress: false\n"
                    "game: {victory: standard}\n")
    summary = tmp_path / "s.json"
    assert main(["tournament", "--config", str(path), "--players", "2", "--games", "2", "--workers", "1",
                 "--set", "fort_supply=unlimited", "--db", str(tmp_path / "t.sqlite"),
                 "--summary-json", str(summary)]) == 0
    assert "2 games of 2 players" in capsys.readouterr().out
    assert sum(r["games"] for r in json.loads(summary.read_text())["standings"]) == 4
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        identity = json.loads(db.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()[0])
    assert identity["game"]["fort_supply"] == "unlimited" and identity["game"]["victory"] == "standard"
    assert main(["tournament", "--config", str(path), "--set", "fort_supply=plenty",
                 "--db", str(tmp_path / "u.sqlite")]) == 2
    assert "'fort_supply'" in capsys.readouterr().err


BOT = '''
import numpy as np

class FirstLegal:
    """Takes the first legal action (a user's own bot, not registered anywhere)."""
    name = "first"

    def __init__(self, seed=None):
        self.seed = seed

    def reset(self, seed=None):
        pass

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])

NOT_AN_AGENT = 3
'''


def test_a_users_bot_file_plays_in_a_tournament(tmp_path, capsys):
    """The Catanatron habit: `FILE.py:CLASS` loads a bot from the user's own file."""
    from ktenv import agents

    bot = tmp_path / "my_bot.py"
    bot.write_text(BOT)
    assert agents.known(f"{bot}:FirstLegal") and agents.make(f"{bot}:FirstLegal", seed=4).seed == 4
    db = tmp_path / "t.sqlite"
    assert main(["tournament", "--agents", f"{bot}:FirstLegal,random", "--players", "2", "--games", "2",
                 "--workers", "1", "--max-rounds", "3", "--db", str(db), "--no-progress"]) == 0
    assert "FirstLegal" in capsys.readouterr().out
    records = tmp_path / "records"  # a record says which version of the bot played
    assert main(["tournament", "--agents", f"{bot}:FirstLegal,random", "--players", "2", "--games", "1",
                 "--workers", "1", "--max-rounds", "3", "--db", str(tmp_path / "r.sqlite"), "--no-progress",
                 "--records", str(records)]) == 0
    from ktenv.arena.config import file_digest
    from ktenv.arena.records import GameRecord, RecordError

    (saved,) = records.glob("*.json")
    record = GameRecord.load(saved)
    assert record.agent_files == {f"{bot}:FirstLegal": file_digest(bot)}
    data = json.loads(saved.read_text())
    data["agent_files"] = {"random": "not a digest"}
    with pytest.raises(RecordError, match="agent_files"):
        GameRecord.from_dict(data)
    for spec, message in ((f"{tmp_path}/none.py:FirstLegal", "no such file"),
                          (f"{bot}:Missing", "no class or function"),
                          (f"{bot}:NOT_AN_AGENT", "no class or function")):
        with pytest.raises(ConfigError, match=message):
            TournamentConfig(agents=[spec, "random"], players=2)


# ----- model versions, finished tournaments, bad stores, cut games, the head-to-head picture

def test_a_changed_agent_file_is_refused_on_resume_and_its_digest_is_shown(tmp_path, capsys):
    """A tournament's identity holds the SHA-256 of each agent's file (a retrained model, an edited bot)."""
    from ktenv.arena.config import agent_file

    bot = tmp_path / "my_bot.py"
    bot.write_text(BOT)
    spec = f"{bot}:FirstLegal"
    summary = tmp_path / "s.json"
    args = ["tournament", "--agents", f"{spec},random", "--players", "2", "--games", "2", "--workers", "1",
            "--max-rounds", "3", "--db", str(tmp_path / "t.sqlite"), "--no-progress"]
    assert main([*args, "--summary-json", str(summary)]) == 0
    digest = TournamentConfig(agents=[spec, "random"], players=2).agent_files()[spec]
    assert f"file sha256 {digest[:12]}" in capsys.readouterr().out
    assert {r["agent"]: r.get("file_sha256") for r in json.loads(summary.read_text())["standings"]} == {spec: digest,
                                                                                            "random": None}
    bot.write_text(BOT + "\n# retrained\n")
    assert main([*args[:6], "4", *args[7:], "--resume"]) == 1
    err = capsys.readouterr().err
    assert f"file of agent {spec!r} changed" in err and digest[:12] in err and "--fresh" in err
    with sqlite3.connect(tmp_path / "t.sqlite") as db:  # nothing of the new file was added
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    from ktenv.arena.tournament import _difference

    old_store = {"agents": [spec, "random"], "players": 2}  # written before files had digests
    assert "not recorded (an older ktenv) then" in _difference(old_store, {**old_store, "agent_files": {spec: digest}})
    model = tmp_path / "final.zip"
    model.write_bytes(b"weights")
    assert agent_file(f"ppo:{model}") == model and agent_file("expert") is None
    assert "agent_files" not in TournamentConfig(agents=["expert", "random"], players=2).identity()


def test_a_finished_tournament_prints_its_standings_again(tmp_path, capsys):
    args = ["tournament", "--agents", "greedy,random", "--players", "2", "--games", "2", "--workers", "1",
            "--max-rounds", "4", "--db", str(tmp_path / "t.sqlite"), "--no-progress"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0  # the README's commands run one after another on the default database
    again = capsys.readouterr().out
    assert "every game was already stored" in again
    assert first.splitlines()[:6] == again.splitlines()[:6]
    assert main([*args[:6], "3", *args[7:]]) == 1  # more games than stored: only with --resume
    assert "1 of the 3 asked for are missing" in capsys.readouterr().err


def test_records_pointing_at_a_file_is_an_error(tmp_path, capsys):
    (tmp_path / "games").write_text("not a folder")
    assert main(["tournament", "--agents", "greedy,random", "--players", "2", "--games", "1",
                 "--records", str(tmp_path / "games"), "--db", str(tmp_path / "t.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "'records'" in err and "is a file" in err
    assert not (tmp_path / "t.sqlite").exists()


def test_a_stored_game_of_an_unknown_agent_is_a_clear_error(tmp_path):
    run_tournament(cfg(tmp_path, games=2))
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        db.execute("UPDATE games SET agents = ? WHERE game_index = 1", (json.dumps(["greedy", "stranger"]),))
    with pytest.raises(TournamentError, match="t.sqlite: stored game 1 names agent 'stranger'"):
        run_tournament(cfg(tmp_path, games=4, resume=True))
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2


def test_games_cut_by_max_decisions_are_stored_but_not_rated(tmp_path):
    from ktenv.arena.tournament import report_text

    c = cfg(tmp_path, games=2, max_decisions=40)
    report = run_tournament(c)
    assert [g["reason"] for g in report["games"]] == ["step_limit"] * 2
    assert all(s.games == 0 and s.wins == 0 and s.rating_mu == 25.0 for s in report["standings"])
    assert "not counted: 2 game(s) cut by --max-decisions (40)" in report_text(c, report)


def test_head_to_head_picture_is_colour_blind_safe_with_readable_text():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ktenv.arena.plots import draw_head_to_head, text_colour

    assert text_colour((0.0, 0.13, 0.3, 1.0)) == "white" and text_colour((1.0, 0.92, 0.27, 1.0)) == "black"
    games = [{"agents": ["a", "b"], "winners": [0], "income": [5, 3], "hexes": [3, 3], "reason": "sole_citadel"}] * 3
    fig, ax = plt.subplots()
    try:
        im = draw_head_to_head(ax, games, ["a", "b"])
        assert im.cmap.name == "cividis"
        colours = {t.get_text(): t.get_color() for t in ax.texts}
        assert colours["100%"] == "black" and colours["0%"] == "white"  # light cell, dark cell
    finally:
        plt.close(fig)


def test_an_agent_returning_a_float_is_stopped_not_rounded():
    """The engine refuses 24.7 instead of playing 24 (arena, envs and engine alike)."""
    from ktenv import agents
    from ktenv.arena import AgentError, play_game
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.engine import IllegalActionError, legal_mask, new_game, step

    class Floaty:
        def reset(self, seed=None):
            pass

        def act(self, observation, action_mask):
            return float(np.flatnonzero(action_mask)[0]) + 0.7

    agents.register("floaty_test_only", lambda seed=None: Floaty())
    with pytest.raises(AgentError, match="not an action: expected a whole number"):
        play_game(GameConfig(n_players=2), 1, ["floaty_test_only", "random"])
    s = new_game(GameConfig(n_players=2), 1)
    before = s.to_json()
    first = int(np.flatnonzero(legal_mask(s))[0])
    for bad in (first + 0.7, float(first), True, str(first)):
        with pytest.raises(IllegalActionError):
            step(s, bad)
    assert s.to_json() == before
    step(s, np.array(first))  # a 0-d integer array is a whole number


def test_short_names_label_agents_in_standings_store_and_records(tmp_path, capsys):
    """`LABEL=SPEC`: the standings, the stored rows and the records use the short name; the record keeps the
    spec that played (`agent_specs`) and replays."""
    from ktenv.arena.records import GameRecord, replay
    from ktenv.cli import main

    model = "ppo:models/ppo_2p.zip"
    code = main(["tournament", "--agents", f"me={model},gr=greedy", "--players", "2", "--games", "2",
                 "--workers", "1", "--max-rounds", "3", "--seed", "5", "--db", str(tmp_path / "t.sqlite"),
                 "--records", str(tmp_path / "rec"), "--summary-json", str(tmp_path / "s.json"), "--no-progress"])
    assert code == 0
    out = capsys.readouterr().out
    assert "Tournament me, gr:" in out and f"me = {model}" in out and "me: file sha256" in out
    data = json.loads((tmp_path / "s.json").read_text())
    assert {r["agent"] for r in data["standings"]} == {"me", "gr"}
    assert data["settings"]["agents"] == {"me": model, "gr": "greedy"}
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        seats = {a for (row,) in db.execute("SELECT agents FROM games") for a in json.loads(row)}
    assert seats == {"me", "gr"}
    rec = GameRecord.load(tmp_path / "rec" / "game_000001.json")
    assert set(rec.agents) == {"me", "gr"} and set(rec.agent_specs) == {model, "greedy"}
    assert set(rec.agent_files) == {"me"}
    replay(rec)


@pytest.mark.parametrize("agents, error", [
    ("me=greedy,me=random", "named twice"),
    ("greedy=random,expert", "the name of another agent"),
    ("1x=greedy,random", "short name is LABEL=SPEC"),
    ("me=grredy,random", "did you mean 'greedy'"),
])
def test_bad_short_names_are_refused(agents, error):
    with pytest.raises(ConfigError, match=error):
        TournamentConfig(agents=agents, players=2)


def test_split_names_tells_options_from_short_names():
    from ktenv.gamekit.cli import split_names

    assert split_names("s=ismcts:seconds=0.1,rollout=expert,me=ppo:x.zip,gr=greedy,random") == [
        "s=ismcts:seconds=0.1,rollout=expert", "me=ppo:x.zip", "gr=greedy", "random"]
    assert split_names("ismcts:playouts=50,c=1,expert") == ["ismcts:playouts=50,c=1", "expert"]


def test_the_time_left_waits_for_games_after_the_first(monkeypatch):
    """The first game pays for starting workers and loading agents: no estimate from it alone."""
    from ktenv.arena import tournament

    clock = iter([100.0, 130.0, 131.0, 132.0])
    monkeypatch.setattr(tournament.time, "perf_counter", lambda: next(clock))
    progress = tournament.Progress(total=10, done=0, enabled=False)
    progress.done = 1
    assert progress.eta() == "time left: after the next game"   # at 100 s: the first game
    progress.done = 3
    assert progress.eta() == "time left ~0:01:45"                # 2 games in 30 s, 7 left


def test_resuming_with_records_says_which_games_have_none(tmp_path, capsys):
    """Games stored before --records was given keep no record; the standings say so instead of staying silent."""
    args = ["tournament", "--agents", "greedy,random", "--players", "2", "--max-rounds", "3", "--workers", "1",
            "--db", str(tmp_path / "t.sqlite"), "--no-progress"]
    assert main([*args, "--games", "2"]) == 0
    assert main([*args, "--games", "4", "--resume", "--records", str(tmp_path / "rec")]) == 0
    out = capsys.readouterr().out
    assert "records: 2 of the 4 stored games have no record" in out
    assert sorted(p.name for p in (tmp_path / "rec").iterdir()) == ["game_000002.json", "game_000003.json"]


def test_a_human_seat_needs_one_worker_before_any_game():
    with pytest.raises(ConfigError, match="--workers 1"):
        TournamentConfig(agents=["human", "expert"], players=2, workers=2)
    TournamentConfig(agents=["human", "expert"], players=2, workers=1)

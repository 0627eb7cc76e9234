"""A tournament of bots in other processes (`ktenv tournament` as a person runs it): the Python and JavaScript
example bots beside ktenv's own agents, one bot that crashes and one that hangs. The faulty bots lose their
games (counted, their forfeits in the standings), a Ctrl-C at the terminal stops the tournament with no bot
process left, ``--resume`` plays exactly the missing games, and a forfeited game's record replays."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bots.helpers import HAS_NODE, JS_BOT, PY_BOT, ROOT, faulty, python_bot, running

MODEL = ROOT / "models" / "ppo_2p.zip"
# games: the Python bot meets every other agent (each pair in both seatings), the faulty bots included
CASES = [pytest.param("kingsburg", ["expert"], 8, id="kingsburg", marks=pytest.mark.slow),
         pytest.param("kings_and_things", ["expert", f"ppo=ppo:{MODEL}"], 10, id="kings_and_things-ppo",
                      marks=pytest.mark.slow)]


def test_faulty_bots_lose_their_games_and_the_tournament_goes_on(tmp_path, monkeypatch, capsys):
    from ktenv.cli import main

    monkeypatch.setenv("KTENV_BOT_LOGS", str(tmp_path / "logs"))
    crash, crash_file = faulty(tmp_path, "crash", 8)
    hang, hang_file = faulty(tmp_path, "hang", 3, "timeout=0.5")
    agents = f"crash={crash},hang={hang},py={python_bot(PY_BOT)}"
    args = ["tournament", "--game", "kingsburg", "--players", "2", "--games", "6", "--workers", "1", "--agents",
            agents, "--db", str(tmp_path / "t.sqlite"), "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    forfeits = {line.split()[1]: int(line.split()[-1]) for line in out.splitlines()[3:6]}
    assert forfeits == {"crash": 2, "hang": 4, "py": 0}  # hang meets crash first in both seatings
    assert "ends: forfeit_timeout 4, forfeit_crash 2" in out
    told = [line for line in out.splitlines() if line.startswith("    game ")]  # what each forfeit was
    assert "forfeits: 6 game(s) lost by a bot's fault (counted):" in out and len(told) == 5
    assert all("forfeits (timeout)" in line or "forfeits (crash)" in line for line in told)
    assert "... and 1 more" in out
    assert not running(str(crash_file)) and not running(str(hang_file)) and not running(str(PY_BOT))
    assert "crash: file sha256" in out  # a bot is identified by the file it runs from, as a model is
    crash_file.write_text(crash_file.read_text() + "\n# changed\n")
    assert main([*args, "--games", "8", "--resume"]) != 0
    assert "the file of agent 'crash' changed" in capsys.readouterr().err


def _stored(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:  # not created yet
        return 0


@pytest.mark.parametrize("game, ours, games", CASES)
def test_a_tournament_of_bots_survives_faults_and_resumes_after_ctrl_c(tmp_path, game, ours, games):
    if not HAS_NODE:
        pytest.skip("node is not installed")
    crash, crash_file = faulty(tmp_path, "crash", 15)
    hang, hang_file = faulty(tmp_path, "hang", 5, "timeout=1")
    # the schedule's first tables are the first agent's: the Python bot against each other one
    agents = [f"py={python_bot(PY_BOT)}", f"js=cmd:node {JS_BOT}", *ours, f"crash={crash}", f"hang={hang}"]
    db, records = tmp_path / "t.sqlite", tmp_path / "records"
    command = [sys.executable, "-m", "ktenv.cli", "tournament", "--game", game, "--players", "2", "--games",
               str(games), "--max-rounds", "3", "--workers", "2", "--agents", ",".join(agents), "--db", str(db),
               "--records", str(records), "--no-progress"]
    env = {**os.environ, "KTENV_BOT_LOGS": str(tmp_path / "logs")}
    # its own process group, so the Ctrl-C reaches it and its workers as a terminal's would
    first = subprocess.Popen(command, cwd=tmp_path, env=env, start_new_session=True, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while _stored(db) < 2 and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(first.pid, signal.SIGINT)
    _, err = first.communicate(timeout=60)
    assert first.returncode == 130, err
    stopped = _stored(db)
    assert 2 <= stopped < games and "--resume" in err
    time.sleep(0.3)
    for bot in (PY_BOT, JS_BOT, crash_file, hang_file):
        assert not running(str(bot)), f"{bot.name} outlived the interrupted tournament"

    second = subprocess.run([*command, "--resume"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=300)
    assert second.returncode == 0, second.stderr
    assert _stored(db) == games and f"played now: {games - stopped} games" in second.stdout
    lines = second.stdout.splitlines()
    assert "forfeits" in lines[1]
    forfeits = {line.split()[1]: int(line.split()[-1]) for line in lines[3:3 + len(agents)]}
    assert forfeits["crash"] >= 1 and forfeits["hang"] >= 1 and forfeits["py"] == forfeits["js"] == 0
    assert "forfeit_crash" in second.stdout and "forfeit_timeout" in second.stdout

    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT game_index, reason, note FROM games WHERE reason LIKE 'forfeit%'").fetchall()
    index, reason, note = rows[0]
    assert "forfeits" in note and ("crash" in note or "hang" in note)
    replayed = subprocess.run([sys.executable, "-m", "ktenv.cli", "replay", str(records / f"game_{index:06d}.json")],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    for bot in (PY_BOT, JS_BOT, crash_file, hang_file):
        assert not running(str(bot))

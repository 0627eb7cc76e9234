"""bench/ismcts_match.py keeps a long match's finished games: `--out` appends a game a line, a run again
plays only the games missing, a torn last line is played again, and a file of another match is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ktenv.kings_and_things import native

if not native.available():
    pytest.skip("the paired search needs the native core", allow_module_level=True)

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "ismcts_match.py"
SEARCH = "ismcts:playouts=3,rollout=expert,cutoff=10,paired=2,z=2"


def run(out: Path, games: int, search: str = SEARCH) -> subprocess.CompletedProcess:
    cmd = [sys.executable, str(SCRIPT), search, "expert", "--games", str(games), "--workers", "1",
           "--max-rounds", "1", "--seed", "5", "--out", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_a_match_goes_on_where_it_stopped(tmp_path):
    out = tmp_path / "match.jsonl"
    first = run(out, 2)
    assert first.returncode == 0, first.stderr
    assert "[2/2]" in first.stdout
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(g["game_seed"] for g in games) == [5, 6] and {g["seat"] for g in games} == {0, 1}

    with open(out, "a") as f:
        f.write('{"search": "ismc')  # a write cut short by a kill
    again = run(out, 3)
    assert again.returncode == 0, again.stderr
    assert "2 games already" in again.stdout and "[3/3] seed 7" in again.stdout
    assert [json.loads(line)["game_seed"] for line in out.read_text().splitlines()] == [5, 6, 7]

    before = out.read_text()
    other = run(out, 3, search="ismcts:playouts=4,rollout=expert,cutoff=10,paired=2,z=2")
    assert other.returncode != 0 and "not a game of this match" in other.stderr
    assert out.read_text() == before


def test_each_game_lists_the_searchs_departures(tmp_path):
    out = tmp_path / "match.jsonl"
    done = run(out, 1, search="ismcts:playouts=12,rollout=expert,cutoff=10,paired=3,z=0")
    assert done.returncode == 0, done.stderr
    game = json.loads(out.read_text())
    assert game["deviated"] > 0 and len(game["departures"]) == game["deviated"]
    for round_, decision, candidate, gain in game["departures"]:
        assert round_ <= 1 and isinstance(decision, str) and candidate in (1, 2) and gain > 0

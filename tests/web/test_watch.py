"""Watching: the runs folder's records, games and tournaments listed; a record stepped through seat by seat or
as the whole table (finished records only, asked for by name); a tournament's standings linked to its
replays; paths outside the runs folder and corrupt files refused."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from ktenv.arena import TournamentConfig, run_tournament

from .conftest import play_to_end


@pytest.fixture
def tournament(tmp_path):
    runs = tmp_path / "runs"
    cfg = TournamentConfig(agents=["random", "greedy"], players=2, games=2, max_rounds=2, seed=1, workers=1,
                           db=str(runs / "t.sqlite"), records=str(runs / "records"), fresh=True, progress=False)
    run_tournament(cfg)
    return runs


def test_listing_and_a_record_seat_by_seat(client, tournament):
    files = {f["path"]: f["kind"] for f in client.get("/api/runs").json()}
    assert files["t.sqlite"] == "tournament" and files["records/game_000000.json"] == "record"
    path = "records/game_000000.json"
    end = client.get("/api/replay", params={"path": path, "at": 0, "seat": "0"}).json()["moves"]
    for at in (0, end // 2, end):
        table = client.get("/api/replay", params={"path": path, "at": at, "seat": "table"}).json()
        assert table["at"] == at and "whole table" in table["view"]["title"]
        assert len([line for line in table["log"] if re.match(r"\d+\. ", line)]) == min(at, 200)  # a line a move
        rolls = [line for line in table["log"] if " rolls " in line]  # and every die rolled (RD1.1)
        for seat in ("0", "1"):
            seen = client.get("/api/replay", params={"path": path, "at": at, "seat": seat}).json()
            assert seen["view"]["players"][0]["name"].startswith("you") and "whole table" not in seen["view"]["title"]
            assert all(" [face down]" not in line for line in seen["log"])
            assert len([line for line in seen["log"] if " rolls " in line]) == len(rolls)


def test_a_tournament_page_links_its_replays(client, tournament):
    t = client.get("/api/tournament", params={"path": "t.sqlite"}).json()
    assert {s["agent"] for s in t["standings"]} == {"random", "greedy"}
    assert t["head_to_head"]["agents"] and len(t["games"]) == 2
    assert [g["record"] for g in t["games"]] == ["records/game_000000.json", "records/game_000001.json"]


@pytest.mark.parametrize("path, status", [("../t.sqlite", 403), ("/etc/passwd", 403), ("records/../../x.json", 403),
                                          ("nothing.json", 404), ("", 403)])
def test_paths_outside_the_runs_folder_are_refused(client, tournament, path, status):
    assert client.get("/api/replay", params={"path": path}).status_code == status
    assert client.get("/api/tournament", params={"path": path}).status_code == status


def test_a_link_out_of_the_runs_folder_is_refused(client, tournament, tmp_path):
    (tmp_path / "secret.json").write_text("{}")
    (tournament / "link.json").symlink_to(tmp_path / "secret.json")
    assert client.get("/api/replay", params={"path": "link.json"}).status_code == 403


def test_corrupt_files_get_a_clear_error(client, tournament):
    good = tournament / "records" / "game_000000.json"
    data = json.loads(good.read_text())
    bad = tournament / "bad"
    bad.mkdir()
    (bad / "truncated.json").write_text(good.read_text()[:100])
    (bad / "tampered.json").write_text(json.dumps({**data, "actions": {**data["actions"], "data": "xx"}}))
    (bad / "t.sqlite").write_bytes(b"not a database at all" * 10)
    for name in ("truncated.json", "tampered.json"):
        r = client.get("/api/replay", params={"path": f"bad/{name}", "at": 0, "seat": "0"})
        assert r.status_code == 400 and r.json()["error"], name
    assert client.get("/api/tournament", params={"path": "bad/t.sqlite"}).status_code == 400
    for params in ({"at": "x"}, {"at": "100000"}, {"seat": "7"}, {"seat": "all"}):
        r = client.get("/api/replay", params={"path": "records/game_000000.json", **params})
        assert r.status_code == 400, params


def test_the_whole_table_only_for_finished_games(client, tmp_path):
    page = client.post("/api/tables", json={"players": 2, "agents": ["random"], "max_rounds": 2, "seed": 2}).json()
    path = f"web/{page['id']}.json"
    r = client.get("/api/replay", params={"path": path, "at": 0, "seat": "table"})
    assert r.status_code == 400 and "finished" in r.json()["error"]
    assert client.get("/api/replay", params={"path": path, "at": 0, "seat": "0"}).status_code == 200
    play_to_end(client, page)
    assert client.get("/api/replay", params={"path": path, "at": 3, "seat": "table"}).status_code == 200


def test_inspect_a_record_position(client, tournament):
    path = "records/game_000000.json"
    at, seat = 5, None
    while seat is None:
        view = client.get("/api/replay", params={"path": path, "at": at, "seat": "0"}).json()["view"]
        seat = 0 if view["actions"] else None
        at += 1
    r = client.post("/api/inspect", json={"path": path, "at": at - 1, "seat": 0, "agent": "greedy"})
    assert r.status_code == 200 and r.json()["actions"], r.text
    assert client.post("/api/inspect", json={"path": "../x", "at": 0, "seat": 0, "agent": "greedy"}).status_code == 403


def test_the_runs_folder_may_be_missing(client, tmp_path):
    shutil.rmtree(tmp_path / "runs", ignore_errors=True)
    assert client.get("/api/runs").json() == []


@pytest.mark.parametrize("game", ["kings_and_things", "kingsburg"])
def test_a_saved_game_state_shows_one_position_to_a_seat(client, tmp_path, game):
    from ktenv.cli import main

    path = tmp_path / "runs" / "saves" / f"{game}.json"
    rounds = ["--max-rounds", "1"] if game == "kings_and_things" else []
    assert main(["play", "--game", game, "--agents", "random", "--players", "2", *rounds, "--save", str(path)]) == 0
    assert {f["path"]: f["kind"] for f in client.get("/api/runs").json()}[f"saves/{game}.json"] == "save"
    seen = client.get("/api/replay", params={"path": f"saves/{game}.json", "at": 0, "seat": "1"})
    assert seen.status_code == 200 and seen.json()["moves"] == 0 and seen.json()["view"]["players"][0]["name"] == "you"
    assert client.get("/api/replay", params={"path": f"saves/{game}.json", "at": 0, "seat": "table"}).status_code == 400
    path.write_text(path.read_text()[:-40])
    assert client.get("/api/replay", params={"path": f"saves/{game}.json", "at": 0, "seat": "0"}).status_code == 400

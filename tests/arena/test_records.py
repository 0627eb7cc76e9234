"""Game records: save, load, exact replay, and clear errors for corrupt records."""

from __future__ import annotations

import json

import pytest

from ktenv.arena.records import GameRecord, RecordError, decode_actions, encode_actions, replay
from ktenv.cli import main
from ktenv.kings_and_things.arena import play_game
from ktenv.kings_and_things.config import GameConfig


@pytest.fixture(scope="module")
def record() -> GameRecord:
    r = play_game(GameConfig(n_players=2, max_rounds=10), 21, ["greedy", "random"], record=True)
    rec = GameRecord.from_dict(r.record)
    assert rec.actions == r.actions and len(rec.actions) == r.decisions
    return rec


def test_actions_round_trip():
    actions = [0, 1, 288, 65535, 17]
    assert decode_actions(encode_actions(actions)) == actions


def test_record_saves_loads_and_replays_exactly(record, tmp_path):
    path = tmp_path / "game.json"
    record.save(path)
    assert path.stat().st_size < 20_000  # small enough to keep thousands
    loaded = GameRecord.load(path)
    assert loaded.actions == record.actions and loaded.config == record.config
    done = replay(loaded)
    assert done.verified and done.moves == len(record.actions)
    assert done.state.winners == record.result["winners"]


def test_a_record_of_an_earlier_ktenv_replays_by_the_event_rule_it_was_played_by():
    """R10.1 / RD1.8: records written before `events_playable` existed were played with only events
    with an effect offered; one without the key replays by that rule, one with
    `events_without_effect: true` by R10.1 as printed."""
    cfg = GameConfig(n_players=2, max_rounds=10, events_playable="with_effect")
    old = GameRecord.from_dict(play_game(cfg, 21, ["random", "random"], record=True).record).to_dict()
    del old["config"]["events_playable"]
    loaded = GameRecord.from_json(json.dumps(old))
    assert loaded.config == cfg and replay(loaded).verified
    old["config"]["events_without_effect"] = True
    assert GameRecord.from_json(json.dumps(old)).config.events_playable == "any"
    old["config"]["events_playable"] = "any"
    with pytest.raises(RecordError, match="give only events_playable"):
        GameRecord.from_json(json.dumps(old))


def test_replay_can_stop_at_any_move(record):
    mid = len(record.actions) // 2
    part = replay(record, upto=mid)
    assert part.moves == mid and not part.verified and not part.state.game_over
    with pytest.raises(RecordError, match="outside the record"):
        replay(record, upto=len(record.actions) + 5)


def _corrupt(record: GameRecord, change) -> str:
    data = record.to_dict()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(schema="other"), "field 'schema'"),
    (lambda d: d.update(version=99), "field 'version'"),
    (lambda d: d.pop("seed"), "field 'seed' is missing"),
    (lambda d: d.update(seed="x"), "field 'seed' must be a whole number"),
    (lambda d: d["config"].update(n_players=9), "field 'config'.*n_players"),
    (lambda d: d.update(agents=["a"]), "field 'agents'"),
    (lambda d: d["actions"].update(data="!!not base64!!"), "actions.data' is corrupt"),
    (lambda d: d["actions"].update(count=3), "actions.count' says 3"),
    (lambda d: d["actions"].update(encoding="csv"), "actions.encoding"),
    (lambda d: d.update(result=[1]), "field 'result'"),
])
def test_corrupt_records_are_refused_with_a_clear_error(record, change, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(_corrupt(record, change))


def test_not_json_and_truncated_files(tmp_path, record):
    bad = tmp_path / "bad.json"
    bad.write_text(record.to_json()[:200])
    with pytest.raises(RecordError, match="bad.json: record: not valid JSON"):
        GameRecord.load(bad)
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")


def test_tampered_actions_or_results_fail_verification(record):
    actions = list(record.actions)
    actions[len(actions) // 3] = 0 if actions[len(actions) // 3] != 0 else 1
    tampered = GameRecord(record.config, record.seed, record.agents, actions, record.result)
    with pytest.raises(RecordError, match="move|differs"):
        replay(tampered)
    result = dict(record.result, winners=[1 - record.result["winners"][0]] if record.result["winners"] else [0])
    with pytest.raises(RecordError, match="replay differs from the record: 'winners'"):
        replay(GameRecord(record.config, record.seed, record.agents, record.actions, result))
    with pytest.raises(RecordError, match="record has"):
        replay(GameRecord(record.config, record.seed, record.agents, record.actions + [0, 0], record.result))


def test_replay_command(record, tmp_path, capsys):
    path = tmp_path / "game.json"
    record.save(path)
    png = tmp_path / "board.png"
    assert main(["replay", str(path), "--show", "3", "--render", str(png), "--at", "40"]) == 0
    out = capsys.readouterr().out
    assert "verified:" in out and "move 3:" in out and png.stat().st_size > 1000
    assert main(["replay", str(path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["verified"] is True and info["winners"] == record.result["winners"]
    path.write_text("{\"schema\": \"ktenv.record\"")
    assert main(["replay", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_replay_list_into_a_closed_pipe_exits_quietly(record, tmp_path):
    """`ktenv replay R --list | head`: the reader stops early; no BrokenPipeError traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "game.json"
    record.save(path)
    root = Path(__file__).resolve().parents[2]
    head = f"{sys.executable} -m ktenv.cli replay {path} --list | head -n 2"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", head], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(root)), cwd=tmp_path)
    assert done.stdout.count("\n") == 2 and done.stdout.startswith("move 0:")
    assert done.stderr == "" and done.returncode == 0


def test_a_record_of_an_older_save_format_is_verified_without_its_state_fingerprint(record):
    """ktenv 0.1 records hashed the version-2 save; their result is still checked, and the note says
    what was not. A record of this format with another fingerprint is refused."""
    from ktenv.kings_and_things.state import SCHEMA_VERSION

    assert record.result["state_schema"] == SCHEMA_VERSION
    old = {k: v for k, v in record.result.items() if k != "state_schema"}
    done = replay(GameRecord(record.config, record.seed, record.agents, record.actions,
                             dict(old, state_sha256="0" * 64)))
    assert done.verified and "save format 2" in done.note
    with pytest.raises(RecordError, match="'state_sha256'"):
        replay(GameRecord(record.config, record.seed, record.agents, record.actions,
                          dict(record.result, state_sha256="0" * 64)))
    old_winners = dict(old, winners=[1 - old["winners"][0]] if old["winners"] else [0])
    with pytest.raises(RecordError, match="'winners'"):
        replay(GameRecord(record.config, record.seed, record.agents, record.actions, old_winners))

"""Bots in any language (`ktenv.agents.stdio`, docs/bots.md): the protocol's messages, the example bots in
Python and JavaScript playing both games, and every fault (timeout, crash, garbage, illegal) losing the game
with its reason in the result and the record, the record replaying, and no bot process left behind."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from ktenv.agents import make
from ktenv.agents.stdio import StdioAgent, parse_command

from ktenv import registry
from ktenv.arena.game import ForfeitError
from ktenv.arena.records import GameRecord, replay
from tests.bots.helpers import C_BOT, FAULTY, HAS_NODE, JS_BOT, PY_BOT, faulty, python_bot, running

KB2 = ("kingsburg", {"n_players": 2})
KT2 = ("kings_and_things", {"n_players": 2, "max_rounds": 2})


def _play(game: str, options: dict, names: list[str], seed: int = 5):
    spec = registry.game(game)
    cfg = spec.config_type.from_dict(options)
    return spec.play_game(cfg, seed, names, record=True)


@pytest.fixture(autouse=True)
def _logs(tmp_path, monkeypatch):
    monkeypatch.setenv("KTENV_BOT_LOGS", str(tmp_path / "logs"))


# ---------------------------------------------------------------- the messages

class _Recorder:
    """A bot that writes every message it gets to a file, and plays the first legal action."""

    SOURCE = """import json, sys
out = open(sys.argv[1], "a")
for line in sys.stdin:
    out.write(line); out.flush()
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "ready", "fields": ["observation", "view", "text", "vector"]}), flush=True)
    elif m["type"] == "decide":
        print(json.dumps({"action": m["actions"][-1]["id"]}), flush=True)
"""


@pytest.mark.parametrize("game, options", [KB2, KT2])
def test_the_bot_gets_a_hello_then_its_seats_view_and_legal_actions(tmp_path, game, options):
    script, seen = tmp_path / "recorder.py", tmp_path / "seen.jsonl"
    script.write_text(_Recorder.SOURCE)
    result = _play(game, options, [python_bot(script, str(seen)), "random"])
    messages = [json.loads(line) for line in seen.read_text().splitlines()]
    hello, decides, end = messages[0], messages[1:-1], messages[-1]
    assert hello["type"] == "hello" and hello["protocol"] == "ktenv-bot" and hello["version"] == 1
    assert (hello["game"], hello["seat"], hello["players"]) == (game, 0, 2)
    assert hello["time_limit"] == 10.0 and "players" in hello["layout"]
    assert end == {"type": "end"}
    assert len(decides) == _actors(result).count(0) > 5
    view = registry.game(game).bot_view.seat_view()
    for k, d in enumerate(decides):
        assert d["type"] == "decide" and d["n"] == k and d["actions"]
        vector = np.asarray(d["vector"], np.float32)
        assert [a["label"] for a in d["actions"]] == [view.describe(vector, a["id"]) for a in d["actions"]]
        assert d["decision"] == view.decision(vector) and d["text"] == view.board(vector)
        assert _from_fields(game, vector, d["observation"]) is True


def _actors(result) -> list[int]:
    """The seat that took each decision of a recorded game."""
    actors: list[int] = []
    replay(GameRecord.from_dict(result.record), on_move=lambda s, k, a: actors.append(int(s.actor)))
    return actors


def _from_fields(game: str, vector: np.ndarray, fields: dict) -> bool:
    """The named fields hold exactly the vector: rebuilt from them, it is the same."""
    lay = registry.game(game).bot_view.layout(vector)
    rebuilt = np.zeros_like(vector)
    for sec in lay.sections.values():
        rows = {"0": fields[sec.name]} if sec.rows == 1 else fields[sec.name]
        for r, cols in rows.items():
            for name, value in cols.items():
                rebuilt[sec.offset(name) + int(r)] = value
    return bool(np.array_equal(rebuilt, vector))


# ---------------------------------------------------------------- the example bots

@pytest.mark.parametrize("game, options", [KB2, KT2])
def test_the_python_and_javascript_examples_play_a_game(game, options, tmp_path):
    if not HAS_NODE:
        pytest.skip("node is not installed")
    names = [python_bot(PY_BOT), f"cmd:node {JS_BOT}"]
    first = _play(game, options, names)
    assert first.reason and not first.reason.startswith("forfeit"), first.note
    assert replay(GameRecord.from_dict(first.record)).verified
    if game == "kingsburg":  # seeded by the hello: the same game again
        assert _play(game, options, names).record["actions"] == first.record["actions"]
    logs = sorted((tmp_path / "logs").iterdir())
    assert any("node bot:" in p.read_text() for p in logs) and any("playing" in p.read_text() for p in logs)
    assert not running(str(PY_BOT)) and not running(str(JS_BOT))


@pytest.mark.parametrize("game, options", [KB2, KT2])
def test_the_c_example_compiles_and_plays(tmp_path, game, options):
    import shutil
    import subprocess

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    program = tmp_path / "first_bot"
    subprocess.run([compiler, "-O2", "-Wall", "-Werror", "-o", str(program), str(C_BOT)], check=True)
    result = _play(game, options, [f"cmd:{program}", "expert"])
    assert not result.reason.startswith("forfeit") and result.decisions > 20, result.note
    assert result.record["agent_files"]  # the program's digest identifies the bot
    assert "C bot: ready" in next((tmp_path / "logs").iterdir()).read_text()


# ---------------------------------------------------------------- faults lose the game

@pytest.mark.parametrize("mode, fault, options", [("crash", "crash", ""), ("garbage", "garbage", ""),
                                                  ("illegal", "illegal", ""), ("hang", "timeout", "timeout=0.5")])
def test_a_faulty_bot_loses_the_game_and_the_record_replays(tmp_path, mode, fault, options):
    spec, copy = faulty(tmp_path, mode, 4, options)
    t0 = time.perf_counter()
    result = _play(*KB2, ["expert", spec])
    assert time.perf_counter() - t0 < 15
    assert result.reason == f"forfeit_{fault}" and result.winners == [0], result.note
    assert result.decisions > 4 and "seat 1" in result.note
    assert result.record["result"]["forfeit"]["seat"] == 1
    assert result.record["result"]["forfeit"]["fault"] == fault
    done = replay(GameRecord.from_dict(result.record))
    assert done.verified and done.note.startswith(f"the game stopped at seat 1's decision: its bot forfeited ({fault}")
    assert done.note.endswith("seats 0 won")
    assert not running(str(copy))
    if fault == "crash":
        assert "exited with status 3" in result.note and "crashing on purpose" in result.note
        assert "crashing on purpose" in next((tmp_path / "logs").iterdir()).read_text()


def test_a_forfeit_record_that_lies_is_refused(tmp_path):
    from ktenv.arena.records import RecordError

    spec, _ = faulty(tmp_path, "crash", 3)
    data = _play(*KB2, ["expert", spec]).record
    wrong_seat = json.loads(json.dumps(data))
    wrong_seat["result"]["forfeit"]["seat"] = 0
    wrong_seat["result"]["winners"] = [1]
    with pytest.raises(RecordError, match="waits for seat 1"):
        replay(GameRecord.from_dict(wrong_seat))
    wrong_winner = json.loads(json.dumps(data))
    wrong_winner["result"]["winners"] = [1]
    with pytest.raises(RecordError, match="'winners'"):
        replay(GameRecord.from_dict(wrong_winner))


def test_a_bot_and_the_process_it_started_die_with_the_game(tmp_path):
    spec, copy = faulty(tmp_path, "fork", 2, "timeout=0.5")
    result = _play(*KB2, [spec, "random"])
    assert result.reason == "forfeit_timeout" and result.winners == [1]
    log = next((tmp_path / "logs").iterdir()).read_text()
    child = int(log.split("child ")[1].split()[0])
    for _ in range(50):  # killed at once; the kernel may take a moment to reap it
        if not _alive(child):
            break
        time.sleep(0.05)
    assert not _alive(child) and not running(str(copy))


def _alive(pid: int) -> bool:
    from pathlib import Path

    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


def test_a_slow_start_is_a_timeout_of_the_hello(tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n")
    agent = make(f"cmd:start_timeout=0.3 python {slow}", game="kingsburg", seed=1)
    vector, mask = _first_decision()
    with pytest.raises(ForfeitError, match="gave no answer to the hello within 0.3 s") as caught:
        agent.act({"observation": vector, "action_mask": mask, "seat": 0}, mask)
    assert caught.value.fault == "timeout"
    agent.close()
    assert not running(str(slow))


def _first_decision():
    spec = registry.game("kingsburg")
    s = spec.new_game(spec.config_type.from_dict({"n_players": 2}), 1)
    return spec.web_view.encode(s, s.actor), spec.engine.legal_mask(s)


# ---------------------------------------------------------------- the agent's name

def test_options_come_before_the_command():
    argv, options = parse_command(f"timeout=2.5 start_timeout=4 log=here python {FAULTY} ok 0")
    assert argv == ["python", str(FAULTY), "ok", "0"] and options == {"timeout": 2.5, "start_timeout": 4.0,
                                                                    "log": "here"}
    agent = make(f"cmd:timeout=2.5 python {FAULTY} ok 0", game="kings_and_things", seed=3)
    assert isinstance(agent, StdioAgent) and agent.timeout == 2.5 and agent.game == "kings_and_things"
    assert agent.process is None  # started at its first decision


@pytest.mark.parametrize("spec, message", [("cmd:no-such-program-x --fast", "no program 'no-such-program-x'"),
                                           ("cmd:timeout=0 python bot.py", "above 0"),
                                           ("cmd:timeout=soon python bot.py", "a number of seconds"),
                                           ("cmd:timeout=2", "no command"),
                                           ("cmd:python 'bot.py", "quotation")])
def test_a_bad_command_is_refused_when_the_agent_is_made(spec, message):
    with pytest.raises(ValueError, match=message):
        make(spec, game="kingsburg")


def test_reset_starts_a_new_game_with_a_new_process(tmp_path):
    script, seen = tmp_path / "recorder.py", tmp_path / "seen.jsonl"
    script.write_text(_Recorder.SOURCE)
    agent = make(python_bot(script, str(seen)), game="kingsburg", seed=1)
    vector, mask = _first_decision()
    observation = {"observation": vector, "action_mask": mask, "seat": 0}
    agent.act(observation, mask)
    first = agent.process.pid
    agent.reset(seed=2)
    assert agent.process is None and not _alive(first)
    agent.act(observation, mask)
    agent.close()
    kinds = [(m["type"], m.get("seed"), m.get("n")) for m in map(json.loads, seen.read_text().splitlines())]
    assert kinds == [("hello", 1, None), ("decide", None, 0), ("end", None, None),
                     ("hello", 2, None), ("decide", None, 0), ("end", None, None)]
    assert not running(str(script))


def test_ktenv_play_records_the_forfeit_and_replay_tells_it(tmp_path, capsys):
    from ktenv.cli import main

    spec, _ = faulty(tmp_path, "garbage", 5)
    record = tmp_path / "game.json"
    assert main(["play", "--game", "kingsburg", "--players", "2", "--agents", f"{spec},expert", "--seed", "4",
                 "--record", str(record)]) == 0
    assert "forfeits (garbage)" in capsys.readouterr().err
    assert json.loads(record.read_text())["result"]["reason"] == "forfeit_garbage"
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "verified: " in out and "its bot forfeited (garbage" in out and "seats 1 won" in out


def test_a_forfeit_crosses_processes_whole():
    import pickle

    fault = ForfeitError("timeout", "gave no answer", seat=1)
    back = pickle.loads(pickle.dumps(fault))
    assert (back.fault, back.detail, back.seat, str(back)) == ("timeout", "gave no answer", 1, str(fault))
    with pytest.raises(ValueError, match="not one of"):
        ForfeitError("slow", "x")

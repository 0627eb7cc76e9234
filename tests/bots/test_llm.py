"""The text view (`ktenv.text`) and the language-model agent (`ktenv.agents.llm`) against a local stub of an
OpenAI-compatible endpoint that answers from a script: whole games of both games, retries after unreadable
answers and server errors, the per-decision timeout, the fallback and its transcript."""

from __future__ import annotations

import json
import re
import time

import numpy as np
import pytest
from ktenv.agents import make
from ktenv.agents.llm import LLMAgent, parse_options

from ktenv import registry, text
from tests.bots.stub_llm import StubLLM

# one decision answered at once, one after an unreadable reply, one after three server errors (the fallback)
SCRIPT = ["ANSWER: 2", "I would rather not say.", "Thinking... the first one.\nANSWER: 1", 503, 503, 503, "1"]


@pytest.fixture(autouse=True)
def _logs(tmp_path, monkeypatch):
    monkeypatch.setenv("KTENV_LLM_LOGS", str(tmp_path / "llm"))
    monkeypatch.setenv("STUB_KEY", "sk-test-123")


def _play(game: str, options: dict, names: list[str], seed: int = 2):
    spec = registry.game(game)
    return spec.play_game(spec.config_type.from_dict(options), seed, names, record=True)


def _transcript(tmp_path) -> list[dict]:
    (path,) = (tmp_path / "llm").iterdir()
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("game, options", [("kingsburg", {"n_players": 2}),
                                           ("kings_and_things", {"n_players": 2, "max_rounds": 2})])
def test_the_llm_agent_plays_a_game_against_the_stub(tmp_path, game, options):
    with StubLLM(SCRIPT) as stub:
        spec = f"llm:url={stub.url},model=stub-1,key=STUB_KEY,retries=2,backoff=0.01,timeout=5"
        result = _play(game, options, [spec, "expert"])
    assert not result.reason.startswith("forfeit") and result.decisions > 10
    *lines, end = _transcript(tmp_path)
    asked = [e for e in lines if e["source"] != "only"]
    assert len(asked) >= 4 and {e["source"] for e in asked} == {"model", "fallback"}
    # the script's cycle: 3 answered decisions then a fallback, four calls then three
    for k, e in enumerate(asked):
        assert e["source"] == ("fallback" if k % 4 == 2 else "model")
        if e["source"] == "fallback":
            assert e["error"] == "HTTP 503" and e["replies"] == []
        if k % 4 == 1:  # an unreadable reply, then the retry's answer
            assert e["replies"] == [SCRIPT[1], SCRIPT[2]] and e["label"] == _first_label(e["prompt"])
    assert stub.calls == sum({0: 1, 1: 2, 2: 3, 3: 1}[k % 4] for k in range(len(asked)))
    assert end == {"stats": {"decisions": len(lines), "calls": stub.calls, "retries": stub.calls - len(asked),
                             "fallbacks": sum(e["source"] == "fallback" for e in asked)}}
    headers, body, path = stub.requests[0]
    assert path == "/v1/chat/completions" and headers["Authorization"] == "Bearer sk-test-123"
    assert body["model"] == "stub-1" and body["messages"][0]["role"] == "system"
    assert re.search(r"Legal actions:\n *1\. ", body["messages"][1]["content"])
    retry = stub.requests[2][1]["messages"]  # the second decision's retry: its first reply, then the reminder
    assert retry[2] == {"role": "assistant", "content": SCRIPT[1]} and "ANSWER:" in retry[3]["content"]


def _first_label(prompt: str) -> str:
    return re.search(r"Legal actions:\n *1\. (.*)", prompt).group(1)


def test_a_slow_endpoint_meets_the_decision_timeout(tmp_path):
    with StubLLM([("sleep", 3, "ANSWER: 1")]) as stub:
        agent = make(f"llm:url={stub.url},model=slow,timeout=0.5,backoff=0.01", game="kingsburg", seed=4)
        vector, mask = _first_decision()
        t0 = time.perf_counter()
        action = agent.act({"observation": vector, "action_mask": mask, "seat": 0}, mask)
        took = time.perf_counter() - t0
    assert mask[action] and took < 2.5
    (entry,) = _transcript(tmp_path)
    assert entry["source"] == "fallback" and "Timeout" in entry["error"] and agent.stats["fallbacks"] == 1


def test_a_refusal_is_not_asked_again(tmp_path):
    with StubLLM([401]) as stub:
        agent = make(f"llm:url={stub.url},model=m,retries=5,backoff=0.01", game="kingsburg", seed=4)
        vector, mask = _first_decision()
        agent.act({"observation": vector, "action_mask": mask, "seat": 0}, mask)
    assert stub.calls == 1 and _transcript(tmp_path)[0]["error"] == "HTTP 401"


def _first_decision():
    spec = registry.game("kingsburg")
    s = spec.new_game(spec.config_type.from_dict({"n_players": 2}), 1)
    return spec.web_view.encode(s, s.actor), spec.engine.legal_mask(s)


@pytest.mark.parametrize("argument, message", [("url=ftp://x,model=m", "url=http"), ("url=http://x", "model=NAME"),
                                               ("url=http://x,model=m,colour=red", "'colour=red' is not an option"),
                                               ("url=http://x,model=m,timeout=soon", "timeout=soon"),
                                               ("url=http://x,model=m,fallback=ismcts", "searches worlds")])
def test_bad_options_are_refused_when_the_agent_is_made(argument, message, monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match=message):
        LLMAgent(argument, game="kings_and_things")


def test_options():
    got = parse_options("url=http://localhost:8000/v1,model=qwen,timeout=20,retries=1,fallback=expert")
    assert (got["url"], got["model"], got["timeout"], got["retries"], got["fallback"], got["key"]) == \
        ("http://localhost:8000/v1", "qwen", 20.0, 1, "expert", "OPENAI_API_KEY")


# ---------------------------------------------------------------- the text view

@pytest.mark.parametrize("game, options", [("kingsburg", {"n_players": 3}),
                                           ("kings_and_things", {"n_players": 2})])
def test_the_text_view_numbers_the_legal_actions(game, options):
    spec = registry.game(game)
    s = spec.new_game(spec.config_type.from_dict(options), 3)
    for _ in range(40):  # a few decisions in
        legal = np.flatnonzero(spec.engine.legal_mask(s))
        spec.engine.step(s, int(legal[-1]))
    vector, mask = spec.web_view.encode(s, s.actor), spec.engine.legal_mask(s)
    seen = text.seat_text(game, vector, mask)
    shown = text.render(seen)
    assert [a for a, _ in seen.choices] == [int(a) for a in np.flatnonzero(mask)]
    for i, (_, label) in enumerate(seen.choices, 1):
        assert f"\n{i:>{len(str(len(seen.choices)))}}. {label}" in shown
    assert shown.startswith(seen.board) and seen.decision in shown
    messages = text.messages(game, s.cfg.n_players, seen)
    assert spec.title in messages[0]["content"] and shown in messages[1]["content"]


@pytest.mark.parametrize("reply, k, choice", [("ANSWER: 3", 5, 3), ("answer:2\nwait, ANSWER: 4", 5, 4), ("2", 3, 2),
                                              ("2.", 3, 2), ("ANSWER: 6", 5, None), ("I like 2 and 3", 5, None),
                                              ("", 2, None), ("Answer - 1", 2, 1)])
def test_the_choice_is_read_from_the_reply(reply, k, choice):
    assert text.parse_choice(reply, k) == choice

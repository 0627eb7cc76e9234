"""Playing in the browser over HTTP: a whole game against a bot, stored as it goes and resumed after a restart
exactly as it would have gone on without it (the bots too), finished as a record `ktenv replay` verifies; two
people at one game; stale, illegal and malformed requests refused with nothing changed; a position inspected
by an agent (rule agents, a search, trained models of both trainers)."""

from __future__ import annotations

import json
import warnings

import pytest
from starlette.testclient import TestClient

from ktenv.arena.records import GameRecord, replay
from ktenv.cli import main
from ktenv.web.app import create_app

from .conftest import play_to_end

NEW = {"players": 2, "agents": ["random"], "max_rounds": 2, "seed": 4}


@pytest.mark.parametrize("opponent", ["random", "expert", "ppo:models/ppo_2p.zip"])
def test_a_whole_game_ends_in_a_verified_record(client, tmp_path, capsys, opponent):
    page = client.post("/api/tables", json={**NEW, "agents": [opponent]}).json()
    assert page["your_turn"] and page["view"]["actions"] and page["view"]["kind"] == "hexes"
    assert len(page["view"]["hexes"]) == 19 and page["view"]["players"][0]["name"] == "you"
    end = play_to_end(client, page)
    assert end["result"]["reason"] and not end["view"]["actions"]
    assert any(line.startswith(f"{opponent} (seat 2): ") for line in end["log"])
    path = tmp_path / "runs" / "web" / f"{page['id']}.record.json"
    record = GameRecord.load(path)
    assert record.agents == ["human", opponent] and replay(record).verified
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()


def test_a_stored_game_resumes_after_a_restart(client, tmp_path):
    page = client.post("/api/tables", json={**NEW, "seat": 1, "agents": ["expert"]}).json()
    for _ in range(5):
        page = client.post(f"/api/tables/{page['id']}/act",
                           json={"decision": page["decision"], "action": page["view"]["actions"][0]["action"]}).json()
    again = _restarted(tmp_path).get(f"/api/tables/{page['id']}").json()
    assert again == page


def _restarted(tmp_path) -> TestClient:
    """A new app on the same runs folder: the server stopped and started again."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return TestClient(create_app(tmp_path / "runs"))


def _moves(client, page: dict, count: int) -> dict:
    """The person's next `count` decisions (the last legal action each time), or fewer when the game ends."""
    for _ in range(count):
        if page["over"]:
            break
        page = client.post(f"/api/tables/{page['id']}/act", json={
            "decision": page["decision"], "action": page["view"]["actions"][-1]["action"]}).json()
    return page


def _actions(tmp_path, page: dict) -> list[int]:
    return json.loads((tmp_path / "runs" / "web" / f"{page['id']}.json").read_text())["actions"]


@pytest.mark.parametrize("start", [NEW, {"from": 30}])
def test_random_bots_resume_exactly(client, tmp_path, start):
    """A game stopped and resumed plays on exactly as the same game played without a stop (random bots draw
    from their own generators), a game played from a record's move as well."""
    if "from" in start:
        record = play_to_end(client, client.post("/api/tables", json=NEW).json())
        start = {"from": {"path": f"web/{record['id']}.record.json", "at": 30}, "seat": 1, "agents": ["random"]}
    whole = _moves(client, client.post("/api/tables", json=start).json(), 400)
    page = _moves(client, client.post("/api/tables", json=start).json(), 6)
    again = _restarted(tmp_path)
    page = again.get(f"/api/tables/{page['id']}").json()
    assert not page["notes"] and page["decision"] < whole["decision"]
    end = _moves(again, page, 400)
    assert end["over"] and _actions(tmp_path, end) == _actions(tmp_path, whole)


def test_a_bot_that_does_not_resume_exactly_is_named(client, tmp_path):
    bot = tmp_path / "coin.py"
    bot.write_text("import numpy as np\n\nclass Coin:\n    def __init__(self, seed=None):\n"
                   "        self.rng = np.random.default_rng()  # no seed: another game each time\n"
                   "    def reset(self, seed=None):\n        pass\n"
                   "    def act(self, observation, mask):\n"
                   "        return int(self.rng.choice(np.flatnonzero(mask)))\n")
    page = _moves(client, client.post("/api/tables", json={**NEW, "agents": [f"{bot}:Coin"]}).json(), 8)
    page = _restarted(tmp_path).get(f"/api/tables/{page['id']}").json()
    assert len(page["notes"]) == 1 and "did not resume exactly" in page["notes"][0]
    assert page["log"][-1] == f"note: {page['notes'][0]}"


def _unchanged(client, page: dict) -> None:
    assert client.get(f"/api/tables/{page['id']}").json() == page


def test_stale_and_illegal_actions_change_nothing(client, tmp_path):
    page = client.post("/api/tables", json=NEW).json()
    legal = page["view"]["actions"][0]["action"]
    illegal = next(a for a in range(1000) if a not in {x["action"] for x in page["view"]["actions"]})
    stored = (tmp_path / "runs" / "web" / f"{page['id']}.json").read_text()
    r = client.post(f"/api/tables/{page['id']}/act", json={"decision": page["decision"], "action": illegal})
    assert r.status_code == 400 and "not legal" in r.json()["error"]
    for decision in (page["decision"] + 1, page["decision"] - 1):
        r = client.post(f"/api/tables/{page['id']}/act", json={"decision": decision, "action": legal})
        assert r.status_code == 409, r.text
    for body in ({"decision": page["decision"]}, {"decision": "x", "action": legal}, [1, 2],
                 {"decision": page["decision"], "action": legal, "seat": 1}):
        assert client.post(f"/api/tables/{page['id']}/act", json=body).status_code == 400
    assert client.post(f"/api/tables/{page['id']}/act", content=b"{not json").status_code == 400
    _unchanged(client, page)
    assert (tmp_path / "runs" / "web" / f"{page['id']}.json").read_text() == stored
    first = client.post(f"/api/tables/{page['id']}/act", json={"decision": page["decision"], "action": legal})
    again = client.post(f"/api/tables/{page['id']}/act", json={"decision": page["decision"], "action": legal})
    assert first.status_code == 200 and again.status_code == 409  # a second tab's click: never applied twice
    assert client.get(f"/api/tables/{page['id']}").json() == first.json()


@pytest.mark.parametrize("body, words", [({"game": "chess"}, "unknown game"), ({"players": 5}, "players"),
                                         ({"agents": ["nobody"]}, "unknown agent"), ({"seat": 3}, "seat"),
                                         ({"agents": ["random", "random"]}, "agent names"),
                                         ({"max_rounds": "many"}, "max_rounds"), ({"seed": 2**70}, "seed"),
                                         ({"seed": -5}, "seed"), ({"options": "x"}, "options"),
                                         ({"options": {"nonsense": 1}}, "nonsense")])
def test_a_bad_new_game_is_refused_and_stores_nothing(client, tmp_path, body, words):
    r = client.post("/api/tables", json={**NEW, **body})
    assert r.status_code == 400 and words in r.json()["error"]
    assert not (tmp_path / "runs" / "web").exists()


def test_two_people_play_their_seats(client):
    """A seat named human is another person's: each person's page is its own, and shows whose turn it is."""
    page = client.post("/api/tables", json={**NEW, "agents": ["human"]}).json()
    assert page["people"] == [0, 1] and not page["your_turn"] and page["waiting_for"] == 1
    for _ in range(6):
        seat = page.get("waiting_for", page["seat"])
        page = client.get(f"/api/tables/{page['id']}", params={"seat": seat}).json()
        assert page["your_turn"] and "waiting_for" not in page
        r = client.post(f"/api/tables/{page['id']}/act", json={"decision": page["decision"], "seat": seat,
                                                               "action": page["view"]["actions"][0]["action"]})
        assert r.status_code == 200, r.text
        page = r.json()
    assert any(line.startswith("human (seat ") for line in page["log"])  # the other person's moves, as seen


def test_unknown_games_are_not_found(client):
    assert client.get("/api/tables/0123456789ab").status_code == 404
    assert client.get("/api/tables/..%2F..%2Fetc").status_code == 404


def test_a_corrupt_stored_game_is_refused(client, tmp_path):
    page = client.post("/api/tables", json=NEW).json()
    path = tmp_path / "runs" / "web" / f"{page['id']}.json"
    data = json.loads(path.read_text())
    data["actions"] = [65000]
    path.write_text(json.dumps(data))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        r = TestClient(create_app(tmp_path / "runs")).get(f"/api/tables/{page['id']}")
    assert r.status_code == 400 and "not legal" in r.json()["error"]


def test_kingsburg_plays_to_its_end(client, tmp_path):
    page = client.post("/api/tables", json={"game": "kingsburg", "players": 2, "agents": ["greedy"], "seed": 1}).json()
    assert page["view"]["kind"] == "council" and "Kingsburg" in page["view"]["title"]
    assert len(page["view"]["advisors"]) == 18 and len(page["view"]["sheets"]) == 2
    for agent in ("expert", "greedy", "random"):
        got = client.post("/api/inspect", json={"table": page["id"], "agent": agent})
        assert got.status_code == 200 and got.json()["actions"], got.text
    end = play_to_end(client, page, choose=lambda actions: actions[0])
    assert end["over"] and replay(GameRecord.load(tmp_path / "runs" / "web" / f"{page['id']}.record.json")).verified
    path = f"web/{page['id']}.record.json"
    for at in range(0, 60, 3):  # the whole table shows the neutral dice's values, a seat's view has none
        table = client.get("/api/replay", params={"path": path, "at": at, "seat": "table"}).json()["view"]
        seen = client.get("/api/replay", params={"path": path, "at": at, "seat": "0"}).json()["view"]
        neutral = [a["n"] for a in table["advisors"] for g in a["groups"] if g["name"] == "neutral dice"]
        if neutral:
            break
    assert neutral and len(table["advisors"]) == len(seen["advisors"]) == 18
    assert all(g["pips"] for a in table["advisors"] for g in a["groups"])
    assert [g for a in seen["advisors"] for g in a["groups"] if g["name"] == "neutral dice" and not g["pips"]]


@pytest.mark.parametrize("agent, kind", [("expert", "scores"), ("greedy", "scores"), ("random", "choice"),
                                         ("ppo:models/ppo_2p.zip", "probabilities")])
def test_inspect_a_position(client, agent, kind):
    page = client.post("/api/tables", json=NEW).json()
    r = client.post("/api/inspect", json={"table": page["id"], "agent": agent})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["kind"] == kind and got["actions"]
    labels = {a["label"] for a in page["view"]["actions"]}
    assert all(a["label"] in labels for a in got["actions"])
    if kind == "probabilities":
        assert abs(sum(a["value"] for a in got["actions"]) - 1) < 0.05 or len(got["actions"]) == 8


def test_inspect_refuses_bad_agents(client):
    page = client.post("/api/tables", json=NEW).json()
    for agent in ("nobody", "ppo:missing.zip", "human"):
        r = client.post("/api/inspect", json={"table": page["id"], "agent": agent})
        assert r.status_code == 400, agent
    _unchanged(client, page)


def test_play_from_a_position_of_a_record(client, tmp_path):
    first = play_to_end(client, client.post("/api/tables", json=NEW).json())
    path = f"web/{first['id']}.record.json"
    r = client.post("/api/tables", json={"from": {"path": path, "at": 30}, "seat": 1, "agents": ["greedy"]})
    assert r.status_code == 201, r.text
    branch = r.json()
    assert branch["seat"] == 1 and branch["decision"] >= 30
    stored = json.loads((tmp_path / "runs" / "web" / f"{branch['id']}.json").read_text())
    original = GameRecord.load(tmp_path / "runs" / path)
    assert stored["actions"][:30] == original.actions[:30] and stored["agents"] == ["greedy", "human"]
    end = play_to_end(client, branch)
    assert replay(GameRecord.load(tmp_path / "runs" / "web" / f"{end['id']}.record.json")).verified
    for bad in ({"path": "../x.json", "at": 0}, {"path": path, "at": 10**6}, {"path": path}):
        assert client.post("/api/tables", json={"from": bad}).status_code in (400, 403)


def test_inspect_with_the_paired_search_shows_its_candidates(client):
    page = client.post("/api/tables", json={**NEW, "agents": ["expert"], "max_rounds": 4}).json()
    for _ in range(60):
        got = client.post("/api/inspect", json={"table": page["id"], "agent": "ismcts"}).json()
        if got["kind"].startswith("mean difference"):
            break
        page = client.post(f"/api/tables/{page['id']}/act", json={
            "decision": page["decision"], "action": page["view"]["actions"][-1]["action"]}).json()
    assert got["kind"].startswith("mean difference") and len(got["actions"]) >= 2, got
    assert got["actions"][0]["value"] == 0 and sum("(played)" in a["label"] for a in got["actions"]) == 1
    assert len(got["chances"]) == 2 and abs(sum(got["chances"]) - 1) < 0.01


def test_two_tabs_answering_at_once_play_the_move_once(client):
    import threading

    from ktenv.web.session import StaleActionError

    page = client.post("/api/tables", json=NEW).json()
    table = client.app.state.tables.get(page["id"])
    action = page["view"]["actions"][0]["action"]
    outcomes: list[str] = []

    def answer() -> None:
        try:
            table.play(page["seat"], page["decision"], action)
            outcomes.append("played")
        except StaleActionError:
            outcomes.append("refused")

    threads = [threading.Thread(target=answer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["played", "refused", "refused", "refused"]
    assert table.actions.count(action) >= 1 and table.actions[page["decision"]] == action


def _rllib_model(path, observation_size: int, action_size: int):
    """An RLlib-format model file (untrained weights), written as the RLlib trainer writes its models."""
    from ktenv.agents.rllib_agent import ActorCritic, save_model

    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    meta = {"observation_size": observation_size, "action_size": action_size,
            "network": {"features": 16, "pi": [16], "vf": [16], "activation": "relu"},
            "game": {"game": "kings_and_things", "n_players": 2}}
    return save_model(ActorCritic(observation_size, action_size, 16, [16], [16]), path, meta)


def test_inspect_and_play_an_rllib_model(client, tmp_path):
    pytest.importorskip("torch")
    page = client.post("/api/tables", json=NEW).json()
    table = client.app.state.tables.get(page["id"])
    from ktenv.web.views import view_of

    obs = view_of(table.spec).encode(table.state, 0)
    mask = table.spec.engine.legal_mask(table.state)
    model = _rllib_model(tmp_path / "rllib.zip", obs.size, mask.size)
    got = client.post("/api/inspect", json={"table": page["id"], "agent": f"rllib:{model}"}).json()
    assert got["kind"] == "probabilities" and isinstance(got["value"], float), got
    values = [a["value"] for a in got["actions"]]
    assert values == sorted(values, reverse=True) and 0 < sum(values) <= 1.0001
    assert abs(sum(values) - 1) < 1e-3 or len(values) == 8
    labels = {a["label"] for a in page["view"]["actions"]}
    assert all(a["label"] in labels for a in got["actions"])
    wrong = _rllib_model(tmp_path / "small.zip", 5, mask.size)
    r = client.post("/api/inspect", json={"table": page["id"], "agent": f"rllib:{wrong}"})
    assert r.status_code == 400 and "size 5" in r.json()["error"]
    (tmp_path / "junk.zip").write_bytes(b"not a model" * 10)
    r = client.post("/api/inspect", json={"table": page["id"], "agent": f"rllib:{tmp_path / 'junk.zip'}"})
    assert r.status_code == 400 and "not a readable model zip" in r.json()["error"]
    against = _moves(client, client.post("/api/tables", json={**NEW, "agents": [f"rllib:{model}"]}).json(), 3)
    assert any(line.startswith("rllib:") for line in against["log"]), against["log"]

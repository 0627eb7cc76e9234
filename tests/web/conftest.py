"""Shared pieces of the browser app's tests: a test client over a fresh runs folder, and playing a game."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on its httpx transport
    from starlette.testclient import TestClient

from ktenv.web.app import create_app  # noqa: E402


@pytest.fixture
def client(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield TestClient(create_app(tmp_path / "runs"))


def play_to_end(client: TestClient, page: dict, choose=lambda actions: actions[-1]) -> dict:
    """Take the person's decisions until the game ends (the last legal action unless `choose` says)."""
    while not page["over"]:
        action = choose(page["view"]["actions"])["action"]
        r = client.post(f"/api/tables/{page['id']}/act", json={"decision": page["decision"], "action": action})
        assert r.status_code == 200, r.text
        page = r.json()
    return page

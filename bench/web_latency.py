"""How fast does `ktenv serve` answer a person? Against a live server (uvicorn on a free port, the app of
`ktenv serve`, a fresh runs folder), over real HTTP:

- a move against `expert`: the person's action posted until the page comes back with the bot's replies up to
  the person's next decision, the game stored (target: under 100 ms);
- asking the shipped model (`ppo:models/ppo_2p.zip`) at a position: the first question (loading the model
  and torch) and the next ones (target: under 100 ms), and asking `expert`;
- the search (`ismcts`, its default 0.15 s budget per decision): asked at a position (the search plus the
  seat's chances to win from sixteen `expert` games), and its own decisions as a bot, against its budget;
- with `--browser` (Chromium and chromedriver installed): the first paint of the front page in headless
  Chromium (first contentful paint, and the new-game form drawn), a fresh browser each time (target: under
  1 s).

    python bench/web_latency.py                       # 2 games against expert, 4 rounds each
    python bench/web_latency.py --games 4 --browser --json runs/web_latency.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import uvicorn
from ktenv.agents.kings_and_things import AGENTS
from ktenv.agents.kings_and_things.ismcts import ISMCTSAgent

from ktenv.web.app import create_app
from ktenv.web.cli import one_thread_for_models

MODEL = "ppo:models/ppo_2p.zip"


def serve(runs: Path) -> tuple[str, uvicorn.Server]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(runs), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    return f"http://127.0.0.1:{port}", server


def timed(client: httpx.Client, method: str, url: str, **kw) -> tuple[float, dict]:
    t0 = time.perf_counter()
    r = client.request(method, url, **kw)
    ms = 1000 * (time.perf_counter() - t0)
    r.raise_for_status()
    return ms, r.json()


def summary(ms: list[float]) -> dict:
    if not ms:
        return {"n": 0}
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(float(np.percentile(ms, 95)), 1), "max_ms": round(max(ms), 1)}


def play(client: httpx.Client, games: int, rounds: int, opponent: str, seed: int, ask_every: int = 0) -> dict:
    """Whole games (the person choosing at random) against `opponent`; every `ask_every` decisions the model and
    expert are asked about the person's position."""
    rng = np.random.default_rng(seed)
    moves, bot_decisions, asks = [], [], {MODEL: [], "expert": []}
    first_ask = None
    for g in range(games):
        _, page = timed(client, "POST", "/api/tables",
                        json={"players": 2, "agents": [opponent], "max_rounds": rounds, "seed": seed + g})
        k = 0
        while not page["over"]:
            k += 1
            if ask_every and k % ask_every == 0:
                for agent in asks:
                    ms, _ = timed(client, "POST", "/api/inspect", json={"table": page["id"], "agent": agent})
                    if agent == MODEL and first_ask is None:
                        first_ask = ms  # loads the model (and torch for its value)
                    else:
                        asks[agent].append(ms)
            actions = page["view"]["actions"]
            action = actions[int(rng.integers(len(actions)))]["action"]
            before = page["decision"]
            ms, page = timed(client, "POST", f"/api/tables/{page['id']}/act",
                             json={"decision": before, "action": action})
            moves.append(ms)
            bot_decisions.append(page["decision"] - before - 1)
    out = {"move": summary(moves), "bot_decisions_per_move": round(float(np.mean(bot_decisions)), 2)}
    if ask_every:
        out["ask_first_model_ms"] = round(first_ask or 0.0, 1)
        out["ask"] = {agent: summary(ms) for agent, ms in asks.items()}
    return out


def search(client: httpx.Client, rounds: int, seed: int, decisions: int = 40) -> dict:
    """`ismcts` asked at the person's positions, and its own decisions as the opponent, against its budget."""
    budget = AGENTS.make("ismcts").seconds  # the `ismcts` the page offers
    thinking: list[float] = []
    original = ISMCTSAgent.act

    def act(self, observation, mask):
        t0 = time.perf_counter()
        try:
            return original(self, observation, mask)
        finally:
            if int(np.count_nonzero(mask)) > 1:  # a single legal action is played at once
                thinking.append(1000 * (time.perf_counter() - t0))

    ISMCTSAgent.act = act  # the server runs in this process
    try:
        rng = np.random.default_rng(seed)
        _, page = timed(client, "POST", "/api/tables",
                        json={"players": 2, "agents": ["ismcts"], "max_rounds": rounds, "seed": seed})
        asked, moves = [], []
        for k in range(decisions):
            if page["over"]:
                break
            if k % 8 == 0 and len(page["view"]["actions"]) > 1:
                ms, _ = timed(client, "POST", "/api/inspect", json={"table": page["id"], "agent": "ismcts"})
                asked.append(ms)
            actions = page["view"]["actions"]
            ms, page = timed(client, "POST", f"/api/tables/{page['id']}/act", json={
                "decision": page["decision"], "action": actions[int(rng.integers(len(actions)))]["action"]})
            moves.append(ms)
    finally:
        ISMCTSAgent.act = original
    return {"budget_ms": round(1000 * budget, 1), "bot_decision": summary(thinking),
            "ask": summary(asked), "move": summary(moves)}


def first_paint(url: str, times: int) -> dict:
    """The front page in a fresh headless Chromium: first contentful paint and the new-game form drawn."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = Options()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    paint, form = [], []
    for _ in range(times):
        driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
        try:
            driver.get(url + "/")
            WebDriverWait(driver, 20, poll_frequency=0.005).until(lambda d: d.find_elements(By.ID, "start"))
            form.append(driver.execute_script("return performance.now();"))
            entries = driver.execute_script(
                "return performance.getEntriesByType('paint').map(e => [e.name, e.startTime]);")
            paint += [t for name, t in entries if name == "first-contentful-paint"]
        finally:
            driver.quit()
    return {"first_contentful_paint": summary(paint), "form_drawn": summary(form)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games against expert")
    parser.add_argument("--rounds", type=int, default=4, help="round limit of each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--browser", action="store_true", help="also the first paint in headless Chromium")
    parser.add_argument("--paints", type=int, default=3, help="fresh browsers for the first paint")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    one_thread_for_models()  # as `ktenv serve` does
    with tempfile.TemporaryDirectory() as folder:
        url, server = serve(Path(folder))
        try:
            with httpx.Client(base_url=url, timeout=120) as client:
                out = {"expert": play(client, args.games, args.rounds, "expert", args.seed, ask_every=10),
                       "ismcts": search(client, args.rounds, args.seed)}
            if args.browser:
                out["browser"] = first_paint(url, args.paints)
        finally:
            server.should_exit = True
    print(json.dumps(out, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()

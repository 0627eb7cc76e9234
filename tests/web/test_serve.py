"""`ktenv serve`: it starts within 2 seconds, prints its address, binds localhost by default and serves the
page and its static files (no CDN: every script and sheet is the app's own)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request

from ktenv.cli import build_parser


def test_parser_defaults_bind_localhost():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.runs) == ("127.0.0.1", 8000, "runs")


def test_serve_starts_fast_and_prints_its_address(tmp_path):
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "ktenv.cli", "serve", "--port", "0", "--runs", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        started = time.perf_counter() - t0
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line + proc.stderr.read()
        assert started < 2.0, f"started in {started:.2f} s"
        page = urllib.request.urlopen(match.group(0), timeout=5).read().decode()
        assert "/static/app.js" in page and "http" not in page.replace(match.group(0), "")
        script = urllib.request.urlopen(match.group(0) + "static/board.js", timeout=5).read().decode()
        assert "createElementNS" in script
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_page_loads_nothing_from_elsewhere(client):
    for name in ("/", "/static/app.js", "/static/board.js", "/static/style.css"):
        text = client.get(name).text
        assert not re.search(r"(src|href)=\"https?://", text), name
        assert "cdn" not in text.lower(), name

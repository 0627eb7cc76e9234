"""A local stand-in for an OpenAI-compatible chat endpoint (tests/bots): answers ``POST /v1/chat/completions``
from a script, in a thread of this process, on a free port of localhost. No network beyond this machine."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class StubLLM:
    """Each request takes the script's next step (cycling): text is the model's reply, an int an HTTP error
    status, ``("sleep", seconds, text)`` a reply that comes late. `requests` keeps (headers, body) of each."""

    def __init__(self, script: list) -> None:
        self.script, self.calls, self.requests = list(script), 0, []
        self.lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with stub.lock:
                    step = stub.script[stub.calls % len(stub.script)]
                    stub.calls += 1
                    stub.requests.append((dict(self.headers), body, self.path))
                if isinstance(step, tuple):
                    time.sleep(step[1])
                    step = step[2]
                if isinstance(step, int):
                    self._send(step, {"error": {"message": "scripted failure"}})
                else:
                    self._send(200, {"id": "stub", "object": "chat.completion", "model": body["model"],
                                     "choices": [{"index": 0, "finish_reason": "stop",
                                                  "message": {"role": "assistant", "content": step}}]})

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting
                    pass

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> StubLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

"""`ktenv serve`: the browser app on a local address (`ktenv.web.app`)."""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import missing_extra


def add_serve_parser(sub) -> argparse.ArgumentParser:
    serve = sub.add_parser("serve", help="play, watch and inspect games in the browser",
                           description="Serve the browser app: play against any agent, step through records "
                                       "and saved games seat by seat, ask an agent about a position, read "
                                       "tournament standings. Binds 127.0.0.1 unless --host says otherwise "
                                       "(docs/web.md: serving it to others safely).")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    serve.add_argument("--runs", default="runs", metavar="DIR",
                       help="folder of records, saved games and tournament stores; games played are stored in "
                            "DIR/web (default runs)")
    serve.set_defaults(func=cmd_serve)
    return serve


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ModuleNotFoundError as exc:
        raise missing_extra("serve", "web", exc) from None
    from .app import create_app

    one_thread_for_models()
    config = uvicorn.Config(create_app(args.runs), host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    _announce(server, args.host)
    server.run()
    return 0


def one_thread_for_models() -> None:
    """A model here is small and asked one position at a time: on one thread it answers in a few ms, while
    torch's pool of threads fights the server's own for the cores (measured on two cores: 2-8 ms against
    50-60 ms). Set before torch is imported (it is imported only when a model is first used)."""
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    else:
        os.environ.setdefault("OMP_NUM_THREADS", "1")


def _announce(server, host: str) -> None:
    """Print the address once the socket is bound (the real port when --port 0)."""
    startup = server.startup

    async def started(sockets=None) -> None:
        await startup(sockets=sockets)
        for s in server.servers:
            for sock in s.sockets:
                port = sock.getsockname()[1]
                shown = f"[{host}]" if ":" in host else host
                print(f"ktenv serve: http://{shown}:{port}/ (Ctrl-C to stop)", flush=True)
                return

    server.startup = started
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"ktenv serve: warning: bound to {host}: anyone who can reach it can play and read the runs folder "
              "(no login); see docs/web.md", file=sys.stderr)

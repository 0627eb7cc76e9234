"""The browser app (`ktenv serve`): a Starlette application over the game registry.

Pages are static files (``static/``: plain HTML, CSS and JavaScript; the board is SVG drawn from JSON);
everything else is a JSON API under ``/api``. A seat's page is made from that seat's observation only
(`ktenv.web.views`); the whole table is sent only for a finished record and only when asked for. Bad input
is answered with a JSON ``{"error": ...}`` and an HTTP status (400 malformed or illegal, 403 a path outside
the runs folder, 404 nothing there, 409 a stale action), and changes nothing.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import agents as agent_table
from .. import registry
from ..arena.game import AgentError
from ..errors import ConfigError
from . import runs as run_files
from .inspect import inspect
from .session import StaleActionError, Table, load_table, new_table

STATIC = Path(__file__).parent / "static"
TABLE_ID = re.compile(r"[0-9a-f]{12}")


class Tables:
    """The games in play, kept in memory and stored under ``<runs>/web/`` after every move."""

    def __init__(self, runs: Path) -> None:
        self.folder = runs / "web"
        self.open: dict[str, Table] = {}
        self.lock = threading.Lock()

    def add(self, table: Table) -> Table:
        table.save(self.folder)
        with self.lock:
            self.open[table.id] = table
        return table

    def get(self, table_id: str) -> Table:
        if not TABLE_ID.fullmatch(table_id):
            raise FileNotFoundError(f"no game {table_id!r}")
        with self.lock:
            if table_id not in self.open:  # a game of an earlier run of the server: replayed
                path = self.folder / f"{table_id}.json"
                if not path.is_file():
                    raise FileNotFoundError(f"no game {table_id!r}")
                self.open[table_id] = load_table(path, table_id)
            return self.open[table_id]


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def guarded(handler, body: bool = False):
    """An endpoint: the JSON body read (when `body`), then `handler(request, body)` run in a worker thread, so
    the rules, the bots and the files never hold up the server; the app's exceptions mapped to answers
    (nothing has changed when one is raised)."""
    async def endpoint(request: Request) -> Any:
        try:
            data = await _body(request) if body else None
            result = await run_in_threadpool(handler, request, data)
            return result if isinstance(result, Response) else JSONResponse(result)
        except StaleActionError as exc:
            return error(409, str(exc))
        except run_files.OutsideRunsError as exc:
            return error(403, str(exc))
        except FileNotFoundError as exc:
            return error(404, str(exc))
        except AgentError as exc:
            return error(500, str(exc))
        except (ConfigError, ValueError, KeyError, TypeError) as exc:
            return error(400, str(exc))
    return endpoint


async def _body(request: Request) -> dict:
    try:
        data = await request.json()
    except ValueError:
        raise ConfigError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise ConfigError("the request body must be a JSON object")
    return data


def create_app(runs: str | Path = "runs") -> Starlette:
    """The app serving the games under `runs` (records, saved games, tournament stores)."""
    runs = Path(runs)
    tables = Tables(runs)

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    def games(request: Request, _body: None) -> list:
        out = []
        for name in registry.names():
            spec = registry.game(name)
            out.append({"name": name, "title": spec.title, "players": list(spec.players),
                        "default_players": spec.default_players, "round_limit": spec.has_round_limit,
                        "agents": [a for a in agent_table.names(name)]})
        return out

    def create(request: Request, options: dict) -> Response:
        start = None
        if "from" in options:  # play from a position of a stored game
            origin = options["from"] if isinstance(options["from"], dict) else {}
            cfg, seed, _agents, actions, _finished = run_files.load_game(
                run_files.inside(runs, str(origin.get("path", ""))))
            at = origin.get("at")
            if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(actions):
                raise ConfigError(f"from.at: expected a move from 0 to {len(actions)}")
            run_files.state_at(registry.game_of_config(cfg), cfg, seed, actions[:at])  # every move legal
            start = (cfg, seed, actions[:at])
        table = tables.add(new_table(options, start))
        return JSONResponse(table.page(table.humans[0]), status_code=201)

    def show(request: Request, _body: None) -> dict:
        table = tables.get(request.path_params["id"])
        seat = _person(table, request.query_params.get("seat"))
        with table.lock:  # never half a move
            return table.page(seat)

    def act(request: Request, data: dict) -> dict:
        table = tables.get(request.path_params["id"])
        seat = _person(table, data.get("seat"))
        decision, action = data.get("decision"), data.get("action")
        if isinstance(decision, bool) or not isinstance(decision, int):
            raise ConfigError("decision: expected the number of the decision this action answers")
        if isinstance(action, bool) or not isinstance(action, int):
            raise ConfigError("action: expected a whole number")
        with table.lock:  # the move, its file and the page it answers with, as one
            table.play(seat, decision, action)
            table.save(tables.folder)
            return table.page(seat)

    def listing(request: Request, _body: None) -> list:
        return run_files.listing(runs)

    def replay(request: Request, _body: None) -> dict:
        q = request.query_params
        path = run_files.inside(runs, q.get("path", ""))
        at = q.get("at", "0")
        if not at.isdecimal():
            raise ConfigError(f"at: expected a move number, got {at!r}")
        return run_files.position(path, int(at), q.get("seat", "0"))

    def tournament(request: Request, _body: None) -> dict:
        path = run_files.inside(runs, request.query_params.get("path", ""))
        return run_files.tournament(path, runs)

    def ask(request: Request, data: dict) -> dict:
        agent = data.get("agent")
        if not isinstance(agent, str):
            raise ConfigError("agent: expected an agent name")
        if "table" in data:
            table = tables.get(str(data["table"]))
            seat = _person(table, data.get("seat"))
            with table.lock:
                state = table.state.copy()
            return inspect(table.spec, state, seat, agent)
        path = run_files.inside(runs, str(data.get("path", "")))
        state, spec, seat = _record_position(path, data.get("at"), data.get("seat"))
        return inspect(spec, state, seat, agent)

    routes = [Route("/", index), Route("/api/games", guarded(games)),
              Route("/api/tables", guarded(create, body=True), methods=["POST"]),
              Route("/api/tables/{id}", guarded(show)),
              Route("/api/tables/{id}/act", guarded(act, body=True), methods=["POST"]),
              Route("/api/runs", guarded(listing)), Route("/api/replay", guarded(replay)),
              Route("/api/tournament", guarded(tournament)),
              Route("/api/inspect", guarded(ask, body=True), methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes)
    app.state.tables = tables
    return app


def _person(table: Table, seat: Any) -> int:
    """The person's seat a request names (the first person's when none); only person seats have a page."""
    if seat in (None, ""):
        return table.humans[0]
    if isinstance(seat, str) and seat.isdecimal():
        seat = int(seat)
    if seat not in table.humans:
        raise ConfigError(f"seat: {seat!r} is not a seat a person plays in this game")
    return int(seat)


def _record_position(path: Path, at: Any, seat: Any) -> tuple[Any, registry.GameSpec, int]:
    saved = run_files.saved_state(path)
    if saved is not None:  # one position
        spec, state = saved
        if at != 0 or isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.cfg.n_players:
            raise ConfigError(f"a saved game is one position (at 0) of seats 0 to {state.cfg.n_players - 1}")
        return state, spec, seat
    cfg, seed, _agents, actions, _finished = run_files.load_game(path)
    spec = registry.game_of_config(cfg)
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(actions):
        raise ConfigError(f"at: expected a move from 0 to {len(actions)}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < cfg.n_players:
        raise ConfigError(f"seat: expected a seat from 0 to {cfg.n_players - 1}")
    return run_files.state_at(spec, cfg, seed, actions[:at]), spec, seat

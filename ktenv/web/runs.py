"""What the watch and tournament pages read: the files under the runs folder, and nothing outside it.

`inside` resolves a path the page names against the runs folder and refuses anything that leaves it
(``..``, an absolute path, a link pointing out). Records and saved browser games replay from their seed
and actions; a position of a record is shown to one seat from that seat's observation, or as the whole
table (every hidden fact) only when asked for and only for a finished record.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from .. import registry
from ..arena.records import GameRecord, RecordError
from ..arena.tournament import record_path
from ..errors import ConfigError
from .session import SCHEMA as WEB_SCHEMA
from .session import events_of, roll_lines_of, rolls_of, seat_names, seat_words
from .views import view_of

MAX_LISTED = 2000  # files a listing shows
MAX_READ = 20 * 2**20  # bytes: a bigger JSON file is not opened
LOG_WINDOW = 200  # log lines a replay page receives (the moves before the position)


class OutsideRunsError(Exception):
    """A path that leaves the runs folder (HTTP 403)."""


def inside(runs: Path, rel: str) -> Path:
    """`rel` as a file inside `runs`: OutsideRunsError for a path that leaves it, FileNotFoundError for none."""
    if not isinstance(rel, str) or not rel or "\x00" in rel or Path(rel).is_absolute():
        raise OutsideRunsError(f"{rel!r} is not a path inside the runs folder")
    root = runs.resolve()
    path = (root / rel).resolve()
    if not path.is_relative_to(root):
        raise OutsideRunsError(f"{rel!r} is outside the runs folder")
    if not path.is_file():
        raise FileNotFoundError(f"{rel} is not a file in the runs folder")
    return path


def kind_of(path: Path) -> str:
    """record, web_game, save (a game state saved by `ktenv play --save`), tournament, or '' (none of them)."""
    if path.suffix in (".sqlite", ".db"):
        return "tournament"
    if path.suffix != ".json" or path.stat().st_size > MAX_READ:
        return ""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return ""
    if not isinstance(data, dict):
        return ""
    if data.get("schema") == "ktenv.record":
        return "record"
    if data.get("schema") == WEB_SCHEMA:
        return "web_game"
    return "save" if any(registry.game(n).saved_game(data) for n in registry.names()) else ""


def listing(runs: Path) -> list[dict]:
    """Every record, saved game and tournament store under `runs`, newest first."""
    if not runs.is_dir():
        return []
    out = []
    for path in sorted(runs.rglob("*"), key=lambda p: -p.stat().st_mtime if p.exists() else 0):
        if len(out) >= MAX_LISTED:
            break
        if not path.is_file() or path.name.endswith(".tmp"):
            continue
        kind = kind_of(path)
        if kind:
            out.append({"path": path.relative_to(runs).as_posix(), "kind": kind, "mtime": path.stat().st_mtime})
    return out


# ----- replays


def load_game(path: Path) -> tuple[Any, int, list[str], list[int], bool]:
    """(config, seed, agents, actions, finished) of a record or a saved browser game; ConfigError otherwise."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path.name}: not readable JSON ({exc})") from None
    if isinstance(data, dict) and data.get("schema") == WEB_SCHEMA:
        cfg = registry.config_from_dict(data.get("config"), saved=True)
        agents, actions = data.get("agents"), data.get("actions")
        if not (isinstance(agents, list) and isinstance(actions, list) and all(isinstance(a, int) for a in actions)):
            raise ConfigError(f"{path.name}: agents or actions malformed")
        return cfg, int(data.get("seed", 0)), agents, actions, bool(data.get("finished"))
    try:
        record = GameRecord.from_dict(data)
    except RecordError as exc:
        raise ConfigError(f"{path.name}: {exc}") from None
    return record.config, record.seed, record.agents, record.actions, True


def saved_state(path: Path) -> tuple[registry.GameSpec, Any] | None:
    """(game, state) of a game state saved by `ktenv play --save`; None for any other file."""
    try:
        text = path.read_text()
        data = json.loads(text)
    except (OSError, ValueError):
        return None
    for name in registry.names():
        spec = registry.game(name)
        if spec.saved_game(data):
            try:
                return spec, spec.engine.state_type.from_json(text)
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(f"{path.name}: a corrupt saved game ({exc})") from None
    return None


def position(path: Path, at: int, seat: str) -> dict:
    """Move `at` of a stored game (the position before that move), seen by `seat`: a seat number, or
    "table" (the whole table: finished records only). A saved game state is one position, seen by a seat."""
    saved = saved_state(path)
    if saved is not None:
        return _saved_position(*saved, at, seat)
    cfg, seed, agents, actions, finished = load_game(path)
    spec = registry.game_of_config(cfg)
    view, n = view_of(spec), cfg.n_players
    if not 0 <= at <= len(actions):
        raise ConfigError(f"at: expected a move from 0 to {len(actions)}, got {at}")
    whole = seat == "table"
    if whole and not finished:
        raise ConfigError("the whole table is shown only for finished games")
    watcher = None if whole else _seat(seat, n)
    state, log = _walk(spec, cfg, seed, actions[:at], watcher, agents)
    names = [f"{a} (seat {p + 1})" for p, a in enumerate(agents)] if whole else seat_names(agents, watcher)
    if whole:
        page = view.table_view(state, names)
    else:
        deciding = not state.game_over and state.actor == watcher
        mask = spec.engine.legal_mask(state) if deciding else None
        page = {**view.seat_view(view.encode(state, watcher), mask, names), "rotation": watcher}
    return {"game": spec.name, "title": spec.title, "moves": len(actions), "at": at, "seat": seat,
            "finished": finished, "players": n, "agents": agents, "view": page, "log": log,
            "next": _next_move(spec, state, actions, at, whole, watcher)}


def _saved_position(spec: registry.GameSpec, state: Any, at: int, seat: str) -> dict:
    """A saved state's one position, seen by one seat (a save is no record: no whole table)."""
    n = state.cfg.n_players
    if at != 0:
        raise ConfigError(f"at: a saved game is one position (0), got {at}")
    if seat == "table":
        raise ConfigError("the whole table is shown only for finished records; a saved game shows a seat's view")
    watcher = _seat(seat, n)
    agents = [f"player {p + 1}" for p in range(n)]
    view = view_of(spec)
    mask = spec.engine.legal_mask(state) if not state.game_over and state.actor == watcher else None
    page = {**view.seat_view(view.encode(state, watcher), mask, seat_names(agents, watcher)), "rotation": watcher}
    return {"game": spec.name, "title": spec.title, "moves": 0, "at": 0, "seat": seat, "finished": False,
            "players": n, "agents": agents, "view": page, "log": [], "next": ""}


def _seat(seat: str, n: int) -> int:
    if not (isinstance(seat, str) and seat.isdecimal() and int(seat) < n):
        raise ConfigError(f"seat: expected 'table' or a seat from 0 to {n - 1}, got {seat!r}")
    return int(seat)


def state_at(spec: registry.GameSpec, cfg: Any, seed: int, actions: list[int]) -> Any:
    """The state after `actions` (each checked legal), without a log."""
    return _walk(spec, cfg, seed, actions, None, [""] * cfg.n_players, window=0)[0]


def _walk(spec: registry.GameSpec, cfg: Any, seed: int, actions: list[int], watcher: int | None,
          agents: list[str], window: int = LOG_WINDOW) -> tuple[Any, list[str]]:
    """The state after `actions` and the log of the last moves: every move in English for the whole table,
    else as `watcher` knew it (its own moves in its words, the others' public part)."""
    view, engine, n = view_of(spec), spec.engine, cfg.n_players
    replay_view = spec.replay_view
    state = spec.new_game(cfg, seed)
    log: list[str] = []
    first_logged = len(actions) - window
    names = None if watcher is None else seat_names(agents, watcher)
    seat_order = [f"{x} (seat {p + 1})" for p, x in enumerate(agents)]  # the whole table's names
    for k, a in enumerate(actions):
        mask = engine.legal_mask(state)
        if state.game_over or not (0 <= a < mask.size and mask[a]):
            raise ConfigError(f"move {k}: action {a} is not legal in the replayed game (a corrupt record?)")
        logged = k >= first_logged
        actor = int(state.actor)
        rolls = rolls_of(view, state, a) if logged else []
        if logged and watcher is None:
            log.append(f"{k}. {agents[actor]}: {replay_view.describe_action(state, a)}")
            log += roll_lines_of(view, rolls, None, seat_order)
        before = view.encode(state, watcher) if logged and watcher is not None else None
        engine.step(state, a)
        if before is not None:
            after = view.encode(state, watcher)
            line = (f"you: {seat_words(view, before, a, names)}" if actor == watcher else
                    view.public_move(before, (actor - watcher) % n, a, after, names))
            log += [f"{k}. {line}", *roll_lines_of(view, rolls, watcher, names), *events_of(view, before, after, names)]
    return state, log


def _next_move(spec: registry.GameSpec, state: Any, actions: list[int], at: int, whole: bool,
               watcher: int | None) -> str:
    """The move played from this position, in English: for the whole table, or the seat's own move."""
    if at >= len(actions) or state.game_over:
        return ""
    if whole:
        return spec.replay_view.describe_action(state, actions[at])
    if state.actor == watcher:  # the seat's own move, in its own words (from its observation)
        view = view_of(spec)
        return seat_words(view, view.encode(state, watcher), actions[at], ["you"] * state.cfg.n_players)
    return ""


# ----- tournaments


def tournament(path: Path, runs: Path) -> dict:
    """A tournament store's standings, head-to-head table and games (with the records found under runs)."""
    from ..arena.ratings import head_to_head, standings

    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            meta = {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM meta")}
            rows = db.execute("SELECT game_index, seed, agents, winners, reason, rounds, decisions, income, hexes "
                              "FROM games ORDER BY game_index").fetchall()
        finally:
            db.close()
    except (sqlite3.Error, ValueError) as exc:
        raise ConfigError(f"{path.name}: not a readable tournament store ({exc})") from None
    games = [{"index": r[0], "seed": r[1], "agents": json.loads(r[2]), "winners": json.loads(r[3]), "reason": r[4],
              "rounds": r[5], "decisions": r[6], "income": json.loads(r[7]), "hexes": json.loads(r[8])}
             for r in rows]
    config = meta.get("config") or {}
    labels = list(dict.fromkeys(a for g in games for a in g["agents"]))
    table = standings(games, labels)
    order = [s.agent for s in table]
    for g in games:
        g["record"] = _record_link(config.get("records"), g["index"], runs)
    return {"path": path.relative_to(runs.resolve()).as_posix() if path.is_relative_to(runs.resolve()) else path.name,
            "settings": config, "standings": [s.to_dict() for s in table],
            "head_to_head": {"agents": order, "ahead": head_to_head(games, order)}, "games": games}


def _record_link(folder: str | None, index: int, runs: Path) -> str | None:
    """The record of game `index`, as a path inside runs, when the tournament wrote one there."""
    if not folder:
        return None
    root = runs.resolve()
    for base in (Path.cwd(), root):
        path = (base / record_path(folder, index)).resolve()
        if path.is_file() and path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return None

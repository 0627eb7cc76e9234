"""Records and tournament stores into the dataset tables: every record replayed and verified, then written.

Sources: a tournament's SQLite store (its games; their records, when a records folder has them, give the
decisions, rounds and events), or a folder of game records. Records replay on the game's default engine
(the native one where the game has it), through `ktenv.arena.records.replay`, which checks every move and
the result; a record that does not verify stops the export with a `RecordError` naming the file.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import registry
from ..arena.records import GameRecord, RecordError, replay
from .schema import SCHEMA_VERSION, schemas
from .writer import DatasetError, ShardWriter

# a shard also closes at this many decision rows (observations take ~30 kB a row in memory)
SHARD_ROWS, OBSERVED_SHARD_ROWS = 2_000_000, 20_000
_RECORD_NAME = re.compile(r"game_(\d+)\.json")


@dataclass
class Item:
    """One game of the source: its id, and its record file and/or its store row."""

    game: int
    record: Path | None = None
    row: dict | None = None


@dataclass
class Source:
    kind: str  # "store" or "records"
    path: Path
    items: list[Item]
    identity: dict  # the store's identity (agents as given, game config, agent files); {} for records
    records: Path | None = None
    note: str = ""

    def describe(self) -> dict:
        return {"kind": self.kind, "path": str(self.path.resolve()),
                "records": str(self.records.resolve()) if self.records else None}


@dataclass
class Summary:
    out: Path
    games: int  # games in the dataset
    added: int  # games this run added
    decisions: int  # decision rows this run added
    seconds: float
    notes: list[str] = field(default_factory=list)


def open_source(source: str | Path, records: str | Path | None = None) -> Source:
    """A tournament store (a file) or a folder of records; `records` names the store's records folder (default:
    the folder its tournament wrote, when it is there)."""
    path = Path(source)
    if path.is_dir():
        return _records_source(path)
    if path.is_file():
        return _store_source(path, records)
    raise DatasetError(f"{path}: no such tournament store or records folder")


def _records_source(folder: Path) -> Source:
    files = sorted(p for p in folder.iterdir() if p.suffix == ".json" and p.is_file())
    if not files:
        raise DatasetError(f"{folder}: no game records (*.json) in it")
    numbered = [_RECORD_NAME.fullmatch(p.name) for p in files]
    ids = [int(m.group(1)) for m in numbered] if all(numbered) else list(range(len(files)))
    return Source("records", folder, [Item(i, p) for i, p in zip(ids, files)], {}, folder)


def _store_source(path: Path, records: str | Path | None) -> Source:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        db.row_factory = sqlite3.Row
        rows = [dict(r) for r in db.execute("SELECT * FROM games ORDER BY game_index")]
        db.close()
    except sqlite3.DatabaseError as exc:
        raise DatasetError(f"{path}: not a tournament store ({exc})") from None
    identity = json.loads(meta.get("identity", "{}"))
    folder = Path(records) if records else _stored_records_folder(meta)
    items = []
    for row in rows:
        record = folder / f"game_{row['game_index']:06d}.json" if folder else None
        items.append(Item(int(row["game_index"]), record if record and record.is_file() else None, row))
    if records and not Path(records).is_dir():
        raise DatasetError(f"--records {records}: no such folder")
    missing = sum(item.record is None for item in items)
    note = ""
    if missing:
        note = (f"{missing} of the {len(items)} stored games have no record"
                f"{f' in {folder}' if folder else ''}: they give games and seats rows only (no decisions, rounds "
                "or events; play the tournament with --records DIR for those)")
    return Source("store", path, items, identity, folder, note)


def _stored_records_folder(meta: dict) -> Path | None:
    records = json.loads(meta.get("config", "{}")).get("records")
    return Path(records) if records and Path(records).is_dir() else None


class _Tables:
    """Column lists of one shard, filled game by game."""

    def __init__(self, schemas_: dict) -> None:
        self.columns = {t: {c: [] for c in s.names} for t, s in schemas_.items()}

    def add(self, table: str, row: dict) -> None:
        for column, values in self.columns[table].items():
            values.append(row.get(column))


@dataclass
class _Job:
    """One export: the source, its game, and a reader per config met (their caches of English texts grow)."""

    src: Source
    spec: registry.GameSpec
    observations: bool
    figures: tuple[str, ...] = ()
    store_figures: dict[str, str] = field(default_factory=dict)
    readers: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.spec.has("dataset"):
            raise DatasetError(f"{self.spec.title} has no dataset reader")
        sample = self.spec.dataset(self.spec.make_config({}, self.spec.default_players, None))
        self.figures, self.store_figures = tuple(sample.figures), dict(sample.store_figures)

    def reader(self, cfg: Any) -> Any:
        key = json.dumps(registry.config_to_dict(cfg), sort_keys=True)
        if key not in self.readers:
            self.readers[key] = self.spec.dataset(cfg)
        return self.readers[key]


def _game_row(item: Item, rec: GameRecord | None, source: Source, game_name: str) -> dict:
    if rec is not None:
        agents = list(rec.agents)
        specs = list(rec.agent_specs or rec.agents)
        files = [rec.agent_files.get(a) for a in agents]
        result = rec.result
        return {"game": item.game, "game_name": game_name, "seed": rec.seed, "players": len(agents),
                "config": json.dumps(registry.config_to_dict(rec.config), sort_keys=True), "agents": agents,
                "agent_specs": specs, "agent_files": files, "winners": list(result["winners"]),
                "reason": result["reason"], "rounds": result.get("rounds"), "decisions": len(rec.actions),
                "ktenv_version": None, "record": item.record.name if item.record else None}
    row = item.row or {}
    agents = json.loads(row["agents"])
    given = dict(_label_spec(a) for a in source.identity.get("agents", []))
    digests = source.identity.get("agent_files", {})
    specs = [given.get(a, a) for a in agents]
    return {"game": item.game, "game_name": game_name, "seed": row["seed"], "players": len(agents),
            "config": json.dumps(source.identity.get("game", {}), sort_keys=True), "agents": agents,
            "agent_specs": specs, "agent_files": [digests.get(s, digests.get(a)) for a, s in zip(agents, specs)],
            "winners": json.loads(row["winners"]), "reason": row["reason"], "rounds": row["rounds"],
            "decisions": row["decisions"], "ktenv_version": None, "record": None}


def _label_spec(given: str) -> tuple[str, str]:
    label, eq, spec = given.partition("=")
    return (label, spec) if eq else (given, given)


def _load(item: Item) -> tuple[GameRecord, str | None]:
    """The record and the ktenv version that wrote it; RecordError naming the file."""
    assert item.record is not None
    try:
        data = json.loads(item.record.read_text())
        rec = GameRecord.from_dict(data)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"{item.record}: {exc}") from None
    if item.row is not None and (int(item.row["seed"]) != rec.seed or json.loads(item.row["agents"]) != rec.agents):
        raise RecordError(f"{item.record}: seed or agents differ from game {item.game} of the store")
    return rec, data.get("ktenv")


def _replay_rows(job: _Job, item: Item, rec: GameRecord, tables: _Tables) -> list[list[int]]:
    """Replay one record, filling decisions, rounds and events; returns the final state's figures."""
    reader, gid, agents = job.reader(rec.config), item.game, rec.agents
    add_event, legal_mask = tables.add, job.spec.engine.legal_mask
    figures = reader.figures
    last = {"round": None, "watch": None, "move": -1, "actor": -1}

    def note_events(s: Any) -> None:
        k = last["move"]
        for e in last["watch"].after(s, last["actor"], rec.actions[k]):
            add_event("events", {"game": gid, "decision": k, "round": reader.round_of(s), "phase": reader.phase(s),
                                 "kind": e.kind, "player": e.player, "other": e.other, "place": e.place,
                                 "amount": e.amount, "detail": e.detail})

    cols = tables.columns["decisions"]
    c_game, c_index, c_round, c_phase, c_decision, c_actor, c_agent, c_action, c_block, c_text, c_legal = (
        cols[name] for name in ("game", "index", "round", "phase", "decision", "actor", "agent", "action", "block",
                                "text", "legal"))
    count = np.count_nonzero

    def on_move(s: Any, k: int, action: int) -> None:
        if last["watch"] is None:
            last["watch"] = reader.watch(s)
        else:
            note_events(s)
        r = reader.round_of(s)
        if r != last["round"]:
            last["round"] = r
            for p, values in enumerate(last["watch"].figures(s)):
                tables.add("rounds", {"game": gid, "round": r, "player": p, **dict(zip(figures, values))})
        p = s.actor
        mask = legal_mask(s)
        c_game.append(gid)
        c_index.append(k)
        c_round.append(r)
        c_phase.append(reader.phase(s))
        c_decision.append(reader.decision(s))
        c_actor.append(p)
        c_agent.append(agents[p])
        c_action.append(action)
        c_block.append(reader.block(action))
        c_text.append(reader.describe(s, action))
        c_legal.append(int(count(mask)))
        if job.observations:
            cols["observation"].append(reader.observe(s, p))
            cols["mask"].append(mask.astype(bool))
        last["move"], last["actor"] = k, p

    try:
        done = replay(rec, on_move=on_move)
    except RecordError as exc:
        raise RecordError(f"{item.record}: {exc}") from None
    if last["watch"] is None:  # a record without a move
        last["watch"] = reader.watch(done.state)
    else:
        note_events(done.state)
    return last["watch"].figures(done.state)


def _seat_rows(tables: _Tables, game_row: dict, figures: tuple[str, ...], final: list[list[int]] | None,
               store_row: dict | None, store_figures: dict[str, str]) -> None:
    stored = {f: json.loads(store_row[c]) for f, c in store_figures.items() if store_row and store_row.get(c)}
    for seat, agent in enumerate(game_row["agents"]):
        values = dict(zip(figures, final[seat])) if final else {f: v[seat] for f, v in stored.items()}
        tables.add("seats", {"game": game_row["game"], "seat": seat, "agent": agent,
                             "agent_spec": game_row["agent_specs"][seat], "won": seat in game_row["winners"], **values})


def _spec_of(source: Source) -> registry.GameSpec:
    if source.identity.get("game") is not None:
        return registry.game_of_config(registry.config_from_dict(source.identity["game"], saved=True))
    first = next((i for i in source.items if i.record is not None), None)
    if first is None:
        raise DatasetError(f"{source.path}: no game to read")
    return registry.game_of_config(_load(first)[0].config)


def export_dataset(source: str | Path, out: str | Path, *, records: str | Path | None = None,
                   observations: bool = False, shard_games: int = 1000, fresh: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> Summary:
    """Write the dataset tables of `source` under `out` (see the module docstring and docs/datasets.md)."""
    exporter = Exporter(source, out, records=records, observations=observations, shard_games=shard_games,
                        fresh=fresh)
    todo = [item for item in exporter.src.items if item.game not in exporter.done]
    try:
        for n, item in enumerate(todo, 1):
            if exporter.add(item) and progress:
                progress(n, len(todo))
        exporter.flush()
        if progress and todo:
            progress(len(todo), len(todo))
    except BaseException:  # an unverified record, Ctrl-C: whole shards stay, nothing half-written does
        exporter.abandon()
        raise
    return exporter.finish()


class Exporter:
    """Games into shards, one at a time: `export_dataset` feeds it the source's games, a tournament feeds it
    each game as it ends (``--dataset``). `add` closes a shard every `shard_games` games; `flush` closes the
    last part shard; `finish` marks the dataset complete. Games already in whole shards are skipped."""

    def __init__(self, source: str | Path, out: str | Path, *, records: str | Path | None = None,
                 observations: bool = False, shard_games: int = 1000, fresh: bool = False) -> None:
        if isinstance(shard_games, bool) or not isinstance(shard_games, int) or shard_games < 1:
            raise DatasetError(f"--shard-games: expected a whole number >= 1, got {shard_games}")
        self.t0 = time.perf_counter()
        self.src = open_source(source, records)
        self.job = _Job(self.src, _spec_of(self.src), observations)
        # a store's own identity too: a tournament played afresh with other settings is another source
        identity = {"game": self.job.spec.name, "source": self.src.describe(), "store": self.src.identity,
                    "observations": observations}
        self.writer = ShardWriter(Path(out), schemas(self.job.figures, observations), identity, fresh)
        self.meta = {"game": self.job.spec.name, "version": _version()}
        self.shard_games = shard_games
        self.shard_rows = OBSERVED_SHARD_ROWS if observations else SHARD_ROWS
        self.batch: list[int] = []
        self.tables = _Tables(self.writer.schemas)
        self.added = self.decisions = 0

    @property
    def done(self) -> set[int]:
        """The games in whole shards, and those waiting in the open one."""
        return self.writer.done | set(self.batch)

    def add(self, item: Item, record: GameRecord | None = None) -> bool:
        """One game's rows (its record read from `item.record` unless given); True when a shard was written."""
        if item.game in self.done:
            return False
        self.decisions += _one_game(self.job, item, self.tables, record)
        self.batch.append(item.game)
        self.added += 1
        if len(self.batch) >= self.shard_games or len(self.tables.columns["decisions"]["game"]) >= self.shard_rows:
            self.flush()
            return True
        return False

    def add_rows(self, game: int, columns: dict[str, dict[str, list]], decisions: int) -> bool:
        """One game's rows made elsewhere (by `record_rows`, in the process that played it); as `add`."""
        if game in self.done:
            return False
        for table, values in columns.items():
            for column, cells in values.items():
                self.tables.columns[table][column].extend(cells)
        self.decisions += decisions
        self.batch.append(game)
        self.added += 1
        if len(self.batch) >= self.shard_games or len(self.tables.columns["decisions"]["game"]) >= self.shard_rows:
            self.flush()
            return True
        return False

    def flush(self) -> None:
        """Write the open shard (if it holds a game)."""
        if self.batch:
            self.writer.write(self.batch, self.tables.columns, self.meta)
            self.batch, self.tables = [], _Tables(self.writer.schemas)

    def finish(self) -> Summary:
        """Write the open shard and mark the dataset complete."""
        self.flush()
        notes = [self.src.note] if self.src.note else []
        self.writer.finish({"games": len(self.writer.done), "notes": notes, "ktenv": _version()})
        return Summary(self.writer.out, len(self.writer.done), self.added, self.decisions,
                       time.perf_counter() - self.t0, notes)

    def abandon(self) -> None:
        """After an error: the open shard is dropped; whole shards stay, no temporary file does."""
        self.batch, self.tables = [], _Tables(self.writer.schemas)
        self.writer.abandon()


_JOBS: dict[tuple[str, bool], _Job] = {}  # per process: a game's reader (its English texts are cached)


def record_rows(record: GameRecord, game: int, observations: bool = False) -> tuple[dict[str, dict[str, list]], int]:
    """The rows of one game of a tournament from its record (the record file `game_NNNNNN.json`), replayed and
    verified here: a worker that played the game makes them, and the driver adds them (`Exporter.add_rows`)."""
    spec = registry.game_of_config(record.config)
    key = (spec.name, observations)
    if key not in _JOBS:
        _JOBS[key] = _Job(Source("records", Path("."), [], {}), spec, observations)
    job = _JOBS[key]
    tables = _Tables(schemas(job.figures, observations))
    decisions = _one_game(job, Item(game, Path(f"game_{game:06d}.json")), tables, record)
    return tables.columns, decisions


def _one_game(job: _Job, item: Item, tables: _Tables, record: GameRecord | None = None) -> int:
    """The rows of one game (its record given, else read from the item's file); returns its decisions exported."""
    if record is not None:
        rec, version = record, _version()
    else:
        rec, version = _load(item) if item.record is not None else (None, None)
    if rec is not None and registry.game_of_config(rec.config) is not job.spec:
        raise RecordError(f"{item.record}: a game of {registry.game_of_config(rec.config).name}, "
                          f"not of {job.spec.name}")
    row = _game_row(item, rec, job.src, job.spec.name)
    row["ktenv_version"] = version
    tables.add("games", row)
    final = _replay_rows(job, item, rec, tables) if rec is not None else None
    _seat_rows(tables, row, job.figures, final, item.row, job.store_figures)
    return len(rec.actions) if rec is not None else 0


def _version() -> str:
    from .. import __version__

    return __version__


def print_progress(done: int, total: int) -> None:
    print(f"\r{done}/{total} games", end="" if done < total else "\n", file=sys.stderr, flush=True)


__all__ = ["SCHEMA_VERSION", "Exporter", "Item", "Source", "Summary", "export_dataset", "open_source", "record_rows"]

"""Bot-vs-bot tournaments: a balanced schedule, parallel games, a resumable SQLite store.

- **Schedule.** Tables of agents (every combination of `players` agents, or the list cycled when
  there are fewer agents than seats), each played in every cyclic seat rotation, repeated until
  the number of games; game ``i`` has the seed ``seed * 1_000_003 + i``. The schedule depends only
  on the tournament's identity (agents, players, seed, game options), never on the number of
  workers, so a result is reproducible and a resumed tournament plays exactly the missing games.
- **Store.** An embedded SQLite file; one row per finished game, written and committed by the
  parent process as soon as a game finishes (``game_index`` is the primary key, so nothing is
  counted twice). An interrupted tournament (Ctrl-C, a killed process, a crash) loses only the
  games that were still being played; ``--resume`` plays the missing ones.
- **Backends.** ``process``: a pool of worker processes on this machine (``workers``);
  ``ray``: the same games as Ray tasks on a Ray cluster (local by default, or ``ray_address``),
  an optional extra (``pip install "ktenv[ray]"``).
"""

from __future__ import annotations

import itertools
import json
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import ConfigError
from ..files import write_text_atomically
from .config import TournamentConfig, short_digest
from .game import FORFEIT, AgentError
from .ratings import format_table, head_to_head, standings

SCHEMA_VERSION = 1


class TournamentError(RuntimeError):
    """A tournament that cannot start or go on (bad store, a failed game, a missing backend)."""


# ----------------------------------------------------------------------------- schedule

def tables(agents: list[str], players: int) -> list[list[str]]:
    """Seat assignments, balanced: each table in all its cyclic rotations."""
    if len(agents) >= players:
        bases = [list(c) for c in itertools.combinations(agents, players)]
    else:
        k = len(agents)
        bases = [[agents[(i + j) % k] for j in range(players)] for i in range(k)]
    out = []
    for base in bases:
        for r in range(players):
            out.append(base[r:] + base[:r])
    return out


def game_seed(seed: int, index: int) -> int:
    return (int(seed) * 1_000_003 + int(index)) % (2**62)


def schedule(cfg: TournamentConfig) -> list[tuple[int, int, list[str]]]:
    """(game index, game seed, agent per seat) for every game of the tournament."""
    tabs = tables(cfg.labels, cfg.players)
    return [(i, game_seed(cfg.seed, i), tabs[i % len(tabs)]) for i in range(cfg.games)]


# ----------------------------------------------------------------------------- store

class Store:
    """The tournament's SQLite file: settings in `meta`, one committed row per finished game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(path), timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript("""
                CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS games (
                    game_index INTEGER PRIMARY KEY, seed INTEGER NOT NULL, agents TEXT NOT NULL,
                    winners TEXT NOT NULL, reason TEXT NOT NULL, rounds INTEGER NOT NULL,
                    decisions INTEGER NOT NULL, seconds REAL NOT NULL, income TEXT NOT NULL,
                    hexes TEXT NOT NULL, gold TEXT NOT NULL, forts TEXT NOT NULL, heroes TEXT NOT NULL,
                    finished_at REAL NOT NULL, note TEXT NOT NULL DEFAULT '');
            """)
            self.db.commit()
        except sqlite3.DatabaseError as exc:
            raise TournamentError(f"{path}: not a usable tournament database ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def meta(self, key: str):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_meta(self, key: str, value) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def done(self) -> set[int]:
        return {r[0] for r in self.db.execute("SELECT game_index FROM games")}

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def add(self, index: int, r: dict) -> bool:
        """Write one finished game (one transaction). False if that game is already stored."""
        try:
            with self.db:
                self.db.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (index, r["seed"], json.dumps(r["agents"]), json.dumps(r["winners"]), r["reason"], r["rounds"],
                     r["decisions"], r["seconds"], json.dumps(r["income"]), json.dumps(r["hexes"]),
                     json.dumps(r["gold"]), json.dumps(r["forts"]), json.dumps(r["heroes"]), time.time(),
                     r.get("note", "")))
        except sqlite3.IntegrityError:
            return False
        return True

    def games(self, upto: int | None = None) -> list[dict]:
        sql = ("SELECT game_index, seed, agents, winners, reason, rounds, decisions, seconds, income, hexes, "
               "gold, forts, heroes, note FROM games")
        args: tuple = ()
        if upto is not None:
            sql += " WHERE game_index < ?"
            args = (upto,)
        out = []
        for row in self.db.execute(sql + " ORDER BY game_index", args):
            out.append({"index": row[0], "seed": row[1], "agents": json.loads(row[2]), "winners": json.loads(row[3]),
                        "reason": row[4], "rounds": row[5], "decisions": row[6], "seconds": row[7],
                        "income": json.loads(row[8]), "hexes": json.loads(row[9]), "gold": json.loads(row[10]),
                        "forts": json.loads(row[11]), "heroes": json.loads(row[12]), "note": row[13]})
        return out


def open_store(cfg: TournamentConfig, identity: dict | None = None) -> Store:
    """Open (or create) the store; refuse to mix games of different tournaments.

    A tournament whose games are all stored opens without --resume (its standings are printed again);
    one with games missing needs --resume (or --fresh), so nobody extends a stored run by accident."""
    path = cfg.db_path
    if cfg.fresh and path.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    store = Store(path)
    identity = cfg.identity() if identity is None else identity
    stored = store.meta("identity")
    if stored is None:
        if store.count():
            store.close()
            raise TournamentError(f"{path}: holds games but no tournament settings; use another --db")
        store.set_meta("schema_version", SCHEMA_VERSION)
        store.set_meta("identity", identity)
        return store
    if stored != identity:
        store.close()
        raise TournamentError(f"{path}: holds a different tournament ({_difference(stored, identity)}); "
                              "use another --db, or --fresh to start over")
    try:
        check_rows(store.games(), cfg.labels, path)
    except TournamentError:
        store.close()
        raise
    n = store.count()
    missing = len(set(range(cfg.games)) - store.done())
    if n and missing and not cfg.resume:
        store.close()
        raise TournamentError(f"{path}: already holds {n} finished games of this tournament ({missing} of the "
                              f"{cfg.games} asked for are missing); pass --resume to play only the missing games, "
                              "or --fresh to start over")
    return store


def _difference(stored: dict, identity: dict) -> str:
    """What differs between a stored tournament and this one, in words."""
    changed = [a for a in identity.get("agent_files", {})
               if stored.get("agent_files", {}).get(a) != identity["agent_files"][a]]
    if changed and stored.get("agents") == identity["agents"]:
        before = stored.get("agent_files", {})
        return "; ".join(f"the file of agent {a!r} changed since its games were played: sha256 "
                         f"{short_digest(before[a]) if a in before else 'not recorded (an older ktenv)'} then, "
                         f"{short_digest(identity['agent_files'][a])} now" for a in changed)
    keys = [k for k in identity.keys() | stored.keys() if stored.get(k) != identity.get(k)]
    return f"key {', '.join(repr(k) for k in sorted(keys))} differs"


def check_rows(rows: list[dict], agents: list[str], path: Path) -> None:
    """Every stored game must be played by this tournament's agents (a store edited by hand may not be)."""
    for g in rows:
        for name in g["agents"]:
            if name not in agents:
                raise TournamentError(f"{path}: stored game {g['index']} names agent {name!r}, which is not in this "
                                      f"tournament ({', '.join(agents)}); use another --db, or --fresh to start over")


# ----------------------------------------------------------------------------- workers

def run_one(task: tuple) -> tuple[int, dict]:
    """Play one scheduled game (in a worker process or a Ray task)."""
    index, seed, names, specs, cfg_dict, record_dir, max_decisions, engine, dataset = task
    from .. import registry
    from .records import config_from_dict

    cfg = config_from_dict(cfg_dict)
    play = registry.game_of_config(cfg).play_game
    try:
        result = play(cfg, seed, [specs[n] for n in names], record=record_dir is not None,
                      max_decisions=max_decisions, backend=engine)
    except AgentError as exc:
        raise TournamentError(f"game {index} (seed {seed}, agents {names}): {exc}") from None
    result = labelled(result, names)
    out = result.to_dict()
    out.pop("actions", None)
    if record_dir is None:
        out.pop("record", None)
    elif dataset:  # the dataset rows are made where the game was played: the export scales with the workers
        from ..datasets.export import record_rows
        from .records import GameRecord

        out["dataset_rows"] = record_rows(GameRecord.from_dict(out["record"]), index)
    return index, out  # the record travels back: the driver writes it, so a Ray worker's disk never holds it


def record_path(folder: str, index: int) -> Path:
    return Path(folder) / f"game_{index:06d}.json"


def labelled(result, labels: list[str]):
    """The result under the agents' short names; a record keeps the specs that played too."""
    if list(result.agents) != list(labels) and result.record is not None:
        from .records import GameRecord

        result.record = GameRecord.from_dict(result.record).with_labels(labels).to_dict()
    result.agents = list(labels)
    return result


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool


def _process_backend(tasks: list[tuple], workers: int) -> Iterator[tuple[int, dict]]:
    if workers == 1 or len(tasks) <= 1:
        for t in tasks:
            yield run_one(t)
        return
    import multiprocessing as mp

    # fork is fastest, but not once torch (with its thread pools) is loaded, e.g. in a training run
    fork = sys.platform.startswith("linux") and "torch" not in sys.modules
    ctx = mp.get_context("fork" if fork else "spawn")
    pool = ctx.Pool(processes=min(workers, len(tasks)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(run_one, tasks, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _ray_backend(tasks: list[tuple], address: str | None) -> Iterator[tuple[int, dict]]:
    from ..ray_cluster import RayClusterError, join

    try:
        started = join(address)
    except RayClusterError as exc:
        raise TournamentError(f"backend 'ray': {exc} (or use the default backend 'process')") from None
    import ray

    try:
        remote = ray.remote(run_one)
        pending = [remote.remote(t) for t in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


# ----------------------------------------------------------------------------- the tournament

class Progress:
    """A progress bar on stderr (tqdm when installed, a plain line otherwise).

    The time left is estimated from the games finished after the first one: the first game also pays
    for starting the workers and loading the agents, which would make the first estimate hours long."""

    def __init__(self, total: int, done: int, enabled: bool) -> None:
        self.bar = None
        self.enabled = enabled
        self.total, self.done = total, done
        self.first: tuple[int, float] | None = None  # (games done, time) when the first game finished
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, initial=done, unit="game", dynamic_ncols=True, file=sys.stderr,
                                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]")
            except ImportError:
                self.bar = None

    def eta(self) -> str:
        now = time.perf_counter()
        if self.first is None:
            self.first = (self.done, now)
            return "time left: after the next game"
        games, since = self.done - self.first[0], now - self.first[1]
        if games <= 0 or since <= 0:
            return "time left: after the next game"
        left = (self.total - self.done) * since / games
        return f"time left ~{int(left // 3600)}:{int(left % 3600 // 60):02d}:{int(left % 60):02d}"

    def update(self, note: str = "") -> None:
        self.done += 1
        if not self.enabled:
            return
        text = ", ".join(t for t in (self.eta(), note) if t)
        if self.bar is not None:
            self.bar.set_postfix_str(text, refresh=False)
            self.bar.update(1)
        else:
            print(f"\r{self.done}/{self.total} games, {text}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            print(file=sys.stderr)


def run_tournament(cfg: TournamentConfig, on_game: Callable[[int, dict], None] | None = None) -> dict:
    """Play every missing game of the tournament; return a report (standings and speed).

    Raises KeyboardInterrupt after a Ctrl-C: every game finished so far is already stored."""
    identity = cfg.identity()
    store = open_store(cfg, identity)
    try:
        stored = store.done()
        plan = [g for g in schedule(cfg) if g[0] not in stored]
        cfg_dict = cfg.game_config().to_dict()
        specs = cfg.specs
        tasks = [(i, seed, names, specs, cfg_dict, cfg.records, cfg.max_decisions, cfg.engine, cfg.dataset is not None)
                 for i, seed, names in plan]
        store.set_meta("config", {k: v for k, v in cfg.to_dict().items() if k not in ("resume", "fresh")})
        progress = Progress(cfg.games, len(stored & set(range(cfg.games))), cfg.progress)
        t0 = time.perf_counter()
        played = 0
        dataset = _live_dataset(cfg)
        backend = _ray_backend(tasks, cfg.ray_address) if cfg.backend == "ray" else \
            _process_backend(tasks, cfg.workers)
        try:
            for index, result in backend:
                record, rows = _save_record(cfg, index, result), result.pop("dataset_rows", None)
                if store.add(index, result):
                    played += 1
                if dataset is not None and record is not None:
                    dataset.add(index, record, rows)
                if on_game is not None:
                    on_game(index, result)
                progress.update(f"last: {result['reason']}")
        finally:
            close = getattr(backend, "close", None)
            if close is not None:
                close()
            progress.close()
            if dataset is not None:
                dataset.close()  # the games of the open shard too, even after Ctrl-C
        dataset_games = dataset.finish().games if dataset is not None else None
        seconds = time.perf_counter() - t0
        rows = store.games(upto=cfg.games)
        unrecorded = [] if cfg.records is None else \
            [g["index"] for g in rows if not record_path(cfg.records, g["index"]).is_file()]
        return {"standings": standings(rows, cfg.labels), "games": rows, "unrecorded": unrecorded,
                "played": played, "seconds": seconds,
                "games_per_second": played / seconds if seconds > 0 and played else 0.0,
                "db": str(cfg.db_path), "agent_files": identity.get("agent_files", {}), "dataset_games": dataset_games}
    finally:
        store.close()


def _save_record(cfg: TournamentConfig, index: int, result: dict):
    """Write the game's record (before the store row, so a stored game always has one); the record, or None."""
    data = result.pop("record", None)
    if cfg.records is None or data is None:
        return None
    from .records import GameRecord

    record = GameRecord.from_dict(data)
    record.save(record_path(cfg.records, index))
    return record


def _live_dataset(cfg: TournamentConfig):
    """``--dataset``: the dataset tables, a shard every few games while the tournament plays."""
    if cfg.dataset is None:
        return None
    from ..datasets.live import LiveDataset

    Path(cfg.records).mkdir(parents=True, exist_ok=True)
    return LiveDataset(cfg.db_path, cfg.dataset, cfg.records, fresh=bool(cfg.fresh))


def report_text(cfg: TournamentConfig, report: dict) -> str:
    rows = report["games"]
    reasons: dict[str, int] = {}
    for g in rows:
        reasons[g["reason"]] = reasons.get(g["reason"], 0) + 1
    spec = cfg.spec
    title = (f"Tournament {', '.join(cfg.labels)}: {len(rows)} games of {cfg.players} players "
             f"(seed {cfg.seed}, round limit {cfg.max_rounds})")
    if not spec.default:
        title = (f"{spec.title} tournament {', '.join(cfg.labels)}: {len(rows)} games of {cfg.players} players "
                 f"(seed {cfg.seed}{f', round limit {cfg.max_rounds}' if spec.has_round_limit else ''})")
    lines = [format_table(report["standings"], title, spec.stat_labels)]
    for label, spec_ in cfg.specs.items():
        if label != spec_:
            lines.append(f"    {label} = {spec_}")
    for name, digest in report.get("agent_files", {}).items():  # which model or source file played
        lines.append(f"    {name}: file sha256 {short_digest(digest)}")
    order = [st.agent for st in report["standings"]]
    if len(order) > 1:
        matrix = head_to_head(rows, order)
        width = max(len(a) for a in order) + 2
        lines.append("")
        lines.append("head to head (row finished ahead of column):")
        lines.append(" " * width + "".join(f"{a:>{width}}" for a in order))
        for a, row in zip(order, matrix):
            cells = "".join(f"{'-' if v is None else f'{100 * v:.1f}%':>{width}}" for v in row)
            lines.append(f"{a:<{width}}" + cells)
    lines.append("")
    lines.append("ends: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])))
    lines += _not_counted(rows, cfg.max_decisions)
    lines += _forfeits(rows)
    unrecorded = report.get("unrecorded", [])
    if unrecorded:
        lines.append(f"records: {len(unrecorded)} of the {len(rows)} stored games have no record in {cfg.records} "
                     f"(played before --records was given, e.g. game {unrecorded[0]}); --fresh plays every game "
                     "again with its record")
    rounds = sum(g["rounds"] for g in rows) / max(len(rows), 1)
    if report["played"]:
        now = (f"played now: {report['played']} games in {report['seconds']:.1f} s "
               f"({report['games_per_second']:.2f} games/s)")
    else:
        now = "played now: none (every game was already stored)"
    lines.append(f"average {spec.round_word}: {rounds:.1f}; {now}; results: {report['db']}")
    return "\n".join(lines)


def _not_counted(rows: list[dict], max_decisions: int) -> list[str]:
    """The stored games left out of the standings, and why."""
    lines = []
    broken = [g for g in rows if g["reason"] == "engine_error"]
    if broken:
        lines.append(f"not counted: {len(broken)} game(s) stopped by a rules-engine dead end (no legal action), "
                     "seeds " + ", ".join(f"{g['seed']} ({'/'.join(g['agents'])})" for g in broken[:5]))
    cut = [g for g in rows if g["reason"] == "step_limit"]
    if cut:
        lines.append(f"not counted: {len(cut)} game(s) cut by --max-decisions ({max_decisions}) before a result, "
                     "seeds " + ", ".join(str(g["seed"]) for g in cut[:5]))
    return lines


def _forfeits(rows: list[dict], shown: int = 5) -> list[str]:
    """The games a bot lost by its fault (they count), with what happened in the first few."""
    lost = [g for g in rows if g["reason"].startswith(FORFEIT)]
    if not lost:
        return []
    lines = [f"forfeits: {len(lost)} game(s) lost by a bot's fault (counted):"]
    lines += [f"    game {g['index']}: {g['note'] or g['reason']}" for g in lost[:shown]]
    if len(lost) > shown:
        lines.append(f"    ... and {len(lost) - shown} more (the store's games.note)")
    return lines


SUMMARY_SCHEMA, SUMMARY_VERSION = "ktenv.standings", 2


def summary(cfg: TournamentConfig, report: dict) -> dict:
    """The standings as data (`--summary-json`; its format is in docs/formats.md): the settings that
    identify the tournament, one row per agent, the head-to-head table, the ends and the speed."""
    from .. import __version__
    from ..registry import config_to_dict

    files = report.get("agent_files", {})
    rows = report["games"]
    order = [st.agent for st in report["standings"]]
    ends: dict[str, int] = {}
    for g in rows:
        ends[g["reason"]] = ends.get(g["reason"], 0) + 1
    settings = {"game": cfg.spec.name, "agents": cfg.specs, "players": cfg.players, "games": cfg.games,
                "seed": cfg.seed, "max_rounds": cfg.max_rounds, "engine": cfg.engine,
                "max_decisions": cfg.max_decisions, "game_config": config_to_dict(cfg.game_config())}
    return {"schema": SUMMARY_SCHEMA, "version": SUMMARY_VERSION, "ktenv": __version__, "settings": settings,
            "games_stored": len(rows), "db": report["db"],
            "standings": [{**s.to_dict(), **({"file_sha256": files[s.agent]} if s.agent in files else {})}
                          for s in report["standings"]],
            "head_to_head": {"agents": order, "ahead": [[None if v is None else round(v, 4) for v in row]
                                                        for row in head_to_head(rows, order)]},
            "ends": ends}


def write_summary_json(path: str, cfg: TournamentConfig, report: dict) -> None:
    """`summary` as a JSON file, written whole or not at all."""
    write_text_atomically(path, json.dumps(summary(cfg, report), indent=2) + "\n")


__all__ = ["ConfigError", "Store", "TournamentConfig", "TournamentError", "open_store", "report_text",
           "run_tournament", "schedule", "summary", "tables", "write_summary_json"]

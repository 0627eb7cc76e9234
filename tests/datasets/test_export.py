"""`ktenv dataset`: tournaments and records into Parquet tables that pandas, polars and DuckDB read; counts
that agree, the actor's observation, bad records refused with nothing half-written, and resuming."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest

from ktenv import registry
from ktenv.arena import TournamentConfig, run_tournament
from ktenv.arena.records import GameRecord, RecordError, replay
from ktenv.cli import main
from ktenv.datasets import export as export_module
from ktenv.datasets.export import export_dataset
from ktenv.datasets.schema import DECISIONS, EVENTS, GAMES, OBSERVATION, ROUNDS, SCHEMA_VERSION, SEATS, TABLES

GAMES_ = registry.names()
ROOT = Path(__file__).resolve().parents[2]


def _tournament(folder: Path, game: str, records: bool = True) -> Path:
    agents = ["expert", "greedy"] if game == registry.default().name else ["greedy", "random"]
    cfg = TournamentConfig(agents=agents, players=2, games=3, max_rounds=4, seed=5, workers=1,
                           db=str(folder / "t.sqlite"), records=str(folder / "records") if records else None,
                           fresh=True, progress=False, game_name=game)
    run_tournament(cfg)
    return folder / "t.sqlite"


@pytest.fixture(scope="module", params=GAMES_)
def played(request, tmp_path_factory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp(request.param)
    return request.param, _tournament(folder, request.param)


@pytest.fixture(scope="module")
def exported(played, tmp_path_factory) -> tuple[str, Path, Path]:
    game, store = played
    out = tmp_path_factory.mktemp("out") / "data"
    export_dataset(store, out, observations=True)
    return game, store, out


def test_the_tables_read_back_in_pandas_polars_and_duckdb_with_counts_that_agree(exported):
    game, _, out = exported
    frames = {t: pd.read_parquet(out / t) for t in TABLES}
    games, seats, decisions = frames["games"], frames["seats"], frames["decisions"]
    assert len(games) == 3 and set(games.game_name) == {game}
    assert len(decisions) == games.decisions.sum()
    assert len(seats) == (games.players).sum() == 6
    assert seats.won.sum() >= 3 and set(seats.agent) == set(decisions.agent)
    rounds = frames["rounds"]
    assert len(rounds) == 2 * decisions.groupby("game")["round"].nunique().sum()
    assert pl.read_parquet(out / "decisions" / "*.parquet").height == len(decisions)
    counted = duckdb.sql(f"SELECT count(*) FROM read_parquet('{out}/decisions/*.parquet')").fetchall()[0][0]
    assert counted == len(decisions)
    per_game = duckdb.sql(f"""SELECT g.game, g.decisions, count(*) AS rows
                              FROM read_parquet('{out}/games/*.parquet') g
                              JOIN read_parquet('{out}/decisions/*.parquet') d USING (game)
                              GROUP BY ALL""").df()
    assert (per_game.decisions == per_game.rows).all()
    assert len(frames["events"]) > 0 and frames["events"].decision.max() < games.decisions.max()
    meta = pq.read_schema(next((out / "decisions").glob("*.parquet"))).metadata
    assert meta[b"ktenv.dataset.schema_version"] == str(SCHEMA_VERSION).encode()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["games"] == 3


def test_each_decision_carries_the_actors_observation_and_the_engines_english(exported):
    game, store, out = exported
    spec = registry.game(game)
    decisions = pd.read_parquet(out / "decisions").sort_values(["game", "index"])
    rec = GameRecord.load(store.parent / "records" / "game_000000.json")
    rows = decisions[decisions.game == 0].reset_index(drop=True)
    reader = spec.dataset(rec.config)
    seen = []

    def check(s, k, action):
        row = rows.iloc[k]
        assert row.actor == s.actor and row.action == action
        assert row.text == spec.engine.describe_action(s, action)
        if k % 7 == 0:
            np.testing.assert_array_equal(np.asarray(row.observation, np.float32), reader.observe(s, s.actor))
            np.testing.assert_array_equal(np.asarray(row["mask"]), spec.engine.legal_mask(s).astype(bool))
            seen.append(k)

    replay(rec, on_move=check)
    assert len(seen) > 3


def test_a_store_without_records_gives_games_and_seats_and_says_so(tmp_path, capsys):
    store = _tournament(tmp_path, registry.default().name, records=False)
    assert main(["dataset", str(store), "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "3 of the 3 stored games have no record" in said
    assert len(pd.read_parquet(tmp_path / "out" / "seats")) == 6
    assert pd.read_parquet(tmp_path / "out" / "seats").income.notna().all()
    assert len(pd.read_parquet(tmp_path / "out" / "decisions")) == 0


def test_a_records_folder_is_a_source_too(played, tmp_path):
    game, store = played
    export_dataset(store.parent / "records", tmp_path / "out")
    assert sorted(pd.read_parquet(tmp_path / "out" / "games").game) == [0, 1, 2]


def test_a_tampered_record_is_an_error_naming_it_and_leaves_no_output(played, tmp_path):
    _, store = played
    records = tmp_path / "records"
    records.mkdir()
    for path in (store.parent / "records").glob("*.json"):
        data = json.loads(path.read_text())
        if path.name == "game_000001.json":
            data["seed"] += 1
        (records / path.name).write_text(json.dumps(data))
    with pytest.raises(RecordError, match="game_000001.json"):
        export_dataset(records, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    (records / "game_000002.json").write_text("{not json")
    assert main(["dataset", str(records), "--out", str(tmp_path / "out"), "--no-progress"]) == 2


def test_an_interrupted_export_resumes_and_gives_the_same_tables(played, tmp_path, monkeypatch):
    _, store = played
    whole = tmp_path / "whole"
    export_dataset(store, whole, shard_games=1)
    real, calls = export_module._one_game, []

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(export_module, "_one_game", flaky)
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        export_dataset(store, out, shard_games=1)
    manifest = json.loads((out / "manifest.json").read_text())
    assert not manifest["complete"] and len(manifest["shards"]) == 2
    assert not [p for p in out.rglob("*") if p.name.startswith(".")], "a temporary file was left"
    monkeypatch.setattr(export_module, "_one_game", real)
    summary = export_dataset(store, out, shard_games=1)
    assert summary.added == 1 and summary.games == 3
    for table in TABLES:
        a, b = pd.read_parquet(whole / table), pd.read_parquet(out / table)
        keys = [c for c in ("game", "index", "decision", "round", "player", "seat", "kind") if c in a]
        a, b = (x.sort_values(keys).reset_index(drop=True) for x in (a, b))
        pd.testing.assert_frame_equal(a.astype(str), b.astype(str))


def test_another_source_into_the_same_folder_needs_fresh(played, tmp_path):
    _, store = played
    export_dataset(store, tmp_path / "out")
    with pytest.raises(ValueError, match="--fresh"):
        export_dataset(store.parent / "records", tmp_path / "out")
    export_dataset(store.parent / "records", tmp_path / "out", fresh=True)


def _documented(section: str) -> list[str]:
    """The column names of the table under the docs' heading `section`."""
    text = (ROOT / "docs" / "datasets.md").read_text()
    part = text.split(f"### `{section}`", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", part, re.M)


def test_the_schema_doc_matches_the_code():
    for section, columns in (("games", GAMES), ("seats", SEATS), ("rounds", ROUNDS),
                             ("decisions", DECISIONS + OBSERVATION), ("events", EVENTS)):
        assert _documented(section) == [name for name, _ in columns], section
    for name in GAMES_:
        spec = registry.game(name)
        figures = spec.dataset(spec.make_config({}, spec.default_players, None)).figures
        assert _documented(f"figures: {name}") == list(figures), name


def test_a_shard_closes_at_its_row_limit_with_whole_games(played, tmp_path, monkeypatch):
    _, store = played
    monkeypatch.setattr(export_module, "SHARD_ROWS", 1)
    export_dataset(store, tmp_path / "out")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert [s["games"] for s in manifest["shards"]] == [[0], [1], [2]]
    assert len(list((tmp_path / "out" / "decisions").glob("part-*.parquet"))) == 3


def test_the_events_agree_with_the_engines_own_counters(exported):
    game, store, out = exported
    if game != "kings_and_things":
        pytest.skip("the engine's event counters are Kings & Things'")
    events = pd.read_parquet(out / "events")
    for path in sorted((store.parent / "records").glob("*.json")):
        rec = GameRecord.load(path)
        stats = replay(rec).state.stats
        mine = events[events.game == int(path.stem.split("_")[1])]
        kinds = mine.kind.value_counts()
        for kind, counter in (("battle", "battles"), ("exploration", "explorations"),
                              ("hero_recruited", "heroes_recruited"), ("conquest", "hexes_conquered"),
                              ("construction", "forts_built")):
            assert kinds.get(kind, 0) == stats[counter], (path.name, kind)
        assert mine[mine.kind == "bribe"].amount.sum() == stats["bribes"]
        assert mine[mine.kind == "battle"].place.notna().mean() > 0.5


def test_a_tournament_writes_its_dataset_with_dataset_dir(tmp_path, capsys):
    common = ["tournament", "--agents", "expert,greedy", "--players", "2", "--games", "2", "--max-rounds", "4",
              "--workers", "1", "--db", str(tmp_path / "t.sqlite"), "--no-progress", "--fresh"]
    assert main([*common, "--dataset", str(tmp_path / "data")]) == 2
    assert "--dataset needs --records" in capsys.readouterr().err
    assert main([*common, "--records", str(tmp_path / "records"), "--dataset", str(tmp_path / "data")]) == 0
    games = pd.read_parquet(tmp_path / "data" / "games")
    assert len(games) == 2 and len(pd.read_parquet(tmp_path / "data" / "decisions")) == games.decisions.sum()


def test_a_store_played_afresh_with_other_settings_is_another_source(tmp_path):
    store = _tournament(tmp_path, registry.default().name)
    export_dataset(store, tmp_path / "out")
    run_tournament(TournamentConfig(agents=["greedy", "random"], players=2, games=2, max_rounds=4, seed=6,
                                    workers=1, db=str(store), records=str(tmp_path / "records"), fresh=True,
                                    progress=False))
    with pytest.raises(ValueError, match="--fresh"):
        export_dataset(store, tmp_path / "out")

"""`ktenv tournament --dataset DIR`: the tables written while the games are played, shard by shard, equal to
what `ktenv dataset` makes of the same store afterwards; a Ctrl-C keeps every finished game, and the resumed
tournament completes the dataset."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ktenv.arena import TournamentConfig, run_tournament
from ktenv.cli import main
from ktenv.datasets import live
from ktenv.datasets.export import export_dataset
from ktenv.datasets.schema import TABLES
from ktenv.errors import ConfigError

KEYS = {"games": ["game"], "seats": ["game", "seat"], "rounds": ["game", "round", "player"],
        "decisions": ["game", "index"], "events": ["game", "decision", "kind", "player", "place", "amount"]}


def _cfg(folder: Path, **kw) -> TournamentConfig:
    base = dict(agents=["expert", "greedy"], players=2, games=4, max_rounds=4, seed=3, workers=2,
                db=str(folder / "t.sqlite"), records=str(folder / "records"), dataset=str(folder / "live"),
                progress=False)
    return TournamentConfig(**{**base, **kw})


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    frames = {}
    for t in TABLES:
        frame = pd.read_parquet(out / t)
        keys = [k for k in KEYS[t] if k in frame.columns]
        frames[t] = frame.sort_values(keys, kind="stable").reset_index(drop=True)
    return frames


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def test_the_live_tables_are_those_of_an_export_after_the_games(tmp_path, monkeypatch):
    monkeypatch.setattr(live, "LIVE_SHARD_GAMES", 1)
    shards_seen = []

    def on_game(index: int, result: dict) -> None:  # after a game, the shards written so far are readable
        shards_seen.append(len(_manifest(tmp_path / "live")["shards"]) if (tmp_path / "live").exists() else 0)

    cfg = _cfg(tmp_path)
    report = run_tournament(cfg, on_game=on_game)
    assert report["dataset_games"] == 4
    assert shards_seen[-1] >= 3 and shards_seen == sorted(shards_seen)  # written while playing, not at the end
    manifest = _manifest(tmp_path / "live")
    assert manifest["complete"] and len(manifest["shards"]) == 4
    export_dataset(cfg.db_path, tmp_path / "after", records=cfg.records)
    now, after = _tables(tmp_path / "live"), _tables(tmp_path / "after")
    for t in TABLES:
        pd.testing.assert_frame_equal(now[t], after[t], obj=t)
    assert len(now["decisions"]) == now["games"].decisions.sum() > 0


def test_ctrl_c_keeps_every_finished_game_and_resume_completes_the_dataset(tmp_path):
    played = []

    def stop_after_two(index: int, result: dict) -> None:
        played.append(index)
        if len(played) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(_cfg(tmp_path, workers=1), on_game=stop_after_two)
    manifest = _manifest(tmp_path / "live")
    assert not manifest["complete"]
    assert sorted(g for s in manifest["shards"] for g in s["games"]) == sorted(played)
    assert not [p for p in (tmp_path / "live").rglob("*") if p.name.startswith(".")]  # no temporary file

    report = run_tournament(_cfg(tmp_path, workers=1, resume=True))
    assert report["played"] == 2 and report["dataset_games"] == 4
    assert _manifest(tmp_path / "live")["complete"]
    export_dataset(tmp_path / "t.sqlite", tmp_path / "after", records=tmp_path / "records")
    now, after = _tables(tmp_path / "live"), _tables(tmp_path / "after")
    for t in TABLES:
        pd.testing.assert_frame_equal(now[t], after[t], obj=t)


def test_games_stored_before_the_dataset_was_asked_for_are_added_at_the_end(tmp_path):
    run_tournament(_cfg(tmp_path, games=2, dataset=None))
    report = run_tournament(_cfg(tmp_path, games=3, resume=True))
    assert report["played"] == 1 and report["dataset_games"] == 3
    assert sorted(_tables(tmp_path / "live")["games"].game) == [0, 1, 2]


def test_a_dataset_needs_records_and_a_folder_of_another_source_is_refused_before_any_game(tmp_path, capsys):
    with pytest.raises(ConfigError, match="needs 'records'"):
        _cfg(tmp_path, records=None)
    run_tournament(_cfg(tmp_path, games=1))
    args = ["tournament", "--agents", "greedy,random", "--players", "2", "--games", "1", "--max-rounds", "3",
            "--workers", "1", "--db", str(tmp_path / "other.sqlite"), "--records", str(tmp_path / "r2"),
            "--dataset", str(tmp_path / "live"), "--no-progress"]
    assert main(args) == 2
    assert "another source" in capsys.readouterr().err
    assert not (tmp_path / "other.sqlite").exists() or _stored(tmp_path / "other.sqlite") == 0
    assert len(_tables(tmp_path / "live")["games"]) == 1  # the first dataset is untouched


def _stored(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as c:
        try:
            return c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:
            return 0

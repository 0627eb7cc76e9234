"""A tournament's dataset written while it plays (``ktenv tournament --dataset DIR``).

The process that played a game (a worker process or a Ray task) replays its record into the game's rows
(`record_rows`), so the export scales with the workers; the driver adds them to the open shard and writes a
shard every `shard_games` games. When the tournament stops (its end, an error,
Ctrl-C) the open shard is written too, so every stored game is in the dataset or is added by the next run;
at the end, stored games the dataset lacks (played before ``--dataset`` was given) are added and the dataset
is marked complete. The tables are exactly those `ktenv dataset STORE` makes from the same store.
"""

from __future__ import annotations

from pathlib import Path

from ..arena.records import GameRecord
from .export import Exporter, Item, Summary, open_source

LIVE_SHARD_GAMES = 100  # a shard every 100 games: a long tournament's tables can be read while it plays


class LiveDataset:
    """The dataset of one tournament store, fed game by game."""

    def __init__(self, store: str | Path, out: str | Path, records: str | Path, *, fresh: bool = False,
                 shard_games: int | None = None) -> None:
        self.store, self.records = Path(store), Path(records)
        self.exporter = Exporter(self.store, out, records=self.records, fresh=fresh,
                                 shard_games=shard_games or LIVE_SHARD_GAMES)
        self.broken = False  # a game's rows were cut short (an error, Ctrl-C): the open shard is dropped

    def add(self, index: int, record: GameRecord, rows: tuple[dict, int] | None = None) -> None:
        """One finished game (its record file already written), with its rows when the worker made them."""
        if rows is None:
            self._add(Item(index, self.records / f"game_{index:06d}.json"), record)
            return
        try:
            self.exporter.add_rows(index, *rows)
        except BaseException:
            self.broken = True
            self.exporter.abandon()
            raise

    def close(self) -> None:
        """Write the open shard, unless a game's rows in it were cut short."""
        if not self.broken:
            self.exporter.flush()

    def finish(self) -> Summary:
        """Add the stored games the dataset lacks, then mark it complete."""
        for item in open_source(self.store, self.records).items:
            self._add(item)
        return self.exporter.finish()

    def _add(self, item: Item, record: GameRecord | None = None) -> None:
        try:
            self.exporter.add(item, record)
        except BaseException:
            self.broken = True
            self.exporter.abandon()
            raise

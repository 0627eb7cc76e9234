"""Shards and the manifest: every file whole or absent, and an export that resumes where it stopped.

A shard is one part file per table (``DIR/<table>/part-00003.parquet``) for one batch of games. Each file
is written under a temporary name and renamed; the manifest (``DIR/manifest.json``, itself written and
renamed) lists the shards that are whole, so a part file it does not list (a crash between two renames)
is removed on resume. The manifest says ``"complete": true`` once the last shard is in.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..files import write_text_atomically
from .schema import SCHEMA_VERSION, TABLES

MANIFEST = "manifest.json"
SCHEMA_NAME = "ktenv.dataset"


class DatasetError(ValueError):
    """A dataset folder that cannot be written or continued."""


def _atomic_text(path: Path, text: str) -> None:
    write_text_atomically(path, text)


def _array(values: list, kind: pa.DataType) -> pa.Array:
    """A column; rows of numpy vectors (observations, masks) go in as one block, which is many times faster."""
    if values and isinstance(values[0], np.ndarray):
        flat = np.concatenate(values)
        offsets = np.cumsum([0, *map(len, values)], dtype=np.int32)
        return pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat).cast(kind.value_type))
    return pa.array(values, kind)


class ShardWriter:
    """Writes the shards of one dataset folder and keeps its manifest."""

    def __init__(self, out: Path, schemas: dict[str, pa.Schema], identity: dict, fresh: bool = False) -> None:
        self.out, self.schemas, self.identity = out, schemas, identity
        self.made_folder = not out.exists()
        self.manifest = self._start(fresh)

    def _start(self, fresh: bool) -> dict:
        path = self.out / MANIFEST
        if path.is_file() and not fresh:
            manifest = json.loads(path.read_text())
            if manifest.get("schema_version") != SCHEMA_VERSION or manifest.get("identity") != self.identity:
                raise DatasetError(f"{self.out} holds a dataset of another source or schema; give --fresh to "
                                   "replace it, or another --out")
            self.clean(manifest)
            return manifest
        if fresh:
            self._remove_tables()
        elif self.out.exists() and any(self.out.iterdir()):
            raise DatasetError(f"{self.out} is not empty and holds no dataset manifest; choose another --out")
        return {"schema": SCHEMA_NAME, "schema_version": SCHEMA_VERSION, "identity": self.identity,
                "tables": {name: schema.names for name, schema in self.schemas.items()},
                "shards": [], "complete": False}

    def _remove_tables(self) -> None:
        for name in TABLES:
            for part in (self.out / name).glob("*.parquet*"):
                part.unlink()
        (self.out / MANIFEST).unlink(missing_ok=True)

    def clean(self, manifest: dict | None = None) -> None:
        """Remove temporary files and parts no manifest lists (left by a crash or Ctrl-C)."""
        listed = {s["file"] for s in (manifest or self.manifest)["shards"]}
        for name in TABLES:
            folder = self.out / name
            if folder.is_dir():
                for part in folder.iterdir():
                    if part.name.startswith(".") or part.name not in listed:
                        part.unlink()

    @property
    def done(self) -> set[int]:
        """The ids of the games already in whole shards."""
        return {g for shard in self.manifest["shards"] for g in shard["games"]}

    def write(self, games: list[int], columns: dict[str, dict[str, list]], metadata: dict[str, str]) -> None:
        """One shard of every table, then the manifest that lists it."""
        name = f"part-{len(self.manifest['shards']):05d}.parquet"
        meta = {f"ktenv.dataset.{k}": v for k, v in {**metadata, "schema_version": str(SCHEMA_VERSION)}.items()}
        temps = []
        for table, schema in self.schemas.items():
            folder = self.out / table
            folder.mkdir(parents=True, exist_ok=True)
            arrays = [_array(columns[table][f.name], f.type) for f in schema]
            data = pa.Table.from_arrays(arrays, schema=schema.with_metadata({**meta, "ktenv.dataset.table": table}))
            tmp = folder / f".{name}.tmp"
            pq.write_table(data, tmp, compression="zstd")
            temps.append(tmp)
        for tmp in temps:
            os.replace(tmp, tmp.with_name(name))
        rows = {table: len(next(iter(columns[table].values()), [])) for table in self.schemas}
        self.manifest["shards"].append({"file": name, "games": games, "rows": rows})
        self.manifest["complete"] = False  # until `finish`: more games may be on their way
        _atomic_text(self.out / MANIFEST, json.dumps(self.manifest, indent=1))

    def finish(self, extra: dict) -> dict:
        self.out.mkdir(parents=True, exist_ok=True)
        self.manifest.update(extra, complete=True)
        _atomic_text(self.out / MANIFEST, json.dumps(self.manifest, indent=1))
        return self.manifest

    def abandon(self) -> None:
        """After an error: no temporary file stays, and a folder this run made with nothing whole in it goes."""
        self.clean()
        if self.made_folder and not self.manifest["shards"]:
            for name in TABLES:
                folder = self.out / name
                if folder.is_dir() and not any(folder.iterdir()):
                    folder.rmdir()
            (self.out / MANIFEST).unlink(missing_ok=True)
            if self.out.is_dir() and not any(self.out.iterdir()):
                self.out.rmdir()

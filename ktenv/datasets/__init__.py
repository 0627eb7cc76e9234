"""Game datasets: tournaments and game records as versioned Parquet tables (games, seats, rounds, decisions,
events) for pandas, polars and DuckDB (docs/datasets.md).

`export_dataset(source, out)` replays and verifies every record; each game's own part (the registry's
``dataset`` part, a `ktenv.datasets.game.GameReader`) says what its states mean. pyarrow is needed (the
``data`` extra) only when something is exported.
"""

from __future__ import annotations

from typing import Any


def export_dataset(*args: Any, **kwargs: Any) -> Any:
    """`ktenv.datasets.export.export_dataset` (imported on use: it loads pyarrow)."""
    from .export import export_dataset as run

    return run(*args, **kwargs)


__all__ = ["export_dataset"]

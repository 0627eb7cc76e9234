"""The observation's fixed layout: named sections, each a table of rows x named columns.

The observation is one flat float32 vector. Each section is a table stored column by column
("feature planes"): column ``j`` of a section with ``R`` rows occupies
``[start + j * R, start + (j + 1) * R)``. Storing columns contiguously makes the encoder's writes
contiguous slices, and a new column (Engine III: more registers, more per-counter facts) is simply
appended to its section without moving the others' meaning.

`ObservationLayout` is a read-only mapping ``section name -> slice`` with helpers to read a
section as a (rows, columns) table and one column as a vector (docs/observation.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Column:
    name: str
    low: float
    high: float
    doc: str = ""
    group: str = ""  # columns of one family (one-hot over phases, one per relative seat, ...) share it


@dataclass(frozen=True)
class Section:
    name: str
    rows: int
    row_doc: str
    columns: tuple[Column, ...]
    start: int

    @property
    def n_columns(self) -> int:
        return len(self.columns)

    @property
    def size(self) -> int:
        return self.rows * len(self.columns)

    @property
    def stop(self) -> int:
        return self.start + self.size

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)

    def index(self, column: str) -> int:
        """Position of `column` among this section's columns."""
        for j, c in enumerate(self.columns):
            if c.name == column:
                return j
        raise KeyError(f"section {self.name!r} has no column {column!r}")

    def offset(self, column: str) -> int:
        """Flat index of row 0 of `column`."""
        return self.start + self.index(column) * self.rows


class ObservationLayout(Mapping):
    """Mapping ``section name -> slice`` of the flat observation, plus table helpers."""

    def __init__(self, sections: list[tuple[str, int, str, list[Column]]]) -> None:
        self.sections: dict[str, Section] = {}
        start = 0
        for name, rows, row_doc, columns in sections:
            names = [c.name for c in columns]
            if len(set(names)) != len(names):
                raise ValueError(f"section {name!r} repeats a column name")
            sec = Section(name, rows, row_doc, tuple(columns), start)
            self.sections[name] = sec
            start = sec.stop
        self.size = start
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for sec in self.sections.values():
            for j, c in enumerate(sec.columns):
                a = sec.start + j * sec.rows
                low[a:a + sec.rows] = c.low
                high[a:a + sec.rows] = c.high
        low.flags.writeable = False
        high.flags.writeable = False
        self.low, self.high = low, high

    # Mapping interface: name -> slice
    def __getitem__(self, name: str) -> slice:
        return self.sections[name].slice

    def __iter__(self) -> Iterator[str]:
        return iter(self.sections)

    def __len__(self) -> int:
        return len(self.sections)

    def section(self, name: str) -> Section:
        return self.sections[name]

    def table(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Section `name` of `obs` as a (rows, columns) view."""
        sec = self.sections[name]
        return obs[sec.slice].reshape(sec.n_columns, sec.rows).T

    def column(self, obs: np.ndarray, name: str, column: str) -> np.ndarray:
        """One column of a section (a vector over its rows; a view)."""
        sec = self.sections[name]
        a = sec.offset(column)
        return obs[a:a + sec.rows]

    def value(self, obs: np.ndarray, name: str, column: str, row: int = 0) -> float:
        return float(self.column(obs, name, column)[row])

    def names(self) -> list[str]:
        """Every feature as "section.column[row]" (for debugging and feature attribution)."""
        out = [""] * self.size
        for sec in self.sections.values():
            for j, c in enumerate(sec.columns):
                for r in range(sec.rows):
                    out[sec.start + j * sec.rows + r] = f"{sec.name}.{c.name}[{r}]"
        return out

    def markdown(self) -> str:
        """The layout as Markdown tables, one row per column or per family of columns
        (docs/observation.md is generated from this; sizes and offsets are left out on purpose:
        they follow the config and the engine's list of decisions)."""
        lines = []
        for sec in self.sections.values():
            lines.append(f"### `{sec.name}`: one row per {sec.row_doc}")
            lines.append("")
            lines.append("| column | range | meaning |")
            lines.append("|---|---|---|")
            done: set[str] = set()
            for c in sec.columns:
                if c.group:
                    if c.group in done:
                        continue
                    done.add(c.group)
                    lines.append(f"| `{c.group}` | {_num(c.low)}..{_num(c.high)} | {c.doc} |")
                else:
                    lines.append(f"| `{c.name}` | {_num(c.low)}..{_num(c.high)} | {c.doc} |")
            lines.append("")
        return "\n".join(lines)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)

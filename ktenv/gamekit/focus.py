"""A focus: extra inputs of a policy network gathered from the observation around a place it names.

A game that offers one (the registry's optional part `network_focus`) gives a `FocusTable`: `anchor` lists
observation entries; the first of them that is nonzero picks its row of `gather`, and the focus is that row
read from the observation (entry i of the row: `obs[i]`, or 1.0 for `ONE`, 0.0 for `OFF`). No anchor set:
all zeros. The network reads ``concat(obs, focus)``; the table travels in the model file (``ktenv.json``),
so playing a model needs no game code. The same function runs in torch (training), numpy (the arena's
agents) and C++ (native policy seats), and they agree to float rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

OFF = -1  # a gathered position outside the board (or other hole): 0.0
ONE = -2  # a constant 1.0 (the position exists)


@dataclass(frozen=True)
class FocusTable:
    anchor: tuple[int, ...]  # observation entries; the first nonzero one picks its row of `gather`
    gather: tuple[tuple[int, ...], ...]  # a row per anchor entry: observation entries, OFF or ONE

    @property
    def size(self) -> int:
        """How many inputs the focus adds to the network."""
        return len(self.gather[0]) if self.gather else 0

    def to_json(self) -> dict:
        return {"anchor": list(self.anchor), "gather": [list(row) for row in self.gather]}

    @classmethod
    def from_json(cls, data, observation_size: int) -> FocusTable:
        """The table of a model file, checked against the observation size (ValueError naming the fault)."""
        if not isinstance(data, dict) or set(data) != {"anchor", "gather"}:
            raise ValueError("focus: expected {'anchor': [...], 'gather': [[...], ...]}")
        anchor, gather = data["anchor"], data["gather"]
        if not (isinstance(anchor, list) and isinstance(gather, list) and len(anchor) == len(gather) and anchor):
            raise ValueError("focus: anchor and gather must be lists of the same nonzero length")
        width = len(gather[0]) if isinstance(gather[0], list) else -1
        for row in gather:
            if not isinstance(row, list) or len(row) != width or width < 1:
                raise ValueError("focus: every gather row must be a list of the same nonzero length")
            if any(type(i) is not int or not ONE <= i < observation_size for i in row):
                raise ValueError(f"focus: gather entries must be observation indices below {observation_size}, "
                                 f"{OFF} or {ONE}")
        if any(type(i) is not int or not 0 <= i < observation_size for i in anchor):
            raise ValueError(f"focus: anchor entries must be observation indices below {observation_size}")
        return cls(anchor=tuple(anchor), gather=tuple(tuple(row) for row in gather))

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(anchor int64[A], gather int64[A, K]), read-only: made once per table (an agent applies it every move)."""
        return self._arrays

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        anchor = np.asarray(self.anchor, np.int64)
        gather = np.asarray(self.gather, np.int64).reshape(len(self.anchor), -1)
        anchor.flags.writeable = gather.flags.writeable = False
        return anchor, gather

    def apply(self, observations: np.ndarray) -> np.ndarray:
        """``concat(obs, focus)`` of observations float32 [rows, observation_size]."""
        x = np.asarray(observations, np.float32)
        x = x.reshape(-1, x.shape[-1])
        anchor, gather = self.arrays()
        hit = x[:, anchor] != 0
        rows = gather[hit.argmax(axis=1)]  # [rows, K]: the first anchor set (row 0 where none: zeroed below)
        vals = np.take_along_axis(x, np.maximum(rows, 0), axis=1)
        vals = np.where(rows >= 0, vals, np.where(rows == ONE, np.float32(1), np.float32(0)))
        vals *= hit.any(axis=1, keepdims=True)
        return np.concatenate([x, vals.astype(np.float32)], axis=1)

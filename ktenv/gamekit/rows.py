"""Row scores: actions that name a row of an observation table get a score from that row.

Many actions pick one of a table's rows: a place on the board, a piece. A flat network reads each row by its
position, so a rule such as "build where the fort is highest" must be learned for every row separately. Row
scores learn it once: for a block of actions whose action k names row k of a table, a small network shared by
the rows embeds each row, ``e_k = ReLU(W_e x_k + b_e)`` (x_k the row's symlog'd columns), the policy's latent
gives a context ``c = W_c h + b_c``, and action k's logit gets ``e_k . c`` added. The context depends on the
decision under way (the latent does), so one embedding serves every use of the block.

A game that offers them (the registry's optional part `network_rows`) gives a `RowTable`: per block, its first
action, the first observation entry of its table, the table's rows (one per action) and columns (stored column
by column: ``start + column * rows + row``, `ktenv.gamekit.layout`). The table travels in the model file
(``ktenv.json``); the weights (``row_embed.B``, ``row_context.B``) are the network's. The same function runs in
torch (training), numpy (the arena's agents) and C++ (native policy seats), agreeing to float rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

WIDTH = 32  # the rows' embedding width


@dataclass(frozen=True)
class RowBlock:
    action: int  # the block's first action: action + k names row k
    start: int  # the table's first observation entry
    rows: int
    columns: int

    def indices(self) -> np.ndarray:
        """[rows, columns] observation entries of each row (the table is stored column by column)."""
        return self.start + np.arange(self.columns)[None, :] * self.rows + np.arange(self.rows)[:, None]


@dataclass(frozen=True)
class RowTable:
    blocks: tuple[RowBlock, ...]
    width: int = WIDTH

    def to_json(self) -> dict:
        return {"width": self.width, "blocks": [[b.action, b.start, b.rows, b.columns] for b in self.blocks]}

    @classmethod
    def from_json(cls, data, observation_size: int, action_size: int) -> RowTable:
        """The table of a model file, checked against the network's sizes (ValueError naming the fault)."""
        if not isinstance(data, dict) or set(data) != {"width", "blocks"}:
            raise ValueError("rows: expected the keys ['blocks', 'width']")
        width, blocks = data["width"], data["blocks"]
        if type(width) is not int or not 1 <= width <= 1024:
            raise ValueError("rows: width must be a count of units in 1..1024")
        if not isinstance(blocks, list) or not blocks:
            raise ValueError("rows: blocks must be a nonempty list of [action, start, rows, columns]")
        out = []
        for b in blocks:
            if not isinstance(b, list) or len(b) != 4 or any(type(v) is not int or v < 0 for v in b):
                raise ValueError("rows: every block is [action, start, rows, columns] of whole numbers >= 0")
            block = RowBlock(*b)
            if block.rows < 1 or block.columns < 1 or block.action + block.rows > action_size:
                raise ValueError(f"rows: block {b} names actions beyond the {action_size} of the network")
            if block.start + block.rows * block.columns > observation_size:
                raise ValueError(f"rows: block {b} reads beyond the {observation_size} observation entries")
            out.append(block)
        spans = sorted((b.action, b.action + b.rows) for b in out)
        if any(end > start for (_, end), (start, _) in zip(spans, spans[1:])):
            raise ValueError("rows: two blocks name the same action")
        return cls(tuple(out), width)

    @cached_property
    def _indices(self) -> tuple[np.ndarray, ...]:
        return tuple(b.indices() for b in self.blocks)  # made once: an agent applies the table every move

    def apply(self, observations: np.ndarray, latent: np.ndarray, logits: np.ndarray,
              weights: list[tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]]) -> np.ndarray:
        """`logits` [n, actions] with each block's row scores added, from raw observations [n, size], the policy's
        latent [n, hidden] and per block ((W_e [columns, width], b_e), (W_c [hidden, width], b_c))."""
        out = np.array(logits, np.float32, copy=True)
        x = np.asarray(observations, np.float32).reshape(len(out), -1)
        for block, index, ((we, be), (wc, bc)) in zip(self.blocks, self._indices, weights):
            rows = x[:, index]
            rows = np.copysign(np.log1p(np.abs(rows)), rows)  # symlog, as the first layer reads the observation
            embedded = np.maximum(rows @ we + be, 0)  # [n, rows, width]
            context = latent @ wc + bc  # [n, width]
            out[:, block.action:block.action + block.rows] += np.einsum("nrw,nw->nr", embedded, context)
        return out

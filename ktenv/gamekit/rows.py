"""Row scores: actions that name a row of an observation table get a score from that row.

Many actions pick one of a table's rows: a place on the board, a piece. A flat network reads each row by its
position, so a rule such as "build where the fort is highest" must be learned for every row separately. Row
scores learn it once: for a block of actions whose action k names row k of a table, a small network shared by
the rows embeds each row, ``e_k = ReLU(W_e x_k + b_e)`` (x_k the row's symlog'd columns), the policy's latent
gives a context ``c = W_c h + b_c``, and action k's logit gets ``e_k . c`` added. The context depends on the
decision under way (the latent does), so one embedding serves every use of the block.

Steps name a row by where they lead: a step block's action k leads, from the row an anchor picks (the first of
its observation entries that is nonzero: where the piece is), to ``rows[anchor][k][s]`` after s + 1 steps (-1:
off the table). Each step s has a context of its own, ``c_s``, and action k's logit gets the sum over s of
``e_(rows[anchor][k][s]) . c_s``, the embeddings those of the block's table. No anchor set: nothing is added.

A game that offers them (the registry's optional part `network_rows`) gives a `RowTable`: per block, its first
action, the first observation entry of its table, the table's rows (one per action) and columns (stored column
by column: ``start + column * rows + row``, `ktenv.gamekit.layout`); and its step blocks. The table travels in
the model file (``ktenv.json``); the weights (``row_embed.B``, ``row_context.B``, ``row_step_context.S`` for
the steps of every step block in turn) are the network's. The same function runs in
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
class StepBlock:
    action: int  # the first step action: action + k is step k
    block: int  # the RowBlock whose table (and embedding) the steps lead to rows of
    anchor: tuple[int, ...]  # observation entries; the first nonzero one picks its row of `rows`
    rows: tuple[tuple[tuple[int, ...], ...], ...]  # [anchor][step action][s]: the row s + 1 steps on, or -1

    @property
    def actions(self) -> int:
        return len(self.rows[0])

    @property
    def steps(self) -> int:
        return len(self.rows[0][0])

    def to_json(self) -> dict:
        return {"action": self.action, "block": self.block, "anchor": list(self.anchor),
                "rows": [[list(k) for k in row] for row in self.rows]}

    @classmethod
    def from_json(cls, data, blocks: tuple[RowBlock, ...], observation_size: int, action_size: int) -> StepBlock:
        if not isinstance(data, dict) or set(data) != {"action", "block", "anchor", "rows"}:
            raise ValueError("rows: a step block has the keys ['action', 'anchor', 'block', 'rows']")
        action, block, anchor, rows = (data[k] for k in ("action", "block", "anchor", "rows"))
        if type(block) is not int or not 0 <= block < len(blocks):
            raise ValueError(f"rows: a step block's block must name one of the {len(blocks)} blocks")
        if (not isinstance(anchor, list) or not anchor
                or any(type(i) is not int or not 0 <= i < observation_size for i in anchor)):
            raise ValueError(f"rows: a step block's anchor must be observation indices below {observation_size}")
        if not isinstance(rows, list) or len(rows) != len(anchor) or not all(isinstance(r, list) and r for r in rows):
            raise ValueError("rows: a step block needs a nonempty row of steps per anchor entry")
        shape = (len(rows[0]), len(rows[0][0]) if isinstance(rows[0][0], list) else 0)
        bound = blocks[block].rows
        for row in rows:
            if len(row) != shape[0] or any(not isinstance(k, list) or len(k) != shape[1] or
                                           any(type(r) is not int or not -1 <= r < bound for r in k) for k in row):
                raise ValueError(f"rows: every step block row holds {shape[0]} lists of {shape[1]} rows "
                                 f"in -1..{bound - 1}")
        if shape[1] < 1 or type(action) is not int or not 0 <= action <= action_size - shape[0]:
            raise ValueError(f"rows: a step block's actions must lie among the network's {action_size}")
        return cls(action, block, tuple(anchor), tuple(tuple(tuple(k) for k in row) for row in rows))


@dataclass(frozen=True)
class RowTable:
    blocks: tuple[RowBlock, ...]
    width: int = WIDTH
    step_blocks: tuple[StepBlock, ...] = ()

    @property
    def step_contexts(self) -> int:
        """How many step contexts the network has: one per step of every step block."""
        return sum(b.steps for b in self.step_blocks)

    def to_json(self) -> dict:
        out = {"width": self.width, "blocks": [[b.action, b.start, b.rows, b.columns] for b in self.blocks]}
        if self.step_blocks:
            out["steps"] = [b.to_json() for b in self.step_blocks]
        return out

    @classmethod
    def from_json(cls, data, observation_size: int, action_size: int) -> RowTable:
        """The table of a model file, checked against the network's sizes (ValueError naming the fault)."""
        if not isinstance(data, dict) or not {"width", "blocks"} <= set(data) <= {"width", "blocks", "steps"}:
            raise ValueError("rows: expected the keys ['blocks', 'width'] and optionally 'steps'")
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
        blocks = tuple(out)
        steps = data.get("steps", [])
        if not isinstance(steps, list):
            raise ValueError("rows: steps must be a list of step blocks")
        step_blocks = tuple(StepBlock.from_json(b, blocks, observation_size, action_size) for b in steps)
        spans = sorted([(b.action, b.action + b.rows) for b in blocks] +
                       [(b.action, b.action + b.actions) for b in step_blocks])
        if any(end > start for (_, end), (start, _) in zip(spans, spans[1:])):
            raise ValueError("rows: two blocks name the same action")
        return cls(blocks, width, step_blocks)

    @cached_property
    def _indices(self) -> tuple[np.ndarray, ...]:
        return tuple(b.indices() for b in self.blocks)  # made once: an agent applies the table every move

    def apply(self, observations: np.ndarray, latent: np.ndarray, logits: np.ndarray,
              weights: list[tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]],
              step_weights: list[tuple[np.ndarray, np.ndarray]] = ()) -> np.ndarray:
        """`logits` [n, actions] with the row scores added, from raw observations [n, size], the policy's latent
        [n, hidden], per block ((W_e [columns, width], b_e), (W_c [hidden, width], b_c)) and per step context
        (W [hidden, width], b)."""
        out = np.array(logits, np.float32, copy=True)
        x = np.asarray(observations, np.float32).reshape(len(out), -1)
        embedded = []
        for block, index, ((we, be), (wc, bc)) in zip(self.blocks, self._indices, weights):
            rows = x[:, index]
            rows = np.copysign(np.log1p(np.abs(rows)), rows)  # symlog, as the first layer reads the observation
            embedded.append(np.maximum(rows @ we + be, 0))  # [n, rows, width]
            context = latent @ wc + bc  # [n, width]
            out[:, block.action:block.action + block.rows] += np.einsum("nrw,nw->nr", embedded[-1], context)
        contexts = iter(step_weights)
        for block, (anchor, rows) in zip(self.step_blocks, self._step_arrays):
            hit = x[:, anchor] != 0
            at = hit.argmax(1)
            for s in range(block.steps):
                w, b = next(contexts)
                target = rows[at][:, :, s]  # [n, actions]: the row each step leads to, or -1
                e = np.take_along_axis(embedded[block.block], np.maximum(target, 0)[:, :, None], 1)
                score = np.einsum("naw,nw->na", e, latent @ w + b) * ((target >= 0) & hit.any(1)[:, None])
                out[:, block.action:block.action + block.actions] += score
        return out

    @cached_property
    def _step_arrays(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        return tuple((np.asarray(b.anchor, np.int64), np.asarray(b.rows, np.int64)) for b in self.step_blocks)

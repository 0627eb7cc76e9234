"""A steer: actions whose logits a policy network also reads from a choice of destination.

Some games move a piece a step at a time (one action per direction), towards a destination that does not
change from step to step. A flat network must then learn, for every place separately, which direction leads
where. A steer lets it name the destination instead: the logits of the `sources` actions (one per place,
unused while the piece moves) are read as a softmax over destinations, each destination's probability is
split among the `targets` actions that lead there (its `routes`), and each target's logit gets
``log(q_t + EPS)`` added, q_t the probability routed to it. The network keeps its own logit for every
target; the steer adds what the destination implies.

The sources may be logits of their own: with `extra` > 0 the action head gives that many logits after the
actions (sources index them as action_size + k), read by the steer only and dropped from the action logits,
so that choosing a destination does not share its weights with another use of the same actions.

A game that offers one (the registry's optional part `network_steer`) gives a `SteerTable`: `gate` is an
observation entry that must be nonzero (the decision being a step), `anchor` lists observation entries of
which the first nonzero one (where the piece is) picks the row of `routes`: for each source, a bit mask
over `targets` (bit t: target t leads there; 0: no target does). Not gated or no anchor set: the logits are
unchanged. The table travels in the model file (``ktenv.json``); the same function runs in torch
(training), numpy (the arena's agents) and C++ (native policy seats), agreeing to float rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

EPS = 1e-6  # keeps a target that no destination leads to finite (log 0)
MAX_TARGETS = 30  # the routes are bit masks in JSON integers


@dataclass(frozen=True)
class SteerTable:
    gate: int  # an observation entry that must be nonzero
    anchor: tuple[int, ...]  # observation entries; the first nonzero one picks its row of `routes`
    sources: tuple[int, ...]  # actions whose logits are read as destinations
    targets: tuple[int, ...]  # actions whose logits the destinations add to
    routes: tuple[tuple[int, ...], ...]  # [anchor][source]: a bit mask over targets
    extra: int = 0  # logits the action head gives after the actions, for the steer alone

    def to_json(self) -> dict:
        return {"gate": self.gate, "anchor": list(self.anchor), "sources": list(self.sources),
                "targets": list(self.targets), "routes": [list(row) for row in self.routes], "extra": self.extra}

    @classmethod
    def from_json(cls, data, observation_size: int, action_size: int) -> SteerTable:
        """The table of a model file, checked against the network's sizes (ValueError naming the fault)."""
        keys = {"gate", "anchor", "sources", "targets", "routes"}
        if not isinstance(data, dict) or not keys <= set(data) <= keys | {"extra"}:
            raise ValueError(f"steer: expected the keys {sorted(keys)} and optionally 'extra'")
        gate, anchor, sources, targets, routes = (data[k] for k in ("gate", "anchor", "sources", "targets", "routes"))
        extra = data.get("extra", 0)
        if type(extra) is not int or not 0 <= extra <= 4096:
            raise ValueError("steer: extra must be a count of logits in 0..4096")
        if type(gate) is not int or not 0 <= gate < observation_size:
            raise ValueError(f"steer: gate must be an observation index below {observation_size}")
        for name, values, bound in (("anchor", anchor, observation_size), ("sources", sources, action_size + extra),
                                    ("targets", targets, action_size)):
            if not isinstance(values, list) or not values or any(type(i) is not int or not 0 <= i < bound
                                                                 for i in values):
                raise ValueError(f"steer: {name} must be a nonempty list of indices below {bound}")
        if len(targets) > MAX_TARGETS or len(set(targets)) != len(targets):
            raise ValueError(f"steer: at most {MAX_TARGETS} distinct targets")
        if not isinstance(routes, list) or len(routes) != len(anchor):
            raise ValueError("steer: routes needs a row per anchor entry")
        full = (1 << len(targets)) - 1
        for row in routes:
            if (not isinstance(row, list) or len(row) != len(sources)
                    or any(type(m) is not int or not 0 <= m <= full for m in row)):
                raise ValueError(f"steer: every routes row must hold a mask in 0..{full} per source")
        return cls(gate=gate, anchor=tuple(anchor), sources=tuple(sources), targets=tuple(targets),
                   routes=tuple(tuple(row) for row in routes), extra=extra)

    @cached_property
    def _indices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(anchor, sources, targets) as int64 arrays, made once (an agent applies the table every move)."""
        return tuple(np.asarray(v, np.int64) for v in (self.anchor, self.sources, self.targets))

    def weights(self) -> np.ndarray:
        """float32 [anchors, sources, targets]: a source's share of each target (its mask over its bit count)."""
        return self._weights

    @cached_property
    def _weights(self) -> np.ndarray:
        masks = np.asarray(self.routes, np.int64)[..., None]
        bits = ((masks >> np.arange(len(self.targets))) & 1).astype(np.float32)
        count = bits.sum(-1, keepdims=True)
        out = np.divide(bits, count, out=np.zeros_like(bits), where=count > 0)
        out.flags.writeable = False
        return out

    def apply(self, observations: np.ndarray, logits: np.ndarray) -> np.ndarray:
        """The steered action logits, float32 [rows, actions], of observations [rows, observation_size] and the
        head's logits [rows, actions + extra]."""
        x = np.asarray(observations, np.float32).reshape(len(logits), -1)
        out = np.array(logits, np.float32)
        anchor, sources, targets = self._indices
        hit = x[:, anchor] != 0
        rows = np.flatnonzero(hit.any(1) & (x[:, self.gate] != 0))
        if rows.size == 0:
            return out[:, :out.shape[1] - self.extra]
        z = out[np.ix_(rows, sources)]
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        q = np.einsum("rs,rst->rt", p, self.weights()[hit[rows].argmax(1)])
        out[np.ix_(rows, targets)] += np.log(q + np.float32(EPS))
        return out[:, :out.shape[1] - self.extra]

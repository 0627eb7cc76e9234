"""Policy probes: what a trained model thinks at the positions of recorded games, beside reference agents.

`probe(model, records)` replays each record (`ktenv.arena.records.replay`, which also verifies it) and, at
every decision of the chosen seats, reads the model's masked policy on that seat's observation: its top
actions with probabilities and English labels, the entropy, the critic's value, and the action played.
Reference agents (``expert``, ``greedy`` ...) sit beside each seat as an arena seat would: made by
`ktenv.agents.make` with the seat's arena seed, asked at every decision of their seat in order (so a plan
they keep from one decision to the next is theirs), given what the arena gives them (the observation and
mask, and a world sampler of the seat to an agent that searches); the game then goes on with the recorded
action. A reference's plan is made for its own choices: after the game took another action it may hold a
plan for a stack that did not move, so read agreement inside a move with that in mind.

Every game-specific fact comes from the game's ``dataset`` part (round, phase, decision kind, English
text, observation) and ``engine`` part (the legal mask), so the probes work for any registered game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import agents as agent_registry
from .. import registry
from ..agents.base import tell_played
from ..arena.game import agent_seed
from ..arena.ratings import wilson
from ..arena.records import GameRecord, replay
from .policy import Policy, entropy, load_policy

RecordLike = GameRecord | str | Path


def load_records(records: Iterable[RecordLike] | RecordLike) -> list[tuple[str, GameRecord]]:
    """(name, record) pairs: records as given, files, or a folder's ``*.json`` files in sorted order."""
    if isinstance(records, GameRecord | str | Path):
        records = [records]
    out: list[tuple[str, GameRecord]] = []
    for item in records:
        if isinstance(item, GameRecord):
            out.append((f"record {len(out)}", item))
        elif Path(item).is_dir():
            out += [(p.name, GameRecord.load(p)) for p in sorted(Path(item).glob("*.json"))]
        else:
            out.append((Path(item).name, GameRecord.load(item)))
    return out


@dataclass
class _Seat:
    """A reference agent shadowing one seat, as the arena would seat it."""

    name: str
    agent: Any
    reads: bool = field(init=False)
    searches: bool = field(init=False)

    def __post_init__(self) -> None:
        self.reads = bool(getattr(self.agent, "needs_observation", False))
        self.searches = bool(getattr(self.agent, "needs_worlds", False))

    def act(self, spec: registry.GameSpec, s: Any, seat: int, observation: np.ndarray, mask: np.ndarray) -> int:
        given = {"observation": observation, "action_mask": mask} if self.reads else None
        if self.searches:  # worlds its seat cannot tell apart, never the true state
            if not spec.has("analysis"):
                raise ValueError(f"{self.name}: {spec.title} offers no world sampler for agents that search")
            given = {**(given or {"action_mask": mask}), "worlds": spec.analysis.world_sampler(s, seat)}
        return int(self.agent.act(given, mask.copy()))


def _top(p: np.ndarray, k: int, describe) -> list[dict]:
    order = np.argsort(-p, kind="stable")[:k]
    return [{"action": int(a), "p": round(float(p[a]), 6), "text": describe(int(a))} for a in order if p[a] > 0]


class _Game:
    """One record's probe: the rows of its positions."""

    def __init__(self, policy: Policy, record: GameRecord, game: int, name: str, references: Sequence[str],
                 seats: Sequence[int] | None, top: int, every: int, forced: bool) -> None:
        self.spec = registry.game_of_config(record.config)
        self.reader = self.spec.dataset(record.config)
        self.policy, self.record, self.game, self.name = policy, record, game, name
        players = record.config.n_players
        self.seats = set(range(players) if seats is None else seats)
        self.refs = {seat: [_Seat(r, agent_registry.make(r, game=self.spec.name, seed=agent_seed(record.seed, seat)))
                            for r in references] for seat in self.seats}
        self.top, self.every, self.forced = top, max(1, int(every)), forced
        self.winners = set(record.result.get("winners", []))
        self.seen = 0
        self.rows: list[dict] = []
        self.observations: list[np.ndarray] = []  # the rows', for one batched pass of the critic

    def __call__(self, s: Any, k: int, action: int) -> None:
        seat = int(s.actor)
        if seat not in self.seats:
            return
        mask = np.asarray(self.spec.engine.legal_mask(s), bool).copy()
        observation = np.asarray(self.reader.observe(s, seat), np.float32).copy()
        refs = {r.name: r.act(self.spec, s, seat, observation, mask) for r in self.refs[seat]}
        for r in self.refs[seat]:  # a reference that keeps a plan carries out the move actually started
            if refs[r.name] != action:
                tell_played(r.agent, action)
        if mask.sum() < 2 and not self.forced:
            return
        self.seen += 1
        if (self.seen - 1) % self.every == 0:
            self.rows.append(self._row(s, k, seat, action, observation, mask, refs))
            self.observations.append(observation)

    def finish(self) -> list[dict]:
        """The rows, with the critic's values (one batched pass: a row at a time costs twenty times more)."""
        values = self.policy.values(np.stack(self.observations)) if self.observations else None
        for i, row in enumerate(self.rows):
            row["value"] = None if values is None else float(values[i])
        return self.rows

    def _row(self, s: Any, k: int, seat: int, action: int, observation: np.ndarray, mask: np.ndarray,
             refs: dict[str, int]) -> dict:
        p = self.policy.probabilities(observation, mask)
        chosen = int(np.argmax(p))
        describe = self.reader.describe
        row = {"game": self.game, "record": self.name, "index": k, "round": self.reader.round_of(s),
               "phase": self.reader.phase(s), "decision": self.reader.decision(s), "actor": seat,
               "agent": self.record.agents[seat], "legal": int(mask.sum()), "action": int(action),
               "action_text": describe(s, int(action)), "model_action": chosen,
               "model_text": describe(s, chosen), "model_p": float(p[chosen]), "played_p": float(p[action]),
               "entropy": entropy(p), "top": json.dumps(_top(p, self.top, lambda a: describe(s, a))),
               "value": None, "won": seat in self.winners}
        for name, a in refs.items():
            row[f"{name}_action"] = a
            row[f"{name}_text"] = describe(s, a)
            row[f"{name}_agrees"] = a == chosen
        return row


def probe(model: str | Policy, records: Iterable[RecordLike] | RecordLike, references: Sequence[str] = ("expert",),
          seats: Sequence[int] | None = None, top: int = 5, every: int = 1, forced: bool = False) -> pd.DataFrame:
    """One row per probed decision of the records' games (see the module docstring).

    `seats`: the seats probed (None: all); `every`: probe every n-th decision of them; `forced`: also the
    decisions with a single legal action. Columns: game, record, index (the decision's place in the game),
    round, phase, decision, actor, agent (who played it), legal, action and action_text (what was played),
    model_action, model_text, model_p (the model's top legal action and its probability), played_p,
    entropy (nats, over the legal actions), top (JSON: the `top` most likely actions with p and text),
    value (the critic's, None without one), won (the actor won the game), and per reference R: R_action,
    R_text, R_agrees (R's choice is the model's top action)."""
    policy = load_policy(model) if isinstance(model, str) else model
    rows: list[dict] = []
    for game, (name, record) in enumerate(load_records(records)):
        watcher = _Game(policy, record, game, name, references, seats, top, every, forced)
        replay(record, on_move=watcher)
        rows += watcher.finish()
    return pd.DataFrame(rows)


def agreement(probes: pd.DataFrame, reference: str = "expert", by: str | Sequence[str] = "decision") -> pd.DataFrame:
    """How often the model's top action is `reference`'s choice, by `by` (and "all"), with 95% Wilson
    intervals: columns positions, agree, rate, low, high."""
    column = f"{reference}_agrees"
    if column not in probes:
        raise KeyError(f"the probes have no reference {reference!r} (probe(..., references=[{reference!r}]))")
    keys = [by] if isinstance(by, str) else list(by)
    table = probes.groupby(keys)[column].agg(positions="size", agree="sum").reset_index()
    total = pd.DataFrame([{**dict.fromkeys(keys, "all"), "positions": len(probes),
                           "agree": int(probes[column].sum())}])
    table = pd.concat([table.sort_values("positions", ascending=False), total], ignore_index=True)
    return _with_rate(table, "agree", "positions")


def _with_rate(table: pd.DataFrame, hits: str, total: str) -> pd.DataFrame:
    table[hits] = table[hits].astype(int)
    table["rate"] = table[hits] / table[total].where(table[total] > 0, 1)
    bounds = [wilson(h, n) for h, n in zip(table[hits], table[total])]
    # Wilson's bounds are computed in floating point: 0 successes can give a lower bound of 1e-17
    table["low"] = np.minimum([b[0] for b in bounds], table["rate"])
    table["high"] = np.maximum([b[1] for b in bounds], table["rate"])
    return table


__all__ = ["agreement", "load_records", "probe"]

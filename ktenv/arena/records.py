"""Game records: a finished game as a small JSON file, and its exact replay.

A record holds the game config, the seed, the agents, every action (compact: unsigned 16-bit
integers, zlib-compressed, base64 text; a 4-player game of ~6 000 decisions takes ~5 kB) and the
final result with a fingerprint of the final state. Seed plus actions replay the game exactly
(the engine's dice come only from the seed), so `replay` re-simulates it, checks every action is
legal and the result and final state are identical, and can stop at any move to show it.

Format (``schema: "ktenv.record"``, ``version: 1``)::

    {"schema": "ktenv.record", "version": 1, "ktenv": "0.1.0",
     "config": {...the game's config...}, "seed": 17, "agents": ["expert", "random"],
     "actions": {"encoding": "u16-zlib-base64", "count": 1984, "data": "eJz..."},
     "result": {"winners": [0], "reason": "sole_citadel", "rounds": 9, "income": [...],
                "hexes": [...], "decisions": 1984, "state_sha256": "...", "state_schema": 3},
     "agent_files": {"ppo:runs/x/final.zip": "<sha256>"},   # only for agents played from a file
     "agent_specs": ["expert", "ppo:runs/x/final.zip"]}      # only when "agents" holds short names

The config of a game other than the default one carries its name (``"game": NAME``); the rules
that replay a record are that game's (`ktenv.registry`). `state_sha256` hashes the final state's save
(its ``to_json``) in save format `state_schema`; a record of an older format (ktenv 0.1: format 2, no
`state_schema`) is verified on its result alone.

A game that a seat's bot forfeited (`ktenv.arena.game.ForfeitError`: it timed out, crashed, printed garbage or
answered an illegal action) stops where that seat was to act: its result holds the stopped game's figures,
the reason ``forfeit_<fault>``, every other seat as a winner and ``"forfeit": {"seat", "fault", "detail"}``;
`replay` checks that the replayed game stops unfinished with that seat to act.

Records are JSON only (never pickle): a file from elsewhere can be read safely. A malformed,
truncated or tampered record is refused with a `RecordError` naming what is wrong.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import registry
from ..errors import ConfigError, IllegalActionError
from ..files import write_text_atomically
from .config import agent_file, file_digest

SCHEMA = "ktenv.record"
VERSION = 1
ENCODING = "u16-zlib-base64"


class RecordError(ValueError):
    """A game record that cannot be read or does not replay to its stated result."""


def state_fingerprint(s: Any) -> str:
    return hashlib.sha256(s.to_json().encode()).hexdigest()


def encode_actions(actions: list[int]) -> dict:
    arr = np.asarray(actions, dtype=np.uint16)
    if arr.size and int(np.max(actions)) > 65535:
        raise ValueError("an action does not fit the record's 16-bit encoding")
    data = base64.b64encode(zlib.compress(arr.astype("<u2").tobytes(), 9)).decode("ascii")
    return {"encoding": ENCODING, "count": int(arr.size), "data": data}


def decode_actions(block) -> list[int]:
    if not isinstance(block, dict):
        raise RecordError("record field 'actions' must be an object with 'encoding', 'count' and 'data'")
    if block.get("encoding") != ENCODING:
        raise RecordError(f"record field 'actions.encoding' must be {ENCODING!r}, got {block.get('encoding')!r}")
    count, data = block.get("count"), block.get("data")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RecordError(f"record field 'actions.count' must be a whole number >= 0, got {count!r}")
    if not isinstance(data, str):
        raise RecordError("record field 'actions.data' must be text")
    try:
        raw = zlib.decompress(base64.b64decode(data.encode("ascii"), validate=True))
    except (binascii.Error, zlib.error, ValueError, UnicodeEncodeError) as exc:
        raise RecordError(f"record field 'actions.data' is corrupt ({exc})") from None
    if len(raw) != 2 * count:
        raise RecordError(f"record field 'actions.data' holds {len(raw) // 2} actions, 'actions.count' says {count}")
    return np.frombuffer(raw, dtype="<u2").astype(np.int64).tolist()


@dataclass
class GameRecord:
    config: Any  # the game's config record
    seed: int
    agents: list[str]
    actions: list[int]
    result: dict
    # SHA-256 of the file each agent played from (a model, a user's bot source): which version played
    agent_files: dict[str, str] = field(default_factory=dict)
    # the spec of each seat's agent when `agents` holds short names (``LABEL=SPEC`` in a tournament)
    agent_specs: list[str] | None = None

    def to_dict(self) -> dict:
        from .. import __version__

        config = registry.config_to_dict(self.config)
        out = {"schema": SCHEMA, "version": VERSION, "ktenv": __version__, "config": config,
               "seed": self.seed, "agents": list(self.agents), "actions": encode_actions(self.actions),
               "result": self.result}
        if self.agent_files:
            out["agent_files"] = dict(self.agent_files)
        if self.agent_specs is not None:
            out["agent_specs"] = list(self.agent_specs)
        return out

    def with_labels(self, labels: list[str]) -> GameRecord:
        """This record under the seats' short names (``LABEL=SPEC``), keeping the specs that played."""
        specs = list(self.agents)
        if list(labels) == specs:
            return self
        files = {label: self.agent_files[spec] for label, spec in zip(labels, specs) if spec in self.agent_files}
        return GameRecord(self.config, self.seed, list(labels), self.actions, self.result, files, specs)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        write_text_atomically(path, self.to_json())

    @classmethod
    def from_dict(cls, data) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("record: expected a JSON object")
        if data.get("schema") != SCHEMA:
            raise RecordError(f"record field 'schema' must be {SCHEMA!r}, got {data.get('schema')!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"record field 'version' {data.get('version')!r} is not supported "
                              f"(this ktenv reads {VERSION})")
        for key in ("config", "seed", "agents", "actions", "result"):
            if key not in data:
                raise RecordError(f"record field '{key}' is missing (truncated file?)")
        try:
            cfg = config_from_dict(data["config"], saved=True)
        except (ConfigError, TypeError) as exc:
            raise RecordError(f"record field 'config': {exc}") from None
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordError(f"record field 'seed' must be a whole number, got {seed!r}")
        names = data["agents"]
        if not isinstance(names, list) or not all(isinstance(a, str) for a in names) or len(names) != cfg.n_players:
            raise RecordError(f"record field 'agents' must list {cfg.n_players} agent names")
        result = data["result"]
        if not isinstance(result, dict) or "winners" not in result or "reason" not in result:
            raise RecordError("record field 'result' must be an object with 'winners' and 'reason'")
        files = data.get("agent_files", {})
        if not isinstance(files, dict) or not all(
                a in names and isinstance(d, str) and re.fullmatch(r"[0-9a-f]{64}", d) for a, d in files.items()):
            raise RecordError("record field 'agent_files' must map agent names of the record to SHA-256 digests")
        specs = data.get("agent_specs")
        if specs is not None and (not isinstance(specs, list) or len(specs) != len(names)
                                  or not all(isinstance(a, str) for a in specs)):
            raise RecordError(f"record field 'agent_specs' must list {len(names)} agent specs")
        return cls(cfg, seed, names, decode_actions(data["actions"]), result, dict(files), specs)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise RecordError(f"record: not valid JSON ({exc})") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise RecordError(f"record {path}: cannot read it ({exc.strerror or exc})") from None
        except UnicodeDecodeError:
            raise RecordError(f"record {path}: not a text file") from None
        try:
            return cls.from_json(text)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None


def config_from_dict(data, saved: bool = False):
    """A record's config: the game its ``"game"`` key names (the default game without one). With `saved`
    the mapping is a record's, perhaps from an earlier ktenv (read by the config's `from_saved`)."""
    return registry.config_from_dict(data, saved=saved)


def result_of(s: Any, decisions: int) -> dict:
    """A finished game's result, by the rules of the game `s` belongs to."""
    return registry.game_of_state(s).result_of(s, decisions)


def record_of(cfg: Any, seed: int, agents: list[str], actions: list[int], final: Any, forfeit=None) -> GameRecord:
    """The record of a played game; `forfeit` (arena.game.ForfeitError): the seat whose bot lost it by its fault."""
    files = {name: file_digest(path) for name in dict.fromkeys(agents) if (path := agent_file(name)) is not None}
    result = result_of(final, len(actions))
    if forfeit is not None:
        from .game import forfeited_result

        result = forfeited_result(result, forfeit, cfg.n_players)
    return GameRecord(cfg, int(seed), list(agents), list(actions), result, files)


def _forfeited(got: dict, forfeit, s: Any, players: int) -> dict:
    """The replayed result as the record's forfeit ended the game (`arena.game.forfeited_result`)."""
    from .game import FAULTS, ForfeitError, forfeited_result

    if not isinstance(forfeit, dict) or forfeit.get("fault") not in FAULTS or forfeit.get("seat") not in range(players):
        raise RecordError(f"record field 'result.forfeit' must name a seat (0-{players - 1}) and a fault "
                          f"({', '.join(FAULTS)}), got {forfeit!r}")
    if s.game_over or int(s.actor) != forfeit["seat"]:
        raise RecordError(f"replay differs from the record: seat {forfeit['seat']} forfeits, but the replayed game "
                          + ("is over" if s.game_over else f"waits for seat {int(s.actor)}"))
    fault = ForfeitError(forfeit["fault"], str(forfeit.get("detail", "")), forfeit["seat"])
    return forfeited_result(got, fault, players)


@dataclass
class Replay:
    record: GameRecord
    state: Any  # the state after the replayed moves
    moves: int  # how many actions were applied
    verified: bool  # the whole game was replayed and matched the record
    note: str = ""  # what could not be compared (a fingerprint of an older save format); how a forfeit ended it


def replay(record: GameRecord, upto: int | None = None, on_move=None) -> Replay:
    """Re-simulate a record. With ``upto=None`` every action is applied and the result is checked
    against the record (RecordError on any difference); with ``upto=k`` it stops before move k
    (0-based) and returns that state. ``on_move(state, k, action)`` is called before each move."""
    actions = record.actions
    if upto is not None and not 0 <= upto <= len(actions):
        raise RecordError(f"move {upto} is outside the record (moves 0..{len(actions) - 1})")
    game = registry.game_of_config(record.config)
    legal_mask, step, schema = game.engine.legal_mask, game.engine.step, game.record_schema
    s = game.new_game(record.config, record.seed)
    stop = len(actions) if upto is None else upto
    for k in range(stop):
        a = actions[k]
        if s.game_over:
            raise RecordError(f"the game ended after move {k - 1}, but the record has {len(actions)} moves")
        if on_move is not None:
            on_move(s, k, a)
        mask = legal_mask(s)
        if not (0 <= a < mask.size and mask[a]):
            raise RecordError(f"move {k}: action {a} is not legal in the replayed game (record corrupt or made by "
                              "another engine version)")
        try:
            step(s, a)
        except IllegalActionError as exc:
            raise RecordError(f"move {k}: {exc}") from None
    if upto is not None:
        return Replay(record, s, stop, False)
    got = game.result_of(s, len(actions))
    want = record.result
    if "forfeit" in want:  # the game stopped where a seat's bot lost it: that seat was to act
        got = _forfeited(got, want["forfeit"], s, record.config.n_players)
    keys, note = ["winners", "reason", "rounds", "income", "hexes", "state_sha256"], ""
    if want.get("state_schema", 2) != schema:  # ktenv 0.1 records hashed the version-2 save
        keys.remove("state_sha256")
        note = (f"the record's state fingerprint is of save format {want.get('state_schema', 2)}, this ktenv "
                f"writes {schema}: the result was compared, the final state's fingerprint was not")
    for key in keys:
        if key in want and want[key] != got[key]:
            raise RecordError(f"replay differs from the record: '{key}' is {got[key]!r}, the record says {want[key]!r}")
    if "forfeit" in want:  # the state's own summary would say nobody won: say how the game ended
        fault = want["forfeit"]
        note = "; ".join(filter(None, [f"the game stopped at seat {fault['seat']}'s decision: its bot forfeited "
                                       f"({fault['fault']}: {fault.get('detail', '')}); seats "
                                       f"{', '.join(map(str, want['winners']))} won", note]))
    return Replay(record, s, stop, True, note)

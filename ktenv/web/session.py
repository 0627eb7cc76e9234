"""Games a person plays in the browser: one `Table` per game, stored under the runs folder as it goes.

A table's file (``<runs>/web/<id>.json``) holds the config, the seed, the agents and every action; the
dice come only from the seed, so loading it replays the game exactly. The bots resume exactly too: each is
made again from its seat seed and asked every decision it took before, with the same observation, mask and
worlds, so its own generator (a random bot, a sampled policy, a search) is where it was. A bot that answers
one of them otherwise than it did is not deterministic (a time-budgeted search): the page says so and it
goes on from its own state. A finished game is also written as an ordinary game record (``<id>.record.json``), which
`ktenv replay` verifies. Every action request names the decision it answers (the number of actions taken
before it): an answer to another decision (a second tab, a double click) is refused and changes nothing.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import agents as agent_names
from .. import registry
from ..arena.game import agent_seed, take_turn
from ..arena.records import record_of
from ..errors import ConfigError
from ..files import write_text_atomically
from .views import view_of

SCHEMA, VERSION = "ktenv.web_game", 1
HUMAN = "human"  # a seat the person plays
MAX_DECISIONS = 100_000  # a safety bound, as the arena's
LOG_KEEP = 400  # log lines a page receives
MAX_SEED = 2**62  # as a tournament's seeds: every game's generator takes it


class StaleActionError(Exception):
    """An action that answers a decision other than the pending one (HTTP 409)."""


@dataclass
class Table:
    id: str
    spec: registry.GameSpec
    cfg: Any
    seed: int
    agents: list[str]  # per seat: an agent spec, or HUMAN
    state: Any = None
    actions: list[int] = field(default_factory=list)
    logs: dict[int, list[str]] = field(default_factory=dict)  # per person seat, as that seat knows the moves
    bots: dict[int, Any] = field(default_factory=dict)
    bots_from: int = 0  # the actions played before the bots took their seats (a game played from a record's move)
    notes: list[str] = field(default_factory=list)  # what the person should know (a bot that did not resume exactly)
    lock: threading.RLock = field(default_factory=threading.RLock)  # one request at a time changes or reads it

    @property
    def humans(self) -> list[int]:
        return [p for p, a in enumerate(self.agents) if a == HUMAN]

    @property
    def over(self) -> bool:
        return bool(self.state.game_over) or len(self.actions) >= MAX_DECISIONS

    def names(self, seat: int) -> list[str]:
        return seat_names(self.agents, seat)

    # ----- playing

    def start(self) -> None:
        self.state = self.spec.new_game(self.cfg, self.seed)
        self.bots = {p: self.spec.agents.AGENTS.make(a, seed=agent_seed(self.seed, p))
                     for p, a in enumerate(self.agents) if a != HUMAN}
        self.logs = {p: [] for p in self.humans}

    def play(self, seat: int, decision: int, action: int) -> None:
        """The person at `seat` takes `action` at decision number `decision`; then the bots play on."""
        with self.lock:
            if self.over or decision != len(self.actions) or self.state.actor != seat:
                raise StaleActionError(f"decision {decision} is not yours to take now (the game is at decision "
                                  f"{len(self.actions)}{', finished' if self.over else ''})")
            mask = self.spec.engine.legal_mask(self.state)
            if not (isinstance(action, int) and 0 <= action < mask.size and mask[action]):
                raise ConfigError(f"action {action!r} is not legal now")
            self._take(action)
            self.bots_play()

    def bots_play(self) -> None:
        while not self.over and self.state.actor not in self.humans:
            p = self.state.actor
            mask = self.spec.engine.legal_mask(self.state)
            bot = self.bots[p]
            observation = view_of(self.spec).agent_observation(bot, self.state, p, mask)
            a = take_turn(bot, self.agents[p], p, observation, mask, lambda _a: None)
            self._take(a)

    def replay(self, actions: list[Any], source: str, bots_from: int = 0) -> None:
        """Take stored `actions` (each checked legal; ConfigError naming `source` otherwise). From action
        `bots_from` on, each bot is asked again the decisions it took (see the module docstring)."""
        behind = set(self.bots)  # the bots still in step with the stored game
        for k, a in enumerate(actions):
            mask = self.spec.engine.legal_mask(self.state)
            if self.over or not (isinstance(a, int) and 0 <= a < mask.size and mask[a]):
                raise ConfigError(f"{source}: action {k} ({a!r}) is not legal in the replayed game")
            p = int(self.state.actor)
            if k >= bots_from and p in behind and not self._repeats(p, k, a, mask):
                behind.discard(p)  # it has gone its own way: asking it more would only cost time
            self._take(a)
        for p in self.humans:
            self.logs[p] += [f"note: {n}" for n in self.notes]

    def _repeats(self, p: int, k: int, action: int, mask: np.ndarray) -> bool:
        """Seat `p`'s bot asked again decision `k` as it was asked then: True when it answers `action`."""
        bot = self.bots[p]
        try:
            got = bot.act(view_of(self.spec).agent_observation(bot, self.state, p, mask), mask)
        except Exception as exc:  # noqa: BLE001 - a bot's failure is reported, the stored game stands
            got = f"an error ({exc!r})"
        if got == action:
            return True
        self.notes.append(f"{self.agents[p]} (seat {p + 1}) did not resume exactly: asked decision {k} again, it "
                          f"chose {got}, not the stored {action} (it is not deterministic); it plays on from its "
                          "own state, so not as it would have without the restart")
        return False

    def _take(self, action: int) -> None:
        view, s = view_of(self.spec), self.state
        actor = int(s.actor)
        before = {p: view.encode(s, p) for p in self.humans}
        rolls = rolls_of(view, s, int(action)) if self.humans else []
        self.spec.engine.step(s, int(action))
        self.actions.append(int(action))
        for p in self.humans:
            after = view.encode(s, p)
            n = len(self.agents)
            if p == actor:
                line = f"you: {seat_words(view, before[p], action, self.names(p))}"
            else:
                line = view.public_move(before[p], (actor - p) % n, int(action), after, self.names(p))
            self.logs[p].append(line)
            self.logs[p] += roll_lines_of(view, rolls, p, self.names(p))
            self.logs[p] += events_of(view, before[p], after, self.names(p))

    # ----- what a seat's page receives

    def page(self, seat: int) -> dict:
        """The seat's page: built from its observation and (when it decides) its mask only."""
        view, s = view_of(self.spec), self.state
        deciding = not self.over and s.actor == seat
        mask = self.spec.engine.legal_mask(s) if deciding else None
        out = {"id": self.id, "game": self.spec.name, "title": self.spec.title, "seat": seat,
               "decision": len(self.actions), "over": self.over, "your_turn": deciding,
               "view": {**view.seat_view(view.encode(s, seat), mask, self.names(seat)), "rotation": seat},
               "log": self.logs.get(seat, [])[-LOG_KEEP:], "notes": self.notes, "people": self.humans}
        if not self.over and s.actor in self.humans and s.actor != seat:  # whose turn it is is public
            out["waiting_for"] = int(s.actor)
        if self.over:
            out["result"] = {"winners": [self.names(seat)[(w - seat) % len(self.agents)] for w in s.winners],
                             "reason": str(getattr(s, "reason", ""))}
        return out

    # ----- storing

    def to_dict(self) -> dict:
        return {"schema": SCHEMA, "version": VERSION, "config": registry.config_to_dict(self.cfg),
                "seed": self.seed, "agents": self.agents, "actions": self.actions, "bots_from": self.bots_from,
                "finished": self.over}

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        _write(folder / f"{self.id}.json", json.dumps(self.to_dict()))
        if self.over:
            record = record_of(self.cfg, self.seed, self.agents, self.actions, self.state)
            _write(folder / f"{self.id}.record.json", record.to_json())


def events_of(view: Any, before: np.ndarray, after: np.ndarray, names: list[str]) -> list[str]:
    """The log lines of what a move set off that the seat sees (a battle's hits), where the game tells them."""
    public_events = getattr(view, "public_events", None)
    return public_events(before, after, names) if public_events is not None else []


def rolls_of(view: Any, state: Any, action: int) -> list:
    """The dice `action` rolls in `state` (every die is public at the table), where the game tells them."""
    move_rolls = getattr(view, "move_rolls", None)
    return move_rolls(state, action) if move_rolls is not None else []


def roll_lines_of(view: Any, rolls: list, seat: int | None, names: list[str]) -> list[str]:
    """Those rolls as log lines for `seat` (None: the whole table)."""
    return view.roll_lines(rolls, seat, names) if rolls else []


def seat_names(agents: list[str], seat: int) -> list[str]:
    """Seat names in `seat`'s relative order: you, then the others by agent and seat number (from 1)."""
    n = len(agents)
    return ["you" if k == 0 else f"{agents[(seat + k) % n]} (seat {(seat + k) % n + 1})" for k in range(n)]


def seat_words(view: Any, observation: np.ndarray, action: int, names: list[str]) -> str:
    """The seat's own move in its own words (its observation before the move)."""
    actions = action_list(view, observation, np.eye(1, int(action) + 1, int(action), dtype=np.int8)[0], names)
    return actions[0]["label"] if actions else str(action)


def action_list(view: Any, observation: np.ndarray, mask: np.ndarray, names: list[str]) -> list[dict]:
    """The actions of `mask` as the seat's page lists them (the view's `actions_of` where it has one: the same
    list without drawing the whole page)."""
    actions_of = getattr(view, "actions_of", None)
    return actions_of(observation, mask, names) if actions_of is not None else \
        view.seat_view(observation, mask, names)["actions"]


def _write(path: Path, text: str) -> None:
    write_text_atomically(path, text)


def new_table(options: dict, start: tuple[Any, int, list[int]] | None = None) -> Table:
    """A game from the new-game form: game, players, seat (the person's), agents (the other seats, in order;
    one name for all), max_rounds, seed. With `start` (config, seed, actions) the game goes on from a stored
    game's position instead ("play from here"); game, players, max_rounds and seed then come from it.
    ConfigError naming the bad field."""
    if not isinstance(options, dict):
        raise ConfigError("expected a JSON object of game options")
    if start is None:
        spec = registry.game(str(options.get("game") or registry.default().name))
        players = _whole(options.get("players", 2), "players")
        spec.check_players(players)
    else:
        spec, players = registry.game_of_config(start[0]), start[0].n_players
    seat = _whole(options.get("seat", 0), "seat")
    if not 0 <= seat < players:
        raise ConfigError(f"seat: expected 0 to {players - 1}, got {seat}")
    agents = _seat_agents(spec, players, seat, options.get("agents", ["random"]))
    if start is None:
        rounds = options.get("max_rounds")
        rounds = None if rounds in (None, "", 0) else _whole(rounds, "max_rounds")
        game_options = options.get("options") or {}
        if not isinstance(game_options, dict):
            raise ConfigError("options: expected a JSON object of game option keys and values")
        cfg = spec.make_config(dict(game_options), players, rounds)
        seed, prefix = _whole(options.get("seed", secrets.randbelow(2**31)), "seed"), []
        if not 0 <= seed <= MAX_SEED:
            raise ConfigError(f"seed: expected a whole number from 0 to {MAX_SEED}, got {seed}")
    else:
        cfg, seed, prefix = start
    table = Table(secrets.token_hex(6), spec, cfg, seed, agents, bots_from=len(prefix))
    table.start()
    for a in prefix:  # checked legal by whoever read the stored game; the bots take their seats after it
        table._take(int(a))
    table.bots_play()
    return table


def _seat_agents(spec: registry.GameSpec, players: int, seat: int, others: Any) -> list[str]:
    """Every seat's agent: the person's seat HUMAN, the others from the form (one name for all, or one each)."""
    others = [others] if isinstance(others, str) else others
    if not isinstance(others, list) or not others or not all(isinstance(a, str) and a for a in others):
        raise ConfigError("agents: expected a list of agent names")
    others = others * (players - 1) if len(others) == 1 else others
    if len(others) != players - 1:
        raise ConfigError(f"agents: expected {players - 1} agent names (or one for all), got {len(others)}")
    for a in others:
        if a != HUMAN and not agent_names.known(a, spec.name):
            raise ConfigError(f"agents: unknown agent {a!r} for {spec.title} "
                              f"(known: {', '.join(agent_names.names(spec.name))}, ppo:PATH, rllib:PATH, "
                              "FILE.py:CLASS, or human for another person)")
    return others[:seat] + [HUMAN] + others[seat:]


def _whole(value: Any, key: str) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key}: expected a whole number, got {value!r}")
    return value


def load_table(path: Path, table_id: str) -> Table:
    """A stored game, replayed from its seed and actions (ConfigError when the file is not one)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path.name}: not a readable saved game ({exc})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or data.get("version") != VERSION:
        raise ConfigError(f"{path.name}: not a saved browser game ({SCHEMA} version {VERSION})")
    cfg = registry.config_from_dict(data.get("config"), saved=True)
    agents, actions = data.get("agents"), data.get("actions")
    if not isinstance(agents, list) or len(agents) != cfg.n_players or not isinstance(actions, list):
        raise ConfigError(f"{path.name}: agents or actions malformed")
    bots_from = _whole(data.get("bots_from", 0), "bots_from")  # absent in files of older versions: 0
    table = Table(table_id, registry.game_of_config(cfg), cfg, _whole(data.get("seed"), "seed"), agents,
                  bots_from=bots_from)
    table.start()
    table.replay(actions, path.name, bots_from)
    table.bots_play()
    return table

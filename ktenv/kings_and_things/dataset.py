"""Kings & Things for the dataset tables (`ktenv.datasets`): figures, names, English and events of a state.

Works on both engines; on the native one it reads the native state directly, since building the Python
twin of a position (which `describe_action` does for it) costs ten times a step. English texts are the
engine's own `describe_action`, remembered per (decision, action, and the hex's face for a HEX action), the
only facts that text reads, and computed on a blank state holding just those.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import numpy as np

from ..datasets.game import Event
from . import catalog as cat
from . import decisions as D
from .board import board_radius, geometry, hex_label
from .config import GameConfig
from .constants import BOARD, CITY, NEUTRAL, SPECIAL_INCOME, VILLAGE
from .engine.actions import action_layout
from .engine.describe import describe_action
from .env.stats import STAT_COLUMNS, player_stats
from .state import PHASE_NAMES, GameState

_STATS = ("alive", "gold", "income", "hexes", "fort_levels", "forts", "citadels", "heroes", "board_things", "screen",
          "income_counters")
# public at the table (RI.1, RI.4, RI.7): how many of a player's Things on the board are face down, in how many
# stacks, and how many of those the table has never seen (each a possible bluff, R9, for all the others know)
_BOARD = ("face_down_stacks", "face_down_things", "unseen_things")
# running totals over the game: every change of a player's gold in hand (public, RI.1), up or down
_GOLD_FLOW = ("gold_gained", "gold_spent")
FIGURES = (*_STATS, *_BOARD, *_GOLD_FLOW)
_COLUMNS = [STAT_COLUMNS.index(f) for f in _STATS]
_NOT_INCOME = ~np.isin(cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))
# the stats counters that announce an event (the others count every step or every draw)
_WATCHED = ("explorations", "battles", "hexes_conquered", "bribes", "heroes_recruited", "events_played",
            "magic_played", "forts_built", "treasures_cashed", "heroes_dismissed")
_FORTS = ("", "Tower", "Keep", "Castle", "Citadel")
_counts = itemgetter(*_WATCHED)


def _raw(s: Any) -> Any:
    """The object holding the arrays and stats: the native state of a native game, else the state itself."""
    return getattr(s, "native", s)


def _frames(s: Any) -> list[dict]:
    raw = _raw(s)
    return raw.frames_list() if raw is not s else [f.to_dict() for f in s.frames]


def _face_down(raw: Any, n: int) -> np.ndarray:
    """Per player: face-down stacks, face-down Things on the board, and those never seen by the table."""
    owner = raw.thing_owner
    down = (raw.thing_place == BOARD) & ~raw.thing_face_up & _NOT_INCOME[:len(owner)] & (owner >= 0) & (owner < n)
    unseen = down & ~raw.thing_public
    stacks = np.unique(owner[down].astype(np.int64) * 10_000 + raw.thing_hex[down]) // 10_000
    return np.column_stack([np.bincount(stacks, minlength=n), np.bincount(owner[down], minlength=n),
                            np.bincount(owner[unseen], minlength=n)])


def _side(p: int) -> int:
    return -2 if p == NEUTRAL else int(p)


class Reader:
    """One config's reader (`ktenv.datasets.game.GameReader`)."""

    figures = FIGURES
    store_figures = {"gold": "gold", "income": "income", "hexes": "hexes", "fort_levels": "forts",
                     "heroes": "heroes"}

    def __init__(self, cfg: GameConfig) -> None:
        self.cfg = cfg
        self.lay = action_layout(cfg.n_players, cfg.house_content)
        self.geo = geometry(board_radius(cfg.n_players))
        self._blocks = [name for name, _, size in self.lay.blocks() for _ in range(size)]
        self._texts: dict[tuple, str] = {}
        self._encoder = None
        self._blank: GameState | None = None

    def round_of(self, s: Any) -> int:
        return int(s.round)

    def figures_of(self, s: Any, gold_flow: np.ndarray) -> list[list[int]]:
        """Every player's figures now; `gold_flow` holds the running totals (players x gained, spent)."""
        n = self.cfg.n_players
        return np.column_stack([player_stats(s)[:, _COLUMNS], _face_down(_raw(s), n), gold_flow]).tolist()

    def phase(self, s: Any) -> str:
        return PHASE_NAMES[s.phase]

    def decision(self, s: Any) -> str:
        return D.NAMES.get(s.decision, "?")

    def block(self, action: int) -> str:
        return self._blocks[action] if 0 <= action < len(self._blocks) else "?"

    def describe(self, s: Any, action: int) -> str:
        key: tuple = (s.decision, action)
        hx = action - self.lay.hex
        if 0 <= hx < self.lay.n_hexes:
            raw = _raw(s)
            key = (*key, int(raw.hex_terrain[hx]), bool(raw.hex_down[hx]))
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = describe_action(self._template(key), action)
        return text

    def _template(self, key: tuple) -> GameState:
        """A Python state holding only what the text reads, so a native game is never converted for it."""
        if self._blank is None:
            self._blank = GameState(self.cfg)
        s = self._blank
        s.decision = key[0]
        if len(key) > 2:
            hx = key[1] - self.lay.hex
            s.hex_terrain[hx], s.hex_down[hx] = key[2], key[3]
        return s

    def observe(self, s: Any, player: int) -> np.ndarray:
        if self._encoder is None:
            from .arena import encoder_for

            self._encoder = encoder_for(self.cfg)
        return self._encoder.encode(s, player)

    def watch(self, s: Any) -> Watch:
        return Watch(self, s)


class Watch:
    """Events of one game, from the engine's counters and the hexes and heroes that changed."""

    def __init__(self, reader: Reader, s: Any) -> None:
        self.reader = reader
        raw = _raw(s)
        # the arrays watched, and their values after the previous action (a native state's views stay put)
        self.now = (raw.hex_owner, raw.hex_fort, raw.hero_owner)
        self.owner, self.fort, self.heroes = (a.copy() for a in self.now)
        self.counts = _counts(raw.stats)
        self.battle: dict | None = None  # the battle under way: its latest frame and its sizes
        self.gold = np.asarray(raw.gold, np.int64).copy()
        self.gold_flow = np.zeros((reader.cfg.n_players, 2), np.int64)  # gained, spent

    def figures(self, s: Any) -> list[list[int]]:
        return self.reader.figures_of(s, self.gold_flow)

    def _keep(self) -> None:
        for before, now in zip((self.owner, self.fort, self.heroes), self.now):
            np.copyto(before, now)

    def after(self, s: Any, actor: int, action: int) -> list[Event]:
        raw = _raw(s)
        if raw is s:  # a Python state: its arrays may be new objects
            self.now = (raw.hex_owner, raw.hex_fort, raw.hero_owner)
        counts = _counts(raw.stats)
        gold = np.asarray(raw.gold, np.int64)
        change = gold - self.gold
        self.gold_flow[:, 0] += np.maximum(change, 0)
        self.gold_flow[:, 1] += np.maximum(-change, 0)
        self.gold = gold.copy()
        out = self._battle_goes_on(s) if self.battle is not None else []
        if counts != self.counts:
            changed = {k: b - a for k, a, b in zip(_WATCHED, self.counts, counts) if b != a}
            out += self._changes(s, raw, changed, actor, action)
            self.counts = counts
        if self.battle is not None and s.game_over:  # the game ended in it (a Citadel taken)
            out += self._battle_goes_on(s, ended=True)
        self._keep()  # claims, fort damage and the like are no events, but the next difference starts here
        return out

    def _changes(self, s: Any, raw: Any, changed: dict, actor: int, action: int) -> list[Event]:
        out: list[Event] = []
        label = self.reader.describe
        if "battles" in changed:
            out += self._battles_begin(s, raw, changed["battles"], actor)
        if "explorations" in changed:  # the one under way, and any over within the action (where unknown)
            frame = next((f for f in _frames(s) if f["procedure"] == "exploration"), None)
            for k in range(changed["explorations"]):
                here = frame if k == 0 else None
                out.append(Event("exploration", here["player"] if here else actor,
                                 place=hex_label(self.reader.geo, here["hex"]) if here else None))
        owner, fort, heroes = raw.hex_owner, raw.hex_fort, raw.hero_owner
        if "hexes_conquered" in changed:
            for hx in np.flatnonzero((owner != self.owner) & (owner >= 0)).tolist():
                out.append(Event("conquest", int(owner[hx]), _side(int(self.owner[hx])),
                                 hex_label(self.reader.geo, hx)))
        if "forts_built" in changed:
            for hx in np.flatnonzero(fort > self.fort).tolist():
                level = int(fort[hx])
                out.append(Event("construction", int(owner[hx]), place=hex_label(self.reader.geo, hx), amount=level,
                                 detail=_FORTS[min(level, 4)]))
        if "heroes_recruited" in changed:
            for h in np.flatnonzero((heroes >= 0) & (self.heroes < 0)).tolist():
                out.append(Event("hero_recruited", int(heroes[h]), detail=cat.HERO_NAME[h]))
        for key, kind in (("bribes", "bribe"), ("events_played", "event_played"), ("magic_played", "magic_played"),
                          ("treasures_cashed", "treasure_cashed"), ("heroes_dismissed", "hero_dismissed")):
            if key in changed:
                out.append(Event(kind, actor, amount=changed[key], detail=label(s, action) if action >= 0 else None))
        return out

    def _battles_begin(self, s: Any, raw: Any, count: int, actor: int) -> list[Event]:
        """`count` battles began with this action: the one still under way is followed; the others were over
        within the action (no decision in them), told where a hex changed hands."""
        out = self._battle_goes_on(s, ended=True) if self.battle is not None else []
        frame = next((f for f in _frames(s) if f["procedure"] == "battle"), None)
        if frame is not None:
            self.battle = {"frame": frame, "sizes": self._sizes(raw, frame)}
            count -= 1
        taken = [hx for hx in np.flatnonzero((raw.hex_owner != self.owner) & (raw.hex_owner >= 0)).tolist()
                 if frame is None or hx != frame["hex"]]
        for k in range(count):
            hx = taken[k] if k < len(taken) else None
            winner = f"; won by player {int(raw.hex_owner[hx])}" if hx is not None else ""
            out.append(Event("battle", actor, place=None if hx is None else hex_label(self.reader.geo, hx),
                             detail=f"over within one action{winner}"))
        return out

    @staticmethod
    def _sizes(raw: Any, frame: dict) -> tuple[int, int]:
        """The attacker's and the defender's counters in the battle hex."""
        hx = frame["hex"]
        here = (raw.thing_place == BOARD) & (raw.thing_hex == hx) & (raw.thing_owner >= 0)
        heroes = (raw.hero_hex == hx) & (raw.hero_owner >= 0)
        sizes = np.bincount(np.concatenate([raw.thing_owner[here], raw.hero_owner[heroes]]).astype(np.int64),
                            minlength=NEUTRAL + 1)
        return int(sizes[frame["attacker"]]), int(sizes[frame["defender"]])

    def _battle_goes_on(self, s: Any, ended: bool = False) -> list[Event]:
        """The battle's row once its frame is gone (or another battle began); nothing while it goes on."""
        assert self.battle is not None
        frame, (attacker, defender) = self.battle["frame"], self.battle["sizes"]
        if not ended:
            now = next((f for f in _frames(s) if f["procedure"] == "battle" and f["hex"] == frame["hex"]), None)
            if now is not None:
                self.battle["frame"] = now
                return []
        self.battle = None
        winner = frame["winner"]
        if winner < 0:  # decided in the step that closed it: the hex's owner now
            winner = int(_raw(s).hex_owner[frame["hex"]])
        won = "nobody" if winner < 0 else ("the neutral side" if winner == NEUTRAL else f"player {winner}")
        return [Event("battle", frame["attacker"], _side(frame["defender"]), hex_label(self.reader.geo, frame["hex"]),
                      frame["round"], f"{attacker} against {defender} counters; won by {won}")]


def reader(cfg: GameConfig) -> Reader:
    return Reader(cfg)

"""The whole game as a few numpy arrays plus a handful of integers (design.md "state").

Every Thing has one entry in each `thing_*` array, so "every counter is in exactly one place"
holds by construction; `check_invariants()` proves the rest (ownership, stack and screen limits,
gold, heroes, forts). Copy is a few array copies; `to_json`/`from_json` round-trip exactly.
"""

from __future__ import annotations

import json
from typing import TypeVar

import numpy as np

from ..rng import Dice
from . import catalog as cat
from .board import Geometry, board_radius, geometry
from .config import ENCOUNTER_POWERS, ConfigError, GameConfig
from .constants import (
    BOARD,
    CITY,
    CREATURE,
    CUP,
    EVENT,
    MAGIC,
    NEUTRAL,
    NOBODY,
    OUT,
    PHASE_CODES,
    SCREEN,
    SCREEN_LIMIT,
    SEA,
    SPECIAL_INCOME,
    STACK_LIMIT,
    TREASURE,
    VILLAGE,
)
from .decisions import N_DECISIONS
from .procedures import (
    BruteScreens,
    Discard,
    Event,
    Exploration,
    Frame,
    FrameError,
    MovementTurn,
    RecruitTurn,
    Setup,
    StackOverflow,
    frame_from_dict,
)

SCHEMA = "ktenv.kings_and_things.state"
SCHEMA_VERSION = 3  # 3: typed procedure frames (`frames`); 2: neutral owner code 6 (was 4), six players (R20.1)

# Movement status of a creature or hero during the Movement phase (R11.2.1).
UNMOVED, MOVING, DONE = range(3)

# Phases of a round (R5.1), plus setup and the end.
SETUP, INCOME, HEROES, RECRUIT, EVENTS, MOVEMENT, COMBAT, CONSTRUCTION, SPECIAL, CHANGE_ORDER, GAME_OVER = PHASE_CODES
PHASE_NAMES = (
    "setup", "collect gold", "recruit heroes", "recruit things", "play events", "movement",
    "exploration and battles", "construction", "special powers", "change turn order", "game over",
)

STAT_KEYS = (
    "explorations", "battles", "hexes_conquered", "bribes", "heroes_recruited",
    "events_played", "magic_played", "decisions", "things_drawn", "forts_built",
    "treasures_cashed", "heroes_dismissed", "income_counters_removed",
)

_THING_ARRAYS = ("thing_place", "thing_owner", "thing_hex", "thing_face_up", "thing_public",
                 "thing_selected", "thing_new", "thing_mp", "thing_status", "thing_pinned", "thing_moved",
                 "thing_damage", "thing_fought", "thing_in_play", "thing_bearer", "thing_from")
_HEX_ARRAYS = ("hex_terrain", "hex_owner", "hex_fort", "hex_income", "hex_fort_round",
               "hex_citadel_round", "hex_citadel_seq", "hex_citadel_built", "hex_fort_damage", "hex_down")
_HERO_ARRAYS = ("hero_up", "hero_owner", "hero_hex", "hero_mp", "hero_status", "hero_pinned", "hero_moved",
                "hero_damage", "hero_from")
_PLAYER_ARRAYS = ("gold", "alive", "start_hex", "drawn", "power", "power_hex", "seen")
# R21 / R20.3: saves made before the Encounter powers or Mysterious Kadab, or of games without
# Mysterious Kadab, load without them
_KADAB_ARRAYS = ("hex_down", "thing_from", "hero_from", "seen")
_OPTIONAL_ARRAYS = ("power", "power_hex", *_KADAB_ARRAYS)
_TAX_FARMER = ENCOUNTER_POWERS.index("Tax Farmer")
_ARRAYS = _THING_ARRAYS + _HEX_ARRAYS + _HERO_ARRAYS + _PLAYER_ARRAYS
_SCALARS = ("round", "phase", "stage", "turn", "first_player", "decision", "actor",
            "cloud_hex", "citadel_seq", "cup_ran_dry")


F = TypeVar("F", bound=Frame)


class StateFileError(ValueError):
    """A saved game that cannot be loaded (malformed, truncated, inconsistent)."""


class InvariantError(AssertionError):
    """The state broke a rule of conservation or a limit (a bug, never a player's fault)."""


class GameState:
    __slots__ = ("cfg", "geo", *_ARRAYS, *_SCALARS, "frames", "hex_stack", "hex_aside", "rng", "winners",
                 "reason", "stats", "_mask")

    def __init__(self, cfg: GameConfig, seed: int = 0) -> None:
        self.cfg = cfg
        self.geo: Geometry = geometry(board_radius(cfg.n_players))
        game = cat.catalog_for(cfg.n_players, cfg.house_content)
        n, h, p, f = game.N_THINGS, self.geo.n_hexes, cfg.n_players, game.N_HERO_FACES
        self.thing_place = np.full(n, CUP, np.int8)
        self.thing_owner = np.full(n, NOBODY, np.int8)
        self.thing_hex = np.full(n, -1, np.int8)
        self.thing_face_up = np.zeros(n, bool)
        self.thing_public = np.zeros(n, bool)  # identity known to all while on the board (RI.4)
        self.thing_selected = np.zeros(n, bool)  # trade set / exchange choice in progress
        self.thing_new = np.zeros(n, bool)  # drawn in the setup exchange (R4.10)
        # Movement (R11): points left, UNMOVED/MOVING/DONE, pinned at the start of the turn,
        # entered a hex this turn (for conquest by movement, R11.8.1).
        self.thing_mp = np.zeros(n, np.int8)
        self.thing_status = np.zeros(n, np.int8)
        self.thing_pinned = np.zeros(n, bool)
        self.thing_moved = np.zeros(n, bool)
        self.thing_damage = np.zeros(n, np.int8)  # hits on a city/village in the current battle (R13.5.2)
        self.thing_fought = np.zeros(n, bool)  # neutral defender that fought a round (R12.4.2)
        self.thing_in_play = np.zeros(n, bool)  # a magic item in use in a battle or a move (R0.5.1)
        self.thing_bearer = np.full(n, -1, np.int16)  # the creature carrying a Magic Bow / Sword
        self.thing_from = np.full(n, -1, np.int8)  # R20.3 / RD10.15: hex it left to enter a face-down hex
        self.hex_terrain = np.zeros(h, np.int8)
        self.hex_owner = np.full(h, NOBODY, np.int8)
        self.hex_fort = np.zeros(h, np.int8)
        self.hex_income = np.full(h, -1, np.int16)  # the one income counter in the hex (R1.9.3)
        self.hex_fort_round = np.full(h, -1, np.int16)  # round of the last fort change (R14.2)
        self.hex_citadel_round = np.full(h, -1, np.int16)  # round the owner acquired the Citadel (R16.1)
        self.hex_citadel_seq = np.full(h, -1, np.int16)  # acquisition order, for ties (RD9.3)
        self.hex_citadel_built = np.zeros(h, bool)  # acquired by building, not conquest (R19.1 option)
        self.hex_fort_damage = np.zeros(h, np.int8)  # hits on the fort in the current battle (R13.5.2)
        self.hex_down = np.zeros(h, bool)  # R20.3 Mysterious Kadab: the tile is still face down
        self.hero_up = np.zeros(game.N_HERO_COUNTERS, np.int8)  # which face of each counter is up
        self.hero_owner = np.full(f, NOBODY, np.int8)
        self.hero_hex = np.full(f, -1, np.int8)
        self.hero_mp = np.zeros(f, np.int8)
        self.hero_status = np.zeros(f, np.int8)
        self.hero_pinned = np.zeros(f, bool)
        self.hero_moved = np.zeros(f, bool)
        self.hero_damage = np.zeros(f, np.int8)  # hit taken in the current combat step
        self.hero_from = np.full(f, -1, np.int8)  # R20.3: as thing_from
        self.gold = np.zeros(p, np.int32)
        self.alive = np.ones(p, bool)
        self.start_hex = np.full(p, -1, np.int8)
        self.drawn = np.zeros(p, np.int16)  # Things drawn in the current recruiting turn (public)
        self.power = np.full(p, -1, np.int8)  # R21 Encounter power (config.ENCOUNTER_POWERS code; public, RI.1)
        self.power_hex = np.full(p, -1, np.int8)  # R21.7 the Tax Farmer's marked hex (public)
        self.seen = np.zeros((p, h), bool)  # R22.4 / R20.3: face-down hexes whose terrain the player saw (private)
        self.round = 0
        self.phase = SETUP
        self.stage = 0
        self.turn = 0
        self.first_player = 0
        self.decision = 0
        self.actor = NOBODY
        self.cloud_hex = -1
        self.citadel_seq = 0
        self.cup_ran_dry = 0  # R17.2: public flag, true elimination in force
        self.frames: list[Frame] = []  # procedures under way, outermost first (ktenv.kings_and_things.procedures)
        self.hex_stack: list[int] = []  # terrain codes; the provisional stack during setup (R3.5)
        self.hex_aside: list[int] = []  # set-aside and replaced Sea tiles until the stack forms
        self.rng = Dice(seed)
        self.winners: list[int] = []
        self.reason = ""
        self.stats = dict.fromkeys(STAT_KEYS, 0)
        self._mask = None

    def edited(self) -> GameState:
        """Say that this state was changed by hand (a test, a tool, a variant): the cached legal mask is
        dropped, so the next `legal_mask` reads the state afresh. Returns the state. The engine itself
        never needs it; after arranging a state, `ktenv.kings_and_things.engine.resume` runs on to the next decision."""
        self._mask = None
        return self

    # ----- basic queries (used by every engine module) -----

    @property
    def n_players(self) -> int:
        return self.cfg.n_players

    @property
    def cat(self) -> cat.Catalog:
        """The game's catalog: one box, or two with six players (R20.1), with the house block when
        house_content (R22); its Things and hero faces are the game's ids."""
        return cat.catalog_for(self.cfg.n_players, self.cfg.house_content)

    @property
    def n_things(self) -> int:
        return len(self.thing_place)

    @property
    def game_over(self) -> bool:
        return self.phase == GAME_OVER

    def turn_order(self) -> list[int]:
        """Players in turn order from the first player, skipping those out of the game (R0.4.15)."""
        n = self.cfg.n_players
        return [q for q in ((self.first_player + i) % n for i in range(n)) if self.alive[q]]

    def right_of(self, player: int) -> int:
        """The previous player in turn order (RD1.4)."""
        order = self.turn_order()
        return order[(order.index(player) - 1) % len(order)]

    def screen(self, player: int) -> np.ndarray:
        return np.flatnonzero((self.thing_place == SCREEN) & (self.thing_owner == player))

    def screen_size(self, player: int) -> int:
        return int(np.count_nonzero((self.thing_place == SCREEN) & (self.thing_owner == player)))

    def cup(self) -> np.ndarray:
        return np.flatnonzero(self.thing_place == CUP)

    def owned_hexes(self, player: int) -> np.ndarray:
        return np.flatnonzero(self.hex_owner == player)

    def land_hex_count(self, player: int) -> int:
        return int(np.count_nonzero(self.hex_owner == player))

    def heroes_of(self, player: int) -> np.ndarray:
        return np.flatnonzero(self.hero_owner == player)

    def army_counts(self, player: int) -> np.ndarray:
        """Creatures and heroes of `player` per hex (what the stack limit counts, R11.4.1)."""
        on_board = (self.thing_place == BOARD) & (self.thing_owner == player) & (self.cat.THING_KIND == CREATURE)
        counts = np.bincount(self.thing_hex[on_board], minlength=self.geo.n_hexes)
        heroes = self.hero_hex[self.hero_owner == player]
        if heroes.size:
            counts += np.bincount(heroes, minlength=self.geo.n_hexes)
        return counts

    def room_for(self, player: int, counts: np.ndarray | None = None) -> np.ndarray:
        """Per hex: how many more creatures/heroes `player` may have there (R11.4; Citadel: no limit)."""
        if counts is None:
            counts = self.army_counts(player)
        room = STACK_LIMIT - counts
        room[self.hex_fort == 4] = 10_000
        return room

    def income(self, player: int) -> int:
        """Current income (R6.2): land hexes + fort levels + income counters + heroes (R6.3 Dwarf King)."""
        owned = self.hex_owner == player
        total = int(np.count_nonzero(owned)) + int(self.hex_fort[owned].sum())
        counters = self.hex_income[owned]
        counters = counters[counters >= 0]
        if counters.size:
            values = cat.THING_INCOME[counters].astype(np.int32)
            if self.hero_owner[cat.hero_id("Dwarf King")] == player:
                values[cat.THING_IS_MINE[counters]] *= 2  # A.9
            mark = int(self.power_hex[player])
            if mark >= 0 and owned[mark] and self.hex_income[mark] >= 0:
                values[counters == self.hex_income[mark]] *= 2  # R21.7 Tax Farmer: the marked counter doubles
            total += int(values.sum())
        return total + int(np.count_nonzero(self.hero_owner == player))

    def citadel_hexes(self, player: int | None = None) -> np.ndarray:
        mask = self.hex_fort == 4
        if player is not None:
            mask &= self.hex_owner == player
        return np.flatnonzero(mask)

    def fort_in_use(self, level: int) -> int:
        return int(np.count_nonzero(self.hex_fort == level))

    # ----- procedures under way (typed frames, ktenv.kings_and_things.procedures) -----

    def frame(self, cls: type[F]) -> F | None:
        """The frame of procedure `cls` under way, or None."""
        for f in self.frames:
            if type(f) is cls:
                return f
        return None

    def push(self, frame: F) -> F:
        """Start a procedure (at most one frame of a kind is under way)."""
        if self.frame(type(frame)) is not None:
            raise InvariantError(f"procedure {frame.NAME!r} started twice")
        self.frames.append(frame)
        return frame

    def drop(self, cls: type[Frame]) -> None:
        """End procedure `cls` if it is under way."""
        self.frames = [f for f in self.frames if type(f) is not cls]

    def open_screen(self) -> int:
        """R17.1.1 / R17.1.2: the player whose screen may hold more than 10 now (the one discarding,
        or the one recruiting until their placement is done), -1: nobody."""
        discard = self.frame(Discard)
        if discard is not None:
            return discard.player
        recruiting = self.frame(RecruitTurn)
        return -1 if recruiting is None else recruiting.open_screen

    # ----- copy and JSON -----

    def copy(self) -> GameState:
        other = GameState.__new__(GameState)
        other.cfg, other.geo = self.cfg, self.geo
        for name in _ARRAYS:
            setattr(other, name, getattr(self, name).copy())
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        other.frames = [f.copy() for f in self.frames]
        other.hex_stack = list(self.hex_stack)
        other.hex_aside = list(self.hex_aside)
        other.rng = self.rng.copy()
        other.winners = list(self.winners)
        other.reason = self.reason
        other.stats = dict(self.stats)
        other._mask = None if self._mask is None else self._mask.copy()
        return other

    def to_dict(self) -> dict:
        data = {"schema": SCHEMA, "version": SCHEMA_VERSION, "config": self.cfg.to_dict()}
        for name in _ARRAYS:
            if name in _KADAB_ARRAYS and not self.cfg.mysterious_kadab:
                continue  # never changed without Mysterious Kadab: saves stay as they were before it
            data[name] = getattr(self, name).tolist()
        for name in _SCALARS:
            data[name] = int(getattr(self, name))
        data.update(frames=[f.to_dict() for f in self.frames], hex_stack=list(self.hex_stack),
                    hex_aside=list(self.hex_aside), rng=self.rng.to_json(),
                    winners=list(self.winners), reason=self.reason, stats=dict(self.stats))
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameState:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise StateFileError(f"saved game: not valid JSON ({exc})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        if not isinstance(data, dict):
            raise StateFileError("saved game: expected a JSON object")
        if data.get("schema") != SCHEMA:
            raise StateFileError(f"saved game: field 'schema' must be {SCHEMA!r}, got {data.get('schema')!r}")
        if data.get("version") not in (2, SCHEMA_VERSION):
            old = " (version 1 used the neutral owner code 4; replay its game record instead)" \
                if data.get("version") == 1 else ""
            raise StateFileError(f"saved game: field 'version' {data.get('version')!r} is not supported "
                                 f"(this ktenv reads version {SCHEMA_VERSION}){old}")
        try:
            cfg = GameConfig.from_saved(data["config"])
        except KeyError:
            raise StateFileError("saved game: field 'config' is missing") from None
        except (ConfigError, TypeError) as exc:
            raise StateFileError(f"saved game: field 'config': {exc}") from None
        state = cls(cfg)
        things = data.get("thing_place")
        if cfg.n_players == 6 and isinstance(things, list) and len(things) == 2 * cat.N_THINGS:
            raise StateFileError("saved game: a six-player save from before the house block (R22) joined the "
                                 "six-player catalog, which moved the second box's ids; it cannot be loaded")
        for name in _ARRAYS:
            template = getattr(state, name)
            if name in _OPTIONAL_ARRAYS and name not in data:
                continue
            value = _field(data, name)
            try:
                array = np.asarray(value, dtype=np.int64)
            except (TypeError, ValueError):
                raise StateFileError(f"saved game: field '{name}' must be a list of integers") from None
            if array.shape != template.shape:
                raise StateFileError(f"saved game: field '{name}' has shape {array.shape}, expected {template.shape}")
            info = np.iinfo(template.dtype) if template.dtype != bool else None
            if info is not None and array.size and (array.min() < info.min or array.max() > info.max):
                raise StateFileError(f"saved game: field '{name}' has values out of range")
            if info is None and array.size and not np.isin(array, (0, 1)).all():
                raise StateFileError(f"saved game: field '{name}' must hold true/false values")
            setattr(state, name, array.astype(template.dtype))
        for name in _SCALARS:
            value = _field(data, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise StateFileError(f"saved game: field '{name}' must be an integer")
            low, high = _scalar_range(state, name)
            if not low <= value <= high:
                raise StateFileError(f"saved game: field '{name}' = {value} is out of range {low}..{high}")
            setattr(state, name, value)
        try:
            if data["version"] == 2:
                from .saves_v2 import load_registers  # only a version-2 save needs the compatibility reading

                load_registers(state, _field(data, "reg"))
            else:
                state.frames = [frame_from_dict(f) for f in _field(data, "frames")]
            state.hex_stack = [int(v) for v in _field(data, "hex_stack")]
            state.hex_aside = [int(v) for v in _field(data, "hex_aside")]
            state.rng = Dice.from_json(_field(data, "rng"))
            state.winners = [int(v) for v in _field(data, "winners")]
            state.reason = str(_field(data, "reason"))
            stats = _field(data, "stats")
            state.stats = {key: int(stats[key]) for key in STAT_KEYS}
        except FrameError as exc:
            raise StateFileError(f"saved game: field 'frames': {exc}") from None
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise StateFileError(f"saved game: malformed field ({exc})") from None
        try:
            state.check_invariants()
            check_stacks(state)
        except InvariantError as exc:
            raise StateFileError(f"saved game: inconsistent state: {exc}") from None
        return state

    # ----- pickle and deepcopy (Ray, multiprocessing, search) -----

    def __getstate__(self) -> tuple[None, dict]:
        # the geometry (read-only mappings, shared by every game of a board size) is rebuilt from cfg
        return None, {name: getattr(self, name) for name in GameState.__slots__ if name != "geo"}

    def __setstate__(self, state: tuple[None, dict]) -> None:
        slots = state[1]
        for name, value in slots.items():
            setattr(self, name, value)
        self.geo = geometry(board_radius(self.cfg.n_players))

    def __deepcopy__(self, memo: dict) -> GameState:
        return self.copy()

    # ----- invariants -----

    def check_invariants(self) -> None:
        """Raise InvariantError naming the first broken rule (R0.5, R1.9.3, R11.4, R17.1, ...)."""
        _check_things(self)
        _check_hexes(self)
        _check_heroes(self)
        _check_players(self)


def _scalar_range(s: GameState, name: str) -> tuple[int, int]:
    """Allowed values of a saved scalar (a file with a phase or decision the engine lacks is corrupt)."""
    big = 1 << 62
    return {
        "phase": (SETUP, GAME_OVER), "decision": (0, N_DECISIONS - 1), "first_player": (0, s.n_players - 1),
        "actor": (NOBODY, s.n_players - 1), "cloud_hex": (-1, s.geo.n_hexes - 1), "cup_ran_dry": (0, 1),
    }.get(name, (0, big))


def _field(data: dict, name: str):
    if name not in data:
        raise StateFileError(f"saved game: field '{name}' is missing (truncated file?)")
    return data[name]


def _fail(message: str) -> None:
    raise InvariantError(message)


def _check_things(s: GameState) -> None:
    n, h = s.cfg.n_players, s.geo.n_hexes
    place, owner, where = s.thing_place, s.thing_owner, s.thing_hex
    if not np.isin(place, (CUP, SCREEN, BOARD, OUT)).all():
        _fail("a Thing has an unknown place")
    loose = (place == CUP) | (place == OUT)
    if (owner[loose] != NOBODY).any() or (where[loose] != -1).any():
        _fail("a Thing in the cup or out of the game has an owner or a hex")
    on_screen = place == SCREEN
    if ((owner[on_screen] < 0) | (owner[on_screen] >= n)).any() or (where[on_screen] != -1).any():
        _fail("a Thing behind a screen has no valid owner, or a hex")
    on_board = place == BOARD
    b_owner, b_hex = owner[on_board], where[on_board]
    if ((b_hex < 0) | (b_hex >= h)).any():
        _fail("a Thing on the board has no valid hex")
    if not (((b_owner >= 0) & (b_owner < n)) | (b_owner == NEUTRAL)).all():
        _fail("a Thing on the board has no valid owner")
    if ((s.hex_terrain[b_hex] == SEA) & ~s.hex_down[b_hex]).any():  # R20.3: unknown until turned up
        _fail("a Thing lies on a Sea hex (R11.3.4)")
    kinds = s.cat.THING_KIND[on_board]
    guarded = np.isin(kinds, (TREASURE, MAGIC, EVENT)) & ~s.thing_in_play[on_board]
    if (b_owner[guarded] != NEUTRAL).any():
        _fail("a treasure, magic item or event lies on the board outside neutral guard (R8.3.2)")
    if (s.thing_in_play & ((place != BOARD) | (s.cat.THING_KIND != MAGIC))).any():
        _fail("a counter is in play that is not a magic item on the board")
    if ((s.thing_mp != 0) | (s.thing_status != 0) | s.thing_pinned)[~on_board].any():
        _fail("a counter off the board has movement points or a movement status")
    if (s.thing_selected & ~on_screen).any():
        _fail("a selected trade/exchange counter is not behind a screen")


def _check_hexes(s: GameState) -> None:
    n = s.cfg.n_players
    land = s.hex_terrain != SEA
    if (s.hex_terrain < 0).any() or (s.hex_terrain > SEA).any():
        _fail("a hex has an unknown terrain")
    if ((s.hex_owner < NOBODY) | (s.hex_owner >= n)).any() or (s.hex_owner[~land] != NOBODY).any():
        _fail("a hex owner is invalid, or a Sea hex is owned (R0.4.2)")
    if ((s.hex_fort < 0) | (s.hex_fort > 4)).any() or ((s.hex_fort > 0) & (s.hex_owner == NOBODY)).any():
        _fail("a fort level is invalid, or a fort stands in an unowned hex")
    # Fort supply is not checked: reductions may exceed the box (RD7.8), only building checks it.
    income_kinds = (SPECIAL_INCOME, CITY, VILLAGE)
    on_board = (s.thing_place == BOARD) & np.isin(s.cat.THING_KIND, income_kinds)
    x = s.frame(Exploration)
    if x is not None and x.tie:  # R12.2.4: tied drawn income counters wait on the hex for the controller's choice
        on_board &= s.thing_hex != x.hex
    ids = np.flatnonzero(on_board)
    if np.bincount(s.thing_hex[ids], minlength=s.geo.n_hexes).max(initial=0) > 1:
        _fail("a hex holds two income counters (R1.9.3)")
    expected = np.full(s.geo.n_hexes, -1, np.int16)
    expected[s.thing_hex[ids]] = ids
    if not np.array_equal(expected, s.hex_income):
        _fail("hex_income disagrees with the income counters on the board")
    for c in ids:
        hx = s.thing_hex[c]
        want = s.hex_owner[hx] if s.hex_owner[hx] != NOBODY else NEUTRAL
        if s.thing_owner[c] != want:
            _fail(f"income counter {cat.THING_NAME[c]} is not owned by its hex's owner")
        if cat.THING_KIND[c] == SPECIAL_INCOME and cat.THING_TERRAIN[c] != s.hex_terrain[hx]:
            _fail(f"{cat.THING_NAME[c]} lies on the wrong terrain (R8.3.4)")
    if not -1 <= s.cloud_hex < s.geo.n_hexes:
        _fail("the black cloud is on no valid hex")
    if s.hex_down.any() and (not s.cfg.mysterious_kadab or (s.hex_owner[s.hex_down] != NOBODY).any()):
        _fail("a face-down hex without Mysterious Kadab, or an owned one (R20.3)")


def _check_heroes(s: GameState) -> None:
    n = s.cfg.n_players
    if not np.isin(s.hero_up, (0, 1)).all():
        _fail("a hero counter has no face up")
    owned = s.hero_owner != NOBODY
    if ((s.hero_owner < NOBODY) | (s.hero_owner >= n)).any():
        _fail("a hero has an invalid owner")
    faces = np.flatnonzero(owned)
    if (s.hero_up[faces // 2] != faces % 2).any():
        _fail("an owned hero is not the face-up side of its counter (R7.9)")
    if ((s.hero_hex[owned] < 0) | (s.hero_hex[owned] >= s.geo.n_hexes)).any() or (s.hero_hex[~owned] != -1).any():
        _fail("an owned hero is on no hex, or a pool hero is on the board")
    if ((s.hex_terrain[s.hero_hex[owned]] == SEA) & ~s.hex_down[s.hero_hex[owned]]).any():
        _fail("a hero stands on a Sea hex")
    lords = owned & (s.cat.HERO_LORD_TERRAIN >= 0)
    event = s.frame(Event)
    if np.bincount(s.hero_owner[lords], minlength=n).max(initial=0) > 1 and (event is None or event.lord_player < 0):
        _fail("a player owns two terrain lords (R7.10)")


def _check_powers(s: GameState) -> None:
    """R21.0: powers only with encounter_powers, valid and distinct; R21.7 marks only by a Tax Farmer."""
    power, mark = s.power, s.power_hex
    if (power < -1).any() or (power >= len(ENCOUNTER_POWERS)).any():
        _fail("a player has an unknown Encounter power")
    dealt = power[power >= 0]
    if dealt.size and (not s.cfg.encounter_powers or np.unique(dealt).size != dealt.size):
        _fail("Encounter powers are dealt without encounter_powers, or twice (R21.0)")
    if (mark < -1).any() or (mark >= s.geo.n_hexes).any():
        _fail("a marked hex is not on the board")
    if ((mark >= 0) & (power != _TAX_FARMER)).any():
        _fail("a hex is marked by a player who is no Tax Farmer (R21.7)")


def _check_players(s: GameState) -> None:
    if (s.gold < 0).any():
        _fail("a player has negative gold")
    _check_powers(s)
    brute, overflow = s.frame(BruteScreens), s.frame(StackOverflow)
    setup = s.frame(Setup)
    waived = (setup is not None and setup.screens_open) or s.frame(Discard) is not None
    for p in range(s.cfg.n_players):
        # R17.1.1: over 10 only during setup before placement, or while discards are under way
        # (one player discards at a time; the others over the limit follow at once)
        if s.screen_size(p) > SCREEN_LIMIT and s.open_screen() != p and not waived \
                and not (brute is not None and p in brute.over):  # R21.4: a Brute's creature came back mid-decision
            _fail(f"player {p} holds more than {SCREEN_LIMIT} counters behind the screen (R17.1)")
        room = s.room_for(p)
        moving = s.frame(MovementTurn) is not None and s.cfg.stack_limit_check == "end_of_movement" and \
            p == s.turn_order()[min(s.turn, len(s.turn_order()) - 1)]  # R11.4.4: checked when the turn ends
        if (room < 0).any() and not (overflow is not None and (overflow.retreat or overflow.owners[p])) \
                and not moving:
            _fail(f"player {p} has more than 10 creatures and heroes in a hex (R11.4)")
        if not s.alive[p] and (s.hex_owner == p).any():
            _fail(f"player {p} is out of the game but owns a hex")
        # R16.3 is the standard rule only: every R19 variant replaces it (two Citadels may be held)
        if len(s.citadel_hexes(p)) > 1 and s.phase != GAME_OVER and s.cfg.victory == "standard":
            _fail(f"player {p} owns two Citadels but has not won (R16.3)")


# Phases between one Combat phase and the next Events phase: every battle and exploration was
# resolved in the Combat phase (R12.1.4), and until the Events phase (R22.5 Portal) and the Movement
# phase counters only arrive in a hex by placement on their owner's own hexes (R8.3.1, R7, B.8).
_SETTLED_PHASES = (INCOME, HEROES, RECRUIT, CONSTRUCTION, SPECIAL, CHANGE_ORDER)


def _sides(s: GameState) -> np.ndarray:
    """bool [hex, side] (R0.5.2): side p < n_players has creatures, heroes or other counters there
    (income counters and items in play left out: they follow other rules); side n_players: neutral."""
    n = s.n_players
    kinds = s.cat.THING_KIND
    on = (s.thing_place == BOARD) & ~np.isin(kinds, (SPECIAL_INCOME, CITY, VILLAGE)) & ~s.thing_in_play
    owners = s.thing_owner[on].astype(np.int64)
    sides = np.zeros((s.geo.n_hexes, n + 1), bool)
    sides[s.thing_hex[on], np.where(owners == NEUTRAL, n, owners)] = True
    heroes = s.hero_owner >= 0
    sides[s.hero_hex[heroes], s.hero_owner[heroes]] = True
    return sides


def _owner_text(owner: int) -> str:
    return "nobody" if owner == NOBODY else f"player {owner}"


def check_stacks(s: GameState) -> None:
    """Who may have counters in whose hex, by phase: what a saved game can never hold.

    Sharing a hex is legal far beyond battles: an enemy stack stays in a hex whose owner's flyers
    left it (R11.6, no battle follows, R12.1.1) and the owner may then place counters beside it; so
    only what no sequence of legal actions reaches is refused."""
    n = s.n_players
    sides = _sides(s)
    for hx in np.flatnonzero(sides.any(axis=1)):
        owner = int(s.hex_owner[hx])
        foreign = [p for p in np.flatnonzero(sides[hx, :n]).tolist() if p != owner]
        if sides[hx, n] and owner != NOBODY and s.phase != COMBAT:
            _fail(f"hex {hx}: neutral counters in a hex owned by player {owner} (R12.4.1: neutral defenders "
                  "stay only in unexplored hexes; a conquest removes them)")
        if not foreign:
            continue
        where = f"hex {hx}, owned by {_owner_text(owner)}, holds counters of player {foreign[0]}"
        if s.phase == SETUP:
            _fail(f"{where} during setup (R4.8, R8.3.1: Things are placed only on their owner's hexes)")
        if s.phase not in _SETTLED_PHASES:
            continue
        if owner == NOBODY:
            _fail(f"{where} in phase '{PHASE_NAMES[s.phase]}' (R12.1.4: every exploration is resolved "
                  "in the Combat phase)")
        if len(foreign) > 1:
            _fail(f"hex {hx}, owned by player {owner}, holds counters of players {foreign[0]} and {foreign[1]} "
                  f"in phase '{PHASE_NAMES[s.phase]}' (R12.1.4, R13.9.3: every battle ends in the Combat "
                  "phase with one side left)")


def is_saved_game(data) -> bool:
    """Whether parsed JSON is a saved game of Kings & Things (its schema says so)."""
    return isinstance(data, dict) and data.get("schema") == SCHEMA

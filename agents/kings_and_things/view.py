"""Reading an observation vector by name, for rule-based agents.

Agents see only their observation (docs/observation.md): this module decodes the flat float32
vector with the layout the environment documents (`ktenv.kings_and_things.env.build_layout`) into a few numpy
arrays with the names of the game (my gold, hex owners, stacks, my counters ...). It also uses
static, public facts of the box: the counter manifest (`ktenv.kings_and_things.catalog`: a counter's printed
combat value, terrain and flags once its identity is known) and the board geometry
(`ktenv.kings_and_things.board`: which hex is next to which). It never touches a game state.

The layout is found from the vector's length (it depends on the number of players and on the
options house_content and mysterious_kadab, which give every layout its own length), so an agent
needs no configuration: `View(obs)`.
"""

from __future__ import annotations

from collections import deque
from functools import cache, wraps

import numpy as np

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.board import board_radius, geometry
from ktenv.kings_and_things.constants import (
    CITY,
    CREATURE,
    EVENT,
    MAGIC,
    PLAYER_COUNTS,
    SEA,
    SPECIAL_INCOME,
    TREASURE,
    VILLAGE,
)
from ktenv.kings_and_things.engine.actions import action_layout
from ktenv.kings_and_things.env.observation import build_layout

MOVE_COST = cat.MOVE_COST.astype(np.int64)  # per terrain (Sea: only flyers)
THING_COMBAT = cat.THING_COMBAT.astype(np.float64)
HERO_COMBAT = cat.HERO_COMBAT.astype(np.float64)
THING_KIND = cat.THING_KIND
IS_CREATURE = THING_KIND == CREATURE
IS_INCOME = np.isin(THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))
HIDDEN_COMBAT = float(THING_COMBAT[:cat.N_THINGS][IS_CREATURE[:cat.N_THINGS]].mean())  # an unknown creature's worth
EVENT_NAME = {int(i): cat.THING_NAME[i] for i in cat.TWO_BOXES.EVENT_IDS}  # both boxes (R20.1)
MAGIC_NAME = {int(i): cat.THING_NAME[i] for i in cat.TWO_BOXES.MAGIC_IDS}


def _memo(method):
    """Cache a no-argument View method (a View is one immutable observation)."""
    name = method.__name__

    @wraps(method)
    def wrapper(self):
        hit = self._memo.get(name)
        if hit is None:
            hit = self._memo[name] = method(self)
        return hit

    return wrapper


class LayoutError(ValueError):
    """An observation whose length matches no known layout."""


# A layout variant: (players, house_content, mysterious_kadab).
VARIANTS = tuple((n, house, kadab) for n in PLAYER_COUNTS for house in (False, True) for kadab in (False, True))


@cache
def _shape(n_players: int, house: bool = False, kadab: bool = False):
    geo = geometry(board_radius(n_players))
    return build_layout(n_players, geo.n_hexes, house, kadab), geo, action_layout(n_players, house)


@cache
def hex_distances(n_players: int) -> np.ndarray:
    """Steps between every two hexes of the board (ignoring terrain), int64[h, h]."""
    geo = _shape(n_players)[1]
    h = geo.n_hexes
    out = np.full((h, h), 10**6, np.int64)
    for a in range(h):
        out[a, a] = 0
        q = deque([a])
        while q:
            x = q.popleft()
            for y in geo.adjacent[x]:
                if out[a, y] > out[a, x] + 1:
                    out[a, y] = out[a, x] + 1
                    q.append(y)
    out.flags.writeable = False
    return out


@cache
def _by_size() -> dict[int, tuple[int, bool, bool]]:
    by_size = {_shape(*v)[0].size: v for v in VARIANTS}
    assert len(by_size) == len(VARIANTS), "two layout variants of the same length"
    return by_size


def variant_for(obs_size: int) -> tuple[int, bool, bool]:
    """(players, house_content, mysterious_kadab) of an observation of this length."""
    v = _by_size().get(int(obs_size))
    if v is None:
        raise LayoutError(f"observation of length {obs_size} matches no ktenv layout "
                          f"(known: {sorted(_by_size())})")
    return v


class View:
    """Named facts of one observation (every array is a new numpy array or a read-only view)."""

    def __init__(self, obs: np.ndarray, n_players: int | None = None) -> None:
        obs = np.asarray(obs, dtype=np.float32)
        if n_players is None:
            n, house, kadab = variant_for(obs.size)
        else:  # that player count's variant of this length (else its default one: reported below)
            n, house, kadab = next((v for v in VARIANTS if v[0] == n_players and _shape(*v)[0].size == obs.size),
                                   (n_players, False, False))
        layout, geo, actions = _shape(n, house, kadab)
        if obs.size != layout.size:
            raise LayoutError(f"observation of length {obs.size}, expected {layout.size} for {n} players")
        self.obs, self.n, self.layout, self.geo, self.actions = obs, n, layout, geo, actions
        self.h = geo.n_hexes
        self.steps = hex_distances(n)
        self._memo: dict = {}
        col = self.col
        # game
        self.round = int(col("game", "round")[0])
        self.rounds_left = int(col("game", "rounds_left")[0])
        dec = layout.section("game").offset("decision_none")
        self.decision = int(np.argmax(obs[dec:dec + D.n_decisions(house)]))
        ph = layout.section("game").offset("phase_setup")
        self.phase = int(np.argmax(obs[ph:ph + 11]))
        # players (row 0 = me)
        self.alive = col("players", "alive")
        self.gold = col("players", "gold")
        self.hexes_owned = col("players", "hexes")
        self.income = col("players", "income")
        self.fort_levels = col("players", "fort_levels")
        self.citadels = col("players", "citadels")
        self.heroes_owned = col("players", "heroes")
        self.screen_size = col("players", "screen")
        # hexes
        hx = layout.section("hexes")
        tbl = obs[hx.slice].reshape(hx.n_columns, hx.rows)
        idx = {c.name: j for j, c in enumerate(hx.columns)}
        self._hx, self._hidx = tbl, idx
        terrain = tbl[idx["terrain_desert"]:idx["terrain_desert"] + 8]
        # R20.3 Mysterious Kadab: a face-down hex shows no terrain. It reads as Desert (argmax of zeros),
        # which is what the agents need: 1 MP to enter (RD10.15) and no creature of theirs supported there
        self.face_down = terrain.max(axis=0) == 0
        self.terrain = terrain.argmax(axis=0)
        owners = tbl[idx["owner_rel0"]:idx["owner_rel0"] + n]
        self.owner = np.where(owners.max(axis=0) > 0, owners.argmax(axis=0), -1)  # relative seat, -1 nobody
        self.fort = tbl[idx["fort"]].astype(np.int64)
        self.income_value = tbl[idx["income_value"]]
        self.income_combat = tbl[idx["income_combat"]]
        self.has_income = (tbl[idx["income_special"]] + tbl[idx["income_city"]] + tbl[idx["income_village"]]) > 0
        sides = n + 1  # rel0..rel{n-1}, neutral
        self.things_at = tbl[idx["things_rel0"]:idx["things_rel0"] + sides]  # (sides, h)
        self.hidden_at = tbl[idx["hidden_rel0"]:idx["hidden_rel0"] + sides]
        self.known_combat_at = tbl[idx["known_combat_rel0"]:idx["known_combat_rel0"] + sides]
        self.heroes_at = tbl[idx["heroes_rel0"]:idx["heroes_rel0"] + sides]
        self.hero_combat_at = tbl[idx["hero_combat_rel0"]:idx["hero_combat_rel0"] + sides]
        self.own_unsupported = tbl[idx["own_unsupported"]]
        self.land = self.terrain != SEA
        # things (rows = catalog ids)
        th = layout.section("things")
        ttbl = obs[th.slice].reshape(th.n_columns, th.rows)
        tidx = {c.name: j for j, c in enumerate(th.columns)}
        self._th, self._tidx = ttbl, tidx
        self.mine_screen = ttbl[tidx["mine_screen"]] > 0
        self.on_board = ttbl[tidx["on_board"]] > 0
        self.thing_hex = ttbl[tidx["hex"]].astype(np.int64)
        towners = ttbl[tidx["owner_rel0"]:tidx["owner_rel0"] + sides]
        self.thing_owner = np.where(towners.max(axis=0) > 0, towners.argmax(axis=0), -1)  # n = neutral
        self.thing_mp = ttbl[tidx["mp"]]
        self.thing_status = ttbl[tidx["status"]]
        self.thing_selected = ttbl[tidx["selected"]] > 0
        self.thing_supported = ttbl[tidx["supported"]] > 0
        self.mine_board = self.on_board & (self.thing_owner == 0)
        self.n_things = th.rows  # one box, or two with six players (R20.1)
        # heroes (rows = faces)
        he = layout.section("heroes")
        htbl = obs[he.slice].reshape(he.n_columns, he.rows)
        hidx = {c.name: j for j, c in enumerate(he.columns)}
        self._he, self._heidx = htbl, hidx
        howners = htbl[hidx["owner_rel0"]:hidx["owner_rel0"] + n]
        self.hero_owner = np.where(howners.max(axis=0) > 0, howners.argmax(axis=0), -1)
        self.hero_hex = htbl[hidx["hex"]].astype(np.int64)
        self.hero_mp = htbl[hidx["mp"]]
        self.hero_status = htbl[hidx["status"]]
        self.hero_pool = htbl[hidx["pool"]] > 0
        self.my_heroes = self.hero_owner == 0

    # ----- raw access

    def col(self, section: str, column: str) -> np.ndarray:
        return self.layout.column(self.obs, section, column)

    def reg(self, column: str) -> float:
        return float(self.layout.column(self.obs, "registers", column)[0])

    def reg_side(self, key: str) -> int:
        """A one-hot side register (`b_side`, `ev_p` ...) as a relative side; n = neutral; -1 none."""
        sec = self.layout.section("registers")
        a = sec.offset(f"reg_{key}_rel0")
        block = self.obs[a:a + self.n + 1]
        return int(block.argmax()) if block.max() > 0 else -1

    def reg_hex(self, key: str) -> int:
        """A hex register (`b_hex`, `mv_hex` ...) or -1."""
        column = self._hx[self._hidx[f"reg_{key}"]]
        return int(column.argmax()) if column.max() > 0 else -1

    def reg_thing(self, key: str) -> int:
        column = self._th[self._tidx[f"reg_{key}"]]
        return int(column.argmax()) if column.max() > 0 else -1

    def reg_hero(self, key: str) -> int:
        column = self._he[self._heidx[f"reg_{key}"]]
        return int(column.argmax()) if column.max() > 0 else -1

    # ----- facts derived for strategy

    @property
    def citadel_income(self) -> int:
        return {6: 25, 4: 20}.get(self.n, 15)  # R14.3, R20.1

    @_memo
    def unexplored(self) -> np.ndarray:
        """Land hexes nobody owns (not yet explored, or defended by neutrals)."""
        return self.land & (self.owner < 0)

    def side_strength(self, side: int) -> np.ndarray:
        """Per hex: estimated combat strength of a side's counters (relative side; n = neutral).
        Unknown face-down counters count at the average creature value."""
        if side == 0:
            return self.own_strength()
        return (self.known_combat_at[side] + self.hidden_at[side] * HIDDEN_COMBAT
                + self.hero_combat_at[side])

    @_memo
    def own_strength(self) -> np.ndarray:
        mine = self.mine_board & IS_CREATURE[:self.n_things]
        out = np.bincount(self.thing_hex[mine], weights=THING_COMBAT[:self.n_things][mine] * np.where(
            self.thing_supported[mine], 1.0, 0.35), minlength=self.h)[:self.h]
        if self.my_heroes.any():
            mine = self.my_heroes
            weights = HERO_COMBAT[:mine.size][mine]
            out = out + np.bincount(self.hero_hex[mine], weights=weights, minlength=self.h)[:self.h]
        return out

    @_memo
    def defence(self) -> np.ndarray:
        """Per hex: strength of whoever holds it besides the observer (enemy counters, the owner's
        fort, city or village, neutral defenders)."""
        total = np.zeros(self.h)
        for side in range(1, self.n + 1):
            total += self.side_strength(side)
        enemy_owned = self.owner > 0
        total += np.where(enemy_owned, self.fort + self.income_combat, 0)
        total += np.where(self.owner < 0, self.income_combat, 0)  # neutral city or village
        return total

    @_memo
    def enemy_counters(self) -> np.ndarray:
        return self.things_at[1:].sum(axis=0) + self.heroes_at[1:].sum(axis=0)

    @_memo
    def own_counters(self) -> np.ndarray:
        return self.things_at[0] + self.heroes_at[0]

    @_memo
    def own_army(self) -> np.ndarray:
        """Per hex: my creatures (combat values 1-6) and heroes, what the stack limit counts (R11.4.1)."""
        first = self._hidx["own_value_1"]
        return self._hx[first:first + 6].sum(axis=0) + self.heroes_at[0]

    def thing_value(self, t: int) -> float:
        """What a Thing behind my screen is worth to me (in rough 'income points')."""
        kind = THING_KIND[t]
        if kind == CREATURE:
            terrain = cat.THING_TERRAIN[t]
            supported = terrain < 0 or bool(np.any((self.owner == 0) & (self.terrain == terrain)))
            return THING_COMBAT[t] * (1.0 if supported else 0.5) + 0.5 * bool(cat.THING_FLYING[t])
        if kind in (CITY, VILLAGE):
            return 2.0 * cat.THING_INCOME[t] + 1.0
        if kind == SPECIAL_INCOME:
            terrain = cat.THING_TERRAIN[t]
            ok = bool(np.any((self.owner == 0) & (self.terrain == terrain) & ~self.has_income))
            return 2.0 * cat.THING_INCOME[t] if ok else 0.6 * cat.THING_INCOME[t]
        if kind == TREASURE:
            return 0.3 * cat.THING_GOLD[t]
        if kind == MAGIC:
            return 2.0
        if kind == EVENT:
            return 1.5
        return 0.0

    def distances(self, sources: np.ndarray, flying: bool = False) -> np.ndarray:
        """Movement cost (MP) from any source hex to every hex, through land hexes the observer may
        pass (not through unexplored hexes or hexes with enemy counters, which stop a move).
        Entering a stopping hex is allowed as a last step. Unreachable: a large number."""
        far = 10**6
        dist = np.full(self.h, far, np.int64)
        stop = self.unexplored() | (self.enemy_counters() > 0) | ((self.owner > 0) & (self.fort > 0))
        q = deque()
        for src in np.flatnonzero(sources):
            dist[src] = 0
            q.append(int(src))
        adj = self.geo.adjacent
        while q:
            x = q.popleft()
            if stop[x] and dist[x] > 0:
                continue
            for y in adj[x]:
                t = self.terrain[y]
                if t == SEA and not flying:
                    continue
                c = dist[x] + (1 if flying else MOVE_COST[t])
                if c < dist[y]:
                    dist[y] = c
                    q.append(y)
        return dist

    # ----- actions

    def split(self, action: int) -> tuple[str, int]:
        return self.actions.split(action)

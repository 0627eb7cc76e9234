'''Arranging positions for the rules tests: one vocabulary, public engine helpers only.

A rules test takes a blank board, lays out a position, starts a phase with scripted dice
(`s.rng.script`) and then drives the engine only through `step` (see `tests.play`):

    s = board()                       # 2 players past setup, everything cleared
    own(s, 0, 3, 4, fort=1)           # who, where
    put(s, "Troll", 0, 3)             # what, who, where: a name (the next copy in the cup) or an id
    hero(s, "Lord of the Eagles", 1, 5)
    screen(s, "Gold Mine", 0)
    start_phase(s, MOVEMENT)

The names, arguments always in the order what, who, where:

- blank games: `past_setup` (a game played through setup), `clear` (everything back to the cup and
  pool), `board` (both, cached); `land_hexes`, `free_land`, `pair` (a hex and a neighbour); the
  west-east line `W2 W1 C E1 E2` through the centre of the 19-hex board;
- hexes and counters: `own(s, player, *hexes, fort=, terrain=)`, `put(s, thing, player, hx, up=)`,
  `put_some(s, count, player, hx)`, `screen(s, thing, player)`, `screen_some(s, count, player,
  kind=)`, `lift(s, thing)` (back to the cup), `hero(s, name, player, hx)`, `show_hero`/`hide_hero`
  (the pool counter's face), `set_gold(s, player, gold)`; a thing is an id or a name (`thing(name,
  k)` is the k-th copy's id);
- the cup: `cup(s, name=, kind=, count=)` (ids in it), `shrink_cup(s, keep)`, `only_in_cup(s, ids)`;
- play: `start_phase(s, phase, first=, round_no=, fresh=)`; positions as text: `position`, `describe`.

Every arranger marks the state edited (`GameState.edited`), so the cached legal mask is never stale;
`start_phase` hands the state to the engine (`ktenv.kings_and_things.engine.resume`).

Positions as text
-----------------
`position(text)` builds the same in a few lines and `describe(s)` writes a state's position back
(`position(describe(s), start=False)` gives the same arranged facts)::

    s = position("""
        players 2; phase movement; round 3; first 0; gold 10 12
        h0 Plains p0 fort=1: Troll, Goblins+        # + = face up
        h5 Swamp p1: Dragon Rider | hero Lord of the Eagles
        h6: p0: Nomads | neutral: Tigers+           # an unowned hex with counters of two sides
        screen p0: Gold Mine
        dice 4 3 6
    """)

The grammar, line by line (clauses may also be separated by `;`; a comment runs from a `#` that
starts a line or follows a blank to the end of the line; names and words are case-insensitive):

- `players N` (default 2), `seed N` (default 0: the game whose setup a seeded random policy plays;
  it is then cleared, so the seed only sets the dice that follow a script and the pool's faces),
  `option NAME=VALUE` (a GameConfig field: `option house_content=true`), `terrain NAME|dealt`: the
  terrain of every hex no line names (default Plains; `dealt` keeps the board setup dealt). These
  set up the game and must come before anything else.
- `phase NAME`: the phase to start (a PHASE_NAMES entry such as `movement` or `exploration and
  battles`, or the constant's name: `combat`, `recruit`, `special` ...): `position` starts it
  (`start_phase`, up to its first decision) unless `start=False`; `round N`, `first P`:
  round number and first player (default 1 and 0); `gold G0 G1 ...`: every player's gold (default 0).
- a hex line: `HEX [TERRAIN] [pK] [fort=N | tower | keep | castle | citadel] [down] [: CONTENTS]`.
  HEX is `hN` (the hex index) or the axial label `(q=Q,r=R)` or both, as `board.hex_label` prints
  them (`h12 (q=1,r=-2)`). TERRAIN defaults to the fill terrain; pK makes player K the owner;
  `down`: the tile lies face down (R20.3: Mysterious Kadab, unowned). CONTENTS are groups
  separated by `|`: `THINGS` (the hex owner's), `pK: THINGS` or `neutral: THINGS` (another
  side's), `hero NAMES` or `hero pK: NAMES` (heroes, the hex owner's by default).
- `screen pK: THINGS`: behind player K's screen. `cup: THINGS`: the cup holds exactly these (every
  Thing not placed otherwise is set out of play); `out: THINGS`: these are out of play.
- `pool: NAMES`: these hero faces are up on their pool counters (R7.3).
- `dice D D D`: the next d6 results (`s.rng.script`).

A Thing is its catalog name, `#k` for its k-th copy (from 1; otherwise the lowest copy not yet
placed), and `+` when it lies face up. Income counters (cities, villages, special income) are
always face up and are the hex's income counter; neutral Things are always face up. Everything a
position does not name is cleared: Things in the cup, heroes in the pool, no owner or fort, gold 0.
A line that cannot be read raises `PositionError` naming the line.
'''

from __future__ import annotations

import re

import numpy as np

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import (
    BOARD,
    CITY,
    CREATURE,
    CUP,
    NEUTRAL,
    NOBODY,
    OUT,
    PLAINS,
    SCREEN,
    SEA,
    SPECIAL_INCOME,
    TERRAIN_NAMES,
    VILLAGE,
)
from ktenv.kings_and_things.engine import new_game, resume
from ktenv.kings_and_things.engine.common import to_cup
from ktenv.kings_and_things.state import PHASE_NAMES, SETUP, GameState

from .play import config, passive_action, random_action, run_until

# A straight west-east line through the centre of the 19-hex board (2-3 players).
W2, W1, C, E1, E2 = 17, 6, 0, 3, 11

_INCOME_KINDS = (SPECIAL_INCOME, CITY, VILLAGE)

# ----------------------------------------------------------------- blank boards


def past_setup(n_players: int = 2, seed: int = 0, policy: str = "random", policy_seed: int | None = None,
               **options) -> GameState:
    """A new game played through setup (R4), stopped at round 1's first decision. `policy`:
    "random" (seeded by `policy_seed`, default `seed`) or "passive" (`tests.play.passive_action`)."""
    s = new_game(config(n_players, **options), seed, backend="python")  # arranged by hand: a GameState
    if policy == "random":
        rng = np.random.default_rng(seed if policy_seed is None else policy_seed)
        run_until(s, lambda g: g.phase != SETUP, lambda g: random_action(g, rng))
    else:
        assert policy == "passive", policy
        run_until(s, lambda g: g.phase != SETUP, passive_action)
    return s


def clear(s: GameState, gold: int | None = 0) -> GameState:
    """Every Thing to the cup, every hero to the pool, every hex unowned and unfortified, no per-counter
    flags, no registers, no black cloud; round 1 with player 0 first. `gold`: every player's gold
    (None keeps it)."""
    s.thing_place[:] = CUP
    if not s.cfg.house_content:
        s.thing_place[s.cat.HOUSE_THING_IDS] = OUT  # R22: six players' house Things stay out of play
    s.thing_owner[:] = NOBODY
    s.thing_hex[:] = -1
    s.thing_bearer[:] = -1
    for name in ("thing_face_up", "thing_public", "thing_selected", "thing_new", "thing_in_play", "thing_mp",
                 "thing_status", "thing_pinned", "thing_moved", "thing_damage", "thing_fought", "hero_mp",
                 "hero_status", "hero_pinned", "hero_moved", "hex_fort", "hex_fort_damage",
                 "hex_citadel_built", "hex_down"):
        getattr(s, name)[:] = 0
    s.hero_owner[:] = NOBODY
    s.hero_hex[:] = -1
    s.hex_owner[:] = NOBODY
    s.hex_income[:] = -1
    for name in ("hex_fort_round", "hex_citadel_round", "hex_citadel_seq"):
        getattr(s, name)[:] = -1
    if gold is not None:
        s.gold[:] = gold
    s.alive[:] = True
    s.drawn[:] = 0
    s.cloud_hex = -1
    s.citadel_seq = 0
    s.cup_ran_dry = 0
    s.round, s.first_player = 1, 0
    s.frames.clear()
    s.check_invariants()
    return s.edited()


_BOARDS: dict[tuple, GameState] = {}


def board(n_players: int = 2, seed: int = 0, *, setup: str = "random", terrain: int | None = None,
          gold: int | None = 0, **options) -> GameState:
    """A game past setup (`past_setup` with policy `setup`), then `clear`ed: a blank round-1 board to
    arrange. `terrain`: every hex made that terrain (None keeps the dealt board); `gold` as in `clear`.
    Built once per arguments and handed out as copies (setup takes a while)."""
    key = (n_players, seed, setup, terrain, gold, tuple(sorted(options.items())))
    if key not in _BOARDS:
        s = clear(past_setup(n_players, seed, setup, **options), gold)
        if terrain is not None:
            s.hex_terrain[:] = terrain
        _BOARDS[key] = s
    return _BOARDS[key].copy()


def land_hexes(s: GameState) -> np.ndarray:
    return np.flatnonzero(s.hex_terrain != SEA)


def pair(s: GameState, hx: int = 0) -> tuple[int, int]:
    """A hex and one neighbour of it."""
    return hx, int(s.geo.adjacent[hx][0])


def free_land(s: GameState, count: int, avoid=()) -> list[int]:
    """`count` unowned hexes (made land if needed), lowest indices first, none in `avoid`."""
    out = []
    for h in range(s.geo.n_hexes):
        if s.hex_owner[h] == NOBODY and h not in avoid:
            if s.hex_terrain[h] == SEA:
                s.hex_terrain[h] = PLAINS
            out.append(h)
            if len(out) == count:
                s.edited()
                return out
    raise AssertionError("not enough hexes")


# ----------------------------------------------------------------- hexes, Things, heroes, gold


def own(s: GameState, player: int, *hexes: int, fort: int | None = None, terrain: int | None = None) -> list[int]:
    """`player` owns `hexes`: made `terrain` if given (a Sea hex becomes Plains: Sea is never owned),
    with a fort of level `fort` if given. Returns the hexes."""
    for hx in hexes:
        if terrain is not None:
            s.hex_terrain[hx] = terrain
        elif s.hex_terrain[hx] == SEA:
            s.hex_terrain[hx] = PLAINS
        s.hex_owner[hx] = player
        if fort is not None:
            s.hex_fort[hx] = fort
    s.edited()
    return [int(h) for h in hexes]


def thing(name: str, k: int = 0) -> int:
    """The k-th physical copy (from 0) of a Thing by name."""
    return int(cat.thing_ids(name)[k])


def _thing_id(s: GameState, what: int | str) -> int:
    """An id as it is, a name as its lowest copy in the cup."""
    if not isinstance(what, str):
        return int(what)
    for c in s.cat.thing_ids(what):
        if s.thing_place[c] == CUP:
            return int(c)
    raise AssertionError(f"no {what} left in the cup")


def lift(s: GameState, c: int) -> None:
    """Take Thing `c` from wherever it is back to the cup."""
    to_cup(s, c)
    s.edited()


def put(s: GameState, what: int | str, player: int, hx: int, up: bool = False) -> int:
    """A Thing (an id, or a name: its lowest copy in the cup) on hex `hx` for `player` (a player or
    NEUTRAL); returns its id. Creatures lie face down unless `up`; income counters are face up and
    the hex's income counter (R8.3); neutral Things are face up."""
    c = _thing_id(s, what)
    lift(s, c)
    s.thing_place[c] = BOARD
    s.thing_owner[c] = player
    s.thing_hex[c] = hx
    if cat.THING_KIND[c] in _INCOME_KINDS:
        assert s.hex_income[hx] < 0, "hex already has an income counter"
        s.hex_income[hx] = c
        up = True
    s.thing_face_up[c] = s.thing_public[c] = up or player == NEUTRAL
    s.edited()
    return c


def put_some(s: GameState, count: int, player: int, hx: int) -> list[int]:
    """`count` creatures from the cup (lowest ids first) on `hx` for `player`."""
    return [put(s, c, player, hx) for c in cup(s, kind=CREATURE, count=count)]


def screen(s: GameState, what: int | str, player: int) -> int:
    """A Thing (id or name, as in `put`) behind `player`'s screen; returns its id."""
    c = _thing_id(s, what)
    lift(s, c)
    s.thing_place[c] = SCREEN
    s.thing_owner[c] = player
    s.edited()
    return c


def screen_some(s: GameState, count: int, player: int, kind: int = CREATURE) -> list[int]:
    """`count` Things of `kind` from the cup (lowest ids first) behind `player`'s screen."""
    return [screen(s, c, player) for c in cup(s, kind=kind, count=count)]


def cup(s: GameState, name: str | None = None, kind: int | None = None, count: int = 1) -> list[int]:
    """`count` Things now in the cup, by name or by kind (lowest ids first)."""
    ids = np.flatnonzero(s.thing_place == CUP)
    if name is not None:
        ids = ids[np.isin(ids, cat.thing_ids(name))]
    if kind is not None:
        ids = ids[cat.THING_KIND[ids] == kind]
    assert ids.size >= count, f"only {ids.size} {name or kind} in the cup"
    return [int(c) for c in ids[:count]]


def shrink_cup(s: GameState, keep: int) -> None:
    """Set Things out of the game until only the `keep` lowest ids remain in the cup (R8.1.5)."""
    ids = np.flatnonzero(s.thing_place == CUP)
    s.thing_place[ids[keep:]] = OUT
    s.edited()


def only_in_cup(s: GameState, ids) -> None:
    """Leave exactly `ids` in the cup (the rest set out of the game) so that draws are known."""
    keep = {int(c) for c in ids}
    for c in np.flatnonzero(s.thing_place == CUP):
        if int(c) not in keep:
            s.thing_place[c] = OUT
    s.edited()


def hero(s: GameState, name: str, player: int, hx: int) -> int:
    """Hero `name` (its counter turned to that face) on hex `hx` for `player`; returns its face id."""
    face = cat.hero_id(name)
    s.hero_up[face // 2] = face % 2
    s.hero_owner[face] = player
    s.hero_hex[face] = hx
    s.edited()
    return face


def show_hero(s: GameState, name: str) -> int:
    """Turn the pool counter so that `name` is the face up (available, R7.3)."""
    face = cat.hero_id(name)
    assert s.hero_owner[face ^ 1] == NOBODY
    s.hero_up[face // 2] = face % 2
    s.edited()
    return face


def hide_hero(s: GameState, name: str) -> int:
    """Turn the pool counter so that `name` is face down (unavailable)."""
    face = cat.hero_id(name)
    assert s.hero_owner[face] == NOBODY
    s.hero_up[face // 2] = 1 - face % 2
    s.edited()
    return face


def set_gold(s: GameState, player: int, gold: int) -> None:
    s.gold[player] = gold
    s.edited()


# ----------------------------------------------------------------- starting play


def start_phase(s: GameState, phase: int, first: int | None = None, round_no: int | None = None,
                fresh: bool = True) -> GameState:
    """Begin `phase` afresh (turn 0, no pending decision) and run the automatic rules to its first
    decision. `first`, `round_no`: the first player and the round, when given. `fresh`: forget the
    procedures under way (`s.frames`) of earlier play; False keeps those the test set."""
    if fresh:
        s.frames.clear()
    if round_no is not None:
        s.round = round_no
    if first is not None:
        s.first_player = first
    s.phase, s.stage, s.turn = phase, 0, 0
    s.decision, s.actor = D.NONE, NOBODY
    s.thing_selected[:] = False
    s.check_invariants()
    return resume(s)


# ----------------------------------------------------------------- positions as text

_FORTS = {"tower": 1, "keep": 2, "castle": 3, "citadel": 4}
_PHASES = {name: i for i, name in enumerate(PHASE_NAMES)}
_PHASES.update(setup=0, income=1, heroes=2, recruit=3, events=4, movement=5, combat=6, battles=6,
               construction=7, special=8, change_order=9)
_TERRAINS = {name.lower(): i for i, name in enumerate(TERRAIN_NAMES)}
_HEX = re.compile(r"^(?:h(?P<i>\d+))?\s*(?:\(q=(?P<q>-?\d+),\s*r=(?P<r>-?\d+)\))?(?=\s|:|$)", re.I)
_ITEM = re.compile(r"^(?P<name>.+?)(?:#(?P<k>\d+))?(?P<up>\+)?$")
_SIDE = re.compile(r"^(?:p(?P<p>\d+)|(?P<n>neutral))\s*:\s*(?P<rest>.*)$", re.I)
_GAME_WORDS = ("players", "seed", "option", "terrain")


class PositionError(ValueError):
    """A position line that cannot be read; the message names the line."""


def _names(by_lower: dict[str, int], name: str, what: str) -> int:
    try:
        return by_lower[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown {what} {name.strip()!r}") from None


def _thing_names(s: GameState) -> dict[str, str]:
    return {name.lower(): name for name in s.cat.THING_IDS_BY_NAME}


def _hero_names() -> dict[str, int]:
    return {name.lower(): i for i, name in enumerate(cat.HERO_NAME)}


def _player(s: GameState, word: str) -> int:
    m = re.fullmatch(r"p(\d+)", word.strip(), re.I)
    if not m or int(m.group(1)) >= s.n_players:
        raise ValueError(f"{word.strip()!r} is no player of this game (p0-p{s.n_players - 1})")
    return int(m.group(1))


def _things(s: GameState, text: str, taken: set[int]) -> list[tuple[int, bool]]:
    """`Name[#k][+], ...` -> [(id, face up)], each id not yet placed by the position."""
    names = _thing_names(s)
    out = []
    for item in filter(None, (x.strip() for x in text.split(","))):
        m = _ITEM.match(item)
        name = names.get(m.group("name").strip().lower())
        if name is None:
            raise ValueError(f"unknown Thing {m.group('name').strip()!r}")
        copies = s.cat.thing_ids(name)
        if m.group("k"):
            k = int(m.group("k"))
            if not 1 <= k <= len(copies):
                raise ValueError(f"{name} has copies #1-#{len(copies)}, not #{k}")
            c = int(copies[k - 1])
            if c in taken:
                raise ValueError(f"{name}#{k} is placed twice")
        else:
            free = [int(c) for c in copies if int(c) not in taken and s.thing_place[c] != OUT]
            if not free:
                raise ValueError(f"no copy of {name} left")
            c = free[0]
        taken.add(c)
        out.append((c, bool(m.group("up"))))
    return out


def _hex(s: GameState, head: str) -> tuple[int, str]:
    m = _HEX.match(head)
    if not m or not (m.group("i") or m.group("q")):
        raise ValueError("not a hex: write hN or (q=Q,r=R)")
    hx = int(m.group("i")) if m.group("i") else -1
    if m.group("q"):
        q, r = int(m.group("q")), int(m.group("r"))
        at = [h for h in range(s.geo.n_hexes) if tuple(s.geo.coords[h]) == (q, r)]
        if not at:
            raise ValueError(f"no hex at (q={q},r={r}) on this board")
        if hx >= 0 and hx != at[0]:
            raise ValueError(f"h{hx} is not at (q={q},r={r}) (h{at[0]} is)")
        hx = at[0]
    if not 0 <= hx < s.geo.n_hexes:
        raise ValueError(f"no hex h{hx} on this board (h0-h{s.geo.n_hexes - 1})")
    return hx, head[m.end():]


def _hex_line(s: GameState, line: str, taken: set[int], named: set[int]) -> None:
    head, _, body = line.partition(":")
    hx, rest = _hex(s, head.strip())
    if hx in named:
        raise ValueError(f"h{hx} is described twice")
    named.add(hx)
    owner, words = NOBODY, []
    for word in rest.split():
        low = word.lower()
        if re.fullmatch(r"p\d+", low):
            owner = _player(s, low)
        elif low.startswith("fort="):
            s.hex_fort[hx] = int(low[5:])
        elif low in _FORTS:
            s.hex_fort[hx] = _FORTS[low]
        elif low == "down":
            s.hex_down[hx] = True
        else:
            words.append(word)
    if words:
        s.hex_terrain[hx] = _names(_TERRAINS, " ".join(words), "terrain")
    if s.hex_fort[hx] and owner == NOBODY:
        raise ValueError("a fort needs an owner")
    if owner != NOBODY:
        own(s, owner, hx)
    if not body.strip():
        return
    for group in body.split("|"):
        group = group.strip()
        if group.lower().startswith("hero"):
            names = group[4:].lstrip("esES").strip()  # hero, heroes
            who = owner
            m = re.match(r"^(p\d+)\s*:\s*(.*)$", names, re.I)
            if m:
                who, names = _player(s, m.group(1)), m.group(2)
            if who == NOBODY:
                raise ValueError("heroes on an unowned hex need an owner: hero pK: NAME")
            for name in filter(None, (x.strip() for x in names.split(","))):
                hero(s, cat.HERO_NAME[_names(_hero_names(), name, "hero")], who, hx)
            continue
        who, m = owner, _SIDE.match(group)
        if m:
            who = NEUTRAL if m.group("n") else _player(s, "p" + m.group("p"))
            group = m.group("rest")
        if who == NOBODY:
            raise ValueError("Things on an unowned hex need a side: pK: THINGS or neutral: THINGS")
        for c, up in _things(s, group, taken):
            put(s, c, who, hx, up)


def position(text: str, start: bool = True) -> GameState:
    """The position `text` describes (the grammar is in this module's docstring); with `start` and
    a `phase` line, that phase is started (`start_phase`). Raises PositionError naming a bad line."""
    game: dict = {"players": 2, "seed": 0, "terrain": PLAINS, "options": {}}
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        code = re.sub(r"(^|\s)#(\s.*|$)", "", raw).strip()
        lines += [(number, raw.strip(), clause.strip()) for clause in code.split(";") if clause.strip()]
    s, taken, named, cup_only, play = None, set(), set(), None, {}
    for number, raw, clause in lines:
        word, _, arg = clause.partition(" ")
        word, arg = word.lower(), arg.strip()
        try:
            if word in _GAME_WORDS:
                if s is not None:
                    raise ValueError(f"'{word}' must come before the position's other lines")
                if word == "players":
                    game["players"] = int(arg)
                elif word == "seed":
                    game["seed"] = int(arg)
                elif word == "terrain":
                    game["terrain"] = None if arg.lower() == "dealt" else _names(_TERRAINS, arg, "terrain")
                else:
                    key, _, value = arg.partition("=")
                    key, value = key.strip(), value.strip()
                    if key not in GameConfig.__dataclass_fields__ or key == "n_players":
                        raise ValueError(f"unknown option {key!r}")
                    game["options"][key] = {"true": True, "false": False, "none": None}.get(
                        value.lower(), int(value) if re.fullmatch(r"-?\d+", value) else value)
                continue
            if s is None:
                s = board(game["players"], game["seed"], terrain=game["terrain"], **game["options"])
            if word == "phase":
                play["phase"] = _names(_PHASES, arg if arg.lower() in _PHASES else arg.replace("_", " "), "phase")
            elif word in ("round", "first"):
                play[word] = int(arg)
                if word == "first":
                    _player(s, f"p{arg}")
            elif word == "gold":
                values = [int(g) for g in arg.split()]
                if len(values) != s.n_players:
                    raise ValueError(f"gold needs {s.n_players} numbers, one a player")
                s.gold[:] = values
            elif word == "dice":
                s.rng.script = [int(d) for d in arg.split()]
                if not all(1 <= d <= 6 for d in s.rng.script):
                    raise ValueError("dice are 1-6")
            elif word == "screen":
                who, _, things = arg.partition(":")
                for c, _up in _things(s, things, taken):
                    screen(s, c, _player(s, who))
            elif word in ("cup:", "out:", "cup", "out"):
                things = _things(s, arg.lstrip(":"), taken)
                if word.startswith("cup"):
                    cup_only = (cup_only or []) + [c for c, _ in things]
                else:
                    for c, _ in things:
                        lift(s, c)
                        s.thing_place[c] = OUT
            elif word in ("pool:", "pool"):
                for name in filter(None, (x.strip() for x in arg.lstrip(":").split(","))):
                    show_hero(s, cat.HERO_NAME[_names(_hero_names(), name, "hero")])
            elif re.match(r"^(h\d|\()", word):
                _hex_line(s, clause, taken, named)
            else:
                raise ValueError(f"unknown line {word!r}")
        except (ValueError, KeyError, AssertionError) as exc:
            msg = exc.args[0] if exc.args else type(exc).__name__
            raise PositionError(f"position line {number} {raw!r}: {msg}") from None
    if s is None:
        s = board(game["players"], game["seed"], terrain=game["terrain"], **game["options"])
    if cup_only is not None:
        only_in_cup(s, cup_only)
    s.round = play.get("round", s.round)
    s.first_player = play.get("first", s.first_player)
    if "phase" in play:
        s.phase = play["phase"]
        if start:
            start_phase(s, play["phase"])
    s.check_invariants()
    return s.edited()


def _thing_word(s: GameState, c: int) -> str:
    name = str(cat.THING_NAME[c])
    copies = [int(x) for x in s.cat.thing_ids(name)]
    word = f"{name}#{copies.index(c) + 1}" if len(copies) > 1 else name
    return word + ("+" if s.thing_face_up[c] and cat.THING_KIND[c] not in _INCOME_KINDS
                   and s.thing_owner[c] != NEUTRAL else "")


def describe(s: GameState) -> str:
    """The position of `s` in `position`'s format: game, phase, round, first player, gold, every hex
    that is not blank Plains, screens, Things out of play, the pool's faces and scripted dice."""
    default = GameConfig(n_players=s.n_players)
    head = [f"players {s.n_players}"]
    head += [f"option {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in vars(s.cfg).items()
             if k in default.__dataclass_fields__ and getattr(default, k) != v]
    lines = ["; ".join(head), f"phase {PHASE_NAMES[s.phase]}; round {s.round}; first {s.first_player}; "
             f"gold {' '.join(str(int(g)) for g in s.gold)}"]
    on_board = s.thing_place == BOARD
    for hx in range(s.geo.n_hexes):
        here = np.flatnonzero(on_board & (s.thing_hex == hx))
        heroes = np.flatnonzero(s.hero_hex == hx)
        owner = int(s.hex_owner[hx])
        if not (here.size or heroes.size or owner != NOBODY or s.hex_fort[hx] or s.hex_down[hx]
                or s.hex_terrain[hx] != PLAINS):
            continue
        words = [f"h{hx}", TERRAIN_NAMES[s.hex_terrain[hx]]]
        words += [f"p{owner}"] if owner != NOBODY else []
        words += [f"fort={int(s.hex_fort[hx])}"] if s.hex_fort[hx] else []
        words += ["down"] if s.hex_down[hx] else []
        groups = []
        for side in sorted({int(o) for o in s.thing_owner[here]}, key=lambda o: (o != owner, o)):
            things = ", ".join(_thing_word(s, int(c)) for c in here if s.thing_owner[c] == side)
            prefix = "" if side == owner else ("neutral: " if side == NEUTRAL else f"p{side}: ")
            groups.append(prefix + things)
        for side in sorted({int(o) for o in s.hero_owner[heroes]}, key=lambda o: (o != owner, o)):
            names = ", ".join(str(cat.HERO_NAME[f]) for f in heroes if s.hero_owner[f] == side)
            groups.append(f"hero {names}" if side == owner else f"hero p{side}: {names}")
        lines.append(" ".join(words) + (": " + " | ".join(groups) if groups else ""))
    for p in range(s.n_players):
        behind = np.flatnonzero((s.thing_place == SCREEN) & (s.thing_owner == p))
        if behind.size:
            lines.append(f"screen p{p}: " + ", ".join(_thing_word(s, int(c)) for c in behind))
    out = np.flatnonzero(s.thing_place == OUT)
    if not s.cfg.house_content:
        out = np.setdiff1d(out, s.cat.HOUSE_THING_IDS)
    if out.size:
        lines.append("out: " + ", ".join(_thing_word(s, int(c)) for c in out))
    pool = [2 * i + int(s.hero_up[i]) for i in range(s.hero_up.size)
            if s.hero_owner[2 * i] == NOBODY and s.hero_owner[2 * i + 1] == NOBODY]
    if pool:
        lines.append("pool: " + ", ".join(str(cat.HERO_NAME[f]) for f in pool))
    if s.rng.script:
        lines.append("dice " + " ".join(str(d) for d in s.rng.script))
    return "\n".join(lines) + "\n"


__all__ = ["W2", "W1", "C", "E1", "E2", "past_setup", "clear", "board", "land_hexes", "pair", "free_land", "own",
           "thing", "lift", "put", "put_some", "screen", "screen_some", "cup", "shrink_cup", "only_in_cup", "hero",
           "show_hero", "hide_hero", "set_gold", "start_phase", "position", "describe", "PositionError"]

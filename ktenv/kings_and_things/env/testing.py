"""Reusable checks for the environments (the Pgx habit: one shared checker for every env).

- `random_states`: state copies met in seeded random play, for property tests; `python_state` reads one
  as a Python `GameState` (the play runs on the native engine where it can).
- `hidden_variants` / `public_variants`: copies of a state that differ from it only in facts a
  given player may not know (RI.2, RI.3), or in one public fact; the observation of that player
  must be equal for the first and differ for the second (`check_no_leak`).
- `check_mask_exact`: through the environment, every action the mask allows is accepted and a
  sample of the others is refused with nothing changed.

The game-free harness of these checks is `ktenv.gamekit.checks` (Kingsburg's checks use it too).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...gamekit import checks
from ...gamekit.checks import check_mask_exact
from .. import catalog as cat
from ..config import GameConfig
from ..constants import BOARD, CREATURE, CUP, SCREEN
from ..engine import kadab
from ..engine.machine import legal_mask
from ..state import RECRUIT, GameState
from ..worlds import referenced_things as _referenced  # counters a procedure under way names
from .aec import ENGINE

__all__ = ["THING_FIELDS", "check_mask_exact", "check_no_leak", "hidden_variants", "public_variants",
           "python_state", "random_states", "swap_identities"]

THING_FIELDS = tuple(name for name in GameState.__slots__ if name.startswith("thing_"))
_IS_CREATURE = cat.THING_KIND == CREATURE


def random_states(config: GameConfig | dict, count: int, seed: int = 0, gap: tuple[int, int] = (1, 60),
                  max_steps: int = 100_000) -> Iterator[GameState]:
    """Yield `count` copies of states met in uniform random play, `gap` decisions apart."""
    cfg = config if isinstance(config, GameConfig) else GameConfig.from_dict(dict(config))
    yield from checks.random_play(ENGINE, cfg, count, seed, gap, max_steps)


def python_state(s) -> GameState:
    """`s` as a Python `GameState`: itself, or a copy of a native game's state."""
    return s if type(s) is GameState else s.to_python().copy()


def swap_identities(s: GameState, a: int, b: int) -> GameState:
    """A copy where counters `a` and `b` exchanged places (every per-counter fact swapped)."""
    t = s.copy()
    for name in THING_FIELDS:
        arr = getattr(t, name)
        arr[a], arr[b] = arr[b].copy(), arr[a].copy()
    t.edited()
    return t


def _pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    ids = np.flatnonzero(mask)
    return int(ids[rng.integers(ids.size)]) if ids.size else -1


def hidden_variants(s: GameState, observer: int, rng: np.random.Generator) -> list[tuple[str, GameState]]:
    """Copies of `s` that differ only in facts `observer` may not know."""
    n = s.n_players
    place, owner = s.thing_place, s.thing_owner
    free = ~_referenced(s)
    other = (owner >= 0) & (owner < n) & (owner != observer)
    hidden_board = (place == BOARD) & other & ~s.thing_public & ~s.thing_face_up & _IS_CREATURE[:s.n_things] & free
    public_trade = s.thing_selected if s.phase == RECRUIT else np.zeros_like(s.thing_selected)
    other_screen = (place == SCREEN) & other & ~public_trade & free
    cup = (place == CUP) & free
    out = []
    c = _pick(rng, hidden_board)
    if c >= 0:
        mate = _pick(rng, other_screen & (owner == owner[c]) & _IS_CREATURE[:s.n_things])
        if mate >= 0:
            out.append(("face-down creature <-> same owner's screen creature", swap_identities(s, c, mate)))
        mate = _pick(rng, cup & _IS_CREATURE[:s.n_things])
        if mate >= 0:
            out.append(("face-down creature <-> cup creature", swap_identities(s, c, mate)))
        mate = _pick(rng, hidden_board & (s.thing_hex != s.thing_hex[c]))
        if mate >= 0:
            out.append(("two hidden face-down creatures elsewhere", swap_identities(s, c, mate)))
    c = _pick(rng, other_screen)
    if c >= 0:
        mate = _pick(rng, cup)
        if mate >= 0:
            out.append(("screen counter <-> cup counter", swap_identities(s, c, mate)))
    down = np.flatnonzero(s.hex_down & ~kadab.seen(s, observer))  # R20.3: face-down tiles, unseen
    if down.size >= 2:
        a = int(down[rng.integers(down.size)])
        others = down[s.hex_terrain[down] != s.hex_terrain[a]]
        if others.size:
            b = int(others[rng.integers(others.size)])
            t = s.copy()
            t.hex_terrain[a], t.hex_terrain[b] = s.hex_terrain[b], s.hex_terrain[a]
            t.edited()
            out.append(("two face-down tiles swapped", t))
    out.append(("future dice changed", checks.other_dice(s)))
    return out


def public_variants(s: GameState, observer: int, rng: np.random.Generator) -> list[tuple[str, GameState]]:
    """Copies of `s` that differ in one fact every player knows (the observation must change)."""
    n = s.n_players
    opponents = [q for q in range(n) if q != observer]
    q = opponents[int(rng.integers(len(opponents)))]
    out = []
    t = s.copy()
    t.gold[q] += 1
    out.append(("opponent gold", t))
    place, owner = s.thing_place, s.thing_owner
    hidden = (place == BOARD) & (owner == q) & ~s.thing_public & ~s.thing_face_up & _IS_CREATURE[:s.n_things]
    c = _pick(rng, hidden)
    if c >= 0:
        t = s.copy()
        t.thing_public[c] = True
        out.append(("opponent creature revealed", t))
    known = (place == BOARD) & (owner >= 0) & (owner < n) & (owner != observer) & s.thing_public \
        & _IS_CREATURE[:s.n_things]
    c = _pick(rng, known & ~_referenced(s))
    mate = _pick(rng, (place == CUP) & _IS_CREATURE[:s.n_things])
    if c >= 0 and mate >= 0:
        out.append(("identified opponent creature <-> cup creature", swap_identities(s, c, mate)))
    c = _pick(rng, (place == SCREEN) & (owner == q))
    if c >= 0:
        t = s.copy()
        t.thing_place[c], t.thing_owner[c] = CUP, -1
        t.thing_selected[c] = t.thing_new[c] = False
        t.edited()
        out.append(("opponent screen size", t))
    land = np.flatnonzero(s.hex_terrain < 7)
    hx = int(land[rng.integers(land.size)])
    t = s.copy()
    t.hex_owner[hx] = q if s.hex_owner[hx] != q else observer
    out.append(("hex owner", t))
    return out


def check_no_leak(encode, s: GameState, observer: int, rng: np.random.Generator) -> int:
    """Assert that `encode(state, observer)` ignores hidden facts and sees public ones; the number
    of variants checked. The observer's mask (when it is to act) must ignore hidden facts too."""
    return checks.check_no_leak(encode, s, observer, rng, hidden_variants=hidden_variants,
                                public_variants=public_variants, legal_mask=legal_mask)

"""Checks for the Kingsburg environments, on the shared harness `ktenv.gamekit.checks`: `random_states`,
`hidden_variants` / `public_variants` and `check_no_leak` (an observation ignores what its player may not
know and sees every public change), `check_mask_exact` (through a raw env)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..gamekit import checks
from ..gamekit.checks import check_mask_exact
from . import catalog as cat
from .aec import ENGINE
from .config import KingsburgConfig
from .machine import legal_mask
from .state import KingsburgState

__all__ = ["check_mask_exact", "check_no_leak", "hidden_variants", "public_variants", "random_states"]


def random_states(config: KingsburgConfig | dict, count: int, seed: int = 0,
                  gap: tuple[int, int] = (1, 40)) -> Iterator[KingsburgState]:
    """`count` copies of states met in uniform random play, `gap` decisions apart."""
    cfg = config if isinstance(config, KingsburgConfig) else KingsburgConfig.from_dict(config)
    yield from checks.random_play(ENGINE, cfg, count, seed, gap)


def _other_card(s: KingsburgState, year: int, rng: np.random.Generator) -> KingsburgState:
    t = s.copy()
    options = [c for c in cat.CARDS_OF_YEAR[year] if c != int(s.enemy_deck[year])]
    t.enemy_deck[year] = options[int(rng.integers(len(options)))]
    return t


def hidden_variants(s: KingsburgState, observer: int, rng: np.random.Generator) -> list[tuple[str, KingsburgState]]:
    """Copies of `s` that differ only in facts `observer` may not know (K1.5, D20, D21)."""
    out = []
    this_year = s.year - 1
    for y in range(this_year + 1, cat.YEARS):
        out.append((f"enemy card of year {y + 1}", _other_card(s, y, rng)))
    if s.enemy < 0 and not s.peeked[observer]:
        out.append(("this year's unrevealed, unpeeked card", _other_card(s, this_year, rng)))
    out.append(("future dice", checks.other_dice(s)))
    return out


def public_variants(s: KingsburgState, observer: int, rng: np.random.Generator) -> list[tuple[str, KingsburgState]]:
    """Copies of `s` that differ in one fact `observer` knows (the observation must change)."""
    n = s.n_players
    q = (observer + 1 + int(rng.integers(n - 1))) % n
    out = []
    t = s.copy()
    t.goods[q, int(rng.integers(3))] += 1
    out.append(("opponent goods", t))
    t = s.copy()
    t.vp[q] += 1
    out.append(("opponent VP", t))
    t = s.copy()
    t.peeked[q] = not s.peeked[q]
    out.append(("opponent peeked (public, D20)", t))
    if s.peeked[observer] and s.enemy < 0 and not s.game_over:
        out.append(("the card the observer peeked at", _other_card(s, s.year - 1, rng)))
    return out


def check_no_leak(encode, s: KingsburgState, observer: int, rng: np.random.Generator) -> int:
    """Assert `encode(state, observer)` ignores hidden facts and sees public ones; the observer's mask
    ignores hidden facts too. Returns the number of variants checked."""
    return checks.check_no_leak(encode, s, observer, rng, hidden_variants=hidden_variants,
                                public_variants=public_variants, legal_mask=legal_mask)

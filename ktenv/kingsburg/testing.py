"""Checks for the Kingsburg environments, the same shape as `ktenv.env.testing` for Kings & Things:
`random_states`, `hidden_variants` / `public_variants` and `check_no_leak` (an observation ignores what
its player may not know and sees every public change), `check_mask_exact` (through a raw env)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from . import catalog as cat
from .common import IllegalActionError
from .config import KingsburgConfig
from .machine import legal_mask, new_game, step
from .state import KingsburgState


def random_states(config: KingsburgConfig | dict, count: int, seed: int = 0,
                  gap: tuple[int, int] = (1, 40)) -> Iterator[KingsburgState]:
    """`count` copies of states met in uniform random play, `gap` decisions apart."""
    cfg = config if isinstance(config, KingsburgConfig) else KingsburgConfig.from_dict(config)
    rng = np.random.default_rng(seed)
    produced = game = 0
    while produced < count:
        s = new_game(cfg, seed * 7919 + game)
        wait = int(rng.integers(*gap))
        while not s.game_over and produced < count:
            step(s, int(rng.choice(np.flatnonzero(legal_mask(s)))))
            wait -= 1
            if wait <= 0:
                yield s.copy()
                produced += 1
                wait = int(rng.integers(*gap))
        game += 1


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
    t = s.copy()
    t.rng.state ^= 0x5DEECE66D
    out.append(("future dice", t))
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
    base = encode(s, observer)
    mask = legal_mask(s) if s.actor == observer and not s.game_over else None
    checked = 0
    for what, t in hidden_variants(s, observer, rng):
        if not np.array_equal(encode(t, observer), base):
            raise AssertionError(f"hidden change '{what}' changed player {observer}'s observation")
        if mask is not None and not np.array_equal(legal_mask(t), mask):
            raise AssertionError(f"hidden change '{what}' changed player {observer}'s action mask")
        checked += 1
    for what, t in public_variants(s, observer, rng):
        if np.array_equal(encode(t, observer), base):
            raise AssertionError(f"public change '{what}' left player {observer}'s observation unchanged")
        checked += 1
    return checked


def check_mask_exact(raw, s: KingsburgState, rng: np.random.Generator, n_illegal: int = 8) -> int:
    """Through a raw env: every legal action accepted; sampled others refused with nothing changed."""
    raw.restore(s)
    if raw.game_state.game_over:
        return 0
    agent = raw.agent_selection
    mask = raw.observe(agent)["action_mask"]
    legal = np.flatnonzero(mask)
    assert legal.size >= 2, "the engine should have applied a forced move itself"
    for a in legal:
        raw.restore(s)
        raw.step(int(a))
    illegal = np.flatnonzero(mask == 0)
    for a in rng.choice(illegal, size=min(n_illegal, illegal.size), replace=False):
        raw.restore(s)
        before = raw.snapshot()
        try:
            raw.step(int(a))
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"masked-out action {a} ({raw.describe_action(int(a))}) was accepted")
        assert raw.snapshot() == before and raw.agent_selection == agent
    return int(legal.size) + min(n_illegal, illegal.size)

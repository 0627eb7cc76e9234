"""The environment checks every ktenv game shares (the Pgx habit: one checker for every env).

- `random_play`: state copies met in seeded uniform random play, for property tests.
- `check_no_leak`: an observation ignores what its player may not know and sees every public change,
  given the game's ``hidden_variants`` and ``public_variants`` (copies of a state that differ from it
  only in hidden facts, or in one public fact); the player's mask ignores the hidden facts too.
  `other_dice` is the hidden variant every game has.
- `check_mask_exact`: through a raw env, every action the mask allows is accepted and a sample of the
  others is refused with nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..errors import IllegalActionError
from . import Engine

Variants = Callable[[Any, int, np.random.Generator], list[tuple[str, Any]]]


def random_play(engine: Engine, cfg: Any, count: int, seed: int, gap: tuple[int, int],
                max_steps: int | None = None) -> Iterator[Any]:
    """Yield `count` copies of states met in uniform random play, `gap` decisions apart (game ``g`` has
    seed ``seed * 7919 + g``); no new game starts after `max_steps` decisions in all (None: no bound)."""
    rng = np.random.default_rng(seed)
    produced = game = steps = 0
    while produced < count and (max_steps is None or steps < max_steps):
        s = engine.new_game(cfg, seed * 7919 + game)
        wait = int(rng.integers(*gap))
        while not s.game_over and produced < count:
            legal = np.flatnonzero(engine.legal_mask(s))
            engine.step(s, int(legal[rng.integers(legal.size)]))
            steps += 1
            wait -= 1
            if wait <= 0:
                yield s.copy()
                produced += 1
                wait = int(rng.integers(*gap))
        game += 1


def other_dice(s: Any) -> Any:
    """A copy of `s` whose generator draws other dice from now on: nobody may know the dice to come."""
    t = s.copy()
    t.rng.state ^= 0x5DEECE66D
    return t


def check_no_leak(encode: Callable[[Any, int], np.ndarray], s: Any, observer: int, rng: np.random.Generator, *,
                  hidden_variants: Variants, public_variants: Variants,
                  legal_mask: Callable[[Any], np.ndarray]) -> int:
    """Assert that `encode(state, observer)` ignores hidden facts and sees public ones; the number
    of variants checked. The observer's mask (when it is to act) must ignore hidden facts too."""
    base = encode(s, observer)
    mask = legal_mask(s).copy() if s.actor == observer and not s.game_over else None
    checked = 0
    for what, t in hidden_variants(s, observer, rng):
        got = encode(t, observer)
        if not np.array_equal(got, base):
            diff = np.flatnonzero(got != base)
            raise AssertionError(f"hidden change '{what}' changed player {observer}'s observation at "
                                 f"{diff[:10].tolist()}")
        if mask is not None and not np.array_equal(legal_mask(t), mask):
            raise AssertionError(f"hidden change '{what}' changed player {observer}'s action mask")
        checked += 1
    for what, t in public_variants(s, observer, rng):
        if np.array_equal(encode(t, observer), base):
            raise AssertionError(f"public change '{what}' left player {observer}'s observation unchanged")
        checked += 1
    return checked


def check_mask_exact(raw: Any, s: Any, rng: np.random.Generator, n_illegal: int = 8) -> int:
    """Through a `raw_env`: all legal actions accepted, `n_illegal` sampled others refused with the
    state, the agent to act and the rewards unchanged. Returns the number of actions tried."""
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
    tried = legal.size
    for a in rng.choice(illegal, size=min(n_illegal, illegal.size), replace=False):
        raw.restore(s)
        before = raw.snapshot()
        rewards = dict(raw._cumulative_rewards)
        try:
            raw.step(int(a))
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"masked-out action {a} ({raw.describe_action(int(a))}) was accepted")
        assert raw.snapshot() == before, f"refused action {a} changed the state"
        assert raw.agent_selection == agent and raw._cumulative_rewards == rewards
        tried += 1
    return tried

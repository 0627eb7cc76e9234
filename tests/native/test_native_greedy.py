"""The native greedy agent (ktenv.kings_and_things.native.agents, src/agents/) is bit-exact with
agents/kings_and_things/greedy.py.

Seeded games are played (2, 3, 4 and 6 players; option mixes with house content and Mysterious Kadab)
with greedy seats: at every decision the native scores of every legal action must equal the Python
GreedyAgent.scores bit for bit, and the native agent must choose what the Python agent chooses (same
seed, same tie-break draws). Observations perturbed with fractional values and set to every decision the
agent has a handler for check the float32/float64 arithmetic of every handler. CI plays short games;
behind `slow`, KTENV_GREEDY_GAMES full-length ones.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available():
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.agents.kings_and_things.greedy import GreedyAgent  # noqa: E402  (the oracle: the Python agent, always)
from ktenv.agents.kings_and_things.rules import HANDLER_NAMES  # noqa: E402
from ktenv.agents.kings_and_things.view import VARIANTS, LayoutError, View, _shape  # noqa: E402

from ktenv import agents  # noqa: E402
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.arena import encoder_for  # noqa: E402
from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.engine import machine  # noqa: E402
from ktenv.kings_and_things.engine.machine import legal_mask, step  # noqa: E402
from ktenv.kings_and_things.native import core  # noqa: E402
from ktenv.kings_and_things.native.agents import (  # noqa: E402
    GreedyBatch,
    NativeGreedyAgent,
    greedy_plan,
    greedy_plan_numbers,
    seed_words,
)

from .. import play  # noqa: E402

GREEDY = GreedyAgent(seed=0)
HANDLED = sorted(code for code, name in HANDLER_NAMES.items() if hasattr(GREEDY, name))
CONFIGS = (
    (2, {}), (3, {"victory": "quick"}), (4, {"neutral_control": "policy", "event_losses": "free_choice"}),
    (2, {"house_content": True}), (3, {"mysterious_kadab": True}),
    (4, {"house_content": True, "mysterious_kadab": True}),
    (3, {"encounter_powers": True, "dust_timing": "any_window"}),
)


pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the engines themselves


def bits(a) -> np.ndarray:
    return np.asarray(a, np.float64).view(np.int64)


def play_compared(cfg: GameConfig, seed: int, max_decisions: int = 100_000) -> Counter:
    """Play a game of greedy seats, comparing scores and choices at every decision; decisions per code."""
    s = machine.new_game(cfg, seed, backend="python")
    enc = encoder_for(cfg)
    py = [GreedyAgent(seed=seed * 10 + p) for p in range(cfg.n_players)]
    nat = [NativeGreedyAgent(seed=seed * 10 + p) for p in range(cfg.n_players)]
    seen: Counter = Counter()
    while not s.game_over and sum(seen.values()) < max_decisions:
        p, mask = s.actor, legal_mask(s)
        obs = enc.encode(s, p)
        legal = np.flatnonzero(mask)
        v = View(obs)
        want = py[p].scores(v, legal)
        got_legal, got = nat[p].scores(obs, mask)
        where = f"{cfg.n_players} players, seed {seed}, decision {sum(seen.values())} ({D.NAMES[v.decision]})"
        assert np.array_equal(got_legal, legal), where
        assert np.array_equal(bits(got), bits(want)), f"{where}: scores {got} != {want}"
        a = py[p].act(obs, mask)
        assert nat[p].act(obs, mask) == a, f"{where}: another choice"
        seen[v.decision] += 1
        step(s, a)
    return seen


@pytest.mark.parametrize("n, options", CONFIGS)
def test_games_same_scores_and_choices(n, options):
    seen = play_compared(GameConfig(n_players=n, max_rounds=3, **options), seed=11 + n)
    assert sum(seen.values()) > 150
    print(f"{n} players {options}: {sum(seen.values())} decisions compared, {len(seen)} decision kinds")


def test_six_players_short():
    seen = play_compared(GameConfig(n_players=6, max_rounds=1), seed=5, max_decisions=250)
    assert sum(seen.values()) == 250
    print(f"6 players: 250 decisions compared, {len(seen)} decision kinds")


@pytest.mark.slow
def test_games_full_length():
    games = int(os.environ.get("KTENV_GREEDY_GAMES", "4"))
    total: Counter = Counter()
    for g in range(games):
        n, options = CONFIGS[g % len(CONFIGS)]
        total += play_compared(GameConfig(n_players=n, **options), seed=1000 + g)
    print(f"{games} games, {sum(total.values())} decisions compared, {len(total)} decision kinds: "
          f"{sorted(D.NAMES[d] for d in total)}")


def recorded(cfg: GameConfig, seed: int, every: int = 9, count: int = 12) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) at every `every`-th decision of a greedy game."""
    return play.recorded(cfg, seed, GreedyAgent(seed=seed), every, count)


@pytest.mark.parametrize("n, options", [(2, {}), (4, {"house_content": True}), (3, {"mysterious_kadab": True})])
def test_every_handler_on_perturbed_observations(n, options):
    """Every decision the agent handles, on real observations with some values made fractional or
    negative (float32 rounding then shows) and random masks: the same scores bit for bit."""
    rng = np.random.default_rng(n)
    cfg = GameConfig(n_players=n, max_rounds=4, **options)
    nat = NativeGreedyAgent(seed=0)
    compared: Counter = Counter()
    for obs, _ in recorded(cfg, seed=n):
        v0 = View(obs)
        first = v0.layout.section("game").offset("decision_none")
        size = v0.actions.size
        small = np.r_[0:v0.actions.thing, v0.actions.player:size]  # actions whose index is a hex
        for d in HANDLED:
            o = obs.copy()
            noisy = rng.random(o.size) < 0.05
            o[noisy] = rng.integers(-1, 4, noisy.sum()) + rng.choice([0.0, 0.3, 0.5, 0.77], noisy.sum())
            o[first:first + D.n_decisions(cfg.house_content)] = 0
            o[first + d] = 1
            mask = np.zeros(size, np.int8)
            pool = small if rng.random() < 0.5 else np.arange(size)
            mask[rng.choice(pool, size=int(rng.integers(2, 24)), replace=False)] = 1
            legal = np.flatnonzero(mask)
            try:
                want = GREEDY.scores(View(o), legal)
            except (IndexError, ValueError):  # an index the Python agent cannot read (never in a game)
                continue
            got_legal, got = nat.scores(o, mask)
            assert np.array_equal(got_legal, legal)
            assert np.array_equal(bits(got), bits(want)), f"{D.NAMES[d]}: {got} != {want}"
            compared[d] += 1
    assert set(compared) == set(HANDLED), f"never compared: {set(HANDLED) - set(compared)}"
    print(f"{n} players {options}: {sum(compared.values())} perturbed decisions compared")


def test_generator_is_numpys():
    c = core()
    for seed in (0, 1, 7, 2**32 - 1, 2**32, 2**64 - 1, 12345678901234567890123456789):
        w = seed_words(seed)
        assert np.array_equal(np.asarray(c.seed_state(w, 8), np.uint32),
                              np.random.SeedSequence(seed).generate_state(8, np.uint32)), seed
        assert np.array_equal(bits(c.pcg64_random(w, 50)), bits(np.random.default_rng(seed).random(50))), seed


def test_seed_errors():
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError, match="seed"):
            seed_words(bad)
    assert seed_words(None).dtype == np.uint32  # fresh entropy, like default_rng(None)


def test_one_legal_action_draws_nothing_and_reset():
    seen = recorded(GameConfig(n_players=2, max_rounds=2), seed=3, every=3, count=8)
    py, nat = GreedyAgent(seed=9), NativeGreedyAgent(seed=9)
    for obs, mask in seen:
        one = np.zeros_like(mask)
        one[np.flatnonzero(mask)[-1]] = 1
        assert py.act(obs, one) == nat.act(obs, one) == np.flatnonzero(mask)[-1]
        assert py.act(obs, mask) == nat.act(obs, mask)
    py.reset(4)
    nat.reset(4)
    assert [py.act(o, m) for o, m in seen] == [nat.act(o, m) for o, m in seen]


def test_layout_change_keeps_the_generator():
    a = recorded(GameConfig(n_players=2, max_rounds=2), seed=1, every=2, count=6)
    b = recorded(GameConfig(n_players=3, max_rounds=2, house_content=True), seed=2, every=2, count=6)
    py, nat = GreedyAgent(seed=5), NativeGreedyAgent(seed=5)
    for obs, mask in a[:3] + b + a[3:]:
        assert py.act(obs, mask) == nat.act(obs, mask)


def test_batch_acts_like_single_agents():
    cfg = GameConfig(n_players=3, max_rounds=3)
    seen = recorded(cfg, seed=8, every=4, count=6)
    obs, masks = np.stack([o for o, _ in seen]), np.stack([m for _, m in seen]).astype(np.int8)
    seeds = [3, 2**40 + 1, 0, 17, 5, 99]
    batch = GreedyBatch(cfg, seeds)
    singles = [GreedyAgent(seed=s) for s in seeds]
    for _ in range(3):
        got = batch.act(obs, masks)
        assert got.tolist() == [a.act(o, m) for a, o, m in zip(singles, obs, masks, strict=True)]
    masks[2] = 0
    with pytest.raises(ValueError, match="row 2 allows no action"):
        batch.act(obs, masks)


def test_plans_follow_views_layouts():
    for v in VARIANTS:
        layout, geo, actions = _shape(*v)
        plan = greedy_plan(*v)
        assert (plan.size, plan.n_actions, plan.n_players) == (layout.size, actions.size, v[0])


def test_bad_input_is_refused():
    obs = recorded(GameConfig(n_players=2, max_rounds=2), seed=3, count=1)[0][0]
    size = View(obs).actions.size
    nat = NativeGreedyAgent(seed=1)
    with pytest.raises(ValueError, match="allows no action"):
        nat.act(obs, np.zeros(size, np.int8))
    with pytest.raises(ValueError, match="mask of length"):
        nat.act(obs, np.ones(size + 1, np.int8))
    with pytest.raises(LayoutError, match="length 5"):
        nat.act(np.zeros(5, np.float32), np.ones(size, np.int8))
    one = np.zeros(size, np.int8)
    one[7] = 1  # one legal action: played unread, like the Python agent
    assert nat.act(np.zeros(5, np.float32), one) == GreedyAgent().act(np.zeros(5, np.float32), one) == 7
    with pytest.raises(ValueError, match="needs the observation"):
        nat.act(None, np.ones(size, np.int8))
    with pytest.raises(ValueError, match="no observation layout for 5 players"):
        greedy_plan_numbers(5)
    ints, tables = greedy_plan_numbers(2)
    del ints["hexes.fort"]
    with pytest.raises(ValueError, match="missing number 'hexes.fort'"):
        core().GreedyPlan.make(ints, tables)
    ints, tables = greedy_plan_numbers(2)
    tables["thing_kind"] = tables["thing_kind"][:10]
    with pytest.raises(ValueError, match="table 'thing_kind' has 10 entries"):
        core().GreedyPlan.make(ints, tables)
    nat.act(obs, np.ones(size, np.int8))  # the agent still plays after refusals


def test_the_registered_greedy_is_the_native_one_when_built():
    """agents.make("greedy") plays natively (the same choices as GreedyAgent, tested above)."""
    assert isinstance(agents.make("greedy", seed=1), NativeGreedyAgent)

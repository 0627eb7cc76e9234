"""Through the environment: exact masks, pickling, deep copies, snapshots and determinism."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import ktenv
from ktenv.kings_and_things.env.testing import check_mask_exact, random_states
from ktenv.kings_and_things.state import GameState


def random_actions(env, count: int, seed: int) -> list[tuple]:
    """Play `count` masked random actions on a raw env; (agent, action, observation, reward) each."""
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(count):
        if env.game_state.game_over:
            break
        agent = env.agent_selection
        obs = env.observe(agent)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        trace.append((agent, action, obs["observation"], env._cumulative_rewards[agent],
                      dict(env.infos[agent])))
    return trace


def same_trace(a: list[tuple], b: list[tuple]) -> None:
    assert len(a) == len(b)
    for (agent1, act1, obs1, rew1, info1), (agent2, act2, obs2, rew2, info2) in zip(a, b, strict=True):
        assert agent1 == agent2 and act1 == act2 and rew1 == rew2 and info1 == info2
        assert np.array_equal(obs1, obs2)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_mask_is_exact_through_the_env(n):
    """Every masked-in action is accepted; sampled masked-out ones raise and change nothing."""
    env = ktenv.raw_env(n_players=n, max_rounds=5)
    rng = np.random.default_rng(n)
    tried = 0
    for s in random_states(env.cfg, 25, seed=30 + n, gap=(1, 50)):
        tried += check_mask_exact(env, s, rng)
    assert tried > 25 * 4


@pytest.mark.slow
def test_mask_is_exact_on_many_states():
    for n in (2, 3, 4):
        env = ktenv.raw_env(n_players=n, max_rounds=10)
        rng = np.random.default_rng(100 + n)
        for s in random_states(env.cfg, 60, seed=60 + n, gap=(1, 150)):
            check_mask_exact(env, s, rng, n_illegal=20)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_env_pickles_and_continues_identically(how):
    env = ktenv.env(n_players=3, max_rounds=4, reward="shaped")
    env.reset(seed=21)
    raw = env.unwrapped
    random_actions(raw, 120, seed=1)
    other = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    assert other.unwrapped is not raw and other.unwrapped.snapshot() == raw.snapshot()
    assert other.agent_selection == env.agent_selection
    same_trace(random_actions(raw, 300, seed=2), random_actions(other.unwrapped, 300, seed=2))
    # the env's own seed generator travels too: the next unseeded reset gives the same game
    env.reset()
    other.reset()
    assert other.unwrapped.snapshot() == raw.snapshot()


def test_pickle_before_reset_and_after_the_end():
    fresh = pickle.loads(pickle.dumps(ktenv.env(n_players=2)))
    fresh.reset(seed=0)
    env = ktenv.raw_env(n_players=2, max_rounds=2)
    env.reset(seed=3)
    random_actions(env, 100_000, seed=3)
    assert env.game_state.game_over
    done = pickle.loads(pickle.dumps(env))
    assert done.terminations == env.terminations and done.truncations == env.truncations
    assert done.infos == env.infos


def test_snapshot_and_restore_include_the_generator():
    """A JSON snapshot (state incl. generator) restored into another env replays exactly."""
    env = ktenv.raw_env(n_players=4, max_rounds=4)
    env.reset(seed=8)
    random_actions(env, 150, seed=4)
    snap = env.snapshot()
    assert GameState.from_json(snap).rng.state == env.game_state.rng.state
    first = random_actions(env, 400, seed=5)
    other = ktenv.raw_env(n_players=4, max_rounds=4)
    other.reset(seed=99)
    other.restore(snap)
    same_trace(first, random_actions(other, 400, seed=5))
    env.restore(snap)  # and in the same env
    same_trace(first, random_actions(env, 400, seed=5))


def test_determinism_same_seed_same_game():
    def run(seed):
        env = ktenv.raw_env(n_players=3, max_rounds=3)
        env.reset(seed=seed)
        return random_actions(env, 100_000, seed=7)

    a, b = run(12), run(12)
    same_trace(a, b)
    c = run(13)
    assert len(a) != len(c) or any(x[1] != y[1] or not np.array_equal(x[2], y[2]) for x, y in zip(a, c))


def test_seeded_reset_plays_the_engine_game():
    """reset(seed=k) is the engine's new_game(cfg, k): a seed means the same game everywhere."""
    from ktenv.kings_and_things.engine import new_game

    env = ktenv.raw_env(n_players=2, max_rounds=3)
    env.reset(seed=42)
    assert env.snapshot() == new_game(env.cfg, 42).to_json()
    env.reset()  # unseeded resets continue the generator seeded by 42: reproducible
    again = ktenv.raw_env(n_players=2, max_rounds=3)
    again.reset(seed=42)
    again.reset()
    assert env.snapshot() == again.snapshot()

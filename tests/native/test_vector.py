"""ktenv.kings_and_things.vector.VectorEnv: N native games per call, with the AEC env's semantics (docs/vector.md).

The AEC env (ktenv.kings_and_things.env.raw_env, on both engines) is the oracle: the same seeds and actions must give
the same observations, masks, actors, rewards and ends, step by step, through auto-resets, round-limit
and step-limit truncations, and with random seats played inside native code.
"""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available():
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.agents import make as make_agent  # noqa: E402

from ktenv.errors import (
    ConfigError,  # noqa: E402
    IllegalActionError,  # noqa: E402
)
from ktenv.kings_and_things.engine.machine import legal_mask  # noqa: E402
from ktenv.kings_and_things.env import raw_env  # noqa: E402
from ktenv.kings_and_things.env.stats import STAT_COLUMNS  # noqa: E402
from ktenv.kings_and_things.native.game import NativeGame  # noqa: E402
from ktenv.kings_and_things.vector import SKIP, VectorEnv, reasons  # noqa: E402
from ktenv.rng import Dice  # noqa: E402

KEYS = ("observation", "action_mask", "actor", "rewards", "opening_rewards", "terminated", "truncated", "seed",
        "final_winners", "final_reason", "final_rounds", "final_seed", "final_length", "final_return", "final_stats")


pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the engines themselves


def random_actions(out: dict, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per game, chosen in numpy."""
    mask = out["action_mask"]
    return (rng.random(mask.shape) * mask).argmax(1)


def chooser(seed: int) -> Dice:
    """The random seats' generator of the game with this seed (docs/vector.md)."""
    return Dice((seed * 7919 + 1) % 2**64)


class Twin:
    """One game of the batch replayed on an AEC env: native seats played here with the same generator,
    rewards summed the way the batch hands them out (since the game's previous row)."""

    def __init__(self, backend: str, seats, reward: str, max_steps, options: dict) -> None:
        options = {"n_players": len(seats), **options}
        self.env = raw_env(backend=backend, reward=reward, max_steps=max_steps, **options)
        self.external = [kind == "external" for kind in seats]
        self.greedy = {p: make_agent("greedy", n_players=len(seats)) for p, kind in enumerate(seats)
                       if kind == "greedy"}
        self.agents = self.env.possible_agents
        self.earned = np.zeros(len(self.agents))
        self.episode = np.zeros(len(self.agents))

    def start(self, seed: int) -> None:
        self.env.reset(seed=seed)
        self.seed, self.choices, self.steps = seed, chooser(seed), 0
        for p, agent in self.greedy.items():
            agent.reset((seed * 7919 + 2 + p) % 2**64)
        self.episode[:] = 0.0
        self.native_turns()

    def act(self, action: int) -> bool:
        """The external action, then the native seats; True when the episode ended."""
        return self._play(action) or self.native_turns()

    def native_turns(self) -> bool:
        e = self.env
        while not self.external[p := e.agent_name_mapping[e.agent_selection]]:
            if p in self.greedy:
                seen = e.observe(e.agent_selection)
                action = self.greedy[p].act(seen["observation"], seen["action_mask"])
            else:
                legal = np.flatnonzero(legal_mask(e.game_state))  # either engine
                action = int(legal[self.choices.below(legal.size)])
            if self._play(action):
                return True
        return False

    def _play(self, action: int) -> bool:
        e = self.env
        e.step(action)
        self.steps += 1
        got = np.array([e.rewards[a] for a in self.agents])
        self.earned += got
        self.episode += got
        return any(e.terminations.values()) or any(e.truncations.values())

    def take_earned(self) -> np.ndarray:
        earned, self.earned = self.earned, np.zeros(len(self.agents))
        return earned


def same_view(out: dict, i: int, twin: Twin) -> None:
    e = twin.env
    agent = e.agent_selection
    assert out["actor"][i] == e.agent_name_mapping[agent]
    seen = e.observe(agent)
    np.testing.assert_array_equal(out["observation"][i], seen["observation"])
    np.testing.assert_array_equal(out["action_mask"][i], seen["action_mask"])
    assert out["seed"][i] == twin.seed


def same_end(out: dict, i: int, twin: Twin) -> None:
    e = twin.env
    agent = twin.agents[0]
    assert out["terminated"][i] == e.terminations[agent]
    assert out["truncated"][i] == e.truncations[agent]
    info = e.infos[agent]
    assert reasons()[out["final_reason"][i]] == info["reason"]
    winners = [twin.agents.index(a) for a in info["winners"]]
    assert np.flatnonzero(out["final_winners"][i]).tolist() == winners
    assert out["final_seed"][i] == twin.seed
    assert out["final_length"][i] == twin.steps
    assert out["final_rounds"][i] == e.game_state.round
    np.testing.assert_array_equal(out["final_return"][i], twin.episode)
    for p, a in enumerate(twin.agents):  # the players' statistics at the end, as the AEC env's infos
        for name in ("income", "hexes", "gold", "forts", "citadels", "heroes", "alive"):
            assert out["final_stats"][i, p, STAT_COLUMNS.index(name)] == e.infos[a][name], (p, name)
    observer = twin.external.index(True)  # the default observer: the first external seat
    np.testing.assert_array_equal(out["final_observation"][i], e.observe(twin.agents[observer])["observation"])


def drive(env: VectorEnv, twins: list[Twin], seed: int, steps: int, rng) -> int:
    """Step both sides with the same actions; returns the episodes that ended."""
    n = env.num_envs
    out = env.reset()
    started = [1] * n
    for i, twin in enumerate(twins):
        twin.start(seed + i)
        np.testing.assert_array_equal(out["opening_rewards"][i], twin.take_earned())
        same_view(out, i, twin)
    ended = 0
    for _ in range(steps):
        actions = random_actions(out, rng)
        out = env.step(actions)
        for i, twin in enumerate(twins):
            done = twin.act(int(actions[i]))
            np.testing.assert_array_equal(out["rewards"][i], twin.take_earned())
            assert bool(out["terminated"][i] or out["truncated"][i]) == done
            if done:
                same_end(out, i, twin)
                twin.start(seed + i + started[i] * n)
                started[i] += 1
                ended += 1
            np.testing.assert_array_equal(out["opening_rewards"][i], twin.take_earned())  # zero if no game began
            same_view(out, i, twin)
    return ended


CASES = [  # backend, reward, max_steps, seats, options, steps
    ("native", "shaped", None, ("external", "external"), {"max_rounds": 2}, 400),
    ("python", "win", None, ("external", "external"), {"max_rounds": 1}, 150),
    ("native", "win", 37, ("external", "external", "external"), {"n_players": 3}, 120),
    ("python", "shaped", 30, ("external", "external"), {}, 70),
    ("native", "shaped", None, ("random", "external"), {"max_rounds": 2}, 250),
    ("native", "win", None, ("external", "random", "random"), {"n_players": 3, "max_rounds": 1}, 120),
]


@pytest.mark.parametrize("backend,reward,max_steps,seats,options,steps", CASES)
def test_same_as_the_aec_env(backend, reward, max_steps, seats, options, steps):
    n, seed = 3, 11
    env = VectorEnv(n, seed=seed, num_threads=2, reward=reward, max_steps=max_steps, seats=seats, **options)
    twins = [Twin(backend, seats, reward, max_steps, options) for _ in range(n)]
    ended = drive(env, twins, seed, steps, np.random.default_rng(5))
    assert ended >= n  # every game went through at least one end and auto-reset


def test_greedy_seats_same_as_the_python_agent():
    pytest.importorskip("ktenv.kings_and_things.native.agents",
                        reason="the native greedy agent's Python side is not built yet")
    from ktenv.kings_and_things.native import agents

    if not hasattr(agents, "plan_for"):
        pytest.skip("ktenv.kings_and_things.native.agents.plan_for is not there yet")
    n, seed, seats = 2, 21, ("greedy", "external", "random")
    env = VectorEnv(n, seed=seed, num_threads=2, reward="shaped", seats=seats, n_players=3, max_rounds=1)
    twins = [Twin("native", seats, "shaped", None, {"max_rounds": 1}) for _ in range(n)]
    assert drive(env, twins, seed, 120, np.random.default_rng(8)) >= n


def test_shapes_and_dtypes():
    env = VectorEnv(4, num_players=3, seed=2, num_threads=1)
    out = env.reset()
    n, p = 4, 3
    assert env.num_players == p and env.config.n_players == p
    assert env.observation_size == env.observation_layout().size
    expected = {
        "observation": (np.float32, (n, env.observation_size)), "action_mask": (np.int8, (n, env.n_actions)),
        "actor": (np.int32, (n,)), "rewards": (np.float64, (n, p)), "opening_rewards": (np.float64, (n, p)),
        "terminated": (np.bool_, (n,)),
        "truncated": (np.bool_, (n,)), "seed": (np.uint64, (n,)), "final_winners": (np.bool_, (n, p)),
        "final_reason": (np.int8, (n,)), "final_rounds": (np.int32, (n,)), "final_seed": (np.uint64, (n,)),
        "final_length": (np.int64, (n,)), "final_return": (np.float64, (n, p)),
        "final_stats": (np.int64, (n, p, len(STAT_COLUMNS))),
        "final_observation": (np.float32, (n, env.observation_size)),
    }
    assert set(out) == set(expected)
    for key, (dtype, shape) in expected.items():
        assert out[key].dtype == dtype and out[key].shape == shape, key
    assert out["seed"].tolist() == [2, 3, 4, 5]
    assert (out["action_mask"].sum(1) > 0).all()
    assert env.step(random_actions(out, np.random.default_rng(0))) is out  # the same arrays, overwritten


def test_same_arrays_whatever_the_thread_count():
    def play(threads: int) -> list[dict]:
        env = VectorEnv(7, seed=3, num_threads=threads, reward="shaped", max_steps=90,
                        seats=[("external", "random")] * 4 + [("random", "external")] * 3)
        rng = np.random.default_rng(1)
        out = env.reset()
        rows = [{k: v.copy() for k, v in out.items()}]
        for _ in range(200):
            out = env.step(random_actions(out, rng))
            rows.append({k: v.copy() for k, v in out.items()})
        return rows

    one = play(1)
    assert sum(r["truncated"].sum() for r in one) > 0
    for threads in (2, 3):  # 3: more threads than this machine's cores
        for a, b in zip(one, play(threads)):
            for key in KEYS:
                np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_an_illegal_action_changes_no_game():
    env = VectorEnv(3, seed=4)
    out = env.reset()
    before = [env.game(i).to_json() for i in range(3)]
    rows = {k: v.copy() for k, v in out.items()}
    actions = random_actions(out, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(out["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"game 1: action {actions[1]} \(.*\) is not legal now"):
        env.step(actions)
    actions[1] = env.n_actions
    with pytest.raises(IllegalActionError, match=rf"game 1: action {env.n_actions} is outside the action space"):
        env.step(actions)
    assert [env.game(i).to_json() for i in range(3)] == before
    for key in KEYS:
        np.testing.assert_array_equal(out[key], rows[key], err_msg=key)


def test_bad_input_is_refused():
    with pytest.raises(ConfigError, match="num_envs"):
        VectorEnv(0)
    with pytest.raises(ConfigError, match="num_threads"):
        VectorEnv(2, num_threads=0)
    with pytest.raises(ConfigError, match="reward"):
        VectorEnv(2, reward="gold")
    with pytest.raises(ConfigError, match="max_steps"):
        VectorEnv(2, max_steps=0)
    with pytest.raises(ConfigError, match="n_players"):
        VectorEnv(2, num_players=5)
    with pytest.raises(ConfigError, match="unknown"):
        VectorEnv(2, gold_rush=True)
    with pytest.raises(ConfigError, match="victory"):
        VectorEnv(2, victory="nonsense")
    with pytest.raises(ConfigError, match="seats: 'robot'"):
        VectorEnv(2, seats=("external", "robot"))
    with pytest.raises(ConfigError, match="game 0 has no external seat"):
        VectorEnv(2, seats=("random", "random"))
    with pytest.raises(ConfigError, match="seats: expected 2 seat kinds"):
        VectorEnv(2, seats=("external",))
    env = VectorEnv(2, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0])
    out = env.reset()
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        env.step([0, 0, 0])
    with pytest.raises(TypeError, match="dtype float64"):
        env.step(np.zeros(2))
    env.close()
    assert out["observation"].shape == (2, env.observation_size)
    with pytest.raises(RuntimeError, match="closed"):
        env.reset()


def test_seed_streams_and_auto_reset():
    n, cfg_steps = 3, 5
    env = VectorEnv(n, seed=10, max_steps=cfg_steps, num_threads=2)
    rng = np.random.default_rng(2)
    out = env.reset()
    for episode in range(3):
        assert out["seed"].tolist() == [10 + i + episode * n for i in range(n)]
        for _ in range(cfg_steps):
            out = env.step(random_actions(out, rng))
        assert out["truncated"].all() and not out["terminated"].any()
        assert out["final_seed"].tolist() == [10 + i + episode * n for i in range(n)]
        assert (out["final_reason"] == reasons().index("step_limit")).all()
        assert not out["final_winners"].any() and (out["final_length"] == cfg_steps).all()
    for i in range(n):  # the row holds the new game's first view
        game = NativeGame.new(env.config, int(out["seed"][i]))
        np.testing.assert_array_equal(out["observation"][i], env.encoder.encode(game, game.actor))
        np.testing.assert_array_equal(out["action_mask"][i], game.legal_mask())
    assert env.reset(seed=100)["seed"].tolist() == [100, 101, 102]
    assert env.reset()["seed"].tolist() == [103, 104, 105]


def test_reasons_cover_the_engine():
    from ktenv.kings_and_things.summary import REASONS

    assert set(REASONS) | {"", "step_limit"} == set(reasons())


def test_a_game_over_before_any_external_decision_is_skipped():
    n = 3
    env = VectorEnv(n, seed=0, max_steps=2, seats=("random", "external"))
    out = env.reset()
    seeds = out["seed"].astype(np.int64)
    assert ((seeds - np.arange(n)) % n == 0).all() and (out["actor"] == 1).all()
    for i in range(n):  # the seeds passed over open with the random seat's two decisions
        for seed in range(i, int(seeds[i]), n):
            assert NativeGame.new(env.config, seed).actor == 0
    assert (seeds > np.arange(n)).any()  # some game was passed over (else this test proves nothing)


def test_seats_change_at_the_next_episode_and_a_skipped_game_stays_as_it_is():
    """Set_next_seats applies at the game's next (auto-)reset; SKIP (-1) leaves a game untouched."""
    n, seed = 3, 30
    env = VectorEnv(n, seed=seed, max_steps=6, num_threads=2)
    out = env.reset()
    env.set_next_seats(1, ("random", "external"), observer=0)
    assert env.seats(1) == ("external", "external")  # not before its next episode
    rng = np.random.default_rng(3)
    twin = Twin("native", ("random", "external"), "win", 6, {})
    for _ in range(6):
        before = {k: out[k][2].copy() for k in ("observation", "action_mask", "actor", "seed")}
        actions = random_actions(out, rng)
        actions[2] = SKIP
        out = env.step(actions)
        for key, row in before.items():  # game 2 was left as it is, and its row says nothing happened
            np.testing.assert_array_equal(out[key][2], row, err_msg=key)
        assert not out["rewards"][2].any() and not out["terminated"][2] and not out["truncated"][2]
    assert out["truncated"][[0, 1]].all() and not out["truncated"][2]
    assert env.seats(1) == ("random", "external") and env.seats(0) == ("external", "external")
    twin.start(seed + 1 + n)  # game 1's second game, its random seat played natively
    np.testing.assert_array_equal(out["opening_rewards"][1], twin.take_earned())
    same_view(out, 1, twin)
    assert (out["seed"] == [seed + n, seed + 1 + n, seed + 2]).all()
    env.step(np.full(n, SKIP))  # nothing at all: allowed, changes nothing
    assert (out["seed"] == [seed + n, seed + 1 + n, seed + 2]).all()


def test_the_observer_sees_the_final_state():
    env = VectorEnv(2, seed=5, max_steps=4, num_threads=1)
    env.set_next_seats(0, ("external", "external"), observer=1)
    out = env.reset()
    rng = np.random.default_rng(0)
    games = [NativeGame.new(env.config, s) for s in (5, 6)]
    for _ in range(4):
        actions = random_actions(out, rng)
        for g, a in zip(games, actions):
            g.step(int(a))
        out = env.step(actions)
    assert out["truncated"].all()
    for i, observer in ((0, 1), (1, 0)):
        np.testing.assert_array_equal(out["final_observation"][i], env.encoder.encode(games[i], observer))


def test_bad_seats_change_nothing():
    env = VectorEnv(2, seed=1)
    env.reset()
    for args, error, message in (((5, ("external", "random")), IndexError, "not a game"),
                                 ((0, ("random", "random")), ConfigError, "game 0 has no external seat"),
                                 ((1, ("external", "wizard")), ConfigError, "'wizard' \\(game 1, seat 1\\)"),
                                 ((0, ("external",)), ConfigError, "expected 2 seat kinds"),
                                 ((0, ("external", "random"), 2), ConfigError, "observer")):
        with pytest.raises(error, match=message):
            env.set_next_seats(*args)
    out = env.reset()
    assert env.seats(0) == env.seats(1) == ("external", "external")
    with pytest.raises(IllegalActionError, match="game 1: action -2"):
        env.step([SKIP, -2])
    assert out["actor"].tolist() == [env.game(0).actor, env.game(1).actor]

"""Policy seats of the batched games: a trained model (``ppo:PATH``, ``ppo-sample:PATH``) playing a
seat inside native code (ktenv/kings_and_things/native/src/agents/policy.hpp). Its logits are
training.policy.PlayingNetwork's to
float rounding, its choices the arena agent's (tests/native/test_vector_learner.py replays them through
SingleAgentEnv), and a batch plays the same whatever the thread count."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available():
    pytest.skip("the native core is not built", allow_module_level=True)

torch = pytest.importorskip("torch")

from ktenv.training.policy import PlayingNetwork  # noqa: E402

from ktenv.errors import ConfigError  # noqa: E402
from ktenv.kings_and_things.env.aec import game_config  # noqa: E402
from ktenv.kings_and_things.vector import SKIP, VectorEnv, native_policy  # noqa: E402

from ..models import untrained_model  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_shadow")


def model_file(folder, players: int = 2, activation: str = "relu", pi=(32, 16), seed: int = 0):
    """An untrained ktenv model zip (the format `ktenv train` writes), with weights large enough that its
    logits differ by more than rounding."""
    probe = VectorEnv(1, players)
    meta = {"observation_size": probe.observation_size, "action_size": probe.n_actions,
            "network": {"features": 48, "pi": list(pi), "vf": [8], "activation": activation},
            "game": game_config({"n_players": players}).to_dict()}
    path = folder / f"model_{players}_{activation}_{len(pi)}.zip"
    policy = untrained_model(path, meta, seed)
    return path, policy


def random_actions(out: dict, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1)


def observations(count: int, players: int = 2) -> np.ndarray:
    """Observations of random games (every seat's turn)."""
    env = VectorEnv(4, players, seed=3, num_threads=1)
    out, rng, rows = env.reset(), np.random.default_rng(0), []
    while len(rows) < count:
        rows.extend(out["observation"].copy())
        out = env.step(random_actions(out, rng))
    return np.array(rows[:count])


@pytest.mark.parametrize("activation,pi", [("relu", (32, 16)), ("tanh", (32,)), ("elu", (16, 16)), ("relu", ())])
def test_native_logits_are_the_playing_networks(tmp_path, activation, pi):
    path, policy = model_file(tmp_path, activation=activation, pi=pi)
    playing = PlayingNetwork(policy)
    network = native_policy(playing, False, f"ppo:{path}")
    rows = observations(40)
    expected = playing.logits(rows)
    got = network.logits(rows)
    assert got.shape == expected.shape == (40, network.n_actions) and got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-4 * np.abs(expected).max())
    assert np.ptp(expected, axis=1).min() > 1e-2  # the logits differ: the choices are not ties


@pytest.mark.parametrize("shipped,players", [("models/ppo_2p.zip", 2), ("models/ppo_2p_rows.zip", 2),
                                             ("models/ppo_4p_rows.zip", 4), ("models/ppo_4p_vs_expert.zip", 4)])
def test_the_shipped_models_natively(shipped, players):
    from pathlib import Path

    if not Path(shipped).is_file():
        pytest.skip("no shipped model in this checkout")
    from ktenv.agents.ppo import load_cached

    playing, meta = load_cached(shipped)
    assert meta["game"]["n_players"] == players
    rows = observations(30, players)
    expected = playing.logits(rows)
    np.testing.assert_allclose(native_policy(playing, False, shipped).logits(rows), expected, rtol=1e-5,
                               atol=1e-4 * np.abs(expected).max())


def play(seats, threads: int, steps: int = 150) -> list[dict]:
    env = VectorEnv(5, seed=7, num_threads=threads, reward="shaped", max_steps=60, seats=seats)
    rng = np.random.default_rng(1)
    out = env.reset()
    rows = [{k: v.copy() for k, v in out.items()}]
    for _ in range(steps):
        out = env.step(random_actions(out, rng))
        rows.append({k: v.copy() for k, v in out.items()})
    return rows


def test_same_arrays_whatever_the_thread_count(tmp_path):
    path, _ = model_file(tmp_path)
    seats = [("external", f"ppo-sample:{path}"), (f"ppo:{path}", "external"), ("external", f"ppo-sample:{path}"),
             ("external", "random"), (f"ppo-sample:{path}", "external")]
    one = play(seats, 1)
    assert sum(r["truncated"].sum() for r in one) > 0
    for threads in (2, 3):
        for a, b in zip(one, play(seats, threads)):
            for key in ("observation", "action_mask", "actor", "rewards", "final_return", "final_length"):
                np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_policy_seats_win_against_random_and_sampling_differs_from_the_best_action(tmp_path):
    shipped = "models/ppo_2p.zip"
    from pathlib import Path

    if not Path(shipped).is_file():
        pytest.skip("no shipped model in this checkout")
    wins = np.zeros(2)
    env = VectorEnv(8, seed=1, num_threads=2, seats=("external", f"ppo:{shipped}"))
    out, rng = env.reset(), np.random.default_rng(3)
    while wins.sum() < 16:
        out = env.step(random_actions(out, rng))
        wins += out["final_winners"][out["terminated"]].sum(0)
    assert wins[1] >= 14  # the shipped model beats random 100% in the README's table
    path, _ = model_file(tmp_path)
    best = play([("external", f"ppo:{path}")] * 5, 1, 40)
    sampled = play([("external", f"ppo-sample:{path}")] * 5, 1, 40)
    assert any((a["observation"] != b["observation"]).any() for a, b in zip(best, sampled))


def test_seats_name_the_model_and_networks_are_dropped_when_no_game_names_them(tmp_path):
    path, _ = model_file(tmp_path)
    spec = f"ppo-sample:{path}"
    env = VectorEnv(2, seed=1, seats=("external", spec))
    env.reset()
    assert env.seats(0) == env.seats(1) == ("external", spec)
    env.set_next_seats(0, ("external", "random"))
    assert spec in env._networks  # game 1's next episode still plays it
    env.set_next_seats(1, ("greedy", "external"))
    assert env._networks == {}
    assert env.seats(1) == ("external", spec)  # the episode under way keeps its network
    out = env.step(np.array([SKIP, random_actions(env._out, np.random.default_rng(0))[1]]))
    assert out["actor"][1] == 0


def test_bad_policy_seats_are_refused_and_change_nothing(tmp_path):
    three, _ = model_file(tmp_path, players=3)
    with pytest.raises(ConfigError, match="trained on observations of"):
        VectorEnv(2, seats=("external", f"ppo:{three}"))
    with pytest.raises(ConfigError, match="no such model file"):
        VectorEnv(2, seats=("external", f"ppo:{tmp_path / 'missing.zip'}"))
    with pytest.raises(ConfigError, match="'ppo:'"):
        VectorEnv(2, seats=("external", "ppo:"))
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"not a zip")
    env = VectorEnv(2, seed=1, seats=("external", "random"))
    env.reset()
    for seats, message in (((f"ppo:{three}", "external"), "trained on observations of"),
                           (("external", f"ppo-sample:{broken}"), "not a readable model zip")):
        with pytest.raises(ConfigError, match=message):
            env.set_next_seats(0, seats)
    assert env._networks == {}
    env.reset()
    assert env.seats(0) == ("external", "random")
    three_players = VectorEnv(1, 3, seed=1, seats=("external", "random", "random"))
    with pytest.raises(ConfigError, match="not a readable model zip"):  # the first model loads, the second not
        three_players.set_next_seats(0, ("external", f"ppo:{three}", f"ppo:{broken}"))
    assert three_players._networks == {}


def test_a_network_of_the_wrong_shape_is_refused():
    core = native.core()
    first, bias = np.zeros((10, 4), np.float32), np.zeros(4, np.float32)
    head, head_bias = np.zeros((4, 3), np.float32), np.zeros(3, np.float32)
    with pytest.raises(ValueError, match="hidden layer 0: takes 5 inputs"):
        core.PolicyNetwork.make(first, bias, [(np.zeros((5, 2), np.float32), np.zeros(2, np.float32), 1)], head,
                                head_bias, False, "x")
    with pytest.raises(ValueError, match="unknown activation code 9"):
        core.PolicyNetwork.make(first, bias, [(np.zeros((4, 4), np.float32), np.zeros(4, np.float32), 9)], head,
                                head_bias, False, "x")
    with pytest.raises(ValueError, match="first layer weights or bias"):
        core.PolicyNetwork.make(first, np.zeros(3, np.float32), [], head, head_bias, False, "x")
    network = core.PolicyNetwork.make(first, bias, [], head, head_bias, True, "tiny")
    assert (network.observation_size, network.n_actions, network.sample, network.name) == (10, 3, True, "tiny")
    env = VectorEnv(1, seed=0)
    with pytest.raises(ValueError, match="takes observations of 10"):
        env._live().set_next_seats(0, [0, 4], 0, [network])

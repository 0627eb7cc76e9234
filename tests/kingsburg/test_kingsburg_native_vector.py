"""Kingsburg's batched games (ktenv/kingsburg/native/vector.py): every row is the Python engine's game of its
seed, observed as `ObservationEncoder` observes it; seats, rewards, auto-reset and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.errors import ConfigError, IllegalActionError
from ktenv.gamekit.aec import win_rewards
from ktenv.kingsburg import machine, native
from ktenv.kingsburg.config import KingsburgConfig
from ktenv.kingsburg.observation import ObservationEncoder

pytestmark = [pytest.mark.skipif(not native.available(), reason="the native Kingsburg engine is not built"),
              pytest.mark.usefixtures("python_steps_alone")]


def test_the_native_encoder_matches_the_python_encoder_for_every_seat():
    checked = 0
    for seed in range(6):
        cfg = KingsburgConfig(n_players=2 + seed % 4, neutral_dice_players=(2, 3, 4, 5) if seed % 2 else ())
        s, enc = machine.new_game(cfg, seed, backend="native"), ObservationEncoder(cfg.n_players)
        rng = np.random.default_rng(seed)
        while not s.game_over:
            for p in range(cfg.n_players):
                assert np.array_equal(native.core().encode(s.native, p), enc.encode(s, p))
                checked += 1
            machine.step(s, int(rng.choice(np.flatnonzero(machine.legal_mask(s)))))
    assert checked > 1000


def test_every_row_plays_the_python_game_of_its_seed():
    from ktenv.kingsburg.native.vector import VectorEnv

    n_envs, seed, n = 3, 40, 3
    env = VectorEnv(n_envs, num_players=n, seed=seed, reward="shaped")
    enc = ObservationEncoder(n)
    seeds = [seed + i for i in range(n_envs)]  # row i's k-th game: seed + i + k * n_envs
    games = [machine.new_game(env.config, s, backend="python") for s in seeds]
    returns = np.zeros((n_envs, n))
    out = env.reset()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(700):
        for i, s in enumerate(games):
            assert out["actor"][i] == s.actor and out["seed"][i] == seeds[i]
            assert np.array_equal(out["action_mask"][i], machine.legal_mask(s))
            assert np.array_equal(out["observation"][i], enc.encode(s, s.actor))
        actions = [int(rng.choice(np.flatnonzero(machine.legal_mask(s)))) for s in games]
        potentials = [s.vp * 0.01 for s in games]
        out = env.step(np.array(actions))
        for i, s in enumerate(games):
            machine.step(s, actions[i])
            reward = s.vp * 0.01 - potentials[i] + (win_rewards(n, s.winners) if s.game_over else 0.0)
            returns[i] += reward
            assert np.allclose(out["rewards"][i], reward)
            assert out["terminated"][i] == s.game_over and not out["truncated"][i]
            if not s.game_over:
                assert not out["final_winners"][i].any() and out["final_length"][i] == 0
                continue
            finished += 1
            assert out["final_winners"][i].tolist() == [p in s.winners for p in range(n)]
            assert out["final_vp"][i].tolist() == s.vp.tolist() and out["final_seed"][i] == seeds[i]
            assert np.allclose(out["final_return"][i], returns[i]) and out["final_length"][i] == s.steps
            assert np.array_equal(out["final_observation"][i], enc.encode(s, 0))  # seat 0: the first external
            seeds[i] += n_envs
            games[i] = machine.new_game(env.config, seeds[i], backend="python")
            returns[i] = 0
    assert finished >= 3  # whole games, and the rows' next games


def test_native_random_seats_play_between_the_callers_decisions():
    from ktenv.kingsburg.native.vector import VectorEnv

    env = VectorEnv(8, num_players=4, seed=3, seats=("random", "external", "random", "random"))
    out = env.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        assert (out["actor"] == 1).all()  # only the caller's seat is ever asked
        noise = rng.random(out["action_mask"].shape)
        out = env.step((noise * out["action_mask"]).argmax(1))
        ended += int(out["terminated"].sum())
        for i in np.flatnonzero(out["terminated"]):
            assert out["final_winners"][i].any() and abs(out["final_return"][i].sum()) < 1e-9
    assert ended > 0
    assert env.game(0).to_json() == env.game(0).to_json() and env.game(0).actor == 1


def test_bad_input_is_refused_and_changes_nothing():
    from ktenv.kingsburg.native.vector import VectorEnv

    with pytest.raises(ConfigError, match="needs an external seat"):
        VectorEnv(2, num_players=2, seats=("random", "random"))
    with pytest.raises(ConfigError, match="is not one of"):
        VectorEnv(2, num_players=2, seats=("external", "wizard"))
    with pytest.raises(ConfigError, match="num_threads"):
        VectorEnv(2, num_players=2, num_threads=0)
    with pytest.raises(ConfigError, match="reward"):
        VectorEnv(2, num_players=2, reward="vp")
    env = VectorEnv(2, num_players=2, seed=5)
    out = env.reset()
    before = [env.game(i).to_json() for i in range(2)]
    legal, illegal = np.flatnonzero(out["action_mask"][0])[0], np.flatnonzero(out["action_mask"][1] == 0)[0]
    actions = np.array([legal, illegal])
    with pytest.raises(IllegalActionError, match="game 1"):
        env.step(actions)
    assert [env.game(i).to_json() for i in range(2)] == before


def replay(env, seats: tuple, agents: dict, steps: int, seed: int = 0) -> int:
    """Steps `env` with random external decisions and plays every row's games on the Python engine, the native
    seats' turns by `agents[seat](game seed)`: every row's observation, mask and actor must be the Python game's.
    Returns the decisions of the native seats seen."""
    enc = ObservationEncoder(env.num_players)
    seeds = [seed + i for i in range(env.num_envs)]
    games = [machine.new_game(env.config, s, backend="python") for s in seeds]
    players = [{p: agents[p](s) for p in agents} for s in seeds]
    native_turns = 0

    def settle(i):  # the native seats play up to the caller's turn
        nonlocal native_turns
        s = games[i]
        while not s.game_over and seats[s.actor] != "external":
            machine.step(s, players[i][s.actor].act(enc.encode(s, s.actor), machine.legal_mask(s)))
            native_turns += 1

    for i in range(env.num_envs):
        settle(i)
    out, rng = env.reset(seed), np.random.default_rng(seed)
    for _ in range(steps):
        for i, s in enumerate(games):
            assert out["actor"][i] == s.actor and np.array_equal(out["action_mask"][i], machine.legal_mask(s))
            assert np.array_equal(out["observation"][i], enc.encode(s, s.actor)), f"row {i}"
        actions = (rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1)
        out = env.step(actions)
        for i, s in enumerate(games):
            machine.step(s, int(actions[i]))
            settle(i)
            if s.game_over:
                assert out["terminated"][i] and out["final_vp"][i].tolist() == s.vp.tolist()
                seeds[i] += env.num_envs
                games[i] = machine.new_game(env.config, seeds[i], backend="python")
                players[i] = {p: agents[p](seeds[i]) for p in agents}
                settle(i)
    return native_turns


def test_native_greedy_and_expert_seats_play_as_the_python_agents():
    from ktenv.agents.kingsburg.heuristic import ExpertAgent, GreedyAgent

    from ktenv.kingsburg.native.vector import VectorEnv

    seats = ("greedy", "external", "expert")
    env = VectorEnv(3, num_players=3, seed=7, seats=seats, num_threads=2)
    turns = replay(env, seats, {0: lambda s: GreedyAgent(), 2: lambda s: ExpertAgent()}, 250, seed=7)
    assert turns > 300


def policy_model(folder, players: int, seed: int = 0):
    """An untrained ktenv model zip of a Kingsburg game (the format `ktenv train` writes), with weights large
    enough that its logits differ by more than rounding."""
    pytest.importorskip("torch")
    from tests.models import untrained_model

    meta = {"observation_size": ObservationEncoder(players).size, "action_size": 65,
            "network": {"features": 48, "pi": [32, 16], "vf": [8], "activation": "relu"},
            "game": KingsburgConfig(n_players=players).to_dict()}
    path = folder / f"kingsburg_{players}p_{seed}.zip"
    untrained_model(path, meta, seed)
    return path


def test_policy_seats_choose_as_the_python_network(tmp_path):
    from ktenv import agents
    from ktenv.kingsburg.native.vector import VectorEnv

    path = policy_model(tmp_path, 3)
    seats = ("external", f"ppo:{path}", f"ppo-sample:{path}")
    env = VectorEnv(2, num_players=3, seed=11, seats=seats, num_threads=2)
    players = {1: lambda s: agents.make(f"ppo:{path}", game="kingsburg"),  # the sampler: seeded as the seat's
               2: lambda s: agents.make(f"ppo-sample:{path}", game="kingsburg", seed=s * 7919 + 2 + 2)}
    turns = replay(env, seats, players, 120, seed=11)
    assert turns > 200
    with pytest.raises(ConfigError, match="trained on observations"):
        VectorEnv(1, num_players=4, seats=("external", f"ppo:{path}", "random", "random"))


def test_any_thread_count_plays_the_same_games(tmp_path):
    from ktenv.kingsburg.native.vector import VectorEnv

    seats = [("external", "random", "greedy", "expert"), ("expert", "external", "random", "greedy")] * 3
    outs = []
    for threads in (1, 2, 3):
        env = VectorEnv(6, num_players=4, seed=21, seats=seats, num_threads=threads, reward="shaped")
        out, rng, seen = env.reset(), np.random.default_rng(0), []
        for _ in range(150):
            seen.append({k: v.copy() for k, v in out.items()})
            out = env.step((rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1))
        outs.append(seen)
    for other in outs[1:]:
        for a, b in zip(outs[0], other):
            assert all(np.array_equal(a[k], b[k]) for k in a if k != "final_observation")

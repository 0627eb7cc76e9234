"""The PettingZoo AEC environment: peer API suites, rewards, ends, infos, config, illegal actions."""

from __future__ import annotations

import copy
import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

import ktenv
from ktenv.errors import ConfigError
from ktenv.kings_and_things.engine import IllegalActionError
from ktenv.kings_and_things.env.aec import SHAPING_SCALE, ActionSpaceCheck, win_rewards

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's notes on Dict observations


def play(env, seed: int, rng_seed: int = 0, limit: int = 100_000):
    """Masked uniform random play through the AEC loop; returns (steps, per-agent rewards, infos)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    last_info = {}
    steps = 0
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        last_info[agent] = info
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        env.step(action)
    return steps, totals, last_info


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_api_test(n):
    api_test(ktenv.env(n_players=n, max_rounds=2), num_cycles=400)


def test_pettingzoo_api_test_shaped_and_terminate_wrappers():
    api_test(ktenv.env(n_players=2, max_rounds=2, reward="shaped", illegal_action="terminate"), num_cycles=400)


def test_pettingzoo_seed_test():
    seed_test(lambda: ktenv.env(n_players=3, max_rounds=3), num_cycles=200)
    seed_test(lambda: ktenv.env(n_players=2, max_rounds=2, reward="shaped"), num_cycles=200)


def test_wrappers_and_metadata():
    env = ktenv.env(n_players=2)
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(env.unwrapped, ktenv.raw_env)
    assert env.metadata["name"] == "kings_and_things_v0"
    assert env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"human", "ansi", "rgb_array"}
    assert isinstance(env.env, ActionSpaceCheck)  # the AssertOutOfBoundsWrapper with clear errors
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.action_space("player_0").n == 271 and ktenv.env(n_players=4).action_space("player_3").n == 289
    assert ktenv.env(n_players=2, house_content=True).action_space("player_0").n == 277  # R22: + 2 Things, 4 faces
    terminate = ktenv.env(n_players=2, illegal_action="terminate")
    assert isinstance(terminate.env.env, wrappers.TerminateIllegalWrapper)
    assert ktenv.env(game="kings_and_things", n_players=2).metadata["name"] == "kings_and_things_v0"  # by its name


@pytest.mark.parametrize("n", [2, 4])
def test_bounded_episode_ends_at_the_round_limit(n):
    """Every episode ends: with max_rounds=R a game of random agents stops in round R at the latest,
    truncated (reason round_limit), winner(s) by the fixed-rounds rule reported and rewarded."""
    env = ktenv.env(n_players=n, max_rounds=2)
    steps, totals, infos = play(env, seed=3)
    assert 0 < steps < 5_000 * n
    assert not env.agents  # every agent was stepped out
    raw = env.unwrapped
    s = raw.game_state
    assert s.game_over and s.reason == "round_limit" and s.round == 2
    info = infos["player_0"]
    assert info["reason"] == "round_limit"
    winners = [f"player_{p}" for p in s.winners]
    assert info["winners"] == winners and info["winner"] == (winners[0] if len(winners) == 1 else None)
    assert totals == {a: r for a, r in zip(env.possible_agents, win_rewards(n, s.winners), strict=True)}
    assert abs(sum(totals.values())) < 1e-9


def test_truncation_versus_termination():
    env = ktenv.raw_env(n_players=2, max_rounds=2)
    play(env, seed=1)
    assert all(env.truncations.get(a, True) for a in env.possible_agents)
    env = ktenv.raw_env(n_players=2, max_rounds=None, victory="fixed_rounds", fixed_rounds=2)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    while not env.game_state.game_over:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert env.game_state.reason == "fixed_rounds"
    assert all(env.terminations.values()) and not any(env.truncations.values())


def test_step_limit_truncates_everybody():
    env = ktenv.env(n_players=3, max_rounds=2, max_steps=50)
    steps, totals, infos = play(env, seed=2)
    assert steps == 50 and set(totals.values()) == {0.0}
    assert all(info["reason"] == "step_limit" and info["winner"] is None for info in infos.values())
    with pytest.raises(ConfigError, match="max_steps"):
        ktenv.env(max_steps=0)


def test_win_rewards():
    assert win_rewards(4, [2]) == [-1 / 3, -1 / 3, 1.0, -1 / 3]
    assert win_rewards(4, [0, 3]) == [0.5, -0.5, -0.5, 0.5]
    assert win_rewards(3, [0, 1, 2]) == [0.0, 0.0, 0.0]
    assert win_rewards(2, []) == [0.0, 0.0]
    for n in (2, 3, 4):
        for k in range(1, n + 1):
            assert abs(sum(win_rewards(n, list(range(k))))) < 1e-12


def test_shaped_reward_is_potential_based():
    env = ktenv.raw_env(n_players=3, max_rounds=2, reward="shaped")
    env.reset(seed=4)
    start = env._potentials().copy()
    rng = np.random.default_rng(1)
    total = np.zeros(3)
    while not env.game_state.game_over:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        total += [env.rewards[a] for a in env.possible_agents]
    end = SHAPING_SCALE * np.array([env.game_state.income(p) + env.game_state.land_hex_count(p) for p in range(3)])
    expected = end - start + win_rewards(3, env.game_state.winners)
    assert np.allclose(total, expected)


def test_infos_report_public_numbers():
    env = ktenv.raw_env(n_players=3, max_rounds=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(150):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    s = env.game_state
    for i, a in enumerate(env.possible_agents):
        info = env.infos[a]
        assert info["round"] == s.round and info["income"] == s.income(i) and info["gold"] == s.gold[i]
        assert info["hexes"] == s.land_hex_count(i)
        assert info["forts"] == int((s.hex_fort[s.hex_owner == i] > 0).sum())
        assert isinstance(info["phase"], str) and info["actor"] == env.agent_selection
        assert "winner" not in info


def test_agent_selection_follows_the_engine_and_masks_belong_to_the_actor():
    env = ktenv.raw_env(n_players=4, max_rounds=2)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(200):
        s = env.game_state
        assert env.agent_selection == f"player_{s.actor}"
        for a in env.possible_agents:
            obs = env.observe(a)
            assert obs["action_mask"].dtype == np.int8
            assert obs["action_mask"].any() == (a == env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))


def test_observation_is_cached_per_state_version():
    env = ktenv.raw_env(n_players=2, max_rounds=2)
    env.reset(seed=0)
    a = env.agent_selection
    first = env.observe(a)
    assert env.observe(a) is first  # same state, same object
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert env.observe(a) is not first


def test_illegal_action_raises_and_changes_nothing():
    env = ktenv.env(n_players=2, max_rounds=2)
    env.reset(seed=5)
    raw = env.unwrapped
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = raw.snapshot()
    with pytest.raises(IllegalActionError, match="not legal now"):
        env.step(illegal)
    assert raw.snapshot() == before and env.agent_selection == agent
    with pytest.raises(ValueError, match=r"outside the action space Discrete\(271\)"):  # not an assertion
        env.step(10_000)
    env.step(int(np.flatnonzero(mask)[0]))  # the env is still usable


def test_illegal_action_terminate_mode():
    env = ktenv.env(n_players=3, max_rounds=2, illegal_action="terminate")
    env.reset(seed=5)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    for _agent in env.agent_iter():
        assert env.last()[2] or env.last()[3]
        env.step(None)
    assert not env.agents


def test_config_errors_name_the_key():
    with pytest.raises(ConfigError, match="'n_players'"):
        ktenv.env(n_players=5)
    with pytest.raises(ConfigError, match="'colour'"):
        ktenv.env(colour="red")
    with pytest.raises(ConfigError, match="reward"):
        ktenv.env(reward="score")
    with pytest.raises(ConfigError, match="render_mode"):
        ktenv.env(render_mode="screen")
    with pytest.raises(ConfigError, match="illegal_action"):
        ktenv.env(illegal_action="ignore")
    with pytest.raises(ConfigError, match="max_steps"):
        ktenv.env(max_steps="many")
    env = ktenv.raw_env(n_players=2, victory="fixed_rounds", fixed_rounds=3, cup_size_public=True)
    assert env.cfg.victory == "fixed_rounds" and env.cfg.cup_size_public


def test_describe_action_and_layouts():
    env = ktenv.env(n_players=2)
    env.reset(seed=0)
    raw = env.unwrapped
    mask = env.observe(env.agent_selection)["action_mask"]
    texts = [raw.describe_action(int(a)) for a in np.flatnonzero(mask)]
    assert all(isinstance(t, str) and t for t in texts)
    assert "outside the action space" in raw.describe_action(10_000)
    layout = raw.observation_layout()
    assert set(layout) == {"game", "registers", "players", "hexes", "things", "heroes", "self"}
    assert layout["self"].stop == env.observation_space("player_0")["observation"].shape[0]
    assert [b[0] for b in raw.action_layout.blocks()][:3] == ["PASS", "YES", "NUMBER"]


def test_render_modes():
    env = ktenv.env(n_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "player" in text and "h0 " in text
    env = ktenv.env(n_players=2)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert env.render() is None
    pytest.importorskip("PIL")
    env = ktenv.env(n_players=4, render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    env.close()


def test_reset_from_a_saved_state_and_restore():
    env = ktenv.raw_env(n_players=2, max_rounds=3)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(60):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    saved = env.snapshot()
    other = ktenv.raw_env(n_players=2, max_rounds=3)
    other.reset(options={"state": saved})
    assert other.snapshot() == saved and other.agent_selection == env.agent_selection
    with pytest.raises(ConfigError, match="config"):
        ktenv.raw_env(n_players=2, max_rounds=4).reset(options={"state": saved})


# ----------------------------------------------------------------- researcher polish


def test_num_players_is_pettingzoos_keyword():
    assert ktenv.env(num_players=4).unwrapped.cfg.n_players == 4
    assert ktenv.raw_env(num_players=3).possible_agents == ["player_0", "player_1", "player_2"]
    assert ktenv.env(num_players=2, n_players=2).unwrapped.cfg.n_players == 2  # the same value twice is fine
    assert gymnasium.make("ktenv/KingsAndThings-v0", num_players=3).unwrapped.aec.cfg.n_players == 3
    assert ktenv.SingleAgentEnv(num_players=4).aec.cfg.n_players == 4
    for make in (ktenv.env, ktenv.raw_env, ktenv.SingleAgentEnv):
        with pytest.raises(ConfigError, match=r"'n_players' \(3\) and 'num_players' \(4\) disagree"):
            make(n_players=3, num_players=4)
    with pytest.raises(ConfigError, match="'n_players'"):
        ktenv.env(num_players=5)  # the alias is checked like the key


def test_pettingzoo_render_test_and_human_mode(capsys):
    pytest.importorskip("PIL")  # render_test renders every declared mode, rgb_array included
    render_test(lambda render_mode=None: ktenv.env(n_players=2, max_rounds=2, render_mode=render_mode))
    env = ktenv.env(num_players=2, render_mode="human")
    env.reset(seed=0)
    capsys.readouterr()
    assert env.render() is None
    assert capsys.readouterr().out.startswith("Kings & Things: round")


@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
def test_actions_outside_the_space_raise_and_change_nothing(illegal_action):
    """An action outside Discrete(N) is no move: ValueError/TypeError naming it and the space, in the
    wrapped env (before TerminateIllegalWrapper could score it) and in the raw env."""
    env = ktenv.env(n_players=2, max_rounds=2, illegal_action=illegal_action)
    env.reset(seed=5)
    for e in (env, env.unwrapped):
        agent = e.agent_selection
        before = e.unwrapped.snapshot()
        for action, error, words in ((10**6, ValueError, "action 1000000 is outside the action space Discrete"),
                                     (-1, ValueError, "action -1 is outside"), (24.7, TypeError, "action 24.7"),
                                     (np.float64(3.0), TypeError, "action np.float64"), ("3", TypeError, "action '3'"),
                                     (True, TypeError, "action True"), (None, ValueError, "must act")):
            with pytest.raises(error, match=words):
                e.step(action)
            assert e.unwrapped.snapshot() == before and e.agent_selection == agent
            assert not any(e.terminations.values()) and e._cumulative_rewards[agent] == 0
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.int64(legal[0]))  # numpy integers and 0-d arrays are in the space
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.array(legal[0]))


def _continue(a, b, rng: np.random.Generator, steps: int = 40) -> None:
    """Step two AEC envs with the same actions; they must stay identical."""
    for _ in range(steps):
        agent = a.agent_selection
        assert agent == b.agent_selection
        obs_a, obs_b = a.observe(agent), b.observe(agent)
        assert np.array_equal(obs_a["observation"], obs_b["observation"])
        assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])
        assert a._cumulative_rewards == b._cumulative_rewards and a.infos == b.infos
        if a.terminations[agent] or a.truncations[agent]:
            return
        action = int(rng.choice(np.flatnonzero(obs_a["action_mask"])))
        a.step(action)
        b.step(action)
    assert a.unwrapped.snapshot() == b.unwrapped.snapshot()


@pytest.mark.parametrize("wrapped", [True, False])
def test_envs_pickle_and_deepcopy_and_continue_identically(wrapped):
    make = ktenv.env if wrapped else ktenv.raw_env
    env = make(n_players=3, max_rounds=3, reward="shaped")
    pickle.loads(pickle.dumps(env))  # before reset too
    env.reset(seed=8)
    rng = np.random.default_rng(2)
    for _ in range(50):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    for other in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert type(other) is type(env)
        original = copy.deepcopy(env)
        _continue(original, other, np.random.default_rng(3))
        assert original.unwrapped.snapshot() != env.unwrapped.snapshot()  # the copies went on; env stayed

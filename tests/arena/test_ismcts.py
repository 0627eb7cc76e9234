"""The ISMCTS agent (agents.ismcts): options, no peeking, arena, replay."""

from __future__ import annotations

import numpy as np
import pytest

from ktenv import agents
from ktenv.cli import main
from ktenv.gamekit.cli import split_names
from ktenv.kings_and_things.arena import play_game
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine.machine import legal_mask
from ktenv.kings_and_things.env.testing import hidden_variants, python_state, random_states
from ktenv.kings_and_things.worlds import WorldSampler

TINY = "ismcts:playouts=6,cutoff=4"


def test_make_with_options_and_errors():
    a = agents.make("ismcts:playouts=200", seed=1)  # options start from the first version's tree
    assert a.playouts == 200 and a.c == 0.05 and a.rollout == "greedy" and a.cutoff == 50 and a.needs_worlds
    assert a.paired == 0
    b = agents.make("ismcts:playouts=50,c=1.5,rollout=greedy,cutoff=10,worlds=4,expand=random", seed=2)
    assert (b.playouts, b.c, b.rollout, b.cutoff, b.n_worlds, b.expand) == (50, 1.5, "greedy", 10, 4, "random")
    t = agents.make("ismcts:seconds=0.25")
    assert t.seconds == 0.25 and t.playouts is None
    assert agents.known("ismcts:c=2")
    for bad, message in (("ismcts:depth=3", "depth"), ("ismcts:rollout=smart", "rollout"),
                         ("ismcts:expand=all", "expand"), ("ismcts:playouts=many", "playouts"),
                         ("ismcts:playouts=0", "playouts")):
        with pytest.raises(ValueError, match=message):
            agents.make(bad)
    with pytest.raises(ValueError, match="worlds"):
        a.act(None, np.array([1, 1], np.int8))  # without a sampler it says what it needs
    assert a.act(None, np.array([0, 1, 0], np.int8)) == 1  # a single legal action needs no search


def test_agent_lists_keep_options_together():
    assert split_names("ismcts:playouts=50,c=0.7,rollout=greedy,expert,random") == [
        "ismcts:playouts=50,c=0.7,rollout=greedy", "expert", "random"]
    assert split_names(" greedy , random ") == ["greedy", "random"]


@pytest.mark.parametrize("n", [2, 3])
def test_hidden_facts_do_not_change_its_choice(n):
    """The agent sees only worlds its seat cannot tell apart: with the same seed, a true game that
    differs in hidden facts only (`hidden_variants`) gets the same choice."""
    cfg = GameConfig(n_players=n, max_rounds=6)
    rng = np.random.default_rng(n)
    checked = 0
    for s in random_states(cfg, 4, seed=30 + n, gap=(30, 150)):
        s = python_state(s)  # the Python search (a Python game)
        p = s.actor
        mask = legal_mask(s).copy()
        agent = agents.make(TINY, seed=5)
        want = agent.act({"action_mask": mask, "worlds": WorldSampler(s, p)}, mask)
        assert mask[want]
        for _, t in hidden_variants(s, p, rng):
            agent.reset(seed=5)
            assert agent.act({"action_mask": mask, "worlds": WorldSampler(t, p)}, mask) == want
            checked += 1
    assert checked >= 4


def test_plays_whole_games_with_either_rollout():
    cfg = GameConfig(n_players=2, max_rounds=2)
    for spec in ("ismcts:playouts=3,cutoff=3,rollout=greedy,worlds=2", "ismcts:seconds=0.01,cutoff=3,expand=random"):
        r = play_game(cfg, 4, [spec, "random"], backend="python")
        assert r.reason in ("round_limit", "citadel", "last_player") or r.winners, r.reason
        assert r.decisions > 20


@pytest.mark.parametrize("n", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)])
def test_tournaments_and_replays(n, tmp_path, capsys):
    """ISMCTS with options in its agent string plays 2, 3 and 4 player tournaments; the records replay."""
    records = tmp_path / "records"
    names = f"{TINY},expert" + (",random" if n > 2 else "")
    code = main(["tournament", "--agents", names, "--players", str(n), "--games", str(n), "--workers", "1",
                 "--max-rounds", "2", "--seed", "1", "--db", str(tmp_path / "t.sqlite"), "--no-progress",
                 "--records", str(records)])
    assert code == 0
    assert TINY in capsys.readouterr().out
    files = sorted(records.glob("*.json"))
    assert len(files) == n and main(["replay", str(files[0])]) == 0


def test_single_agent_env_passes_worlds_to_a_searching_opponent():
    from ktenv.kings_and_things.env.single import SingleAgentEnv

    env = SingleAgentEnv(seat=0, opponents=[TINY], n_players=2, max_rounds=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        legal = np.flatnonzero(env.action_masks())
        _, _, done, cut, _ = env.step(int(legal[rng.integers(legal.size)]))
        if done or cut:
            break


def test_play_command_runs_it(capsys):
    assert main(["play", "--agents", f"{TINY},random", "--players", "2", "--seed", "2",
                 "--max-rounds", "1"]) == 0


# ----- the native search (a native game's sampler): the same agent, in C++

def _native(s):
    from ktenv.kings_and_things.native.game import NativeGame

    return NativeGame.from_python(python_state(s))


native_only = pytest.mark.skipif(not __import__("ktenv.kings_and_things.native").kings_and_things.native.available(),
                                 reason="native core not built")


SEARCHES = {  # spec, playouts, states checked, seed of the random states
    "greedy rollouts": ("ismcts:playouts=300,cutoff=8,rollout=greedy", 300, 4, 50),
    "expert rollouts": ("ismcts:playouts=60,cutoff=20,rollout=expert,expand=expert,race=10", 60, 3, 70),
}


@native_only
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("search", sorted(SEARCHES))
def test_native_search_choice_ignores_hidden_facts(n, search):
    """On a native game the search runs in C++ over native worlds: still only what the seat may know
    counts (the true game changed in hidden facts gives the same choice for the same seed); expert
    rollouts read only observations."""
    spec, playouts, states, seed = SEARCHES[search]
    cfg = GameConfig(n_players=n, max_rounds=6)
    rng = np.random.default_rng(n)
    checked = 0
    for s in random_states(cfg, states, seed=seed + n, gap=(30, 150)):
        p = s.actor
        mask = legal_mask(s).copy()
        agent = agents.make(spec, seed=5)
        want = agent.act({"action_mask": mask, "worlds": WorldSampler(_native(s), p)}, mask)
        assert mask[want] and agent.last_iterations in (0, playouts)
        for _, t in hidden_variants(s, p, rng):
            agent.reset(seed=5)
            assert agent.act({"action_mask": mask, "worlds": WorldSampler(_native(t), p)}, mask) == want
            checked += 1
    assert checked >= states


@native_only
def test_native_search_respects_its_time_budget():
    """seconds=T: the search stops before an iteration that would likely overrun T, and a rollout under
    way stops at T; measured inside the search and around the whole call (a busy machine's scheduling
    delays get a margin)."""
    import time

    cfg = GameConfig(n_players=2, max_rounds=8)
    agent = agents.make("ismcts:seconds=0.05,rollout=greedy,cutoff=30", seed=1)
    inside, around = [], []
    for s in random_states(cfg, 6, seed=3, gap=(20, 120)):
        mask = legal_mask(s).copy()
        if np.count_nonzero(mask) < 2:
            continue
        observation = {"action_mask": mask, "worlds": WorldSampler(_native(s), s.actor)}
        t0 = time.perf_counter()
        a = agent.act(observation, mask)
        around.append(time.perf_counter() - t0)
        inside.append(agent.last_seconds)
        assert mask[a] and agent.last_iterations >= 1
    # a process preempted on a loaded machine loses whole time slices: the margins allow for that
    assert inside and float(np.median(inside)) < 0.05 + 0.02 and max(inside) < 0.05 + 0.05, inside
    assert max(around) < 0.05 + 0.1, around


@native_only
def test_native_search_options_and_whole_games():
    cfg = GameConfig(n_players=3, max_rounds=2)
    for spec in ("ismcts:playouts=20,cutoff=5,rollout=greedy,worlds=3,widening=1",
                 "ismcts:playouts=20,cutoff=5,expand=random,c=1.5"):
        r = play_game(cfg, 4, [spec, "random", "greedy"], backend="native")
        assert r.reason in ("round_limit", "citadel", "last_player") or r.winners, r.reason
    with pytest.raises(ValueError, match="widening"):
        agents.make("ismcts:widening=0")


def test_tournament_configs_carry_its_options():
    """Per-agent options in a tournament's YAML config: the agent's name carries them."""
    from pathlib import Path

    from ktenv.arena.config import TournamentConfig

    root = Path(__file__).resolve().parents[2] / "configs"
    for name, players in (("ismcts_2p.yaml", 2), ("ismcts_4p.yaml", 4)):
        cfg = TournamentConfig.from_yaml(root / name)
        assert cfg.players == players and cfg.agents[0].startswith("ismcts:") and "expert" in cfg.agents
        agent = agents.make(cfg.agents[0], seed=1)
        assert agent.seconds and agent.playouts is None and agent.rollout == "expert" and agent.follow

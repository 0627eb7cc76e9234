"""Agents: the registry, the protocol, and legal actions on many random states."""

from __future__ import annotations

import numpy as np
import pytest
from ktenv.agents.base import Agent
from ktenv.agents.kings_and_things.view import LayoutError, View

import ktenv
from ktenv import agents
from ktenv.kings_and_things.arena import encoder_for, play_game
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine import legal_mask, new_game, step


def test_registry_names_and_make():
    assert {"random", "greedy", "expert"} <= set(agents.names())
    for name in ("random", "greedy", "expert"):
        agent = agents.make(name, seed=3)
        assert isinstance(agent, Agent)
        agent.reset(seed=4)


def test_registry_unknown_name_is_an_error_naming_it():
    with pytest.raises(ValueError, match="unknown agent 'nobody'.*expert.*greedy.*random"):
        agents.make("nobody")


def test_register_a_new_agent():
    class First:
        def reset(self, seed=None):
            pass

        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    agents.register("first_test_only", First)
    try:
        assert isinstance(agents.make("first_test_only"), Agent)
        assert "first_test_only" in agents.names()
    finally:
        agents.table().named.pop("first_test_only")


def _random_states(n_players: int, seed: int, every: int, limit: int):
    """States along a random game (the decision to take, its observation and mask)."""
    cfg = GameConfig(n_players=n_players, max_rounds=12)
    enc = encoder_for(cfg)
    s = new_game(cfg, seed)
    rng = np.random.default_rng(seed)
    k = 0
    while not s.game_over and k < limit:
        mask = legal_mask(s)
        if k % every == 0:
            yield enc.encode(s, s.actor), mask.copy()
        step(s, int(rng.choice(np.flatnonzero(mask))))
        k += 1


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_rule_agents_only_play_legal_actions_on_random_states(n_players):
    players = [agents.make("greedy", seed=1), agents.make("expert", seed=2)]
    checked = 0
    for seed in range(2):
        for obs, mask in _random_states(n_players, 100 * n_players + seed, every=2, limit=1500):
            for agent in players:
                a = agent.act({"observation": obs, "action_mask": mask}, mask)
                assert mask[a] == 1, (agent.name, a)
            checked += 1
    assert checked > 300


def test_rule_agents_in_their_own_games_never_play_illegal_actions():
    # play_game raises AgentError on any illegal action
    for names in (["expert", "greedy"], ["greedy", "expert", "random"]):
        r = play_game(GameConfig(n_players=len(names), max_rounds=8), 11, names)
        assert r.decisions > 0


def test_agents_take_the_dict_or_the_vector_and_are_reproducible():
    env = ktenv.env(n_players=2, max_rounds=5)
    env.reset(seed=5)
    obs = env.observe(env.agent_selection)
    for name in ("greedy", "expert", "random"):
        a1 = agents.make(name, seed=9).act(obs, obs["action_mask"])
        a2 = agents.make(name, seed=9).act(obs["observation"], obs["action_mask"])
        assert a1 == a2 and obs["action_mask"][a1] == 1


def test_an_empty_mask_is_an_error():
    env = ktenv.env(n_players=2, max_rounds=5)
    env.reset(seed=5)
    obs = env.observe(env.agent_selection)
    for name in ("greedy", "expert", "random"):
        with pytest.raises(ValueError, match="no action"):
            agents.make(name).act(obs["observation"], np.zeros_like(obs["action_mask"]))


def test_view_reads_the_observation_by_name():
    env = ktenv.env(n_players=3, max_rounds=5)
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)["observation"]
    v = View(obs)
    assert v.n == 3 and v.h == 19
    assert v.gold.shape == (3,) and v.owner.shape == (19,)
    with pytest.raises(LayoutError, match="matches no ktenv layout"):
        View(np.zeros(17, np.float32))


def test_expert_beats_random_in_a_short_match():
    wins = 0
    for g in range(2):
        names = ["expert", "random"] if g % 2 == 0 else ["random", "expert"]
        r = play_game(GameConfig(n_players=2, max_rounds=30), 40 + g, names)
        wins += any(names[w] == "expert" for w in r.winners)
    assert wins == 2


@pytest.mark.slow
def test_expert_and_greedy_beat_random_over_more_games():
    wins = {"expert": 0, "greedy": 0}
    for name in wins:
        for g in range(10):
            names = [name, "random"] if g % 2 == 0 else ["random", name]
            r = play_game(GameConfig(n_players=2, max_rounds=30), 200 + g, names)
            wins[name] += any(names[w] == name for w in r.winners)
    assert wins["expert"] >= 9 and wins["greedy"] >= 8


def test_the_view_marks_face_down_hexes_in_mysterious_kadab_games():
    """R20.3: face-down hexes show no terrain; the view says so (and reads them as 1-MP Desert)."""
    cfg = GameConfig(n_players=2, mysterious_kadab=True)
    s = new_game(cfg, 5)
    v = View(encoder_for(cfg).encode(s, s.actor))
    down = np.flatnonzero(s.hex_down)
    assert down.size and v.face_down[down].all() and not v.face_down[~s.hex_down.astype(bool)].any()
    assert (v.terrain[down] == 0).all()


def test_a_users_own_agents_and_training_modules_do_not_shadow_ktenv(tmp_path):
    """An install puts the agents and training as ktenv.agents / ktenv.training, so a
    user's agents.py or training/ in the working folder cannot break it."""
    import subprocess
    import sys

    (tmp_path / "agents.py").write_text("raise RuntimeError('the user module was imported')\n")
    (tmp_path / "training").mkdir()
    (tmp_path / "training" / "__init__.py").write_text("raise RuntimeError('the user package was imported')\n")
    code = ("import ktenv.agents as a, ktenv.kings_and_things.env.single as s; "
            "agent = a.make('random', seed=1); env = s.SingleAgentEnv(); env.reset(seed=1); "
            "print(type(agent).__name__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "RandomAgent"


def _event_up(event: str, effect: bool):
    """Player 0 up in the events phase holding `event`: with something for it to act on, or nothing
    (Mother Lode: an income counter on an own hex; Vandals: an enemy Keep, else only a Citadel;
    Defection: room for a hero, else an own hex full; a hero waits in the pool)."""
    from ktenv.kings_and_things import catalog as cat
    from ktenv.kings_and_things.constants import CREATURE, MOUNTAIN
    from ktenv.kings_and_things.state import EVENTS

    from ..builders import board, own, put, screen, start_phase

    s = board(2, 3, gold=None)
    own(s, 0, 1, terrain=MOUNTAIN)
    own(s, 1, 9, fort=2 if effect else 4)
    if event == "Mother Lode" and effect:
        put(s, "Gold Mine", 0, 1)
    if event == "Defection" and not effect:
        for c in np.flatnonzero(cat.THING_KIND[:s.n_things] == CREATURE)[:10]:
            put(s, int(c), 0, 1)
    screen(s, cat.EVENT_ID[event], 0)
    start_phase(s, EVENTS, first=0)
    return s


@pytest.mark.parametrize("name", ["greedy", "expert"])
@pytest.mark.parametrize("event", ["Mother Lode", "Vandals", "Defection"])
def test_r10_1_rule_agents_never_spend_an_event_that_would_do_nothing(name, event):
    """R10.1 offers any event, one with nothing to act on included: greedy and expert keep it behind the
    screen, and play it where it acts; the native agents choose the same."""
    from ktenv.agents.kings_and_things.expert import ExpertAgent
    from ktenv.agents.kings_and_things.greedy import GreedyAgent

    from ktenv.kings_and_things import catalog as cat
    from ktenv.kings_and_things import decisions as D
    from ktenv.kings_and_things import native
    from ktenv.kings_and_things.engine.actions import PASS
    from ktenv.kings_and_things.engine.machine import layout

    for effect in (False, True):
        s = _event_up(event, effect)
        play = layout(s).thing + cat.EVENT_ID[event]
        mask = legal_mask(s)
        assert s.decision == D.EVENT_PLAY and s.actor == 0 and mask[play] and mask[PASS]
        obs = encoder_for(s.cfg).encode(s, 0)
        chosen = [{"greedy": GreedyAgent, "expert": ExpertAgent}[name](seed=1).act(obs, mask)]
        if native.available():
            from ktenv.kings_and_things.native.agents import NativeGreedyAgent
            from ktenv.kings_and_things.native.expert import NativeExpertAgent

            chosen.append({"greedy": NativeGreedyAgent, "expert": NativeExpertAgent}[name](seed=1).act(obs, mask))
        assert chosen == [play if effect else PASS] * len(chosen), (event, effect)

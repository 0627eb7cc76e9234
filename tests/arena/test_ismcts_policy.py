"""The policy-guided paired search (``ismcts:policy=PATH,paired=K``): a trained model's K most likely legal
actions are the candidates, and its critic, reading the seat's own observation of each rollout's state, values
an unfinished rollout at its cutoff (native code: agents/policy.hpp's value path, search/ismcts.cpp)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ktenv.agents.kings_and_things.view import View

from ktenv import agents
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.arena import play_game
from ktenv.kings_and_things.config import GameConfig
from tests.arena.test_ismcts import native_only
from tests.arena.test_ismcts_paired import _decisions, hidden_facts_agree

MODEL = "models/ppo_2p.zip"
KINGSBURG_MODEL = "models/ppo_kingsburg_2p.zip"
GUIDED = f"ismcts:policy={MODEL},rollout=expert,cutoff=10,paired=3"

pytestmark = [native_only, pytest.mark.skipif(not Path(MODEL).is_file(), reason="no shipped model in this checkout")]


@pytest.mark.parametrize("activation", ["relu", "tanh"])
def test_native_value_is_the_torch_value_head(tmp_path, activation):
    """The critic in native code (and in numpy) is the torch policy's value head to float rounding, on real
    observations: the shipped model and an untrained one of other widths."""
    torch = pytest.importorskip("torch")
    from ktenv.agents.ppo import load_cached
    from ktenv.training.policy import PlayingNetwork, load_network

    from ktenv.kings_and_things.vector import native_policy
    from tests.native.test_vector_policy import model_file, observations

    rows = observations(40)
    for path in (Path(MODEL), model_file(tmp_path, activation=activation, pi=(16,))[0]):
        policy, _ = load_network(path)
        with torch.no_grad():
            expected = policy.predict_values(torch.from_numpy(rows)).numpy()[:, 0]
        playing = PlayingNetwork(policy)
        for got in (native_policy(playing, False, str(path), value=True).values(rows), playing.values(rows),
                    load_cached(path)[0].values(rows)):
            np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())
        assert np.ptp(expected) > 1e-3  # the estimates differ between positions


def test_candidate_zero_and_the_moves_are_the_models():
    """A budget of no whole round (a rollout per candidate) plays candidate 0, what ``ppo:MODEL`` plays; the seat's
    moving counters and steps are the model's too, unsearched (``moves=policy``, the default with its candidates)."""
    cfg = GameConfig(n_players=2, max_rounds=8)
    agent = agents.make(f"{GUIDED},playouts=1", seed=7)
    ppo = agents.make(f"ppo:{MODEL}", seed=0)
    searched = moved = 0
    for _, obs in _decisions(cfg, 40, seed=11):
        mask = obs["action_mask"]
        a = agent.act(obs, mask)
        assert mask[a] and a == ppo.act(obs, mask)
        if agent.last_candidate < 0:
            assert View(obs["observation"]).decision in (D.MOVE_SELECT, D.MOVE_STACK)
            moved += 1
            continue
        assert agent.last_choices[0] == a and agent.last_rounds == 0
        assert len(agent.last_choices) == min(3, np.count_nonzero(mask))
        assert all(mask[c] for c in agent.last_choices)
        searched += 1
    assert searched >= 5 and moved >= 3


def searched_choices(agent):
    """(action played, the expert's own move, the model's best, the mask) at each searched decision of seeded games
    (the agent's expert and a fresh one make the same draw)."""
    from ktenv.kings_and_things.native.expert import NativeExpertAgent

    ppo = agents.make(f"ppo:{MODEL}", seed=0)
    for _, obs in _decisions(GameConfig(n_players=2, max_rounds=8), 40, seed=11):
        mask = obs["action_mask"]
        agent._own = NativeExpertAgent(seed=5)
        a = agent.act(obs, mask)
        if agent.last_candidate >= 0:
            yield a, NativeExpertAgent(seed=5).act(obs["observation"], mask), ppo.act(obs, mask), mask


@pytest.mark.parametrize("option, moves", [("both", "policy"), ("expert+policy", "expert")])
def test_both_proposers_give_candidates(option, moves):
    """``candidates=both``: the model's best (the fallback), the expert's own move where it differs, then the model's
    next best. ``candidates=expert+policy``: the expert's own move first (the fallback, as the search without a
    model), then the model's best and the expert's next in turn; the expert carries out the moves."""
    agent = agents.make(f"{GUIDED},candidates={option},playouts=1", seed=7)
    assert agent.moves == moves
    searched = differ = 0
    for a, choice, best, mask in searched_choices(agent):
        fallback, other = (best, choice) if option == "both" else (choice, best)
        assert a == fallback == agent.last_choices[0] and other in agent.last_choices  # one round: the fallback
        assert len(set(agent.last_choices)) == len(agent.last_choices) == min(3, np.count_nonzero(mask))
        if other != fallback:
            assert agent.last_choices[1] == other
            differ += 1
        searched += 1
    assert searched >= 5 and differ >= 1


def test_the_expert_may_carry_out_the_moves():
    """``moves=expert``: the seat's moving counters and steps follow its own expert's plan, as an expert seat's."""
    from ktenv.kings_and_things.native.expert import NativeExpertAgent

    cfg = GameConfig(n_players=2, max_rounds=8)
    agent = agents.make(f"{GUIDED},moves=expert,playouts=1", seed=7)
    assert agents.make(GUIDED).moves == "policy" and agents.make(f"{GUIDED},candidates=expert").moves == "expert"
    ppo = agents.make(f"ppo:{MODEL}", seed=0)
    moved = differ = 0
    for _, obs in _decisions(cfg, 40, seed=11):
        if View(obs["observation"]).decision not in (D.MOVE_SELECT, D.MOVE_STACK):
            continue
        expert = NativeExpertAgent(seed=0)
        agent._own = expert  # a fresh expert each time: its plan is made from this observation alone
        twin = NativeExpertAgent(seed=0)
        a = agent.act(obs, obs["action_mask"])
        assert a == twin.act(obs["observation"], obs["action_mask"])
        moved += 1
        differ += a != ppo.act(obs, obs["action_mask"])
    assert moved >= 3 and differ >= 1  # where the model would have moved otherwise


def test_same_seed_same_choices_and_the_critic_is_used():
    cfg = GameConfig(n_players=2, max_rounds=8)
    runs = {}
    for spec in (GUIDED, f"{GUIDED},threads=2", f"{GUIDED},value=public"):
        agent = agents.make(f"{spec},playouts=24", seed=3)
        out = []
        for _, obs in _decisions(cfg, 8, seed=21):
            a = agent.act(obs, obs["action_mask"])
            assert obs["action_mask"][a]
            out.append((a, agent.last_candidate, agent.last_choices, agent.last_gains))
        runs.setdefault(spec, []).append(out)
    assert runs[GUIDED][0] == runs[f"{GUIDED},threads=2"][0]  # each thread's critic scratch its own
    assert any(c >= 1 or any(g != 0 for g in gains) for _, c, _, gains in runs[GUIDED][0])
    # the same candidates, other values: the critic, not the public score, values the cut-off rollouts
    public = runs[f"{GUIDED},value=public"][0]
    assert [choices for _, _, choices, _ in public] == [choices for _, _, choices, _ in runs[GUIDED][0]]
    assert [gains for *_, gains in public] != [gains for *_, gains in runs[GUIDED][0]]


def test_the_critic_may_value_the_experts_candidates():
    """``candidates=expert``: the expert-guided search's candidates (its own move first), valued at the cutoff by
    the model's critic instead of the public score."""
    cfg = GameConfig(n_players=2, max_rounds=8)
    plain = agents.make("ismcts:rollout=expert,cutoff=10,paired=3,playouts=24", seed=3)
    critic = agents.make(f"{GUIDED},candidates=expert,playouts=24", seed=3)
    compared = differ = 0
    for _, obs in _decisions(cfg, 20, seed=21):
        mask = obs["action_mask"]
        a, b = plain.act(obs, mask), critic.act(obs, mask)
        assert mask[a] and mask[b]
        if plain.last_candidate < 0 or a != b:
            continue  # the two agents' games part where they chose differently (their experts' plans)
        assert critic.last_choices == plain.last_choices
        compared += 1
        differ += critic.last_gains != plain.last_gains
    assert compared >= 3 and differ >= 1


def test_hidden_facts_do_not_change_its_evaluation():
    """The true game changed in what the seat cannot see gives the same candidates, the same mean paired
    differences bit for bit (the critic reads the seat's observation of sampled worlds only) and the same choice."""
    checked, moved = hidden_facts_agree(f"{GUIDED},playouts=30", GameConfig(n_players=2, max_rounds=6), 2, 82)
    assert checked >= 3 and moved


def test_plays_legal_moves_in_a_whole_game():
    cfg = GameConfig(n_players=2, max_rounds=3)
    r = play_game(cfg, 6, [f"{GUIDED},playouts=9,z=0.5", "expert"], backend="native")
    assert r.winners or r.reason, r.reason
    assert r.decisions > 20


def test_bad_options_and_models_are_refused(tmp_path):
    for bad, message in ((f"ismcts:policy={MODEL},rollout=expert", "paired"),
                         (f"ismcts:policy={MODEL}", "paired"),
                         ("ismcts:rollout=expert,paired=3,value=policy", "policy=PATH"),
                         (f"{GUIDED},value=critic", "value"),
                         (f"{GUIDED},candidates=model", "candidates"),
                         (f"{GUIDED},candidates=expert,value=public", "without policy="),
                         ("ismcts:rollout=expert,paired=3,candidates=expert", "policy=PATH"),
                         (f"{GUIDED},moves=model", "moves"),
                         ("ismcts:rollout=expert,paired=3,moves=policy", "policy=PATH"),
                         (f"ismcts:policy={tmp_path / 'none.zip'},rollout=expert,paired=3", "no such model file"),
                         (f"ismcts:policy={KINGSBURG_MODEL},rollout=expert,paired=3", "kingsburg")):
        with pytest.raises(ValueError, match=message):
            agents.make(bad)
    # a 2-player model at a 4-player table: one line naming both sides, before any search
    agent = agents.make(f"{GUIDED},playouts=6", seed=1)
    _, obs = next(_decisions(GameConfig(n_players=4, max_rounds=6), 10, seed=5))
    with pytest.raises(ValueError, match="model for 2 players .* this table has 4 players"):
        agent.act(obs, obs["action_mask"])


def test_a_critic_of_the_wrong_shape_is_refused():
    from ktenv.kings_and_things.native import core

    first, bias = np.zeros((10, 4), np.float32), np.zeros(4, np.float32)
    head, head_bias = np.zeros((4, 3), np.float32), np.zeros(3, np.float32)

    def layer(n_in: int, n_out: int, activation: int = 0) -> tuple:
        return np.zeros((n_in, n_out), np.float32), np.zeros(n_out, np.float32), activation

    for critic, message in (([layer(5, 2, 1), layer(2, 1)], "value layer 0: takes 5 inputs"),
                            ([layer(4, 2)], "one output"), ([layer(4, 1, 2)], "one output")):
        with pytest.raises(ValueError, match=message):
            core().PolicyNetwork.make(first, bias, [], head, head_bias, False, "x", critic)
    plain = core().PolicyNetwork.make(first, bias, [], head, head_bias, False, "x")
    assert not plain.has_value
    with pytest.raises(ValueError, match="without its value head"):
        plain.values(np.zeros((1, 10), np.float32))
    network = core().PolicyNetwork.make(first, bias, [], head, head_bias, False, "x", [layer(4, 3, 1), layer(3, 1)])
    assert network.has_value and network.values(np.ones((2, 10), np.float32)) == [0.0, 0.0]


def test_a_model_without_a_shared_critic_is_refused(tmp_path):
    """A critic with a first layer of its own, or none at all (an RLlib snapshot keeps none), cannot value the
    rollouts from the actor's layer: the agent says so; the model still plays as ``ppo:``."""
    import io
    import zipfile

    torch = pytest.importorskip("torch")
    from ktenv.agents.network import read_meta
    from ktenv.training.policy import meta_bytes

    from tests.native.test_vector_policy import model_file

    path, policy = model_file(tmp_path)
    state = policy.state_dict()
    own_layer = {**state, "vf_features_extractor.linear.0.weight": state["vf_features_extractor.linear.0.weight"] + 1}
    actor_only = {k: v for k, v in state.items() if "value" not in k and not k.startswith("vf_")}
    meta = {k: v for k, v in read_meta(path).items() if k != "format"}
    for name, weights in (("own.zip", own_layer), ("actor.zip", actor_only)):
        blob = io.BytesIO()
        torch.save(weights, blob)
        with zipfile.ZipFile(tmp_path / name, "w") as archive:
            archive.writestr("ktenv.json", meta_bytes(meta))
            archive.writestr("policy.pth", blob.getvalue())
        with pytest.raises(ValueError, match="no value head after the actor's first layer"):
            agents.make(f"ismcts:policy={tmp_path / name},rollout=expert,paired=2")
        agents.make(f"ppo:{tmp_path / name}")
    agents.make(f"ismcts:policy={path},rollout=expert,paired=2")

"""The ISMCTS agent's paired root evaluation (option paired=K): the expert's K best actions
compared in the same sampled worlds, with the same dice and the same rollout experts; the expert's move
unless another beats it by z standard errors."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ktenv import agents
from ktenv.kings_and_things.arena import encoder_for, play_game
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine.machine import legal_mask
from ktenv.kings_and_things.env.testing import hidden_variants, python_state, random_states
from ktenv.kings_and_things.worlds import WorldSampler
from tests.arena.test_ismcts import _native, native_only
from tests.arena.test_ismcts_expert import seat_observation

PAIRED = "ismcts:rollout=expert,cutoff=20,paired=3"


def test_paired_options():
    a = agents.make("ismcts:rollout=expert,paired=3,z=1.5,seconds=0.1", seed=1)
    assert (a.paired, a.z) == (3, 1.5)
    assert a.follow and a.needs_observation  # its own expert decides candidate 0 and carries out moves
    strongest = agents.make("ismcts", seed=1)  # the bare name: the setting that beat expert 86% of 200 games
    assert (strongest.paired, strongest.rollout, strongest.cutoff, strongest.z, strongest.seconds) == (
        3, "expert", 150, 2.0, 0.15)
    assert agents.make("ismcts:rollout=greedy", seed=1).paired == 0
    for bad, message in (("ismcts:rollout=expert,paired=1", "paired"), ("ismcts:rollout=expert,paired=-2", "paired"),
                         ("ismcts:paired=3", "rollout=expert"), ("ismcts:rollout=greedy,paired=2", "rollout=expert"),
                         ("ismcts:rollout=expert,paired=two", "paired"),
                         ("ismcts:rollout=expert,paired=2,z=-1", "z"), ("ismcts:rollout=expert,paired=2,z=nan", "z"),
                         ("ismcts:rollout=expert,paired=2,z=inf", "z")):
        with pytest.raises(ValueError, match=message):
            agents.make(bad)


def _decisions(cfg, count, seed):
    """(game, observation dict) at `count` random native states with at least two legal actions."""
    for s in random_states(cfg, count, seed=seed, gap=(20, 160)):
        s = _native(s)
        obs = seat_observation(s)
        if np.count_nonzero(obs["action_mask"]) >= 2:
            yield s, obs


@native_only
@pytest.mark.parametrize("budget", ["playouts=1", "seconds=0.000001"])
def test_no_whole_round_plays_the_experts_move(budget):
    """A budget too small for one round (a rollout per candidate) plays exactly what an expert seat plays: the agent's
    own expert (seeded by the agent's first draw) decides, tie-break draws and move plans included."""
    from ktenv.kings_and_things.native.expert import NativeExpertAgent

    cfg = GameConfig(n_players=2, max_rounds=8)
    agent = agents.make(f"{PAIRED},{budget}", seed=7)
    expert = NativeExpertAgent(seed=int(np.random.default_rng(7).integers(2**63)))
    played = 0
    for _, obs in _decisions(cfg, 12, seed=11):
        mask = obs["action_mask"]
        a = agent.act(obs, mask)
        assert a == expert.act(obs["observation"], mask)
        assert agent.last_rounds == 0 and agent.last_candidate in (-1, 0)
        played += agent.last_candidate == 0
    assert played >= 5


@native_only
def test_same_seed_same_choices_and_counts():
    cfg = GameConfig(n_players=2, max_rounds=8)
    runs = []
    for _ in range(2):
        agent = agents.make(f"{PAIRED},playouts=24", seed=3)
        out = []
        for _, obs in _decisions(cfg, 8, seed=21):
            a = agent.act(obs, obs["action_mask"])
            assert obs["action_mask"][a]
            if agent.last_candidate >= 0:  # searched: whole rounds of a rollout per candidate (3, or all legal)
                k = len(agent.last_choices)
                assert k == min(3, np.count_nonzero(obs["action_mask"])) and len(agent.last_gains) == k
                assert 1 <= agent.last_rounds <= 24 // k and agent.last_iterations <= 24 // k * k
                assert a == agent.last_choices[agent.last_candidate]
            out.append((a, agent.last_candidate, agent.last_choices, agent.last_gains))
        runs.append(out)
    assert runs[0] == runs[1]
    assert any(c >= 0 for _, c, _, _ in runs[0])


@native_only
@pytest.mark.parametrize("threads", [2, 3])
def test_threads_give_the_same_choices(threads):
    """Rounds played at once on several threads (worlds and seeds drawn in round order, differences summed in
    round order) give one thread's choices, gains, rounds and rollouts under a playouts budget."""
    cfg = GameConfig(n_players=2, max_rounds=8)
    runs = {}
    for t in (1, threads):
        agent = agents.make(f"{PAIRED},playouts=30,threads={t}", seed=5)
        runs[t] = [(agent.act(obs, obs["action_mask"]), agent.last_candidate, agent.last_choices, agent.last_gains,
                    agent.last_rounds, agent.last_iterations) for _, obs in _decisions(cfg, 8, seed=23)]
    assert runs[1] == runs[threads]
    assert any(rounds == 10 for *_, rounds, _ in runs[1])  # 30 playouts: 10 whole rounds of 3 candidates


@native_only
@pytest.mark.parametrize("threads", [1, 2])
def test_reject_races_the_candidates(threads):
    """reject=R: every 8 whole rounds a candidate R standard errors below the expert's move gets no more rollouts,
    so a playouts budget buys more rounds of the rest; the rounds and choices do not depend on the threads."""
    cfg = GameConfig(n_players=2, max_rounds=8)

    def searches(extra: str) -> list[tuple]:
        agent = agents.make(f"{PAIRED},paired=4,playouts=80{extra}", seed=5)
        out = [(agent.act(obs, obs["action_mask"]), agent.last_candidate, agent.last_choices, agent.last_gains,
                agent.last_rounds) for _, obs in _decisions(cfg, 10, seed=23)]
        return [s for s in out if s[2]]  # the searched decisions

    plain, raced = searches(""), searches(",reject=0.5")
    assert raced == searches(f",reject=0.5,threads={threads}")
    assert all(rounds <= 80 // len(choices) for _, _, choices, _, rounds in plain)
    longer = [(r, p) for r, p in zip(raced, plain) if r[4] > p[4]]
    assert longer  # a candidate left the race and the budget went to the others
    for (_, candidate, _, gains, rounds), _ in longer:
        assert rounds <= 80 // 2 and (candidate == 0 or gains[candidate] > 0)


def test_reject_option():
    assert agents.make(f"{PAIRED},reject=1.5", seed=1).reject == 1.5
    assert agents.make(PAIRED, seed=1).reject == 0.0
    for bad in ("ismcts:rollout=expert,reject=1", f"{PAIRED},reject=-1", f"{PAIRED},reject=inf", f"{PAIRED},reject=x"):
        with pytest.raises(ValueError, match="reject"):
            agents.make(bad)


def test_threads_option():
    assert agents.make(f"{PAIRED},threads=2,playouts=6", seed=1).threads == 2
    assert agents.make(PAIRED, seed=1).threads == 1
    for bad in ("ismcts:rollout=expert,threads=2", f"{PAIRED},threads=0", f"{PAIRED},threads=two"):
        with pytest.raises(ValueError, match="threads"):
            agents.make(bad)


@native_only
@pytest.mark.parametrize("n", [2, 4])
def test_hidden_facts_do_not_change_its_evaluation(n):
    """The true game changed in what the seat cannot see (opponents' face-down counters, the cup) gives
    the same candidates, the same mean paired differences bit for bit, and the same choice."""
    checked, moved = hidden_facts_agree(f"{PAIRED},playouts=30", GameConfig(n_players=n, max_rounds=6), n, 80 + n)
    assert checked >= 3 and moved  # some evaluation told its candidates apart


def hidden_facts_agree(spec: str, cfg, rng_seed: int, seed: int) -> tuple[int, int]:
    """At random states, `spec`'s choice, candidates and gains with the true game changed in what the seat cannot
    see must equal those of the game itself (asserted); (variants checked, evaluations that told candidates apart)."""
    enc = encoder_for(cfg)
    rng = np.random.default_rng(rng_seed)
    checked, moved = 0, 0
    for s in random_states(cfg, 4, seed=seed, gap=(30, 150)):
        p = s.actor
        mask = legal_mask(s).copy()
        if np.count_nonzero(mask) < 2:
            continue
        agent = agents.make(spec, seed=5)
        obs = {"observation": enc.encode(_native(s), p), "action_mask": mask, "worlds": WorldSampler(_native(s), p)}
        want = (agent.act(obs, mask), agent.last_choices, agent.last_gains)
        moved += any(g != 0 for g in agent.last_gains)
        for _, t in hidden_variants(s, p, rng):
            agent.reset(seed=5)
            t = _native(t)
            obs = {"observation": enc.encode(t, p), "action_mask": mask, "worlds": WorldSampler(t, p)}
            assert (agent.act(obs, mask), agent.last_choices, agent.last_gains) == want
            checked += 1
    return checked, moved


@native_only
def test_assassin_candidates_are_legal_in_every_world():
    """A Master Assassin's target (A.7, R15.1): the mask names no face-down counter of the opponent (YES
    points at one of them), so every candidate is legal in every world the seat cannot tell from the true
    one, and each is compared in every round (seed 2, expert seats 20 and 21: decision 220 is one, round 3)."""
    from ktenv.kings_and_things import decisions as D
    from ktenv.kings_and_things.engine import new_game
    from ktenv.kings_and_things.engine.actions import YES
    from ktenv.kings_and_things.engine.machine import step

    cfg = GameConfig(n_players=2, max_rounds=12)
    enc = encoder_for(cfg)
    experts = [agents.make("expert", seed=20 + p) for p in range(2)]
    s = new_game(cfg, 2, backend="native")
    for _ in range(220):
        p, mask = s.actor, legal_mask(s)
        step(s, experts[p].act({"observation": enc.encode(s, p), "action_mask": mask}, mask))
    p, mask = s.actor, legal_mask(s).copy()
    assert s.decision == D.ASSASSIN_TARGET and mask[YES], D.NAMES.get(s.decision)
    worlds = WorldSampler(s, p)
    for k in range(20):
        assert (legal_mask(worlds.sample(k)) == mask).all()
    agent = agents.make(f"{PAIRED},playouts=30", seed=1)
    a = agent.act({"observation": enc.encode(s, p), "action_mask": mask, "worlds": worlds}, mask)
    assert mask[a] and agent.last_rounds >= 1 and agent.last_iterations <= 30
    assert len(agent.last_choices) >= 2 and all(g != 0.0 for g in agent.last_gains[1:])


@native_only
@pytest.mark.parametrize("threads", [1, 2])
def test_paired_search_respects_its_time_budget(threads):
    cfg = GameConfig(n_players=2, max_rounds=8)
    agent = agents.make(f"ismcts:seconds=0.05,rollout=expert,cutoff=60,paired=3,threads={threads}", seed=1)
    inside, around = [], []
    for _, obs in _decisions(cfg, 16, seed=3):
        t0 = time.perf_counter()
        a = agent.act(obs, obs["action_mask"])
        if agent.last_candidate < 0:
            continue  # a move's later steps: its expert, no search
        around.append(time.perf_counter() - t0)
        inside.append(agent.last_seconds)
        assert obs["action_mask"][a] and agent.last_rounds >= 1
    # a process preempted on a loaded machine loses whole time slices: the margins allow for that
    assert inside and float(np.median(inside)) < 0.05 + 0.02 and max(inside) < 0.05 + 0.05, inside
    assert max(around) < 0.05 + 0.1, around


@native_only
@pytest.mark.parametrize("n", [2, 4])
def test_paired_plays_whole_games(n):
    cfg = GameConfig(n_players=n, max_rounds=3)
    names = [f"{PAIRED},playouts=12,z=0.5", "expert", "greedy", "random"][:n]
    r = play_game(cfg, 6, names, backend="native")
    assert r.winners or r.reason, r.reason
    assert r.decisions > 20


@native_only
def test_horizon_plays_the_rollouts_on_to_its_round():
    """horizon=R: a rollout from before round R plays past `cutoff` to R's start; at or before the current round it
    changes nothing, bit for bit."""
    cfg = GameConfig(n_players=2, max_rounds=40)

    def gains(obs: dict, extra: str) -> list[float]:
        agent = agents.make(f"ismcts:rollout=expert,cutoff=5,paired=3,playouts=30{extra}", seed=3)
        agent.act(obs, obs["action_mask"])
        return agent.last_gains

    s, obs = next((s, obs) for s, obs in _decisions(cfg, 20, seed=4) if gains(obs, ""))  # a searched decision
    assert gains(obs, f",horizon={s.round}") == gains(obs, "")
    assert gains(obs, f",horizon={s.round + 2}") != gains(obs, "")
    with pytest.raises(ValueError, match="horizon"):
        agents.make("ismcts:rollout=expert,paired=2,horizon=-1")


def test_horizon_in_the_python_search():
    """The tree search's rollouts (Python engine) end at the horizon's round or the game's end, not at `cutoff`."""
    cfg = GameConfig(n_players=2, max_rounds=40)
    s = python_state(next(iter(random_states(cfg, 1, seed=5, gap=(20, 40)))))
    agent = agents.make(f"ismcts:rollout=random,cutoff=0,horizon={s.round + 1}", seed=1)
    w = s.copy()
    agent._rollout(w, float("inf"))
    assert w.game_over or w.round == s.round + 1
    still = s.copy()
    agents.make("ismcts:rollout=random,cutoff=0", seed=1)._rollout(still, float("inf"))
    assert still.round == s.round and np.array_equal(legal_mask(still), legal_mask(s))

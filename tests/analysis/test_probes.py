"""Policy probes, agreement, the disagreement audit and value calibration on the shipped 2-player model over a
short recorded game; the audit sees only the seat's information set (its result ignores hidden facts)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ktenv import agents, registry
from ktenv.analysis import agreement, audit, audit_summary, calibration, load_policy, paired, probe
from ktenv.arena.records import GameRecord, replay
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.env import testing as kt_testing

MODEL = str(Path(__file__).resolve().parents[2] / "models" / "ppo_2p.zip")
SPEC = f"ppo:{MODEL}"


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    spec = registry.game("kings_and_things")
    result = spec.play_game(GameConfig(n_players=2, max_rounds=3), 11, [SPEC, "expert"], record=True)
    path = tmp_path_factory.mktemp("analysis") / "game.json"
    GameRecord.from_dict(result.record).save(path)
    return path


@pytest.fixture(scope="module")
def probes(record) -> pd.DataFrame:
    return probe(SPEC, record, references=["expert", "greedy"])


def test_probabilities_are_a_policy_over_the_legal_actions(probes):
    assert len(probes) > 50 and probes["legal"].min() >= 2
    for top in probes["top"].head(40):
        entries = json.loads(top)
        assert 0 < sum(e["p"] for e in entries) <= 1 + 1e-5
        assert [e["p"] for e in entries] == sorted((e["p"] for e in entries), reverse=True)
    assert (probes["entropy"] >= 0).all() and (probes["model_p"] <= 1 + 1e-9).all()


def test_full_distribution_sums_to_one_and_the_top_action_is_the_ppo_agents(record):
    rec = GameRecord.load(record)
    spec = registry.game_of_config(rec.config)
    reader, policy = spec.dataset(rec.config), load_policy(SPEC, value=False)
    player = agents.make(SPEC, seed=0)
    seen = []

    def check(s, k, _action):
        if k % 7 or len(seen) >= 30:
            return
        mask = np.asarray(spec.engine.legal_mask(s), bool)
        obs = reader.observe(s, s.actor)
        p = policy.probabilities(obs, mask)
        assert p.sum() == pytest.approx(1.0) and not p[~mask].any()
        assert int(np.argmax(p)) == player.act({"observation": obs, "action_mask": mask}, mask)
        seen.append(k)

    replay(rec, on_move=check)
    assert len(seen) >= 10


def test_rows_say_what_happened_in_english(probes):
    row = probes.iloc[len(probes) // 2]
    for column in ("action_text", "model_text", "expert_text", "greedy_text", "decision", "phase"):
        assert isinstance(row[column], str) and row[column] and row[column][0].isalpha()
    top = json.loads(row["top"])
    assert top[0]["action"] == row["model_action"] and top[0]["text"] == row["model_text"]
    assert set(probes["agent"]) == {SPEC, "expert"}
    assert probes["value"].notna().all()  # torch is installed here: the critic's value


def test_the_model_seat_plays_its_top_action(probes):
    """The ppo seat of the record played exactly the model's top action at every decision."""
    mine = probes[probes["actor"] == 0]
    assert (mine["action"] == mine["model_action"]).all()


def test_agreement_by_decision_kind_with_wilson_intervals(probes):
    table = agreement(probes, "expert")
    assert table.iloc[-1]["decision"] == "all" and table.iloc[-1]["positions"] == len(probes)
    assert ((table["low"] <= table["rate"]) & (table["rate"] <= table["high"])).all()
    assert 0 < table.iloc[-1]["rate"] < 1


def test_expert_agrees_with_itself(record):
    """At the expert seat, the reference expert (seated as the arena seats it) makes every recorded choice."""
    table = probe(SPEC, record, references=["expert"], seats=[1], forced=True)
    assert len(table) > 30
    assert (table["expert_action"] == table["action"]).all()
    itself = table.assign(expert_agrees=table["expert_action"] == table["action"])
    assert agreement(itself, "expert").iloc[-1]["rate"] == 1.0


def test_audit_of_a_few_disagreements_has_finite_intervals(record, probes):
    mine = probes[probes["actor"] == 0]
    audited = audit(record, mine, worlds=6, limit=3)
    assert len(audited) == 3
    for column in ("mean", "se", "low", "high"):
        assert np.isfinite(audited[column]).all()
    assert (audited["low"] <= audited["mean"]).all() and (audited["mean"] <= audited["high"]).all()
    assert set(audited["verdict"]) <= {"better", "worse", "undecided"}
    summary = audit_summary(audited)
    assert summary.iloc[-1]["audited"] == 3
    assert summary.iloc[-1][["better", "worse", "undecided"]].sum() == 3


def test_the_audit_ignores_hidden_facts():
    """The paired evaluation samples worlds from the seat's information set: a position that differs only in
    facts the seat may not know gives the same differences for the same seed."""
    rng = np.random.default_rng(3)
    checked, spread = 0, 0
    for s in kt_testing.random_states({"n_players": 2, "max_rounds": 4}, 3, seed=8, gap=(40, 120)):
        s = s if not hasattr(s, "native") else s.to_python().copy()
        seat = int(s.actor)
        legal = np.flatnonzero(registry.game("kings_and_things").engine.legal_mask(s))
        if legal.size < 2:
            continue
        base = paired(s, seat, int(legal[0]), int(legal[-1]), worlds=4, cutoff=300, seed=5)
        spread += base["se"] > 0  # the worlds differ: a leak would show
        for what, t in kt_testing.hidden_variants(s, seat, rng):
            assert paired(t, seat, int(legal[0]), int(legal[-1]), worlds=4, cutoff=300, seed=5) == base, what
            checked += 1
    assert checked >= 3 and spread >= 1


def test_value_calibration_table(probes):
    table = calibration(probes, bins=4)
    assert table["positions"].sum() == len(probes)
    assert table["value"].is_monotonic_increasing


def test_an_rllib_model_and_a_model_without_its_critic(record, tmp_path):
    """rllib:PATH probes with both heads; a ppo model read without torch has no value column."""
    from ktenv.agents.network import read_meta
    from ktenv.agents.rllib_agent import build_network, save_model

    meta = read_meta(MODEL)
    meta = {k: meta[k] for k in ("observation_size", "action_size", "game")}
    meta["network"] = {"features": 8, "pi": [8], "vf": [8], "activation": "relu"}
    path = save_model(build_network(meta), tmp_path / "tiny_rllib.zip", meta)
    table = probe(f"rllib:{path}", record, references=[], seats=[0], every=10)
    assert len(table) > 5 and table["value"].notna().all()
    assert (table["model_p"] <= 1).all() and (table["entropy"] >= 0).all()
    bare = probe(load_policy(SPEC, value=False), record, references=[], seats=[0], every=10)
    assert bare["value"].isna().all() and (bare["model_action"] == bare["action"]).all()


def test_a_reference_that_searches_gets_a_world_sampler_of_its_seat(record):
    table = probe(SPEC, record, references=["ismcts:playouts=4,cutoff=5"], seats=[0], every=25)
    assert len(table) >= 3
    legal_choice = table["ismcts:playouts=4,cutoff=5_action"] >= 0
    assert legal_choice.all()


def test_the_pictures(probes, record):
    import matplotlib

    matplotlib.use("Agg")
    from ktenv.analysis import plot_agreement, plot_audit, plot_calibration

    assert plot_agreement(agreement(probes, "greedy")) is not None
    assert plot_calibration(calibration(probes, bins=3)) is not None
    audited = audit(record, probes[probes["actor"] == 0], worlds=3, limit=2)
    assert plot_audit(audit_summary(audited)) is not None

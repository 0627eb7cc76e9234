"""The imitation warm start (training/imitation.py): the teacher's games, DAgger, cloning."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from ktenv.training import imitation  # noqa: E402
from ktenv.training.config import TrainConfig  # noqa: E402
from ktenv.training.train_ppo import main as train_main  # noqa: E402

from ktenv.errors import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "ppo_smoke.yaml"
SHORT = {"max_rounds": 3}


def small_policy(observation_size: int, action_size: int):
    from ktenv.training.policy import build_policy

    return build_policy({"observation_size": observation_size, "action_size": action_size,
                         "network": {"features": 32, "pi": [16], "vf": [16], "activation": "relu"}})


def test_seat_rows_share_the_games_and_rotate_the_teacher_seat():
    rows = imitation.seat_rows(10, 2, {"teacher": 0.2, "greedy": 0.6, "random": 0.2})
    assert len(rows) == 10
    assert sum(r == ("external", "external") for r in rows) == 2  # the teacher in every seat
    assert sum("greedy" in r for r in rows) == 6 and sum("random" in r for r in rows) == 2
    watched = [r.index("external") for r in rows if "external" in r and len(set(r)) == 2]
    assert set(watched) == {0, 1}  # it plays both seats
    assert imitation.seat_rows(3, 4, {"greedy": 1.0}) == [
        ("external", "greedy", "greedy", "greedy"), ("greedy", "external", "greedy", "greedy"),
        ("greedy", "greedy", "external", "greedy")]


def test_returns_are_discounted_per_seat():
    episode = imitation._Episode(rows=[[(np.zeros(2, np.float16), np.ones(3, bool), a) for a in (0, 1, 2)], []],
                                 rewards=[[1.0, 0.0, 2.0], []])
    store = {"observations": [], "masks": [], "actions": [], "returns": []}
    assert imitation._keep(episode, 0.5, store) == 3
    np.testing.assert_allclose(store["returns"][0], [1.5, 1.0, 2.0])  # 1 + .5 * (0 + .5 * 2), ...
    assert store["actions"][0].tolist() == [0, 1, 2]


def test_the_teacher_games_hold_legal_labels_and_repeat_with_the_seed():
    a = imitation.collect("greedy", 300, players=2, game=SHORT, reward="shaped", gamma=0.99,
                          opponents={"teacher": 1, "random": 1}, seed=4, num_envs=4)
    b = imitation.collect("greedy", 300, players=2, game=SHORT, reward="shaped", gamma=0.99,
                          opponents={"teacher": 1, "random": 1}, seed=4, num_envs=4)
    assert len(a) >= 300 and a.games >= 1
    assert a.observations.dtype == np.float16 and a.masks.dtype == bool
    assert a.masks[np.arange(len(a)), a.actions].all()  # every label is legal where it was given
    assert np.isfinite(a.returns).all()
    for name in ("observations", "masks", "actions", "returns"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert 0.0 <= a.acting_wins <= 1.0


def test_the_teacher_may_face_the_native_expert():
    """Every default league member is native, so `expert` seats are an opponent kind like greedy's."""
    rows = imitation.seat_rows(4, 2, {"expert": 1, "teacher": 1})
    assert sorted(rows) == sorted([("external", "expert"), ("expert", "external"), ("external", "external"),
                                   ("external", "external")])
    demos = imitation.collect("greedy", 150, players=2, game=SHORT, reward="shaped", gamma=0.99,
                              opponents={"expert": 1}, seed=3, num_envs=2)
    assert len(demos) >= 150 and demos.masks[np.arange(len(demos)), demos.actions].all()
    assert TrainConfig.from_yaml(SMOKE, {"imitation.opponents": {"expert": 1.0}}).imitation.opponents == {"expert": 1.0}


def test_dagger_plays_the_policy_and_labels_with_the_teacher():
    from ktenv.kings_and_things.vector import VectorEnv

    probe = VectorEnv(1, num_players=2, **SHORT)
    policy = small_policy(probe.observation_size, probe.n_actions)
    probe.close()
    demos = imitation.collect("greedy", 200, players=2, game=SHORT, reward="win", gamma=1.0,
                              opponents={"random": 1}, seed=9, num_envs=3, policy=policy)
    assert len(demos) >= 200
    assert demos.masks[np.arange(len(demos)), demos.actions].all()
    # the untrained policy plays, so its own best actions often differ from the teacher's labels
    played = imitation.best_actions(policy, demos.observations.astype(np.float32), demos.masks)
    assert (played != demos.actions).any()
    assert set(np.unique(demos.returns)) <= {-1.0, 0.0, 1.0}  # reward "win", gamma 1: the game's result


def test_dagger_tells_the_teacher_the_learners_move(monkeypatch):
    """Where the learner's move is not the teacher's label, the teacher hears it (its move plan follows the
    learner's stack); where the teacher plays, nothing is told."""
    import ktenv.agents.base as base

    from ktenv.kings_and_things.vector import VectorEnv

    told, real = [], base.tell_played
    monkeypatch.setattr(base, "tell_played", lambda agent, action: (told.append(agent.name), real(agent, action)))
    probe = VectorEnv(1, num_players=2, **SHORT)
    policy = small_policy(probe.observation_size, probe.n_actions)
    probe.close()
    imitation.collect("expert", 100, players=2, game=SHORT, reward="win", gamma=1.0, opponents={"random": 1},
                      seed=9, num_envs=2)
    assert told == []
    imitation.collect("expert", 100, players=2, game=SHORT, reward="win", gamma=1.0, opponents={"random": 1},
                      seed=9, num_envs=2, policy=policy)
    assert len(told) > 10 and set(told) == {"expert"}


def test_cloning_learns_the_labels():
    rng = np.random.default_rng(0)
    n, size, actions = 64, 12, 5
    observations = rng.integers(0, 3, (n, size)).astype(np.float16)
    masks = np.ones((n, actions), bool)
    labels = (observations[:, 0].astype(int) + observations[:, 1].astype(int)) % actions  # a rule to learn
    demos = imitation.Demonstrations(observations, masks, labels, rng.random(n).astype(np.float32), 1, 0.0)
    policy = small_policy(size, actions)
    every = np.arange(n)
    before = imitation.agreement(policy, demos, every)
    history = imitation.clone(policy, demos, epochs=150, batch_size=32, learning_rate=3e-3, vf_coef=0.5, seed=1,
                              held_out=0.0)
    assert history[-1].policy_loss < history[0].policy_loss
    assert imitation.agreement(policy, demos, every) > max(0.9, before)
    # a masked action is never the policy's choice, even where it was the label's
    masks[:, labels[0]] = False
    assert imitation.best_actions(policy, observations[:1].astype(np.float32), masks[:1])[0] != labels[0]


@pytest.mark.parametrize("overrides, message", [
    ({"imitation.teacher": "wizard"}, "'imitation.teacher'"),
    ({"imitation.opponents": {"wizard": 1.0}}, "'imitation.opponents'"),
    ({"imitation.opponents": {"greedy": 0.0}}, "add up to 0"),
    ({"imitation.epochs": 0}, "'imitation.epochs'"),
    ({"imitation.learning_rate": 0}, "'imitation.learning_rate'"),
])
def test_a_bad_imitation_section_names_the_key(overrides, message):
    with pytest.raises(ConfigError, match=message):
        TrainConfig.from_yaml(SMOKE, overrides)


def test_progress_is_passed_on_at_most_once_per_interval():
    seen = []
    quiet = imitation.every(1e9, lambda *a: seen.append(("quiet", a)))
    chatty = imitation.every(0.0, lambda *a: seen.append(a))
    for k in range(3):
        quiet(k, k)
        chatty(k, 2 * k)
    assert seen == [(0, 0), (1, 2), (2, 4)]


def test_a_run_with_a_warm_start_saves_it_and_a_resume_does_not_imitate_again(tmp_path, capsys):
    from ktenv.training.curve import read_scalars

    out = tmp_path / "warm"
    args = ["--config", str(SMOKE), "--out", str(out), "--total-steps", "512", "--set", "eval.every=0",
            "--set", "eval.games=1", "--set", "imitation.teacher=greedy", "--set", "imitation.decisions=150",
            "--set", "imitation.dagger_rounds=1", "--set", "imitation.dagger_decisions=100",
            "--set", "imitation.games=4", "--set", "env.max_rounds=3", "--set", "log_every_seconds=0.001"]
    assert train_main(args) == 0
    err = capsys.readouterr().err
    assert "imitation: round 1: the learner plays" in err and "agreement with greedy" in err
    assert "decisions kept (from finished games)" in err  # the collection shows its progress
    assert (out / "imitation.zip").exists()
    scalars = read_scalars(out)
    assert "imitation/agreement" in scalars and "imitation/policy_loss" in scalars
    from ktenv.training.curve import draw_curve

    fig = draw_curve(scalars, "warm")
    assert fig.axes[0].get_title() == "imitation warm start" and len(fig.axes) == 4
    # a run stopped after its warm start, before any checkpoint, loads it instead of imitating again
    for ckpt in (out / "checkpoints").iterdir():
        ckpt.unlink()
    (out / "final.zip").unlink()
    assert train_main([*args, "--resume"]) == 0
    err = capsys.readouterr().err
    assert f"imitation: loaded {out / 'imitation.zip'}" in err and "round 0" not in err

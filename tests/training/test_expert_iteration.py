"""Learning from a search (training/expert_iteration.py): labels in shards, resumable, then training, then PPO."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from ktenv.training import expert_iteration as ei  # noqa: E402
from ktenv.training import imitation  # noqa: E402
from ktenv.training.config import TrainConfig  # noqa: E402
from ktenv.training.train_ppo import main as train_main  # noqa: E402

from ktenv.errors import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "ppo_smoke.yaml"
SEARCH = "ismcts:playouts=6,rollout=expert,cutoff=10,paired=3,z=2"  # few rollouts: seconds, not minutes
TINY = {"env.max_rounds": 2, "expert_iteration.search": SEARCH, "expert_iteration.labels": 100,
        "expert_iteration.shard_games": 1, "expert_iteration.threads": 2,
        "expert_iteration.opponents": "{expert: 1}", "expert_iteration.epochs": 1}  # 2 shards a round


def tiny_args(out: Path, **extra) -> list[str]:
    args = ["--config", str(SMOKE), "--out", str(out), "--total-steps", "256", "--set", "eval.every=0",
            "--set", "eval.games=1"]
    for key, value in {**TINY, **extra}.items():
        args += ["--set", f"{key}={value}"]
    return args


def test_the_search_labels_its_own_seat_with_candidates_and_the_same_labels_for_any_thread_count():
    game = {"max_rounds": 2}
    runs = [imitation.collect(SEARCH, 0, players=2, game=game, reward="shaped", gamma=0.99,
                              opponents={"expert": 1.0}, seed=5, num_envs=2, threads=threads, one_game_each=True)
            for threads in (1, 2)]
    a, b = runs
    assert a.games == 2 and len(a) > 0
    assert a.masks[np.arange(len(a)), a.actions].all()
    for name in ("observations", "masks", "actions", "returns", "candidates", "gains"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    weighed = (a.candidates >= 0).sum(1) >= 2
    assert weighed.any()  # the paired search weighed several candidates at some decisions
    rows = np.flatnonzero(weighed)
    assert (a.candidates[rows] == a.actions[rows, None]).any(1).all()  # its choice is one of its candidates
    assert a.masks[rows[:, None], np.maximum(a.candidates[rows], 0)][a.candidates[rows] >= 0].all()  # all legal
    assert (a.gains[rows, 0] == 0).all()  # gains are relative to the first candidate


class SpyingSearch:
    """A teacher that searches: it records what it is given and plays the first legal action."""

    needs_worlds = True

    def __init__(self) -> None:
        self.given: list[dict] = []

    def act(self, observation, mask) -> int:
        self.given.append(observation)
        return int(np.flatnonzero(mask)[0])


def test_a_searching_teacher_gets_its_seats_observation_and_worlds_never_the_game():
    from ktenv import registry

    spec = registry.game()
    env = spec.vector_env(2, num_players=2, seed=1, seats=[("expert", "external")] * 2, max_rounds=2)
    out = env.reset()
    spies = [SpyingSearch(), SpyingSearch()]
    label = imitation._Labeller(spec, env, [[None, spy] for spy in spies], threads=2)
    try:
        labels = label(out, np.arange(2))
    finally:
        label.close()
        env.close()
    for i, spy in enumerate(spies):
        (given,) = spy.given
        assert labels[i] == np.flatnonzero(out["action_mask"][i])[0]
        np.testing.assert_array_equal(given["observation"], out["observation"][i])  # the seat's own view
        worlds = given["worlds"]
        assert worlds.seat == 1 == out["actor"][i]
        assert not hasattr(worlds, "state") and not hasattr(worlds, "game")  # samples worlds only
        with pytest.raises(TypeError, match="cannot be pickled"):
            worlds.__reduce__()


def test_soft_targets_follow_the_gains_and_fall_back_to_the_choice():
    masks = np.ones((2, 5), bool)
    demos = imitation.Demonstrations(np.zeros((2, 3), np.float16), masks, np.array([1, 4]), np.zeros(2, np.float32),
                                     1, 0.0, np.array([[1, 2, 3], [-1, -1, -1]], np.int32),
                                     np.array([[0.0, 0.1, -0.1], [np.nan] * 3], np.float32))
    q = imitation.soft_targets(demos, np.arange(2), temperature=0.1)
    np.testing.assert_allclose(q.sum(1), 1.0, rtol=1e-6)
    assert q[0, 2] > q[0, 1] > q[0, 3] and q[0, [0, 4]].sum() == 0
    assert q[1].tolist() == [0, 0, 0, 0, 1.0]  # no candidates: the search's choice alone


def test_the_stages_run_end_to_end_and_a_kill_between_shards_resumes_with_the_same_labels(tmp_path, capsys):
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    assert train_main(tiny_args(whole)) == 0
    err = capsys.readouterr().err
    assert "expert iteration: round 0:" in err and "round 1: the learner plays" in err
    assert "agreement with the search" in err
    assert (whole / "expert_iteration" / "round1.zip").exists() and (whole / "final.zip").exists()
    shards = sorted((whole / "labels").rglob("shard*.npz"))
    assert {p.parent.name for p in shards} == {"round0", "round1"}

    # the same run killed after its first shard (here: stopped there by its labels and rounds, its model and
    # PPO's files removed), then resumed with the whole settings: the same shards, the first one kept
    assert train_main(tiny_args(killed, **{"expert_iteration.labels": 1, "expert_iteration.play": "[search]"})) == 0
    assert [p.name for p in (killed / "labels").rglob("shard*.npz")] == ["shard00000.npz"]
    for path in [*(killed / "expert_iteration").iterdir(), *(killed / "checkpoints").iterdir(),
                 killed / "final.zip"]:
        path.unlink()
    capsys.readouterr()
    assert train_main([*tiny_args(killed, **{"expert_iteration.play": "[search, learner]"}), "--resume"]) == 0
    err = capsys.readouterr().err
    assert "round 0 shard 0:" not in err and "round 0 shard 1:" in err  # kept, not labelled again
    for path in shards:
        twin = killed / path.relative_to(whole)
        a, meta_a = ei.read_shard(path, SEARCH)
        b, meta_b = ei.read_shard(twin, SEARCH)
        assert meta_a["seed"] == meta_b["seed"]
        for name in ei.SHARD_FIELDS:
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))

    # a run resumed after its rounds loads the last round's model and labels nothing
    for path in [*(whole / "checkpoints").iterdir(), whole / "final.zip"]:
        path.unlink()
    assert train_main([*tiny_args(whole), "--resume"]) == 0
    err = capsys.readouterr().err
    assert f"loaded {whole / 'expert_iteration' / 'round1.zip'}" in err and "shard" not in err


def test_a_shard_of_another_search_is_refused(tmp_path):
    demos = imitation.Demonstrations(np.zeros((1, 3), np.float16), np.ones((1, 2), bool), np.array([0]),
                                     np.zeros(1, np.float32), 1, 0.5)
    path = ei.shard_path(tmp_path, 0, 0)
    ei.write_shard(path, demos, {"search": "ismcts:playouts=5"})
    assert ei.read_shard(path, "ismcts:playouts=5")[0].candidates is None
    with pytest.raises(ConfigError, match="holds labels of the search"):
        ei.read_shard(path, SEARCH)
    path.write_bytes(b"not a shard")
    with pytest.raises(ConfigError, match="not a readable shard"):
        ei.read_shard(path, SEARCH)


@pytest.mark.parametrize("overrides, message", [
    ({"expert_iteration.search": "expert"}, "does not search"),
    ({"expert_iteration.search": "ismcts:playouts=0"}, "cannot be made"),
    ({"expert_iteration.play": ["search", "wizard"]}, "'expert_iteration.play'"),
    ({"expert_iteration.play": []}, "at least one round"),
    ({"expert_iteration.play": ["learner"]}, "starts untrained"),
    ({"expert_iteration.opponents": {"wizard": 1.0}}, "'expert_iteration.opponents'"),
    ({"expert_iteration.opponents": {"ppo:no/such.zip": 1.0}}, "no such model file"),
    ({"expert_iteration.opponents": {"expert": 0}}, "add up to 0"),
    ({"expert_iteration.soft": 2.0}, "'expert_iteration.soft'"),
    ({"expert_iteration.labels": 0}, "'expert_iteration.labels'"),
    ({"env.engine": "python", "vec_env": "dummy"}, "env.engine is 'python'"),
])
def test_a_bad_expert_iteration_section_names_the_key(overrides, message):
    with pytest.raises(ConfigError, match=message):
        TrainConfig.from_yaml(SMOKE, {"expert_iteration.search": SEARCH, **overrides})

"""The network's steer (ktenv/gamekit/steer.py, policy.steer): while a stack moves (R11.2, MOVE_STACK), logits of
the steer's own (one per hex, after the actions) name a destination whose probability goes to the directions of
a shortest first step towards it (R3.1.2) and the stack's own hex to PASS (end the move); read the same in torch,
numpy and native code, carried in the model file, and trained through `ktenv train`."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


from ktenv.gamekit.steer import SteerTable  # noqa: E402
from ktenv.kings_and_things import board  # noqa: E402
from ktenv.kings_and_things.engine.actions import PASS, action_layout  # noqa: E402
from ktenv.kings_and_things.env.aec import game_config  # noqa: E402
from ktenv.kings_and_things.env.observation import build_layout  # noqa: E402
from ktenv.kings_and_things.env.steer import steer_table  # noqa: E402

from .network_options import (  # noqa: E402
    reads_alike,
    refused_for_kingsburg,
    refuses_broken_meta,
    small_model,
    train_and_play,
)

CFG = game_config({"n_players": 2})


def stepping_observations(count: int) -> np.ndarray:
    """Observations of 2-player games where the seat steps a moving stack (MOVE_STACK), then a few others."""
    from ktenv.kings_and_things.vector import VectorEnv

    env = VectorEnv(8, 2, seed=5, num_threads=1, seats=[["external", "expert"]] * 8)
    gate = steer_table(CFG).gate
    rng, rows, other = np.random.default_rng(1), [], []
    out = env.reset()
    while len(rows) < count:
        for obs in out["observation"]:
            (rows if obs[gate] else other).append(obs.copy())
        out = env.step((rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1))
    return np.array(rows[:count] + other[:4])


def test_each_destination_goes_to_the_first_steps_of_a_shortest_way():
    table = steer_table(CFG)
    geo = board.geometry(2)
    lay = action_layout(2)
    layout = build_layout(2, 19)
    assert table.gate == layout.section("game").offset("decision_move_stack")
    assert table.anchor == tuple(layout.section("hexes").offset("reg_mv_hex") + h for h in range(19))
    assert table.sources == tuple(lay.size + h for h in range(19)) and table.extra == 19
    assert table.targets == tuple(lay.direction + d for d in range(6)) + (PASS,)
    weights = table.weights()
    for here in range(19):
        assert table.routes[here][here] == 1 << 6  # staying: PASS ends the move
        for d in range(6):  # R3.1.2: E, SE, SW, W, NW, NE
            there = int(geo.neighbours[here, d])
            if there >= 0:
                assert table.routes[here][there] == 1 << d
                two = int(geo.neighbours[there, d])
                if two >= 0:
                    assert table.routes[here][two] == 1 << d  # straight on: one way
        for there in range(19):
            if there != here:
                bits = [d for d in range(6) if table.routes[here][there] >> d & 1]
                assert 1 <= len(bits) <= 2
                for d in bits:  # each step is on the board and one hex nearer
                    step = int(geo.neighbours[here, d])
                    assert step >= 0
                    assert geo.distance[step, there] == geo.distance[here, there] - 1
        np.testing.assert_allclose(weights[here].sum(1), 1.0)
    centre = 0
    between = int(geo.neighbours[int(geo.neighbours[centre, 0]), 1])  # east then south-east: two ways
    assert table.routes[centre][between] == 0b11


def test_apply_adds_the_log_of_what_each_target_is_sent():
    table = SteerTable(gate=0, anchor=(1, 2), sources=(0, 1), targets=(2, 3), routes=((1, 2), (3, 0)))
    obs = np.array([[1, 1, 0], [1, 0, 1], [0, 1, 0], [1, 0, 0]], np.float32)
    logits = np.array([[0.0, np.log(3.0), 5, 5]] * 4, np.float32)  # the sources' softmax: 1/4, 3/4
    out = table.apply(obs, logits)
    np.testing.assert_allclose(out[0], [0, np.log(3), 5 + np.log(0.25 + 1e-6), 5 + np.log(0.75 + 1e-6)], rtol=1e-6)
    np.testing.assert_allclose(out[1], [0, np.log(3), 5 + np.log(0.125 + 1e-6), 5 + np.log(0.125 + 1e-6)], rtol=1e-6)
    np.testing.assert_array_equal(out[2:], logits[2:])  # not gated, or no anchor set: unchanged
    own = SteerTable(gate=0, anchor=(1, 2), sources=(3,), targets=(1,), routes=((1,), (0,)), extra=1)
    out = own.apply(obs, logits)  # the steer's own logit (the last) read, then dropped
    assert out.shape == (4, 3)
    np.testing.assert_allclose(out[0], [0, np.log(3) + np.log(1 + 1e-6), 5], rtol=1e-6)
    np.testing.assert_allclose(out[1], [0, np.log(3) + np.log(1e-6), 5], rtol=1e-6)
    np.testing.assert_array_equal(out[2:], logits[2:, :3])


@pytest.mark.parametrize("bad", [
    {"gate": 9, "anchor": [0], "sources": [0], "targets": [1], "routes": [[1]]},
    {"gate": 0, "anchor": [], "sources": [0], "targets": [1], "routes": []},
    {"gate": 0, "anchor": [0], "sources": [0], "targets": [99], "routes": [[1]]},
    {"gate": 0, "anchor": [0], "sources": [0], "targets": [1], "routes": [[2]]},
    {"gate": 0, "anchor": [0, 1], "sources": [0], "targets": [1], "routes": [[1]]},
    {"gate": 0, "anchor": [0], "sources": [0], "targets": [1, 1], "routes": [[1]]},
    {"gate": 0, "anchor": [0], "sources": [5], "targets": [1], "routes": [[1]]},
    {"gate": 0, "anchor": [0], "sources": [5], "targets": [1], "routes": [[1]], "extra": -1},
    {"gate": 0, "anchor": [0], "sources": [0], "targets": [1]}, [1]])
def test_a_bad_table_is_refused(bad):
    with pytest.raises(ValueError, match="steer"):
        SteerTable.from_json(bad, 4, 5)


def model_with_steer(folder, seed: int = 0):
    return small_model(folder, "steer", steer_table(CFG).to_json(), seed)


def test_torch_numpy_and_native_steer_alike(tmp_path):
    path, policy, _ = model_with_steer(tmp_path)
    rows = stepping_observations(40)
    actor, expected = reads_alike(path, policy, rows)
    assert actor.steer == steer_table(CFG)
    with torch.no_grad():
        plain = policy.action_net(policy.mlp_extractor.forward_actor(policy.pi_features_extractor(
            torch.from_numpy(rows)))).numpy()[:, :-19]  # without the steer's own logits
    targets = list(steer_table(CFG).targets)
    assert np.abs(expected[:40, targets] - plain[:40, targets]).min() > 1e-3  # every step's logits steered
    others = np.setdiff1d(np.arange(expected.shape[1]), targets)
    np.testing.assert_array_equal(expected[:, others], plain[:, others])
    np.testing.assert_array_equal(expected[40:], plain[40:])  # no stack stepping: nothing steered


def test_the_steer_passes_gradients_to_the_destinations(tmp_path):
    _, policy, _ = model_with_steer(tmp_path)
    rows = torch.from_numpy(stepping_observations(8)[:8])
    table = steer_table(CFG)
    east = torch.full((8,), table.targets[0])
    masks = torch.ones((8, policy.action_space.n), dtype=torch.bool)
    _, log_prob, _ = policy.evaluate_actions(rows, east, action_masks=masks)
    log_prob.sum().backward()
    own = policy.action_net.weight.grad[list(table.sources)]
    assert own.abs().sum() > 0  # the destination logits learn where an eastward step leads


def test_a_model_file_with_a_broken_steer_is_refused(tmp_path):
    path, _, meta = model_with_steer(tmp_path)
    meta["network"]["steer"]["targets"][0] = 10**6
    refuses_broken_meta(path, meta, "steer")


def test_the_steer_is_refused_where_the_game_has_no_steps():
    refused_for_kingsburg("steer")


def test_a_run_with_a_steer_trains_resumes_and_plays(tmp_path):
    meta = train_and_play(tmp_path, "steer", resume=True)
    assert SteerTable.from_json(meta["network"]["steer"], meta["observation_size"], meta["action_size"]) == \
        steer_table(CFG)

"""The network's focus (ktenv/gamekit/focus.py, policy.focus): the hexes around the moving stack gathered from
the observation in the stack's own frame (R3.1.2 directions), read the same in torch, numpy and native code,
carried in the model file, and trained through `ktenv train`."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from ktenv.agents.network import load_actor  # noqa: E402
from ktenv.training.policy import PlayingNetwork, batch_logits, load_network  # noqa: E402

from ktenv.gamekit.focus import OFF, ONE, FocusTable  # noqa: E402
from ktenv.kings_and_things import board, native  # noqa: E402
from ktenv.kings_and_things.env.aec import game_config  # noqa: E402
from ktenv.kings_and_things.env.focus import focus_table  # noqa: E402
from ktenv.kings_and_things.env.observation import build_layout  # noqa: E402

from .network_options import refused_for_kingsburg, refuses_broken_meta, small_model, train_and_play  # noqa: E402

CFG = game_config({"n_players": 2})


def moving_observations(count: int) -> np.ndarray:
    """Observations of 2-player games where a stack is being chosen or moves (and a few where none is)."""
    from ktenv.kings_and_things.vector import VectorEnv

    env = VectorEnv(8, 2, seed=5, num_threads=1, seats=[["external", "expert"]] * 8)
    layout = build_layout(2, 19)
    hexes = layout.section("hexes")
    anchor = slice(hexes.offset("reg_mv_hex"), hexes.offset("reg_mv_sel") + 19)
    rng, rows, other = np.random.default_rng(1), [], []
    out = env.reset()
    while len(rows) < count:
        for obs in out["observation"]:
            (rows if obs[anchor].any() else other).append(obs.copy())
        out = env.step((rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1))
    return np.array(rows[:count] + other[:4])


def test_the_table_gathers_the_neighbours_in_the_direction_order():
    table = focus_table(CFG)
    geo = board.geometry(2)
    hexes = build_layout(2, 19).section("hexes")
    gathered = [c.name for c in hexes.columns if not c.name.startswith("reg_")]
    per = 1 + len(gathered)
    assert len(table.anchor) == 2 * 19 and table.size == 18 * per
    for h in range(19):
        row = table.gather[h]
        assert table.anchor[h] == hexes.offset("reg_mv_hex") + h
        for d in range(6):  # R3.1.2: E, SE, SW, W, NW, NE
            there = int(geo.neighbours[h, d])
            block = row[d * per:(d + 1) * per]
            if there < 0:
                assert set(block) == {OFF}
            else:
                assert block[0] == ONE and block[1 + gathered.index("owner_rel1")] == hexes.offset("owner_rel1") + there
        straight = row[(6 + 0) * per:(7 + 0) * per]  # two steps east
        east2 = geo.neighbours[geo.neighbours[h, 0], 0] if geo.neighbours[h, 0] >= 0 else -1
        assert (straight[0] == ONE) == (east2 >= 0)
    assert table.gather[19 + 4] == table.gather[4]  # reg_mv_sel's rows: the same surroundings


def test_apply_reads_the_first_anchor_set_and_nothing_without_one():
    table = FocusTable(anchor=(0, 1), gather=((2, ONE, OFF), (3, 3, ONE)))
    obs = np.array([[0, 0, 5, 7], [1, 1, 5, 7], [0, 2, 5, 7]], np.float32)
    out = table.apply(obs)
    np.testing.assert_array_equal(out[:, 4:], [[0, 0, 0], [5, 1, 0], [7, 7, 1]])
    np.testing.assert_array_equal(out[:, :4], obs)


@pytest.mark.parametrize("bad", [{"anchor": [0], "gather": [[9]]}, {"anchor": [0], "gather": [[-3]]},
                                 {"anchor": [], "gather": []}, {"anchor": [0, 1], "gather": [[1]]},
                                 {"anchor": [0], "gather": [[1]], "extra": 1}, [1, 2],
                                 {"anchor": [5], "gather": [[1]]}])
def test_a_bad_table_is_refused(bad):
    with pytest.raises(ValueError, match="focus"):
        FocusTable.from_json(bad, 4)


def model_with_focus(folder, seed: int = 0):
    return small_model(folder, "focus", focus_table(CFG).to_json(), seed)


def test_torch_numpy_and_native_read_the_focus_alike(tmp_path):
    path, policy, _ = model_with_focus(tmp_path)
    rows = moving_observations(60)
    with torch.no_grad():
        expected = batch_logits(policy, torch.from_numpy(rows)).numpy()
    actor, _ = load_actor(path)
    assert actor.focus == focus_table(CFG)
    np.testing.assert_allclose(actor.logits(rows), expected, rtol=1e-5, atol=1e-4 * np.abs(expected).max())
    np.testing.assert_allclose(PlayingNetwork(policy).logits(rows), expected, rtol=1e-5,
                               atol=1e-4 * np.abs(expected).max())
    loaded, _ = load_network(path)
    with torch.no_grad():
        np.testing.assert_allclose(batch_logits(loaded, torch.from_numpy(rows)).numpy(), expected, rtol=1e-6,
                                   atol=1e-6)
    # training feeds observations symlog'd already (prescaled): the same features
    from ktenv.training.policy import symlog

    extractor = policy.pi_features_extractor
    with torch.no_grad():
        raw = extractor(torch.from_numpy(rows))
        extractor.prescaled = True
        scaled = extractor(symlog(torch.from_numpy(rows)))
        extractor.prescaled = False
    np.testing.assert_allclose(scaled.numpy(), raw.numpy(), rtol=1e-6, atol=1e-6)
    # the focus matters: the same network with its focus inputs' weights zeroed gives other logits
    with torch.no_grad():
        policy.pi_features_extractor.linear[0].weight[:, rows.shape[1]:] = 0
        without = batch_logits(policy, torch.from_numpy(rows)).numpy()
    assert np.abs(without[:60] - expected[:60]).max() > 1e-2
    np.testing.assert_allclose(without[60:], expected[60:], rtol=1e-5, atol=1e-5)  # no stack: no focus
    if native.available():
        from ktenv.kings_and_things.vector import native_policy

        network = native_policy(actor, False, f"ppo:{path}")
        assert network.observation_size == rows.shape[1]
        np.testing.assert_allclose(network.logits(rows), expected, rtol=1e-5, atol=1e-4 * np.abs(expected).max())


def test_a_model_file_with_a_broken_focus_is_refused(tmp_path):
    path, _, meta = model_with_focus(tmp_path)
    meta["network"]["focus"]["gather"][0][0] = 10**7
    refuses_broken_meta(path, meta, "focus")


def test_the_focus_is_refused_where_the_game_names_no_place():
    refused_for_kingsburg("focus")


def test_a_run_with_a_focus_trains_saves_and_plays(tmp_path):
    meta = train_and_play(tmp_path, "focus")
    assert FocusTable.from_json(meta["network"]["focus"], meta["observation_size"]) == focus_table(CFG)

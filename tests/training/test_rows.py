"""The network's row scores (ktenv/gamekit/rows.py, policy.rows): the HEX, THING and HERO actions (where to build,
R9; which counter joins a moving stack, R11.2; which battle first, RP-6.1) each get a score from their own row of
the observation's hexes, things and heroes tables, by weights the rows share; read the same in torch, numpy and
native code, carried in the model file, and trained through `ktenv train`."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from ktenv.agents.network import load_actor  # noqa: E402
from ktenv.training.policy import batch_logits, symlog  # noqa: E402

from ktenv.gamekit.rows import RowBlock, RowTable, StepBlock  # noqa: E402
from ktenv.kings_and_things import board, native  # noqa: E402
from ktenv.kings_and_things.engine.actions import action_layout  # noqa: E402
from ktenv.kings_and_things.env.aec import game_config  # noqa: E402
from ktenv.kings_and_things.env.observation import build_layout  # noqa: E402
from ktenv.kings_and_things.env.rows import row_table  # noqa: E402

from .network_options import (  # noqa: E402
    reads_alike,
    refused_for_kingsburg,
    refuses_broken_meta,
    small_model,
    train_and_play,
)

CFG = game_config({"n_players": 2})


@pytest.mark.parametrize("players", [2, 4, 6])
def test_each_hex_thing_and_hero_action_reads_its_own_row(players):
    cfg = game_config({"n_players": players})
    geo = board.geometry(board.board_radius(players))
    layout = build_layout(players, geo.n_hexes)
    actions = action_layout(players)
    table = row_table(cfg)
    for block, (first, name) in zip(table.blocks, ((actions.hex, "hexes"), (actions.thing, "things"),
                                                   (actions.hero, "heroes"))):
        section = layout.section(name)
        assert (block.action, block.rows, block.columns) == (first, section.rows, section.n_columns)
        index = block.indices()
        for j, column in enumerate(section.columns):
            np.testing.assert_array_equal(index[:, j], section.offset(column.name) + np.arange(section.rows))


def test_apply_adds_each_rows_embedding_dotted_with_the_context():
    table = RowTable((RowBlock(action=1, start=2, rows=3, columns=2),), width=4)
    rng = np.random.default_rng(0)
    obs = rng.normal(size=(5, 9)).astype(np.float32)
    latent = rng.normal(size=(5, 6)).astype(np.float32)
    logits = rng.normal(size=(5, 7)).astype(np.float32)
    we, be, wc, bc = (rng.normal(size=s).astype(np.float32) for s in ((2, 4), (4,), (6, 4), (4,)))
    out = table.apply(obs, latent, logits, [((we, be), (wc, bc))])
    for n in range(5):
        for k in range(3):
            row = obs[n, [2 + k, 2 + 3 + k]]  # column j of row k at start + j * rows + k
            e = np.maximum(np.sign(row) * np.log1p(np.abs(row)) @ we + be, 0)
            assert out[n, 1 + k] == pytest.approx(logits[n, 1 + k] + e @ (latent[n] @ wc + bc), rel=1e-5, abs=1e-5)
        np.testing.assert_array_equal(out[n, [0, 4, 5, 6]], logits[n, [0, 4, 5, 6]])


@pytest.mark.parametrize("bad", [
    {"width": 4}, {"width": 0, "blocks": [[0, 0, 1, 1]]}, {"width": 4, "blocks": []},
    {"width": 4, "blocks": [[4, 0, 2, 1]]},  # actions beyond the network's 5
    {"width": 4, "blocks": [[0, 3, 2, 1]]},  # rows beyond the 4 observation entries
    {"width": 4, "blocks": [[0, 0, 2, 1], [1, 2, 2, 1]]},  # two blocks name action 1
    {"width": 4, "blocks": [[0, 0, -1, 1]]}, {"width": 4, "blocks": [[0, 0, 1]]}, [1]])
def test_a_bad_table_is_refused(bad):
    with pytest.raises(ValueError, match="rows"):
        RowTable.from_json(bad, 4, 5)


def _contexts(policy) -> None:
    """Give the contexts (zero in a fresh policy) weights, so that the rows' scores show."""
    with torch.no_grad():
        for layer in policy.row_context:
            layer.weight.normal_(0.0, 0.5)
            layer.bias.normal_(0.0, 0.5)


def model_with_rows(folder, seed: int = 0):
    return small_model(folder, "rows", row_table(CFG).to_json(), seed, adjust=_contexts)


def game_observations(count: int) -> np.ndarray:
    from ktenv.kings_and_things.vector import VectorEnv

    env = VectorEnv(8, 2, seed=5, num_threads=1, seats=[["external", "expert"]] * 8)
    rng, rows = np.random.default_rng(1), []
    out = env.reset()
    while len(rows) < count:
        rows += [obs.copy() for obs in out["observation"]]
        out = env.step((rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1))
    return np.array(rows[:count])


def test_torch_numpy_and_native_score_the_rows_alike(tmp_path):
    path, policy, _ = model_with_rows(tmp_path)
    rows = game_observations(48)
    actor, expected = reads_alike(path, policy, rows)
    assert actor.rows == row_table(CFG)
    with torch.no_grad():
        plain = policy.action_net(policy.mlp_extractor.forward_actor(policy.pi_features_extractor(
            torch.from_numpy(rows)))).numpy()
        # symlog'd observations (the trainer's prescaled rollouts) give the same logits
        policy.pi_features_extractor.prescaled = True
        prescaled = batch_logits(policy, symlog(torch.from_numpy(rows))).numpy()
        policy.pi_features_extractor.prescaled = False
    np.testing.assert_allclose(prescaled, expected, rtol=1e-5, atol=1e-5)
    scored = np.concatenate([np.arange(b.action, b.action + b.rows) for b in row_table(CFG).blocks])
    assert (np.abs(expected[:, scored] - plain[:, scored]) > 1e-4).mean() > 0.5  # the rows' scores show
    others = np.setdiff1d(np.arange(expected.shape[1]), scored)
    np.testing.assert_array_equal(expected[:, others], plain[:, others])


def test_a_fresh_network_scores_nothing_yet_and_learns_both_layers(tmp_path):
    from ktenv.training.policy import build_policy

    _, _, meta = model_with_rows(tmp_path)
    torch.manual_seed(3)
    policy = build_policy(meta)
    rows = torch.from_numpy(game_observations(8))
    with torch.no_grad():
        plain = policy.action_net(policy.mlp_extractor.forward_actor(policy.pi_features_extractor(rows)))
        np.testing.assert_array_equal(batch_logits(policy, rows).numpy(), plain.numpy())
    hexes = torch.full((8,), row_table(CFG).blocks[0].action)
    masks = torch.ones((8, policy.action_space.n), dtype=torch.bool)
    _, log_prob, _ = policy.evaluate_actions(rows, hexes, action_masks=masks)
    log_prob.sum().backward()
    assert policy.row_context[0].weight.grad.abs().sum() > 0
    assert any(p is policy.row_embed[0].weight for group in policy.optimizer.param_groups for p in group["params"])


def test_a_model_file_with_broken_rows_is_refused(tmp_path):
    path, _, meta = model_with_rows(tmp_path)
    meta["network"]["rows"]["blocks"][0][0] = 10**6
    refuses_broken_meta(path, meta, "rows")
    meta["network"]["rows"]["blocks"][0][0] = row_table(CFG).blocks[0].action
    meta["network"]["rows"]["width"] = 8  # the weights were made 32 wide
    refuses_broken_meta(path, meta, "the row scores' weights do not fit")
    if native.available():
        from ktenv.kings_and_things.native import core

        actor, _ = load_actor(path)
        block = actor.rows.blocks[0]
        (we, be), (wc, bc) = actor.row_weights[0]
        with pytest.raises(ValueError, match="row block 0"):
            core().PolicyNetwork.make(*actor.first, [(w, b, 1) for w, b, _ in actor.hidden], *actor.action, False,
                                      "x", rows=[(block.action, block.start, block.rows + 10**4, (we, be, 0),
                                                  (wc, bc, 0))])


def test_row_scores_are_refused_where_the_game_names_no_rows():
    refused_for_kingsburg("rows")


def test_a_run_with_row_scores_trains_resumes_and_plays(tmp_path):
    meta = train_and_play(tmp_path, "rows", resume=True)
    assert RowTable.from_json(meta["network"]["rows"], meta["observation_size"], meta["action_size"]) == \
        row_table(CFG)


# ----------------------------------------------------------------------------- the steps (policy.row_steps)

def test_each_step_reads_the_hexes_one_and_two_steps_on():
    table = row_table(CFG, steps=True)
    geo = board.geometry(2)
    (step,) = table.step_blocks
    hexes = build_layout(2, 19).section("hexes")
    assert (step.action, step.block, step.actions, step.steps) == (action_layout(2).direction, 0, 6, 2)
    assert step.anchor == tuple(hexes.offset("reg_mv_hex") + h for h in range(19))
    for here in range(19):
        for d in range(6):  # R3.1.2: E, SE, SW, W, NW, NE
            one = int(geo.neighbours[here, d])
            two = int(geo.neighbours[one, d]) if one >= 0 else -1
            assert step.rows[here][d] == (one, two)
    assert RowTable.from_json(table.to_json(), hexes.start + 10**4, action_layout(2).size) == table


def test_apply_adds_each_steps_rows_dotted_with_its_context():
    table = RowTable((RowBlock(action=0, start=0, rows=3, columns=1),), width=2,
                     step_blocks=(StepBlock(action=3, block=0, anchor=(3, 4),
                                            rows=(((1, -1), (2, 0)), ((0, 1), (-1, -1)))),))
    rng = np.random.default_rng(0)
    latent = rng.normal(size=(3, 4)).astype(np.float32)
    logits = np.zeros((3, 5), np.float32)
    obs = np.array([[1, 2, 3, 0, 1], [1, 2, 3, 0, 0], [1, 2, 3, 5, 1]], np.float32)  # anchor: 2nd, none, 1st
    we, be, wc, bc = (rng.normal(size=s).astype(np.float32) for s in ((1, 2), (2,), (4, 2), (2,)))
    steps = [tuple(rng.normal(size=s).astype(np.float32) for s in ((4, 2), (2,))) for _ in range(2)]
    out = table.apply(obs, latent, logits, [((we, be), (wc, bc))], steps)
    e = np.maximum(np.log1p(obs[:, :3, None]) * we[0] + be, 0)  # [n, row, width]
    c = [latent @ w + b for w, b in steps]
    np.testing.assert_allclose(out[0, 3:], [e[0, 0] @ c[0][0] + e[0, 1] @ c[1][0], 0], rtol=1e-5)
    np.testing.assert_array_equal(out[1, 3:], [0, 0])  # nothing moving: no step scores
    np.testing.assert_allclose(out[2, 3:], [e[2, 1] @ c[0][2], e[2, 2] @ c[0][2] + e[2, 0] @ c[1][2]], rtol=1e-5)


@pytest.mark.parametrize("step", [
    {"action": 3, "block": 1, "anchor": [0], "rows": [[[0]]]},  # no block 1
    {"action": 3, "block": 0, "anchor": [9], "rows": [[[0]]]},  # anchor outside the observation
    {"action": 3, "block": 0, "anchor": [0], "rows": [[[5]]]},  # a row outside the table
    {"action": 3, "block": 0, "anchor": [0, 1], "rows": [[[0]]]},  # a row per anchor entry
    {"action": 0, "block": 0, "anchor": [0], "rows": [[[0]]]},  # action 0 is the block's
    {"action": 3, "block": 0, "anchor": [0], "rows": [[[0], [0, 1]]]}, {"action": 3, "block": 0}])
def test_a_bad_step_block_is_refused(step):
    with pytest.raises(ValueError, match="rows"):
        RowTable.from_json({"width": 2, "blocks": [[0, 0, 3, 1]], "steps": [step]}, 5, 5)


def moving_observations(count: int) -> np.ndarray:
    """Observations of 2-player games, `count` of them with a stack moving (its hex marked), then a few others."""
    from ktenv.kings_and_things.vector import VectorEnv

    anchor = list(row_table(CFG, steps=True).step_blocks[0].anchor)
    env = VectorEnv(8, 2, seed=5, num_threads=1, seats=[["external", "expert"]] * 8)
    rng, moving, other = np.random.default_rng(1), [], []
    out = env.reset()
    while len(moving) < count:
        for obs in out["observation"]:
            (moving if obs[anchor].any() else other).append(obs.copy())
        out = env.step((rng.random(out["action_mask"].shape) * out["action_mask"]).argmax(1))
    return np.array(moving[:count] + other[:8])


def _step_contexts(policy) -> None:
    _contexts(policy)
    with torch.no_grad():
        for layer in policy.row_step_context:
            layer.weight.normal_(0.0, 0.5)
            layer.bias.normal_(0.0, 0.5)


def test_torch_numpy_and_native_score_the_steps_alike(tmp_path):
    path, policy, _ = small_model(tmp_path, "rows", row_table(CFG, steps=True).to_json(), adjust=_step_contexts)
    rows = moving_observations(24)
    actor, expected = reads_alike(path, policy, rows)
    assert len(actor.row_step_weights) == 2
    with torch.no_grad():
        policy.row_step_context.apply(nn_zero)
        without = batch_logits(policy, torch.from_numpy(rows)).numpy()
    direction = action_layout(2).direction
    steps = slice(direction, direction + 6)
    assert (np.abs(expected[:24, steps] - without[:24, steps]) > 1e-4).mean() > 0.5  # the steps' scores show
    np.testing.assert_array_equal(expected[24:], without[24:])  # nothing moving: nothing added


def nn_zero(module) -> None:
    if isinstance(module, torch.nn.Linear):
        module.weight.zero_()
        module.bias.zero_()


def test_steps_need_the_row_scores():
    from ktenv.training.config import TrainConfig

    from ktenv.errors import ConfigError

    with pytest.raises(ConfigError, match="policy.row_steps"):
        TrainConfig.from_mapping({"policy": {"row_steps": True}, "imitation": {"teacher": None}})


def test_a_run_with_scored_steps_trains_and_plays(tmp_path):
    meta = train_and_play(tmp_path, "rows", more=("policy.row_steps=true",))
    assert meta["network"]["rows"] == row_table(CFG, steps=True).to_json()


def test_an_exported_half_precision_model_keeps_its_row_scores(tmp_path):
    from ktenv.training.export import export

    path, policy, _ = model_with_rows(tmp_path)
    rows = game_observations(16)
    shipped = export(path, tmp_path / "shipped.zip", half=True)
    actor, meta = load_actor(shipped)
    assert meta["network"]["rows"] == row_table(CFG).to_json() and actor.rows is not None
    with torch.no_grad():
        expected = batch_logits(policy, torch.from_numpy(rows)).numpy()
    np.testing.assert_allclose(actor.logits(rows), expected, rtol=0.02, atol=0.02 * np.abs(expected).max())

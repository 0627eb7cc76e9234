"""The league's pool of snapshots across checkpoints: a snapshot that leaves the pool keeps its file until the next
checkpoint, so a run killed in between resumes with exactly the pool its checkpoint had."""

from __future__ import annotations

import json

import pytest
from ktenv.training.league import LEAGUE_FILE, add_snapshot, checkpointed, prune_after, read_pool
from ktenv.training.policy import CheckpointError


def snap(run, step, keep=2):
    return add_snapshot(run, None, step, keep, lambda _model, path: path.write_bytes(b"zip"))


def files(run):
    return sorted(p.name for p in (run / "league").iterdir())


def steps(pool):
    return [e["step"] for e in pool]


def test_a_snapshot_that_leaves_the_pool_keeps_its_file_until_the_next_checkpoint(tmp_path):
    snap(tmp_path, 100), snap(tmp_path, 200)
    checkpointed(tmp_path)  # the checkpoint at 200 holds [100, 200]
    snap(tmp_path, 300)
    assert steps(read_pool(tmp_path)) == [200, 300]
    assert len(files(tmp_path)) == 3  # 100 is out of the pool, its file held for the checkpoint
    checkpointed(tmp_path)
    assert files(tmp_path) == ["snapshot_0000000200.zip", "snapshot_0000000300.zip"]


def test_resume_restores_the_checkpoints_pool_and_forgets_later_snapshots(tmp_path):
    snap(tmp_path, 100), snap(tmp_path, 200)
    checkpointed(tmp_path)
    snap(tmp_path, 300), snap(tmp_path, 400)  # then the run is killed before its next checkpoint
    assert steps(read_pool(tmp_path)) == [300, 400]
    prune_after(tmp_path, 200, 2)
    assert steps(read_pool(tmp_path)) == [100, 200]
    assert files(tmp_path) == ["snapshot_0000000100.zip", "snapshot_0000000200.zip"]


def test_a_kill_between_the_checkpoint_and_its_bookkeeping_still_resumes_its_pool(tmp_path):
    snap(tmp_path, 100), snap(tmp_path, 200), snap(tmp_path, 300)  # 100 held; the checkpoint at 300 written, then
    prune_after(tmp_path, 300, 2)                                   # killed before `checkpointed`
    assert steps(read_pool(tmp_path)) == [200, 300]
    assert files(tmp_path) == ["snapshot_0000000200.zip", "snapshot_0000000300.zip"]


def test_a_corrupt_league_file_is_refused(tmp_path):
    (tmp_path / LEAGUE_FILE).write_text(json.dumps({"snapshots": [{"path": 3}]}))
    with pytest.raises(CheckpointError, match="league file is corrupt"):
        read_pool(tmp_path)

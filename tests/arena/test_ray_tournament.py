"""Tournaments as Ray tasks on a local Ray cluster (the 'ray' extra, which the README's test command installs).

One cluster for the module (``ray.init(num_cpus=2)`` in this process: starting one costs 10-30 s here);
drivers in subprocesses join it by its address, as ``--ray-address HOST:PORT`` joins a cluster that
``ray start --head`` started.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ktenv.arena.config import TournamentConfig
from ktenv.arena.tournament import TournamentError, run_tournament

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[2]
BASE = {"agents": ["random", "greedy"], "players": 2, "max_rounds": 6, "progress": False}


@pytest.fixture(scope="module")
def cluster() -> str:
    """The GCS address of a local Ray cluster owned by this test module."""
    assert not ray.is_initialized()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def without_seconds(games: list[dict]) -> list[dict]:
    return [{k: v for k, v in g.items() if k != "seconds"} for g in games]


def stored(db: Path) -> int:
    try:
        with sqlite3.connect(db) as c:
            return c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_ray_backend_plays_the_games_of_the_process_backend(cluster, tmp_path):
    """The same games, records and dataset (written by the driver while Ray tasks play) as worker processes."""
    def files(name: str) -> dict:
        return {"db": str(tmp_path / f"{name}.sqlite"), "records": str(tmp_path / f"{name}_records"),
                "dataset": str(tmp_path / f"{name}_data")}

    by_process = run_tournament(TournamentConfig(**BASE, games=6, workers=2, **files("p")))
    by_ray = run_tournament(TournamentConfig(**BASE, games=6, backend="ray", **files("r")))
    assert by_ray["played"] == 6 and by_ray["dataset_games"] == 6
    assert without_seconds(by_ray["games"]) == without_seconds(by_process["games"])
    assert [s.to_dict() for s in by_ray["standings"]] == [s.to_dict() for s in by_process["standings"]]
    for p in sorted((tmp_path / "p_records").iterdir()):
        assert (tmp_path / "r_records" / p.name).read_text() == p.read_text()
    pd = pytest.importorskip("pandas")
    for table in ("games", "decisions", "events"):
        ours, theirs = (pd.read_parquet(tmp_path / f"{n}_data" / table).sort_values(
            ["game", "decision" if table == "events" else "index" if table == "decisions" else "game"],
            kind="stable").reset_index(drop=True) for n in ("p", "r"))
        pd.testing.assert_frame_equal(ours, theirs, obj=table)
    assert ray.is_initialized()  # the tournament used the cluster it found and left it running


def test_a_killed_ray_driver_resumes_on_the_cluster(cluster, tmp_path):
    """`ktenv tournament --backend ray --ray-address HOST:PORT`, killed mid-run, then --resume: the
    missing games only, and the same games as the process backend."""
    db = tmp_path / "k.sqlite"
    games = 24
    args = [sys.executable, "-m", "ktenv.cli", "tournament", "--agents", "random,greedy", "--players", "2",
            "--games", str(games), "--max-rounds", "6", "--backend", "ray", "--ray-address", cluster,
            "--db", str(db), "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.time() + 120
    try:
        while time.time() < deadline and proc.poll() is None and stored(db) < 2:
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
    before = stored(db)
    assert 2 <= before < games, f"the driver was not killed mid-run ({before} games stored): {err.decode()[-2000:]}"
    done = subprocess.run(args + ["--resume"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"played now: {games - before} games" in done.stdout
    by_process = run_tournament(TournamentConfig(**BASE, games=games, workers=2, db=str(tmp_path / "p.sqlite")))
    with_ray = run_tournament(TournamentConfig(**BASE, games=games, backend="ray", db=str(db)))  # all stored
    assert with_ray["played"] == 0
    assert without_seconds(with_ray["games"]) == without_seconds(by_process["games"])


def test_a_wrong_cluster_address_is_a_clear_error(tmp_path):
    with SilentPort() as port:  # a port where nothing listens (bound, never listening)
        t0 = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "ktenv.cli", "tournament", "--agents", "random,greedy", "--players", "2",
             "--games", "2", "--backend", "ray", "--ray-address", f"127.0.0.1:{port}", "--db",
             str(tmp_path / "w.sqlite"), "--no-progress"],
            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
        seconds = time.perf_counter() - t0
    assert result.returncode == 1
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in result.stderr
    assert "ray start --head" in result.stderr
    assert seconds < 60  # ray.init alone would wait minutes
    assert stored(tmp_path / "w.sqlite") == 0
    with pytest.raises(TournamentError, match="expected 'auto' or HOST:PORT"):
        run_tournament(TournamentConfig(**BASE, games=1, backend="ray", ray_address="no-port-here",
                                        db=str(tmp_path / "x.sqlite")))


class SilentPort:
    """A local TCP port held (bound, not listening) for the duration: connecting to it is refused."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        return self.sock.getsockname()[1]

    def __exit__(self, *exc) -> None:
        self.sock.close()

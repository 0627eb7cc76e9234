"""The Ray backend runs the same games as the process backend (slow: starts a local Ray cluster)."""

from __future__ import annotations

import pytest

from ktenv.arena.config import TournamentConfig
from ktenv.arena.tournament import run_tournament


@pytest.mark.slow
def test_ray_backend_matches_the_process_backend(tmp_path):
    pytest.importorskip("ray")
    base = {"agents": ["random", "greedy"], "players": 2, "games": 3, "max_rounds": 5, "progress": False}
    by_process = run_tournament(TournamentConfig(**base, workers=1, db=str(tmp_path / "p.sqlite")))
    by_ray = run_tournament(TournamentConfig(**base, backend="ray", db=str(tmp_path / "r.sqlite")))
    strip = [{k: v for k, v in g.items() if k != "seconds"} for g in by_process["games"]]
    assert [{k: v for k, v in g.items() if k != "seconds"} for g in by_ray["games"]] == strip

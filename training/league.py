"""The self-play league: who the learner plays against in each training game.

The pool is a small JSON file in the run folder (``league.json``): the frozen snapshots of the
learner (model zips under ``league/``) with the step each was taken at. The learner's process
adds snapshots; every game process reads the file again when it changes (one ``stat`` per game),
so no messages cross the process boundary and a resumed run finds its league on disk.

Whom the learner plays is drawn for every game from the config's mix (`League`: a share per agent, any
spec the arena plays, and a share for snapshots, uniform over the pool). In the batched games
(``vec_env: vector``) each game draws its opponent seats with its own generator
(``numpy.random.default_rng([seed, game])``); random, greedy and expert seats, the snapshots and any
``ppo:PATH`` / ``ppo-sample:PATH`` model (their networks in C++) play natively, and other agents (a user's
``FILE.py:CLASS``, ``rllib:PATH``) are played in Python, one per game and seat, a call per decision. Agents
that search the game state (``needs_worlds``: ISMCTS) need ``vec_env: subproc``, where each opponent seat
is a `LeagueOpponent` that draws at every reset with its own seeded generator.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from .config import LeagueSection
from .policy import CheckpointError

LEAGUE_FILE = "league.json"
SNAPSHOT_DIR = "league"


def read_league(run_dir: str | Path) -> tuple[list[dict], list[dict]]:
    """The pool, oldest first ([{"path": relative path, "step": n}]), and the snapshots that left it since the last
    checkpoint (their files stay until the next one, so a resumed run gets the checkpoint's pool back)."""
    path = Path(run_dir) / LEAGUE_FILE
    if not path.exists():
        return [], []
    try:
        data = json.loads(path.read_text())
        pool, held = data["snapshots"], data.get("held", [])
        assert all(isinstance(e["path"], str) and isinstance(e["step"], int) for e in [*pool, *held])
    except (OSError, ValueError, KeyError, TypeError, AssertionError) as exc:
        raise CheckpointError(f"{path}: the league file is corrupt ({exc!r})") from None
    return pool, held


def read_pool(run_dir: str | Path) -> list[dict]:
    """The snapshots in the pool, oldest first: [{"path": relative path, "step": n}]."""
    return read_league(run_dir)[0]


def write_pool(run_dir: str | Path, pool: list[dict], held: list[dict] | None = None) -> None:
    """Atomically (a reader never sees half a file)."""
    path = Path(run_dir) / LEAGUE_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"snapshots": pool, "held": held or []}, indent=1))
    os.replace(tmp, path)


def add_snapshot(run_dir: str | Path, model, step: int, max_snapshots: int, save) -> dict:
    """Freeze the learner into the pool (``save(model, path)`` writes the zip); the oldest leaves the pool, its file
    held until the next checkpoint."""
    rel = f"{SNAPSHOT_DIR}/snapshot_{step:010d}.zip"
    (Path(run_dir) / SNAPSHOT_DIR).mkdir(parents=True, exist_ok=True)
    save(model, Path(run_dir) / rel)
    pool, held = read_league(run_dir)
    pool = [e for e in pool if e["step"] != step] + [{"path": rel, "step": step}]
    write_pool(run_dir, pool[-max_snapshots:], held + pool[:-max_snapshots])
    return pool[-1]


def checkpointed(run_dir: str | Path) -> None:
    """A checkpoint holds the pool as it is now: the files of the snapshots that left it go (after league.json says
    so, so that no reader is sent to a deleted file)."""
    pool, held = read_league(run_dir)
    if held:
        write_pool(run_dir, pool)
        forget_files(run_dir, pool)


def prune_after(run_dir: str | Path, step: int, max_snapshots: int) -> None:
    """The pool of the checkpoint we resume from: the newest `max_snapshots` taken by `step` (held ones included);
    snapshots taken after it, then lost, are forgotten with their files."""
    pool, held = read_league(run_dir)
    keep = sorted((e for e in [*pool, *held] if e["step"] <= step), key=lambda e: e["step"])[-max_snapshots:]
    write_pool(run_dir, keep)
    forget_files(run_dir, keep)


def forget_files(run_dir: str | Path, pool: list[dict]) -> None:
    """Delete the snapshot zips of the league folder that `pool` does not name."""
    kept = {(Path(run_dir) / e["path"]).resolve() for e in pool}
    for path in (Path(run_dir) / SNAPSHOT_DIR).glob("snapshot_*.zip"):
        if path.resolve() not in kept:
            path.unlink(missing_ok=True)


class League:
    """The run's mix of opponents: a share per agent of the config and one for the snapshots in the pool (re-read
    from league.json whenever it changes). The subprocess games' `LeagueOpponent` seats and the batched games
    (the batched games, ``opponents=league.draw_for``) draw from it."""

    def __init__(self, run_dir: str | Path, league: LeagueSection) -> None:
        self.run_dir = Path(run_dir)
        self.league = league
        self._pool: list[dict] = []
        self._pool_stamp: float | None = None

    def _refresh_pool(self) -> None:
        path = self.run_dir / LEAGUE_FILE
        stamp = path.stat().st_mtime_ns if path.exists() else None
        if stamp != self._pool_stamp:
            self._pool, self._pool_stamp = read_pool(self.run_dir), stamp

    def draw(self, rng: np.random.Generator) -> str:
        """An agent name from the mix, drawn with `rng` (snapshots as ppo-sample:PATH or ppo:PATH)."""
        self._refresh_pool()
        names = list(self.league.opponents)
        weights = [float(self.league.opponents[n]) for n in names]
        if self._pool and self.league.snapshots > 0:
            kind = "ppo-sample" if self.league.snapshot_play == "sample" else "ppo"
            share = self.league.snapshots / len(self._pool)
            names += [f"{kind}:{self.run_dir / e['path']}" for e in self._pool]
            weights += [share] * len(self._pool)
        p = np.asarray(weights) / sum(weights)
        return names[int(rng.choice(len(names), p=p))]

    def draw_for(self, game: int, k: int, rng: np.random.Generator) -> str:
        """`draw` as the batched games ask it: opponent k of game `game`, with that game's generator."""
        return self.draw(rng)


class LeagueOpponent:
    """One opponent seat: an agent of the league's mix or a frozen snapshot, drawn anew every game."""

    def __init__(self, run_dir: str | Path, league: LeagueSection, seed: int = 0,
                 game_name: str | None = None) -> None:
        self.run_dir = Path(run_dir)
        self.game_name = game_name  # whose agents the heuristic names are (None: the default game's)
        self.league = league
        self.mix = League(run_dir, league)
        self.rng = np.random.default_rng(seed)
        self._agents: dict[str, object] = {}
        self.current = None
        self.name = "league"

    @property
    def needs_observation(self) -> bool:
        return bool(getattr(self.current, "needs_observation", False))

    @property
    def needs_worlds(self) -> bool:
        """A searching agent this game: the env then hands it the world sampler (agents.base)."""
        return bool(getattr(self.current, "needs_worlds", False))

    def draw(self) -> str:
        """An agent name from the mix, with this seat's generator."""
        return self.mix.draw(self.rng)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        name = self.draw()
        agent = self._agents.get(name)
        if agent is None:
            from ktenv import agents

            if len(self._agents) > 4 * self.league.max_snapshots + 8:
                self._agents.clear()
            agent = self._agents[name] = agents.make(name, game=self.game_name)
        agent.reset(seed=int(self.rng.integers(2**31)))
        # model opponents are "snapshot" in the game/ scalars, as the batched games name them
        self.current, self.name = agent, "snapshot" if name.startswith(("ppo:", "ppo-sample:")) else name

    def act(self, observation, action_mask: np.ndarray) -> int:
        return self.current.act(observation, action_mask)

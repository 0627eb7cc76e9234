"""The files a run keeps: checkpoints (to resume), league snapshots and ``final.zip`` (to play).

- A **checkpoint** (``checkpoints/step_N.zip``) is everything SB3 saves, optimizer state included,
  so a resumed run goes on exactly; ``final.zip`` is the same kind of file. ``checkpoints/latest.json``
  names the newest; only the newest ``keep_checkpoints`` stay (never the one latest.json names).
- A **snapshot** (``league/snapshot_N.zip``) holds the policy's weights only: an opponent never
  needs the optimizer, two thirds of a checkpoint.
- ``best.zip`` (with ``eval.best_against``) is a copy of the evaluated model that has won most often
  against that opponent so far, as SB3's ``EvalCallback`` keeps ``best_model.zip``; ``best.json`` says
  which step it is and its win rate.

Every zip is deflated, carries ``ktenv.json`` (training/policy.py) and is written under a
temporary name first, so an interrupted save never leaves half a file. Loading reads weights with
``torch.load(weights_only=True)``: SB3's pickled ``data`` entry is never read.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import re
import shutil
import signal
import sys
import zipfile
from contextlib import contextmanager
from pathlib import Path

from .policy import META_ENTRY, CheckpointError, meta_bytes, read_meta

LATEST = "checkpoints/latest.json"
BEST, BEST_RECORD = "best.zip", "best.json"
CHECKPOINT_NAME = re.compile(r"step_(\d{10})\.zip")


class CheckpointMismatchError(CheckpointError):
    """An intact checkpoint made for another network or game (no older one would fit either)."""


# ----------------------------------------------------------------------------- writing

def write_zip(path: Path, entries: dict[str, bytes]) -> Path:
    """A deflated zip, written to a temporary name first (never half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".partial.zip")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, blob in entries.items():
            archive.writestr(name, blob)
    os.replace(tmp, path)
    return path


def save_model(model, path: Path, meta: dict, counters: dict[str, int] | None = None) -> Path:
    """SB3's whole zip (resumable) plus ``ktenv.json``, deflated (SB3 itself stores uncompressed); `counters`
    (the run's totals, such as games played) go on from there after --resume."""
    buffer = io.BytesIO()
    model.save(buffer)
    with zipfile.ZipFile(buffer) as sb3:
        entries = {name: sb3.read(name) for name in sb3.namelist()}
    extra = {"counters": dict(counters)} if counters else {}
    entries[META_ENTRY] = meta_bytes({**meta, "step": int(model.num_timesteps), "contents": "checkpoint", **extra})
    return write_zip(path, entries)


def save_policy(model, path: Path, meta: dict) -> Path:
    """The policy's weights and ``ktenv.json`` only: all a ``ppo:PATH`` agent or a league opponent reads."""
    import torch

    weights = io.BytesIO()
    torch.save(model.policy.state_dict(), weights)
    return write_zip(path, {"policy.pth": weights.getvalue(), META_ENTRY: meta_bytes(
        {**meta, "step": int(model.num_timesteps), "contents": "policy"})})


def write_latest(run_dir: Path, ckpt: Path, step: int) -> None:
    path = run_dir / LATEST
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"path": str(ckpt.relative_to(run_dir)), "step": step}))
    os.replace(tmp, path)


def keep_if_best(run_dir: Path, model: Path, win_rates: dict[str, float], against: str | None, step: int) -> bool:
    """Copy the evaluated `model` to ``best.zip`` when its win rate against `against` beats every earlier
    evaluation's (a tie keeps the earlier model). The zip is replaced first, then ``best.json``: a crash
    between them leaves a record that undersells the zip, never a zip worse than its record."""
    if against is None or against not in win_rates:
        return False
    best = read_best(run_dir)
    if best is not None and best["against"] == against and win_rates[against] <= best["win_rate"]:
        return False  # (a best kept against another opponent, before a resume changed it, is replaced)
    tmp = run_dir / (BEST + ".partial")
    shutil.copyfile(model, tmp)
    os.replace(tmp, run_dir / BEST)
    record = run_dir / BEST_RECORD
    record.with_suffix(".tmp").write_text(json.dumps({"step": step, "against": against,
                                                      "win_rate": win_rates[against], "model": model.name}))
    os.replace(record.with_suffix(".tmp"), record)
    print(f"[ktenv train] best so far against {against}: step {step:,} ({100 * win_rates[against]:.1f}%), "
          f"kept as {run_dir / BEST}", file=sys.stderr, flush=True)
    return True


def read_best(run_dir: Path) -> dict | None:
    """``best.json`` (step, against, win_rate, model), or None without one. An unreadable record is
    reported and treated as none (the next evaluation writes a new one; best.zip stays until then)."""
    path = run_dir / BEST_RECORD
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        return {"step": int(data["step"]), "against": str(data["against"]), "win_rate": float(data["win_rate"]),
                "model": str(data["model"])}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        warn(f"{path} is corrupt ({exc!r}); the next evaluation starts the best model over")
        return None


def prune_checkpoints(run_dir: Path, keep: int) -> list[Path]:
    """Remove all but the newest `keep` checkpoints (0: keep all); latest.json's is always kept."""
    if keep <= 0:
        return []
    found = checkpoint_files(run_dir)
    try:
        latest = read_latest(run_dir)
    except CheckpointError:
        return []  # latest.json unreadable: remove nothing until it names a file again
    protected = {latest[0].resolve()} if latest else set()
    removed = [path for _, path in found[keep:] if path.resolve() not in protected]
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


# ----------------------------------------------------------------------------- reading

def checkpoint_files(run_dir: Path) -> list[tuple[int, Path]]:
    """(step, path) of every ``checkpoints/step_N.zip``, newest first (half-written files excluded)."""
    folder = run_dir / "checkpoints"
    found = [(int(m.group(1)), p) for p in folder.glob("step_*.zip") if (m := CHECKPOINT_NAME.fullmatch(p.name))]
    return sorted(found, reverse=True)


def read_latest(run_dir: Path) -> tuple[Path, int] | None:
    path = run_dir / LATEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        return run_dir / data["path"], int(data["step"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CheckpointError(f"{path}: corrupt ({exc!r})") from None


def resume_candidates(run_dir: Path) -> list[Path]:
    """The checkpoints to resume from, best first: latest.json's, then older ones, newest first."""
    files = checkpoint_files(run_dir)
    try:
        latest = read_latest(run_dir)
    except CheckpointError as exc:
        warn(f"{exc}; looking for the newest intact checkpoint in {run_dir / 'checkpoints'}")
        return [path for _, path in files]
    if latest is None:
        return [path for _, path in files]
    path, step = latest
    return [path] + [p for s, p in files if s < step]


def load_checkpoint(model, path: Path, meta: dict) -> int:
    """Weights and optimizer state into `model` (no unpickling); returns the checkpoint's step."""
    saved = read_meta(path)
    for key in ("observation_size", "action_size", "network", "game"):
        if saved[key] != meta[key]:
            raise CheckpointMismatchError(f"{path}: trained with {key} = {saved[key]}, the config says {meta[key]}")
    step = saved.get("step")
    if not isinstance(step, int) or step < 0:
        raise CheckpointError(f"{path}: {META_ENTRY} has no valid step")
    optimizer = model.policy.optimizer
    kernels = [{key: group.get(key) for key in OPTIMIZER_KERNELS} for group in optimizer.param_groups]
    try:
        model.set_parameters(str(path), exact_match=True, device="cpu")
    except (ValueError, RuntimeError, KeyError, OSError, EOFError, zipfile.BadZipFile,
            pickle.UnpicklingError) as exc:
        raise CheckpointError(f"{path}: cannot load its weights ({exc})") from None
    for group, chosen in zip(optimizer.param_groups, kernels):
        group.update(chosen)
    return step


# How the optimizer computes (fused: one pass over the weights, policy.fused_adam), not what it learned: a
# checkpoint's optimizer state carries the choice of the run that saved it, and loading it must not take this
# run's choice back (an older checkpoint saved `fused=None`, which made a resumed run's Adam 2-3x slower).
OPTIMIZER_KERNELS = ("fused", "foreach")


def resume(model, run_dir: Path, meta: dict) -> tuple[Path, int] | None:
    """Load the newest intact checkpoint into `model`: (its path, its step), or None if the run has none.

    A corrupt one is skipped with a warning naming it; an error only if none is intact. Files are
    left as they are (the corrupt one too, for a look)."""
    problems = []
    for path in resume_candidates(run_dir):
        try:
            return path, load_checkpoint(model, path, meta)
        except CheckpointMismatchError:
            raise
        except CheckpointError as exc:
            warn(f"skipping a checkpoint that cannot be used: {exc}")
            problems.append(str(exc))
    if problems:
        raise CheckpointError(f"no intact checkpoint to resume from in {run_dir / 'checkpoints'} ("
                              + "; ".join(problems) + ")")
    return None


def warn(message: str) -> None:
    print(f"[ktenv train] warning: {message}", file=sys.stderr, flush=True)


def saved_counters(path: Path) -> dict[str, int]:
    """The run's totals saved with a checkpoint (none in an older one, or in the imitation warm start)."""
    counters = read_meta(path).get("counters") or {}
    return {k: int(v) for k, v in counters.items() if isinstance(v, int) and not isinstance(v, bool) and v >= 0}


@contextmanager
def sigterm_interrupts():
    """Within the block SIGTERM raises KeyboardInterrupt, as Ctrl-C does, so one handler saves and says so."""
    def on_term(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)

"""Self-play MaskablePPO on ktenv, in one file you can read top to bottom.

    ktenv train --config configs/ppo_2p.yaml            # or: python -m ktenv.training.train_ppo --config ...
    ktenv train --config configs/ppo_2p.yaml --resume   # continue from the last checkpoint
    tensorboard --logdir runs/ppo_2p/tb

What happens:
1. The config is validated and written, resolved, to ``<out>/config.yaml``.
2. ``n_envs`` games run in subprocesses (SB3's SubprocVecEnv). Each is a `ktenv.SingleAgentEnv`
   where the learner takes a random seat every game and the other seats are `LeagueOpponent`s
   (training/league.py): heuristic agents and frozen snapshots of the learner, mixed as the
   config says. Masks cross the process boundary in each step's info (`GameVecEnv`).
3. sb3-contrib's MaskablePPO learns with the network of training/policy.py.
4. The `Monitor` callback (training/monitor.py) counts games, writes TensorBoard scalars,
   freezes snapshots into the league, saves checkpoints, runs evaluations with the arena's
   tournament code, and prints a progress line.
5. At the end: ``final.zip`` (an agent: ``ppo:<out>/final.zip``), a last evaluation,
   ``learning_curve.png``.

Interrupting (Ctrl-C, SIGTERM) saves a checkpoint first; ``--resume`` continues from the newest
one with the league and the step count (a run that ended can be extended by raising
``total_steps``).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import signal
import sys
import time
from pathlib import Path

from ktenv.config import ConfigError

from .config import TrainConfig
from .policy import CheckpointError, read_meta

CONFIG_FILE = "config.yaml"
LATEST = "checkpoints/latest.json"
RESUME_KEYS = ("total_steps", "log_every_seconds", "checkpoint_every")  # and eval.*: what --resume may change


# ----------------------------------------------------------------------------- the environments

def make_env(cfg: TrainConfig, run_dir: str, rank: int):
    """A thunk building game process `rank`'s env (called inside that process)."""

    def thunk():
        import torch
        from stable_baselines3.common.monitor import Monitor

        from ktenv.env.single import SingleAgentEnv

        from .league import LeagueOpponent

        torch.set_num_threads(1)
        seats = cfg.env.players - 1
        opponents = [LeagueOpponent(run_dir, cfg.league, seed=cfg.seed * 7919 + rank * 101 + k) for k in range(seats)]
        env = SingleAgentEnv(seat="random", opponents=opponents, reward=cfg.env.reward,
                             **cfg.env.game_config().to_dict())
        return Monitor(env)

    return thunk


def make_vec_env(cfg: TrainConfig, run_dir: str):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from .monitor import GameVecEnv

    thunks = [make_env(cfg, run_dir, i) for i in range(cfg.n_envs)]
    venv = SubprocVecEnv(thunks, start_method="forkserver") if cfg.vec_env == "subproc" else DummyVecEnv(thunks)
    return GameVecEnv(venv)


# ----------------------------------------------------------------------------- the model

def network_meta(cfg: TrainConfig, venv) -> dict:
    return {"observation_size": int(venv.observation_space.shape[0]), "action_size": int(venv.action_space.n),
            "network": {"features": cfg.policy.features, "pi": cfg.policy.pi, "vf": cfg.policy.vf,
                        "activation": cfg.policy.activation},
            "game": cfg.env.game_config().to_dict()}


def build_model(cfg: TrainConfig, venv):
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from .policy import policy_kwargs

    p = cfg.ppo
    return MaskablePPO(
        MaskableActorCriticPolicy, venv, learning_rate=p.learning_rate, n_steps=p.n_steps,
        batch_size=p.batch_size, n_epochs=p.n_epochs, gamma=p.gamma, gae_lambda=p.gae_lambda,
        clip_range=p.clip_range, ent_coef=p.ent_coef, vf_coef=p.vf_coef, max_grad_norm=p.max_grad_norm,
        target_kl=p.target_kl, seed=cfg.seed, device="cpu", verbose=0,
        policy_kwargs=policy_kwargs(cfg.policy.features, cfg.policy.pi, cfg.policy.vf, cfg.policy.activation))


def save_model(model, path: Path, meta: dict, extra: dict | None = None) -> Path:
    """SB3's zip plus ``ktenv.json``, written to a temporary name first (never half a file)."""
    from .policy import write_meta

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".partial.zip")
    model.save(tmp)
    write_meta(tmp, {**meta, "step": int(model.num_timesteps), **(extra or {})})
    os.replace(tmp, path)
    return path


def load_checkpoint(model, path: Path, meta: dict) -> int:
    """Weights and optimizer state into `model` (no unpickling); returns the checkpoint's step."""
    saved = read_meta(path)
    for key in ("observation_size", "action_size", "network", "game"):
        if saved[key] != meta[key]:
            raise CheckpointError(f"{path}: trained with {key} = {saved[key]}, the config says {meta[key]}")
    try:
        model.set_parameters(str(path), exact_match=True, device="cpu")
    except (ValueError, RuntimeError, KeyError, OSError, EOFError, pickle.UnpicklingError) as exc:
        raise CheckpointError(f"{path}: cannot load its weights ({exc})") from None
    step = saved.get("step")
    if not isinstance(step, int) or step < 0:
        raise CheckpointError(f"{path}: ktenv.json has no valid step")
    return step


def latest_checkpoint(run_dir: Path) -> tuple[Path, int] | None:
    path = run_dir / LATEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        return run_dir / data["path"], int(data["step"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CheckpointError(f"{path}: corrupt ({exc!r}); point it at a file in checkpoints/ by hand") from None


def write_latest(run_dir: Path, ckpt: Path, step: int) -> None:
    path = run_dir / LATEST
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"path": str(ckpt.relative_to(run_dir)), "step": step}))
    os.replace(tmp, path)


# ----------------------------------------------------------------------------- the run

def prepare_run(config_path: str | None, resume: bool, overrides: dict) -> tuple[TrainConfig, Path]:
    """The config to use and the run folder (a resumed run reads its own saved config)."""
    if config_path is None and not resume:
        raise ConfigError("--config FILE is required (see configs/ppo_2p.yaml)")
    cfg = TrainConfig.from_yaml(config_path, overrides) if config_path else None
    out = overrides.get("out") or (cfg.out if cfg else None)
    if out is None:
        raise ConfigError("--resume needs --config or --out to find the run folder")
    run_dir = Path(out)
    saved = run_dir / CONFIG_FILE
    if resume:
        if not saved.exists():
            raise ConfigError(f"--resume: {saved} does not exist (no run was started in {run_dir})")
        keep = {k: v for k, v in overrides.items() if k in RESUME_KEYS or k.startswith("eval.")}
        cfg = TrainConfig.from_yaml(saved, keep)  # the run's own settings; its length and reporting may change
        if keep:
            cfg.save(saved)
    else:
        if (run_dir / LATEST).exists():
            raise ConfigError(f"{run_dir} already holds a run: pass --resume to continue it, or choose another "
                              "'out' folder")
        run_dir.mkdir(parents=True, exist_ok=True)
        cfg.save(saved)
    return cfg, run_dir


def train(cfg: TrainConfig, run_dir: Path, resume: bool = False) -> Path:
    """Train until ``total_steps``; returns the path of ``final.zip``."""
    import torch
    from stable_baselines3.common.logger import configure

    from .curve import plot_learning_curve
    from .league import prune_after
    from .monitor import Monitor

    torch.set_num_threads(cfg.torch_threads)
    venv = make_vec_env(cfg, str(run_dir))
    model = build_model(cfg, venv)
    meta = network_meta(cfg, venv)
    start = 0
    if resume:
        found = latest_checkpoint(run_dir)
        if found is not None:
            start = load_checkpoint(model, found[0], meta)
            model.num_timesteps = start
            prune_after(run_dir, start)
            venv.seed(cfg.seed + start)  # new games, not a replay of the first ones
            print(f"[ktenv train] resumed from {found[0]} at step {start:,}", file=sys.stderr)
    model.set_logger(configure(str(run_dir / "tb"), ["tensorboard", "csv"]))
    monitor = Monitor(cfg, run_dir, meta, save_model, write_latest, start)

    def on_term(signum, frame):  # SIGTERM behaves as Ctrl-C: checkpoint, then stop
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, on_term)
    try:
        if start < cfg.total_steps:
            model.learn(total_timesteps=cfg.total_steps - start, callback=monitor, reset_num_timesteps=start == 0)
        final = save_model(model, run_dir / "final.zip", meta)
        monitor.checkpoint(model)
    except KeyboardInterrupt:
        path = monitor.checkpoint(model)
        print(f"\n[ktenv train] interrupted: checkpoint {path} at step {model.num_timesteps:,}; "
              f"continue with --resume", file=sys.stderr)
        raise
    finally:
        signal.signal(signal.SIGTERM, old)
        try:
            venv.close()
        except (EOFError, BrokenPipeError, ConnectionResetError):
            pass
    monitor.evaluate(final, final=True)
    monitor.close()
    curve = plot_learning_curve(run_dir, run_dir / "learning_curve.png")
    print(f"[ktenv train] done: {final} ({model.num_timesteps:,} steps, {time.strftime('%H:%M:%S')}); "
          f"learning curve {curve}; play it: ktenv tournament --agents ppo:{final},random --players "
          f"{cfg.env.players}", file=sys.stderr)
    return final


def parse_overrides(items: list[str] | None) -> dict:
    import yaml

    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE (e.g. ppo.learning_rate=1e-4)")
        out[key.strip()] = yaml.safe_load(value)
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ktenv.cli import _add_train_arguments

    _add_train_arguments(parser)


def run(args: argparse.Namespace) -> int:
    overrides = parse_overrides(args.set)
    if args.out:
        overrides["out"] = args.out
    if args.total_steps is not None:
        overrides["total_steps"] = args.total_steps
    try:
        cfg, run_dir = prepare_run(args.config, args.resume, overrides)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"training needs the 'train' extra ({exc.name} is missing): "
                          "pip install torch==2.13.0 && pip install -e \".[train]\"") from None
    train(cfg, run_dir, resume=args.resume)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.training.train_ppo", description=__doc__.split("\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except (ConfigError, CheckpointError) as exc:
        print(f"ktenv train: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

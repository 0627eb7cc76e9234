"""Self-play MaskablePPO on ktenv, in one file you can read top to bottom.

    ktenv train --config configs/ppo_2p.yaml            # or: python -m ktenv.training.train_ppo --config ...
    ktenv train --config configs/ppo_2p.yaml --resume   # continue from the last checkpoint
    tensorboard --logdir runs/ppo_2p/tb

What happens:
1. The config is validated and written, resolved, to ``<out>/config.yaml``.
2. ``n_envs`` games run as one batch of native games in this process (``vec_env: vector``, the
   default: the game's `learner_vec_env`, `ktenv.registry`). The learner takes a random seat every game and the
   other seats are drawn every game from the league (training/league.py): any agents (heuristics, trained
   models, a user's file) and frozen snapshots of the learner, mixed as the config says. Random, greedy and
   expert seats, the snapshots and ``ppo:PATH`` models (their networks too) play inside native code.
   ``vec_env: subproc`` (or ``dummy``) runs one `ktenv.SingleAgentEnv` per game in subprocesses
   (SB3's SubprocVecEnv) with `LeagueOpponent` seats; masks cross the process boundary in each
   step's info (`GameVecEnv`).
3. sb3-contrib's MaskablePPO learns with the network of training/policy.py, starting from the weights of
   the model ``init_from`` names, else first copying a teacher agent if the config's ``imitation`` section
   names one (training/imitation.py: behaviour cloning, then DAgger rounds), saved as ``imitation.zip``;
   then, if the ``expert_iteration`` section names a search, rounds of labels by that search and training
   on them (training/expert_iteration.py, saved as ``expert_iteration/round<R>.zip``).
4. The `Monitor` callback (training/monitor.py) counts games, writes TensorBoard scalars,
   freezes snapshots into the league, saves checkpoints (the newest few are kept), runs
   evaluations with the arena's tournament code, and prints a progress line.
5. At the end: ``final.zip`` (an agent: ``ppo:<out>/final.zip``), a last evaluation,
   ``learning_curve.png``.

Interrupting (Ctrl-C, SIGTERM) saves a checkpoint first; ``--resume`` continues from the newest
intact one (training/checkpoints.py) with the league and the step count. Overrides given with it
apply to the run, except its seed, game and network; a run that ended can be extended by raising
``total_steps``, and resuming one that has reached it changes nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ktenv.errors import ConfigError

from .checkpoints import LATEST, saved_counters, sigterm_interrupts
from .config import TrainConfig, add_train_arguments, network_of
from .monitor import FIRST_LOG_SECONDS
from .policy import CheckpointError

CONFIG_FILE = "config.yaml"


# ----------------------------------------------------------------------------- the environments

def make_env(cfg: TrainConfig, run_dir: str, rank: int):
    """A thunk building game process `rank`'s env (called inside that process)."""

    def thunk():
        import torch
        from stable_baselines3.common.monitor import Monitor

        from .league import LeagueOpponent

        torch.set_num_threads(1)
        seats = cfg.env.players - 1
        opponents = [LeagueOpponent(run_dir, cfg.league, seed=cfg.seed * 7919 + rank * 101 + k,
                                    game_name=cfg.env.game_name) for k in range(seats)]
        spec = cfg.env.spec
        engine = {} if cfg.env.engine == "auto" else {"backend": cfg.env.engine}  # a game of one engine takes none
        env = spec.single_env(seat="random", opponents=opponents, reward=cfg.env.reward, **engine,
                              **cfg.env.game_config().to_dict())
        return Monitor(env)

    return thunk


def make_batched_games(cfg: TrainConfig, run_dir: str):
    """The training games as one batch of native games (``vec_env: vector``)."""
    from .league import League

    game = cfg.env.game_config().to_dict()
    game.pop("n_players")
    return cfg.env.spec.learner_vec_env(cfg.n_envs, num_players=cfg.env.players, num_threads=None,
                                        reward=cfg.env.reward,
                         seat="random", opponents=League(run_dir, cfg.league).draw_for, **game)


def make_vec_env(cfg: TrainConfig, run_dir: str):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from .monitor import GameVecEnv

    if cfg.vec_env == "vector":
        return GameVecEnv(make_batched_games(cfg, run_dir), symlog=True)
    thunks = [make_env(cfg, run_dir, i) for i in range(cfg.n_envs)]
    venv = SubprocVecEnv(thunks, start_method="forkserver") if cfg.vec_env == "subproc" else DummyVecEnv(thunks)
    return GameVecEnv(venv, symlog=True)


# ----------------------------------------------------------------------------- the model

def network_meta(cfg: TrainConfig, venv) -> dict:
    return {"observation_size": int(venv.observation_space.shape[0]), "action_size": int(venv.action_space.n),
            "network": network_of(cfg),
            "game": cfg.env.game_config().to_dict()}


def build_model(cfg: TrainConfig, venv):
    from sb3_contrib import MaskablePPO

    from .buffer import FlatRolloutBuffer
    from .policy import LearnerPolicy, fused_adam, policy_kwargs, set_learner_speedups

    p = cfg.ppo
    net = network_of(cfg)
    network = policy_kwargs(cfg.policy.features, cfg.policy.pi, cfg.policy.vf, cfg.policy.activation,
                            net.get("focus"), net.get("steer"), net.get("rows"))
    model = MaskablePPO(
        LearnerPolicy, venv, learning_rate=p.learning_rate, n_steps=p.n_steps,
        batch_size=p.batch_size, n_epochs=p.n_epochs, gamma=p.gamma, gae_lambda=p.gae_lambda,
        clip_range=p.clip_range, ent_coef=p.ent_coef, vf_coef=p.vf_coef, max_grad_norm=p.max_grad_norm,
        target_kl=p.target_kl, seed=cfg.seed, device="cpu", verbose=0, rollout_buffer_class=FlatRolloutBuffer,
        policy_kwargs={**network, "optimizer_kwargs": fused_adam()})
    set_learner_speedups(model.policy, cfg.learner_precision, prescaled=False)  # imitation feeds raw observations
    return model


# ----------------------------------------------------------------------------- the run

FIXED_ON_RESUME = ("seed", "env", "policy")  # a run's games and network are fixed at its start


def prepare_run(config_path: str | None, resume: bool, overrides: dict,
                labels: dict[str, str] | None = None) -> tuple[TrainConfig, Path]:
    """The config to use and the run folder (a resumed run reads its own saved config).

    On --resume, overrides apply to the saved config (train() saves it once the run goes on),
    except the run's seed, game and network, which are refused."""
    labels = labels or {}
    if config_path is None and not resume:
        raise ConfigError("--config FILE is required (see configs/ppo_2p.yaml)")
    cfg = TrainConfig.from_yaml(config_path, overrides, labels) if config_path else None
    out = overrides.get("out") or (cfg.out if cfg else None)
    if out is None:
        raise ConfigError("--resume needs --config or --out to find the run folder")
    run_dir = Path(out)
    saved = run_dir / CONFIG_FILE
    if resume:
        if not saved.exists():
            raise ConfigError(f"--resume: {saved} does not exist (no run was started in {run_dir})")
        refuse_fixed_keys(saved, overrides, labels)
        resumed = TrainConfig.from_yaml(saved, overrides, labels)
        if cfg is not None:
            warn_unapplied(config_path, cfg, resumed)
        return resumed, run_dir
    if (run_dir / LATEST).exists():
        raise ConfigError(f"{run_dir} already holds a run: pass --resume to continue it, or choose another "
                          "'out' folder")
    run_dir.mkdir(parents=True, exist_ok=True)
    cfg.save(saved)
    return cfg, run_dir


def warn_unapplied(config_path: str, given: TrainConfig, resumed: TrainConfig) -> None:
    """A resumed run goes on with its own saved config (and --set); say which keys of the --config file, edited
    since the run started, are therefore not applied."""
    mine, theirs = flat(resumed.to_dict()), flat(given.to_dict())
    differ = [key for key in theirs if key != "out" and mine.get(key) != theirs[key]]
    if differ:
        shown = ", ".join(f"{key} = {theirs[key]!r} (the run's: {mine.get(key)!r})" for key in differ[:6])
        more = f" and {len(differ) - 6} more" if len(differ) > 6 else ""
        print(f"[ktenv train] warning: --resume goes on with the run's own config.yaml; {config_path} differs in "
              f"{shown}{more}: not applied (pass --set KEY=VALUE to change a key of the run)", file=sys.stderr)


def refuse_fixed_keys(saved: Path, overrides: dict, labels: dict[str, str]) -> None:
    """An override that would change the seed, the game or the network of a run under way is an error."""
    base = TrainConfig.from_yaml(saved)
    for key, value in overrides.items():
        if key == "env.engine":
            continue  # either engine plays the same games
        if key.split(".")[0] in FIXED_ON_RESUME and TrainConfig.from_yaml(saved, {key: value}, labels) != base:
            raise ConfigError(f"--resume: {labels.get(key) or f'--set {key}={value}'}: '{key}' cannot change in a "
                              "run under way (seed, env.* and policy.* are fixed at its start); start a new run "
                              "in another 'out' folder")


def flat(data: dict, prefix: str = "") -> dict:
    """{"ppo": {"gamma": 0.99}} -> {"ppo.gamma": 0.99}"""
    out = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def train(cfg: TrainConfig, run_dir: Path, resume: bool = False) -> Path:
    """Train until ``total_steps``; returns the path of ``final.zip``."""
    import torch

    from .league import prune_after

    print(f"[ktenv train] {'resuming' if resume else 'starting'} {run_dir}: {cfg.total_steps:,} steps, "
          f"{cfg.n_envs} games of {cfg.env.players} players at once ({cfg.vec_env}); progress after "
          f"{min(cfg.log_every_seconds, FIRST_LOG_SECONDS):g} s, then every {cfg.log_every_seconds:g} s",
          file=sys.stderr, flush=True)
    torch.set_num_threads(cfg.torch_threads)
    venv = make_vec_env(cfg, str(run_dir))
    try:
        model, meta = build_model(cfg, venv), network_meta(cfg, venv)
        found = load_resume_point(model, run_dir, meta) if resume else None
        if found is None:
            before_ppo(cfg, run_dir, model, meta)
        start = found[1] if found else 0
        if start >= cfg.total_steps:
            return already_done(cfg, run_dir, *found)
        if found:
            print(f"[ktenv train] resumed from {found[0]} at step {start:,}", file=sys.stderr, flush=True)
            prune_after(run_dir, start, cfg.league.max_snapshots)
            venv.seed(cfg.seed + start)  # new games, not a replay of the first ones
        if resume:
            save_resumed_config(cfg, run_dir)
        counters = saved_counters(found[0]) if found else {}
        monitor = learn(cfg, run_dir, model, meta, start, counters)
    finally:
        close_quietly(venv)
    return finish(cfg, run_dir, model, monitor)


def before_ppo(cfg: TrainConfig, run_dir: Path, model, meta: dict) -> None:
    """The stages before PPO: the warm start (``init_from`` or the imitation), then learning from the search.
    Ctrl-C or SIGTERM stops them with a line saying what is kept: each stage saves as it goes."""
    with sigterm_interrupts():
        try:
            if cfg.init_from:
                init_from_model(cfg, model, meta)
            elif cfg.imitation.teacher:
                warm_start(cfg, run_dir, model, meta)
            if cfg.expert_iteration.search:
                from .expert_iteration import iterate

                iterate(cfg, run_dir, model, meta)  # learning from the search: its labels, then training on them
        except KeyboardInterrupt:
            print(f"\n[ktenv train] interrupted before PPO: {run_dir} keeps what was saved (imitation.zip, the "
                  "expert iteration's finished shards and round models); continue with --resume", file=sys.stderr)
            raise


def load_resume_point(model, run_dir: Path, meta: dict) -> tuple[Path, int] | None:
    from .checkpoints import resume

    found = resume(model, run_dir, meta)
    if found is not None:
        model.num_timesteps = found[1]
    return found


def warm_start(cfg: TrainConfig, run_dir: Path, model, meta: dict) -> None:
    """The imitation warm start (training/imitation.py), saved as ``imitation.zip`` so that a run
    interrupted before its first checkpoint resumes from it instead of imitating again."""
    from .checkpoints import load_checkpoint, save_model
    from .imitation import warm_start as imitate

    saved = run_dir / "imitation.zip"
    if saved.exists():
        load_checkpoint(model, saved, meta)
        print(f"[ktenv train] imitation: loaded {saved}", file=sys.stderr, flush=True)
        return
    imitate(cfg, model.policy, run_dir / "tb")
    save_model(model, saved, meta)


def init_from_model(cfg: TrainConfig, model, meta: dict) -> None:
    """The learner starts from the weights of ``init_from`` (a fresh optimizer; no imitation: the model is the
    warm start). The config check compared the model with the config; this compares it with the games built."""
    from .policy import features_extractors, read_meta, read_weights

    path = Path(cfg.init_from).expanduser()
    saved = read_meta(path)
    for key in ("observation_size", "action_size", "network"):
        if saved[key] != meta[key]:
            raise ConfigError(f"training key 'init_from': {path} has {key} {saved[key]}; this run's is {meta[key]}")
    model.policy.load_state_dict(read_weights(path), strict=True)  # (a half-precision export is cast to float32)
    for extractor in features_extractors(model.policy):
        extractor.forget_bf16()
    skipped = f"; imitation of {cfg.imitation.teacher} skipped" if cfg.imitation.teacher else ""
    step = saved.get("step")
    trained = f" (trained {step:,} steps)" if isinstance(step, int) else ""
    print(f"[ktenv train] init_from: the learner starts from {path}{trained}{skipped}", file=sys.stderr, flush=True)


def already_done(cfg: TrainConfig, run_dir: Path, checkpoint: Path, step: int) -> Path:
    """A resumed run that has reached its total_steps: say so, change nothing."""
    final = run_dir / "final.zip"
    print(f"[ktenv train] nothing to train: the run is at step {step:,} and total_steps is {cfg.total_steps:,}"
          f" (its model: {final if final.exists() else checkpoint}); raise --total-steps to train on",
          file=sys.stderr, flush=True)
    return final if final.exists() else checkpoint


def save_resumed_config(cfg: TrainConfig, run_dir: Path) -> None:
    """Write the overrides a resumed run applies into its config.yaml, naming each change."""
    saved = run_dir / CONFIG_FILE
    before, after = flat(TrainConfig.from_yaml(saved).to_dict()), flat(cfg.to_dict())
    changed = [key for key in after if before.get(key) != after[key]]
    for key in changed:
        print(f"[ktenv train] resumed with {key} = {after[key]!r} (was {before.get(key)!r})", file=sys.stderr)
    if changed:
        cfg.save(saved)


def learn(cfg: TrainConfig, run_dir: Path, model, meta: dict, start: int, counters: dict[str, int] | None = None):
    """model.learn with the Monitor callback; Ctrl-C or SIGTERM saves a checkpoint, then stops."""
    from stable_baselines3.common.logger import configure

    from .checkpoints import save_model
    from .monitor import Monitor
    from .policy import set_learner_speedups

    model.set_logger(configure(str(run_dir / "tb"), ["tensorboard", "csv"]))
    bf16 = set_learner_speedups(model.policy, cfg.learner_precision, prescaled=True)  # GameVecEnv symlogs the games'
    model.rollout_buffer.bfloat16_observations = bf16  # the first layer's input type, cast once per rollout
    monitor = Monitor(cfg, run_dir, meta, start, counters)

    with sigterm_interrupts():  # SIGTERM behaves as Ctrl-C: checkpoint, then stop
        try:
            model.learn(total_timesteps=cfg.total_steps - start, callback=monitor, reset_num_timesteps=start == 0)
            save_model(model, run_dir / "final.zip", meta)
            monitor.checkpoint(model)
        except KeyboardInterrupt:
            path = monitor.checkpoint(model)
            print(f"\n[ktenv train] interrupted: checkpoint {path} at step {model.num_timesteps:,}; "
                  f"continue with --resume", file=sys.stderr)
            raise
    return monitor


def finish(cfg: TrainConfig, run_dir: Path, model, monitor) -> Path:
    """The final evaluation and the learning curve (the games' processes are closed by now)."""
    from .curve import plot_learning_curve

    final = run_dir / "final.zip"
    monitor.evaluate(final, final=True)
    monitor.close()
    curve = plot_learning_curve(run_dir, run_dir / "learning_curve.png")
    print(f"[ktenv train] done: {final} ({model.num_timesteps:,} steps, {time.strftime('%H:%M:%S')}); "
          f"learning curve {curve}; play it: ktenv tournament "
          f"{'' if cfg.env.spec.default else f'--game {cfg.env.spec.name} '}--agents ppo:{final},random --players "
          f"{cfg.env.players}", file=sys.stderr)
    return final


def close_quietly(venv) -> None:
    try:
        venv.close()
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass

def parse_overrides(items: list[str] | None) -> tuple[dict, dict[str, str]]:
    """({key: value}, {key: "--set key=value" as typed}) from the --set arguments."""
    import yaml

    out, labels = {}, {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE (e.g. ppo.learning_rate=1e-4)")
        try:
            out[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise ConfigError(f"--set {item}: the value is not valid YAML ({exc})") from None
        labels[key.strip()] = f"--set {item}"
    return out, labels


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_train_arguments(parser)


def run(args: argparse.Namespace) -> int:
    overrides, labels = parse_overrides(args.set)
    if args.out:
        overrides["out"], labels["out"] = args.out, f"--out {args.out}"
    if args.total_steps is not None:
        overrides["total_steps"], labels["total_steps"] = args.total_steps, f"--total-steps {args.total_steps}"
    if getattr(args, "engine", None):
        overrides["env.engine"], labels["env.engine"] = args.engine, f"--engine {args.engine}"
    if getattr(args, "ray_address", None):
        overrides["rllib.ray_address"] = args.ray_address
        labels["rllib.ray_address"] = f"--ray-address {args.ray_address}"
    try:
        cfg, run_dir = prepare_run(args.config, args.resume, overrides, labels)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"training needs the 'train' extra ({exc.name} is missing): "
                          "pip install torch==2.13.0 && pip install -e \".[train]\"") from None
    if cfg.trainer == "rllib":
        try:
            from .rllib_train import train as train_rllib
        except ModuleNotFoundError as exc:
            raise ConfigError(f"trainer rllib needs the 'ray' extra ({exc.name} is missing): "
                              "pip install -e \".[ray]\"") from None
        train_rllib(cfg, run_dir, resume=args.resume)
    else:
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

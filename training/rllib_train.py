"""Self-play PPO on RLlib: the learner against a league, on a Ray cluster.

    ktenv train --config configs/rllib_2p.yaml                          # a local Ray cluster
    ray start --head --port=6379 && ktenv train --config configs/rllib_2p.yaml --ray-address auto
    ktenv train --config configs/rllib_2p.yaml --resume                 # continue from the last checkpoint

The same config file and run folder as the MaskablePPO trainer (training/train_ppo.py), with
``trainer: rllib`` and an ``rllib`` section (``env_runners``, ``ray_address``).

What happens:
1. The games. A game with native batched games (the registry's ``learner_vec_env``) plays
   them in `training.rllib_vector.BatchedEnvRunner`s: each of the ``rllib.env_runners`` Ray actors steps
   ``n_envs`` games as one batch, the learner's module deciding for all of them in one forward pass and the
   league's seats playing inside native code. A game without them plays `TurnBasedMultiAgent`, an
   RLlib ``MultiAgentEnv`` over the PettingZoo env: only the seat to move observes, every seat an RLlib agent.
2. The league, drawn with seeded generators per env runner (``[seed, runner, start step]``): one seat the
   learner, the others from the config's ``league`` shares: ``random``, ``greedy``, ``expert`` or a frozen
   snapshot of the learner (uniform over the pool). Batched games: native seats, and a snapshot is the learner's
   actor written into ``league/snapshot_STEP.zip`` and sent to every env runner as weights, where it plays as a
   native policy seat (``ppo-sample:PATH``, or ``ppo:PATH`` with ``snapshot_play: best``); the oldest leaves
   after ``max_snapshots``. Multi-agent env: `SeatMapping` maps seats to modules (`HeuristicModule`, or
   ``snapshot_K``, a copy of the learner's weights).
3. The network: `agents.rllib_agent.ActorCritic` (symlog, a shared layer, policy and value heads, as the
   SB3 trainer's training/policy.py) inside `MaskedActorCriticModule`; no illegal action is ever sampled. The
   learner as the SB3 trainer's: observations symlog'd once per step, the first layer in bfloat16 where the CPU
   has it (``learner_precision``), fused Adam (`TimedLearner`).
4. Every ``checkpoint_every`` steps ``checkpoints/step_N/`` (RLlib's whole algorithm state, for
   --resume, with ``ktenv_state.json``: the step and the league) and ``checkpoints/step_N/policy.zip``
   (the learner's weights: the ``rllib:PATH`` agent); ``checkpoints/latest.json`` names the newest.
   TensorBoard scalars under ``tb/`` (``speed/learner_share``: the share of wall time in the learner's
   updates); evaluations with the arena's tournament code under ``eval/``.
5. At the end: ``final.zip`` (play it: ``ktenv tournament --agents rllib:<out>/final.zip,greedy``),
   a last evaluation and ``learning_curve.png``.
6. Faults (RLlib's fault tolerance): a dead env runner is started again, gets the league and a seed stream
   of its own, and the run goes on; a driver that dies resumes with ``--resume`` from its last checkpoint.

Steps (``total_steps`` and every ``*_every``) are the learner's decisions, as the SB3 trainer counts them.
RLlib checkpoints are Ray's own files (pickles inside): resume only a run folder you made.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections import OrderedDict
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
import tree
from ktenv.agents.rllib_agent import ActorCritic, save_model
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.ppo_torch_learner import PPOTorchLearner
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core import DEFAULT_MODULE_ID
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.policy.sample_batch import MultiAgentBatch, SampleBatch
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, LEARNER_RESULTS, NUM_ENV_STEPS_SAMPLED, NUM_MODULE_STEPS_SAMPLED

from ktenv.errors import ConfigError

from .config import HEURISTIC_AGENTS, TrainConfig, eval_tournament, opponent_tag
from .league import forget_files
from .policy import ILLEGAL_GAP, fused_adam, native_bf16
from .rllib_vector import BatchedEnvRunner, BatchedGames, snapshot_weights, write_policy_zip

LEARNER = "learner"
LATEST = "checkpoints/latest.json"
STATE_FILE = "ktenv_state.json"
WINDOW = 200  # training games averaged in the game/ scalars


# ----------------------------------------------------------------------------- the games

class TurnBasedMultiAgent(MultiAgentEnv):
    """The PettingZoo game as an RLlib multi-agent env (turn based: only the seat to move observes)."""

    def __init__(self, config: dict | None = None) -> None:
        super().__init__()
        from ktenv import registry

        config = dict(config or {})
        raw_env = registry.game(config.get("game_name")).raw_env
        torch.set_num_threads(1)  # env runners: small batches, one core each
        self.game = raw_env(reward=config.get("reward", "win"), backend=config.get("engine", "auto"),
                            **config.get("game", {"n_players": 2}))
        self.agents = self.possible_agents = list(self.game.possible_agents)
        first = self.possible_agents[0]
        size = int(self.game.observation_space(first)["observation"].shape[0])
        n_actions = int(self.game.action_space(first).n)
        space = gym.spaces.Dict({"observations": gym.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                                 "action_mask": gym.spaces.Box(0.0, 1.0, (n_actions,), np.float32)})
        self.observation_spaces = dict.fromkeys(self.agents, space)
        self.action_spaces = dict.fromkeys(self.agents, gym.spaces.Discrete(n_actions))

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seen = self.game.observe(agent)
        return {"observations": seen["observation"], "action_mask": seen["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.game.reset(seed=seed)
        actor = self.game.agent_selection
        return {actor: self._observe(actor)}, {}

    def step(self, action_dict: dict):
        actor = self.game.agent_selection
        self.game.step(int(action_dict[actor]))  # the mask made it legal; an illegal one raises
        rewards = {a: float(r) for a, r in self.game.rewards.items()}
        terminated = all(self.game.terminations.values())
        truncated = all(self.game.truncations.values())
        if terminated or truncated:
            state = self.game.game_state
            winners = [f"player_{i}" for i in state.winners]
            reason = getattr(state, "reason", None)
            infos = {a: {"winners": winners, "reason": reason, "round": self.game.infos[a].get("round", 0),
                         "income": self.game.infos[a].get("income", 0), "hexes": self.game.infos[a].get("hexes", 0)}
                     for a in self.agents}
            return ({a: self._observe(a) for a in self.agents}, rewards, {"__all__": terminated},
                    {"__all__": truncated and not terminated}, infos)
        nxt = self.game.agent_selection
        return {nxt: self._observe(nxt)}, rewards, {"__all__": False}, {"__all__": False}, {}


# ----------------------------------------------------------------------------- the modules

class MaskedActorCriticModule(TorchRLModule, ValueFunctionAPI):
    """`agents.rllib_agent.ActorCritic` for PPO. An illegal action's logit is the row's best legal logit minus
    `ILLEGAL_GAP` (training/policy.py's masked distribution: no probability to speak of, and none of exp's slow
    path on huge negative numbers); sampling never picks one. Two switches for speed, as the SB3 trainer's
    (neither changes the weights): ``prescaled`` (the observations arrive symlog'd, once per step, not once per
    epoch) and ``bf16`` (the big first layer multiplies in bfloat16 where the CPU does so natively)."""

    def setup(self) -> None:
        net = self.model_config
        self.network = ActorCritic(int(self.observation_space["observations"].shape[0]), int(self.action_space.n),
                                   net["features"], net["pi"], net["vf"], net["activation"])
        self.prescaled, self.bf16 = bool(net.get("prescaled", False)), bool(net.get("bf16", False))

    def embed(self, observations: torch.Tensor) -> torch.Tensor:
        x = observations.float() if self.prescaled else torch.sign(observations) * torch.log1p(torch.abs(observations))
        if not self.bf16:
            return self.network.shared(x)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return self.network.shared(x).float()

    def _forward(self, batch: dict, **kwargs) -> dict:
        obs = batch[Columns.OBS]
        embeddings = self.embed(obs["observations"])
        logits, legal = self.network.pi(embeddings), obs["action_mask"] > 0
        best = torch.where(legal, logits, torch.finfo(logits.dtype).min).amax(dim=1, keepdim=True)
        return {Columns.ACTION_DIST_INPUTS: torch.where(legal, logits, best - ILLEGAL_GAP),
                Columns.EMBEDDINGS: embeddings}

    def compute_values(self, batch: dict, embeddings=None):
        if embeddings is None:
            embeddings = self.embed(batch[Columns.OBS]["observations"])
        return self.network.value(embeddings)


class TimedLearner(PPOTorchLearner):
    """RLlib's PPO learner with Adam in one fused pass over the weights where torch has it (the SB3 trainer's),
    and the seconds spent in updates (``busy_seconds``: the learner's share of the run's wall time)."""

    busy_seconds = 0.0

    def configure_optimizers_for_module(self, module_id, config=None) -> None:
        params = self.get_parameters(self._module[module_id])
        self.register_optimizer(module_id=module_id, optimizer=torch.optim.Adam(params, **fused_adam()),
                                params=params, lr_or_lr_schedule=config.lr)

    def update(self, *args, **kwargs):
        t0 = time.perf_counter()
        try:
            return super().update(*args, **kwargs)
        finally:
            self.busy_seconds += time.perf_counter() - t0

    def _create_iterator_if_necessary(self, *, training_data, num_total_minibatches: int = 0, num_epochs: int = 1,
                                      minibatch_size: int | None = None, shuffle_batch_per_epoch: bool = False,
                                      **kwargs):
        if training_data.data_iterators or not minibatch_size:
            return super()._create_iterator_if_necessary(
                training_data=training_data, num_total_minibatches=num_total_minibatches, num_epochs=num_epochs,
                minibatch_size=minibatch_size, shuffle_batch_per_epoch=shuffle_batch_per_epoch, **kwargs)
        batch = self._make_batch_if_necessary(training_data=training_data)
        for module_id in list(batch.policy_batches):
            if not self.should_module_be_updated(module_id, batch):
                del batch.policy_batches[module_id]
        if not batch.policy_batches:
            return {}
        rng = np.random.default_rng([self.config.seed or 0, self._weights_seq_no])
        return GatheredMinibatches(batch, minibatch_size, num_epochs, shuffle_batch_per_epoch and num_epochs > 1,
                                   num_total_minibatches, rng)


class GatheredMinibatches:
    """RLlib's cyclic minibatches (each exactly ``size`` rows, one epoch running on into the next, a new order
    each epoch, at least ``epochs`` passes over every module's rows, or ``total`` minibatches), gathered by index
    as the SB3 trainer does: one copy of each minibatch, where RLlib's iterator shuffles the whole batch each
    epoch and concatenates slices (a third of the learner's time on a large observation)."""

    def __init__(self, batch: MultiAgentBatch, size: int, epochs: int, shuffle: bool, total: int,
                 rng: np.random.Generator) -> None:
        self.batch, self.size, self.epochs, self.total = batch, size, epochs, total
        self.shuffle, self.rng = shuffle, rng

    def _order(self, rows: int) -> np.ndarray:
        return self.rng.permutation(rows) if self.shuffle else np.arange(rows)

    def __iter__(self):
        modules = self.batch.policy_batches
        orders = {mid: self._order(len(b)) for mid, b in modules.items()}
        starts, passes, count = dict.fromkeys(modules, 0), dict.fromkeys(modules, 0), 0
        while (min(passes.values()) < self.epochs) if self.total == 0 else (count < self.total):
            minibatch = {}
            for mid, rows in modules.items():
                if len(rows) == 0:
                    raise ValueError(f"the train batch of module {mid!r} is empty")
                picked, need = [], self.size
                while starts[mid] + need >= len(rows):  # the pass ends inside (or at the end of) this minibatch
                    picked.append(orders[mid][starts[mid]:])
                    need -= len(rows) - starts[mid]
                    starts[mid], passes[mid], orders[mid] = 0, passes[mid] + 1, self._order(len(rows))
                picked.append(orders[mid][starts[mid]:starts[mid] + need])
                starts[mid] += need
                minibatch[mid] = _gather(rows, np.concatenate(picked))
            yield MultiAgentBatch(minibatch, len(self.batch))
            count += 1


def _gather(rows: SampleBatch, index: np.ndarray) -> SampleBatch:
    """The rows `index` of every column (nested columns too) of a train batch of tensors or arrays."""
    torch_index = torch.from_numpy(index)

    def take(column):
        return column[torch_index.to(column.device)] if isinstance(column, torch.Tensor) else np.asarray(column)[index]

    return SampleBatch(tree.map_structure(take, dict(rows)))


class HeuristicModule(RLModule):
    """A heuristic agent of the league (random, greedy, expert) as an RLModule: one `act` per row."""

    def setup(self) -> None:
        from ktenv import agents

        self.agent = agents.make(self.model_config["agent"], seed=self.model_config.get("seed", 0),
                                 game=self.model_config.get("game"))

    def _forward(self, batch: dict, **kwargs) -> dict:
        obs = batch[Columns.OBS]
        rows, masks = _numpy(obs["observations"]), _numpy(obs["action_mask"]) > 0
        return {Columns.ACTIONS: np.array([self.agent.act(row, mask) for row, mask in zip(rows, masks)], np.int64)}

    def _forward_train(self, batch: dict, **kwargs) -> dict:
        raise NotImplementedError("a heuristic league module is never trained")

    def compile(self, *args, **kwargs) -> None:  # asked of torch modules; nothing to compile
        pass


def _count(value) -> int | None:
    """A count from RLlib's results (None: missing or NaN)."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return int(value) if np.isfinite(value) else None


def _numpy(x) -> np.ndarray:
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def snapshot_ids(cfg: TrainConfig) -> list[str]:
    return [f"snapshot_{k}" for k in range(cfg.league.max_snapshots)] if cfg.league.snapshots > 0 else []


def heuristic_ids(cfg: TrainConfig) -> list[str]:
    return [name for name in HEURISTIC_AGENTS if cfg.league.opponents.get(name, 0) > 0]


def module_specs(cfg: TrainConfig) -> dict[str, RLModuleSpec]:
    network = {"features": cfg.policy.features, "pi": list(cfg.policy.pi), "vf": list(cfg.policy.vf),
               "activation": cfg.policy.activation}
    specs = {mid: RLModuleSpec(module_class=MaskedActorCriticModule, model_config=network)
             for mid in [LEARNER, *snapshot_ids(cfg)]}
    for k, name in enumerate(heuristic_ids(cfg)):
        specs[name] = RLModuleSpec(module_class=HeuristicModule,
                                   model_config={"agent": name, "seed": cfg.seed + k, "game": cfg.env.game_name})
    return specs


# ----------------------------------------------------------------------------- the league

class SeatMapping:
    """Which module plays each seat of a game: one seat the learner, the others drawn from the league.

    The first time RLlib asks about a game, all its seats are drawn from this env runner's own
    generator (``[seed, runner index, start step]``: `set_stream`), so a seed gives the same league
    games; the answer is kept for the game's later questions. ``pool`` lists the snapshot modules
    that hold a snapshot; the driver updates every env runner's copy (`share_pool`)."""

    KEPT = 4096  # games remembered per env runner (far more than run at once)

    def __init__(self, players: int, opponents: dict[str, float], snapshots: float, pool: list[str],
                 seed: int = 0) -> None:
        self.players, self.opponents, self.snapshots, self.pool = players, dict(opponents), snapshots, list(pool)
        self.seed, self.stream = seed, [0, 0]
        self._rng: np.random.Generator | None = None
        self._games: OrderedDict = OrderedDict()

    def set_stream(self, runner: int, start_step: int) -> None:
        self.stream, self._rng = [runner, start_step], None

    def __call__(self, agent_id: str, episode, **kwargs) -> str:
        seats = self._games.get(episode.id_)
        if seats is None:
            if self._rng is None:
                self._rng = np.random.default_rng([self.seed, *self.stream])
            learner = int(self._rng.integers(self.players))
            seats = [LEARNER if s == learner else self.draw(self._rng) for s in range(self.players)]
            self._games[episode.id_] = seats
            if len(self._games) > self.KEPT:
                self._games.popitem(last=False)
        return seats[int(str(agent_id).rpartition("_")[2])]

    def draw(self, rng: np.random.Generator) -> str:
        names = [n for n, share in self.opponents.items() if share > 0]
        weights = [float(self.opponents[n]) for n in names]
        if self.pool and self.snapshots > 0:
            names += self.pool
            weights += [self.snapshots / len(self.pool)] * len(self.pool)
        p = np.asarray(weights) / sum(weights)
        return names[int(rng.choice(len(names), p=p))]


def opponent_kind(module_id: str) -> str:
    return "snapshot" if module_id.startswith("snapshot_") else module_id


class GameStats(RLlibCallback):
    """Per finished game: the learner's share of the win (ties split), overall and per opponent kind."""

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        modules = {aid: episode.module_for(aid) for aid in episode.agent_ids}
        learner = next((aid for aid, mid in modules.items() if mid == LEARNER), None)
        if learner is None or metrics_logger is None:
            return
        infos = episode.agent_episodes[learner].get_infos(-1) or {}
        winners = infos.get("winners", [])
        win = 1.0 / len(winners) if learner in winners else 0.0
        metrics_logger.log_value("game/win_rate", win, reduce="mean", window=WINDOW)
        for kind in {opponent_kind(mid) for aid, mid in modules.items() if aid != learner}:
            metrics_logger.log_value(f"game/win_rate_vs_{kind}", win, reduce="mean", window=WINDOW)
        for key in ("round", "income", "hexes"):
            metrics_logger.log_value(f"game/{'rounds' if key == 'round' else key}", float(infos.get(key, 0)),
                                     reduce="mean", window=WINDOW)
        metrics_logger.log_value("game/games", 1, reduce="sum")


# ----------------------------------------------------------------------------- the algorithm

def batched(cfg: TrainConfig) -> bool:
    """Whether the run's game has batched games (the registry's ``learner_vec_env``): then `BatchedEnvRunner`."""
    return cfg.env.spec.has("learner_vec_env")


def learner_id(cfg: TrainConfig) -> str:
    return DEFAULT_MODULE_ID if batched(cfg) else LEARNER


def ppo_settings(cfg: TrainConfig) -> dict:
    p, runners = cfg.ppo, cfg.rllib.env_runners
    return dict(lr=p.learning_rate, gamma=p.gamma, lambda_=p.gae_lambda, clip_param=p.clip_range,
                entropy_coeff=p.ent_coef, vf_loss_coeff=p.vf_coef, grad_clip=p.max_grad_norm,
                grad_clip_by="global_norm", num_epochs=p.n_epochs, minibatch_size=p.batch_size,
                train_batch_size_per_learner=p.n_steps * cfg.n_envs * max(1, runners),
                use_kl_loss=p.target_kl is not None, kl_target=p.target_kl or 0.01)


def fault_tolerance(config: PPOConfig) -> PPOConfig:
    """A dead env runner is started again (its games anew) and the run goes on; RLlib's settings."""
    return config.fault_tolerance(restart_failed_env_runners=True, max_num_env_runner_restarts=100,
                                  delay_between_env_runner_restarts_s=1.0, env_runner_health_probe_timeout_s=30.0)


def build_algorithm(cfg: TrainConfig, pool: list[str]):
    """RLlib's PPO for the run: on the batched games where the game has them, else the multi-agent env."""
    if batched(cfg):
        return build_batched_algorithm(cfg)
    runners = cfg.rllib.env_runners
    game = cfg.env.game_config().to_dict()
    config = (
        PPOConfig()
        .environment(TurnBasedMultiAgent, env_config={"game": game, "reward": cfg.env.reward,
                                                      "engine": cfg.env.engine, "game_name": cfg.env.game_name},
                     disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=cfg.n_envs, num_cpus_per_env_runner=1,
                     rollout_fragment_length="auto")
        .learners(num_learners=0)
        .training(**ppo_settings(cfg))
        .multi_agent(policies=set(module_specs(cfg)), policies_to_train=[LEARNER],
                     policy_mapping_fn=SeatMapping(cfg.env.players, cfg.league.opponents, cfg.league.snapshots, pool,
                                                   cfg.seed))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=module_specs(cfg)))
        .callbacks(GameStats)
        .debugging(seed=cfg.seed, log_level="ERROR")
    )
    return fault_tolerance(config).build_algo()


def network_config(cfg: TrainConfig) -> dict:
    return {"features": cfg.policy.features, "pi": list(cfg.policy.pi), "vf": list(cfg.policy.vf),
            "activation": cfg.policy.activation}


def batched_env_config(cfg: TrainConfig) -> dict:
    return {"game_name": cfg.env.game_name, "game": cfg.env.game_config().to_dict(), "reward": cfg.env.reward,
            "opponents": dict(cfg.league.opponents), "snapshots": cfg.league.snapshots,
            "snapshot_play": cfg.league.snapshot_play, "network": network_config(cfg), "seed": cfg.seed}


def build_batched_algorithm(cfg: TrainConfig):
    """PPO with `BatchedEnvRunner`s: each runner ``n_envs`` native games, the learner's module on the whole batch;
    the learner as the SB3 trainer's (symlog once per step, bfloat16 first layer where native, fused Adam)."""
    bf16 = cfg.learner_precision == "bf16" or (cfg.learner_precision == "auto" and native_bf16())
    module = RLModuleSpec(module_class=MaskedActorCriticModule,
                          model_config={**network_config(cfg), "prescaled": True, "bf16": bf16})
    config = (
        PPOConfig()
        .environment(BatchedGames, env_config=batched_env_config(cfg), disable_env_checking=True)
        .framework("torch")
        .env_runners(env_runner_cls=BatchedEnvRunner, num_env_runners=cfg.rllib.env_runners,
                     num_envs_per_env_runner=cfg.n_envs, num_cpus_per_env_runner=1,
                     rollout_fragment_length=cfg.ppo.n_steps)
        .learners(num_learners=0, learner_class=TimedLearner,  # in the driver: on its GPU where it has one
                  num_gpus_per_learner=1 if torch.cuda.is_available() else 0)
        .training(**ppo_settings(cfg))
        .rl_module(rl_module_spec=module)
        .callbacks(LeagueCallbacks)
        .debugging(seed=cfg.seed, log_level="ERROR")
    )
    config.torch_skip_nan_gradients = True  # skips only RLlib's per-tensor isfinite pass (the SB3 trainer has none)
    return fault_tolerance(config).build_algo()


class LeagueCallbacks(RLlibCallback):
    """A replaced env runner gets the league and a seed stream of its own before it samples again."""

    def on_env_runners_recreated(self, *, algorithm, env_runner_group, env_runner_indices, is_evaluation,
                                 **kwargs) -> None:
        run = getattr(algorithm, "ktenv_run", None)
        if run is not None and not is_evaluation:
            print(f"[ktenv train] env runner(s) {list(env_runner_indices)} replaced at step {run.step:,}",
                  file=sys.stderr, flush=True)
            run.share_league(list(env_runner_indices))


def network_meta(cfg: TrainConfig, algo) -> dict:
    if batched(cfg):
        games = BatchedGames({**batched_env_config(cfg), "num_envs": 1})
        sizes = (games.single_observation_space["observations"].shape[0], games.single_action_space.n)
        games.close()
    else:
        env = TurnBasedMultiAgent({"game": cfg.env.game_config().to_dict(), "engine": cfg.env.engine,
                                   "game_name": cfg.env.game_name})
        agent = env.possible_agents[0]
        sizes = (env.observation_spaces[agent]["observations"].shape[0], env.action_spaces[agent].n)
    return {"observation_size": int(sizes[0]), "action_size": int(sizes[1]), "network": network_config(cfg),
            "game": cfg.env.game_config().to_dict()}


def learner_network(algo) -> ActorCritic:
    module = LEARNER if LEARNER in algo.config.policies else DEFAULT_MODULE_ID
    return algo.get_module(module).network


def seed_streams(algo, start_step: int) -> None:
    """Each env runner draws league games from its own generator (runner index, the run's start step)."""
    def update(runner):
        if isinstance(runner, BatchedEnvRunner):
            runner.set_stream(start_step)
        else:
            runner.config.policy_mapping_fn.set_stream(int(runner.worker_index or 0), start_step)

    algo.env_runner_group.foreach_env_runner(update, local_env_runner=True)


def learner_seconds(algo) -> float | None:
    """Seconds the (local) learner has spent in updates so far; None where it runs elsewhere."""
    learner = getattr(algo.learner_group, "_learner", None)
    return getattr(learner, "busy_seconds", None)


def share_pool(algo, pool: list[str]) -> None:
    """Every env runner's `SeatMapping` learns the snapshot modules in the pool."""
    def update(runner):
        runner.config.policy_mapping_fn.pool = list(pool)

    algo.env_runner_group.foreach_env_runner(update, local_env_runner=True)


def take_snapshot(algo, slot: str) -> None:
    """The learner's weights into module `slot`, on the learner and on every env runner."""
    weights = algo.learner_group.get_state(components=f"learner/rl_module/{LEARNER}")
    weights = weights["learner"]["rl_module"][LEARNER]
    algo.learner_group.set_state({"learner": {"rl_module": {slot: weights}}})
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group, policies=[slot],
                                       inference_only=True)


# ----------------------------------------------------------------------------- the run

class Run:
    """The loop's state: step, league, next events, TensorBoard; checkpoints and evaluations."""

    def __init__(self, cfg: TrainConfig, run_dir: Path, algo, meta: dict, step: int, league: list[dict]) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.cfg, self.run_dir, self.algo, self.meta = cfg, run_dir, algo, meta
        self.step, self.league = step, league  # league: [{"module": "snapshot_K", "step": N}], oldest first
        every = cfg.league.snapshot_every
        self.next_snapshot = (step // every + 1) * every
        self.next_checkpoint = (step // cfg.checkpoint_every + 1) * cfg.checkpoint_every
        self.next_eval = (step // cfg.eval.every + 1) * cfg.eval.every if cfg.eval.every else None
        self.writer = SummaryWriter(str(run_dir / "tb"))
        self.t0, self.step0 = time.perf_counter(), step
        self.next_log = self.t0 + min(cfg.log_every_seconds, 10.0)
        self.evals: dict[str, float] = {}
        self.recent: dict = {}
        self.games = 0  # finished training games since this start
        self.batched = batched(cfg)
        self.busy0 = learner_seconds(algo)
        algo.ktenv_run = self  # LeagueCallbacks: a replaced env runner gets the league and a stream

    def pool(self) -> list[str]:
        return [e["module"] for e in self.league if "module" in e]

    def iterate(self) -> None:
        result = self.algo.train()
        runners = result.get(ENV_RUNNER_RESULTS, {})
        # the learner's decisions: every step of the batched games, the learner module's share of the others
        counted = (runners.get(NUM_ENV_STEPS_SAMPLED) if self.batched
                   else (runners.get(NUM_MODULE_STEPS_SAMPLED) or {}).get(LEARNER))
        if counted is None:
            raise RuntimeError(f"RLlib reported no sampled steps of the learner; result keys: {sorted(runners)}")
        # NaN: an iteration whose env runners all failed sampled nothing (RLlib restarts them for the next one)
        sampled, games = _count(counted) or 0, _count(runners.get("game/games"))
        self.step += sampled
        self.games += games or 0
        self.log(result)
        if self.step >= self.next_snapshot and snapshot_ids(self.cfg):
            self.snapshot()
            self.next_snapshot = (self.step // self.cfg.league.snapshot_every + 1) * self.cfg.league.snapshot_every
        path = None
        if self.step >= self.next_checkpoint:
            path = self.checkpoint()
            self.next_checkpoint = (self.step // self.cfg.checkpoint_every + 1) * self.cfg.checkpoint_every
        if self.next_eval is not None and self.step >= self.next_eval:
            if self.step < self.cfg.total_steps:  # the last one is the final evaluation
                self.evaluate((path or self.checkpoint()) / "policy.zip")
            self.next_eval = (self.step // self.cfg.eval.every + 1) * self.cfg.eval.every
        if time.perf_counter() >= self.next_log:
            self.next_log = time.perf_counter() + self.cfg.log_every_seconds
            print(self.progress_line(), file=sys.stderr, flush=True)

    def log(self, result: dict) -> None:
        runners = result.get(ENV_RUNNER_RESULTS, {})
        learners = result.get(LEARNER_RESULTS, {}).get(learner_id(self.cfg), {})
        scalars = {k: v for k, v in runners.items() if k.startswith("game/")}
        scalars["game/games"] = self.games
        self.recent = scalars
        for key in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "curr_kl_coeff"):
            if key in learners:
                scalars[f"train/{key}"] = learners[key]
        scalars["speed/steps_per_second"] = self.speed()
        busy = learner_seconds(self.algo)
        if busy is not None:
            scalars["speed/learner_share"] = (busy - self.busy0) / max(time.perf_counter() - self.t0, 1e-9)
        scalars["game/league_size"] = len(self.league)
        for tag, value in scalars.items():
            if np.isscalar(value) and np.isfinite(value):
                self.writer.add_scalar(tag, float(value), self.step)
        self.writer.flush()

    def speed(self) -> float:
        return (self.step - self.step0) / max(time.perf_counter() - self.t0, 1e-9)

    def progress_line(self) -> str:
        total, sps = self.cfg.total_steps, self.speed()
        parts = [f"[ktenv train] step {self.step:,}/{total:,} ({100 * self.step / total:.0f}%)", f"{sps:,.0f} steps/s",
                 f"games {self.games}"]
        if "game/win_rate" in self.recent:
            parts.append(f"win {100 * self.recent['game/win_rate']:.0f}%")
        if self.evals:
            parts.append("eval " + " ".join(f"{k} {100 * v:.0f}%" for k, v in self.evals.items()))
        parts.append(f"league {len(self.league)}")
        if sps > 0:
            parts.append(f"ETA {max(total - self.step, 0) / sps / 60:.0f} min")
        return " | ".join(parts)

    def snapshot(self) -> None:
        if self.batched:
            return self.snapshot_to_runners()
        slots = snapshot_ids(self.cfg)
        used = self.pool()
        slot = next((s for s in slots if s not in used), None) or self.league[0]["module"]  # free, else the oldest
        take_snapshot(self.algo, slot)
        self.league = [e for e in self.league if e["module"] != slot] + [{"module": slot, "step": self.step}]
        share_pool(self.algo, self.pool())

    def snapshot_to_runners(self) -> None:
        """The learner's actor into ``league/snapshot_STEP.zip`` (a native policy seat's model), the oldest out
        after ``max_snapshots``; then the pool to every env runner, as weights."""
        state = self.algo.learner_group.get_state(components=f"learner/rl_module/{DEFAULT_MODULE_ID}")
        weights = snapshot_weights(state["learner"]["rl_module"][DEFAULT_MODULE_ID])
        rel = f"league/snapshot_{self.step:010d}.zip"
        (self.run_dir / "league").mkdir(exist_ok=True)
        write_policy_zip(weights, self.meta, self.run_dir / rel)
        self.league = [e for e in self.league if e["step"] != self.step] + [{"path": rel, "step": self.step}]
        self.league = self.league[-self.cfg.league.max_snapshots:]  # the files that left go at the next checkpoint
        self.share_league()

    def share_league(self, runners: list[int] | None = None) -> None:
        """The batched games' league to the env runners (all, or the replaced `runners`: with a new seed stream)."""
        if not self.batched:
            return share_pool(self.algo, self.pool())
        from ktenv.agents.network import read_state

        snapshots = [(e["step"], read_state(self.run_dir / e["path"])) for e in self.league]
        group = self.algo.env_runner_group
        if runners is not None:
            step = self.step
            group.foreach_env_runner(lambda r: r.set_stream(step), local_env_runner=False, remote_worker_ids=runners)
        group.foreach_env_runner(lambda r: r.set_league(snapshots), local_env_runner=runners is None,
                                 remote_worker_ids=runners)

    def checkpoint(self) -> Path:
        """RLlib's checkpoint, the step and league beside it, the policy zip; then latest.json; then pruning."""
        folder = self.run_dir / "checkpoints" / f"step_{self.step:010d}"
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        self.algo.save_to_path(str(partial.resolve()))
        (partial / STATE_FILE).write_text(json.dumps({"step": self.step, "league": self.league}))
        save_model(learner_network(self.algo), partial / "policy.zip", {**self.meta, "step": self.step})
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(partial, folder)
        latest = self.run_dir / LATEST
        latest.with_suffix(".tmp").write_text(json.dumps({"path": str(folder.relative_to(self.run_dir)),
                                                          "step": self.step}))
        os.replace(latest.with_suffix(".tmp"), latest)
        if self.batched:  # the snapshots that left the league since the last checkpoint, which still named them
            forget_files(self.run_dir, self.league)
        prune_checkpoints(self.run_dir, self.cfg.keep_checkpoints, folder)
        return folder

    def evaluate(self, model: Path, final: bool = False) -> dict[str, float]:
        """Win rate of ``rllib:MODEL`` against each eval opponent, by the arena's tournament code."""
        from ktenv.arena.tournament import run_tournament

        from .checkpoints import keep_if_best

        me, results = f"rllib:{model}", {}
        name = "final" if final else f"step_{self.step:010d}"
        for opponent in self.cfg.eval.opponents:
            db = self.run_dir / "eval" / f"{name}_vs_{opponent_tag(opponent)}.sqlite"
            tcfg = eval_tournament(self.cfg, me, opponent, self.step, db)
            row = next(s for s in run_tournament(tcfg)["standings"] if s.agent == me)
            results[opponent] = row.win_rate
            self.writer.add_scalar(f"eval/win_rate_vs_{opponent_tag(opponent)}", row.win_rate, self.step)
            self.writer.add_scalar(f"eval/rating_vs_{opponent_tag(opponent)}", row.rating_mu, self.step)
        self.writer.flush()
        self.evals = results
        keep_if_best(self.run_dir, model, results, self.cfg.eval.best_against, self.step)
        print(f"[ktenv train] eval at step {self.step:,}: " + ", ".join(
            f"{k} {100 * v:.1f}% of {self.cfg.eval.games}" for k, v in results.items()), file=sys.stderr, flush=True)
        return results


def prune_checkpoints(run_dir: Path, keep: int, latest: Path) -> None:
    """All but the newest `keep` checkpoint folders (0: keep all); the one latest.json names stays."""
    if keep <= 0:
        return
    found = sorted((p for p in (run_dir / "checkpoints").glob("step_*") if p.is_dir() and
                    not p.name.endswith(".partial")), reverse=True)
    for old in found[keep:]:
        if old.resolve() != latest.resolve():
            shutil.rmtree(old, ignore_errors=True)


def resume_point(run_dir: Path) -> tuple[Path, dict] | None:
    """The checkpoint latest.json names and its ktenv state (step, league); None for a run without one."""
    latest = run_dir / LATEST
    if not latest.exists():
        return None
    try:
        folder = run_dir / json.loads(latest.read_text())["path"]
        state = json.loads((folder / STATE_FILE).read_text())
        assert isinstance(state["step"], int) and isinstance(state["league"], list)
    except (OSError, ValueError, KeyError, TypeError, AssertionError) as exc:
        raise ConfigError(f"--resume: {latest} or the checkpoint it names is unusable ({exc!r})") from None
    return folder, state


def train(cfg: TrainConfig, run_dir: Path, resume: bool = False) -> Path:
    """Train until ``total_steps`` on a Ray cluster (local unless ``rllib.ray_address``); returns final.zip."""
    import ray

    from ktenv.ray_cluster import join

    found = resume_point(run_dir) if resume else None
    if found and found[1]["step"] >= cfg.total_steps:
        print(f"[ktenv train] nothing to train: the run is at step {found[1]['step']:,} and total_steps is "
              f"{cfg.total_steps:,}; raise --total-steps to train on", file=sys.stderr, flush=True)
        return run_dir / "final.zip"
    where = cfg.rllib.ray_address or "a local Ray cluster"
    print(f"[ktenv train] {'resuming' if found else 'starting'} {run_dir} on RLlib ({where}): {cfg.total_steps:,} "
          f"steps, {cfg.rllib.env_runners} env runner(s) x {cfg.n_envs} games of {cfg.env.players} players",
          file=sys.stderr, flush=True)
    torch.set_num_threads(cfg.torch_threads)
    started = join(cfg.rllib.ray_address)
    try:
        league = found[1]["league"] if found else []
        algo = build_algorithm(cfg, [e["module"] for e in league if "module" in e])
        try:
            if found:
                algo.restore_from_path(str(found[0].resolve()))
                algo.env_runner_group.sync_weights(
                    from_worker_or_learner_group=algo.learner_group, inference_only=True,
                    policies=[DEFAULT_MODULE_ID] if batched(cfg) else [LEARNER, *snapshot_ids(cfg)])
                print(f"[ktenv train] resumed from {found[0]} at step {found[1]['step']:,}", file=sys.stderr)
            start = found[1]["step"] if found else 0
            seed_streams(algo, start)  # a resumed run draws new league games, not those of its start
            run = Run(cfg, run_dir, algo, network_meta(cfg, algo), start, league)
            if run.batched:
                forget_files(run_dir, league)  # taken after the checkpoint, then lost
                run.share_league()
            loop(run)
            return finish(run)
        finally:
            algo.stop()
    finally:
        if started:
            ray.shutdown()


def loop(run: Run) -> None:
    """algo.train() until total_steps; Ctrl-C or SIGTERM saves a checkpoint, then stops."""
    from .checkpoints import sigterm_interrupts

    with sigterm_interrupts():
        try:
            while run.step < run.cfg.total_steps:
                run.iterate()
        except KeyboardInterrupt:
            path = run.checkpoint()
            print(f"\n[ktenv train] interrupted: checkpoint {path} at step {run.step:,}; continue with --resume",
                  file=sys.stderr)
            raise


def finish(run: Run) -> Path:
    from .curve import plot_learning_curve

    folder = run.checkpoint()
    final = save_model(learner_network(run.algo), run.run_dir / "final.zip", {**run.meta, "step": run.step})
    run.evaluate(final, final=True)
    run.writer.close()
    curve = plot_learning_curve(run.run_dir, run.run_dir / "learning_curve.png")
    print(f"[ktenv train] done: {final} ({run.step:,} steps; checkpoint {folder}); learning curve {curve}; play it: "
          f"ktenv tournament --agents rllib:{final},random --players {run.cfg.env.players}", file=sys.stderr)
    return final

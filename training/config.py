"""Training settings: one YAML file, validated on load; an error names the key (``ppo.batch_size``).

A run writes the resolved settings (every key, defaults filled in) to ``<out>/config.yaml``;
``--resume`` reads them back from there, so a resumed run cannot drift from its start.
See ``configs/ppo_2p.yaml`` for every key with a comment.
"""

from __future__ import annotations

import argparse
import copy
import functools
import re
import typing
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ktenv import registry
from ktenv.arena.config import load_yaml
from ktenv.errors import ConfigError, did_you_mean
from ktenv.gamekit.cli import agent_label


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    """The command line of a training run (`ktenv train`, `python -m ktenv.training.train_ppo`)."""
    parser.add_argument("--config", help="training YAML (configs/ppo_2p.yaml)")
    parser.add_argument("--resume", action="store_true", help="continue the run in the config's 'out' folder")
    parser.add_argument("--out", help="run folder (overrides the config's 'out')")
    parser.add_argument("--total-steps", type=int, help="learner steps in all (overrides 'total_steps')")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", help="override any key, e.g. ppo.n_epochs=8")
    parser.add_argument("--engine", choices=("auto", "native", "python"),
                        help="rules engine of the games (env.engine; default auto: native where it plays the config)")
    parser.add_argument("--ray-address", metavar="ADDRESS",
                        help="trainer rllib: join this Ray cluster ('auto' or HOST:PORT; rllib.ray_address; "
                             "default: a local cluster)")

HEURISTIC_AGENTS = ("random", "greedy", "expert")  # the agents trainer rllib plays as league modules
MODEL_PREFIXES = ("ppo", "ppo-sample", "rllib")  # agents played from a model file that records its game
# batched native games (the game's learner_vec_env), or SingleAgentEnvs in SB3's
VEC_ENVS = ("vector", "subproc", "dummy")
PRECISIONS = ("auto", "bf16", "fp32")  # the first layer's products in PPO (training/policy.py, SymlogFeatures)


@dataclass
class EnvSection:
    players: int = 2
    max_rounds: int = 30  # the round limit; at the limit the highest income wins (R19.3)
    reward: str = "shaped"  # "win" (+1/-1 at the end) or "shaped" (also income and hexes gained)
    game: dict = field(default_factory=dict)  # further options of the game's config
    engine: str = "auto"  # the rules engine: auto, native or python (the same games either way)
    game_name: str | None = None  # a registered game (ktenv.registry); None: the default game

    @property
    def spec(self) -> registry.GameSpec:
        return registry.game(self.game_name)

    def check(self) -> None:
        _choice("env.game_name", self.game_name, [None, *registry.names()])
        _range("env.players", self.players, 2, 64)
        self.spec.check_players(self.players, "training key 'env.players'")
        _range("env.max_rounds", self.max_rounds, 1, 10_000)
        _choice("env.reward", self.reward, ("win", "shaped"))
        _choice("env.engine", self.engine, ("auto", "native", "python"))
        self.spec.check_engine(self.engine, "training key 'env.engine'")
        for key in ("n_players", "max_rounds"):
            if key in self.game:
                instead = "players" if key == "n_players" else key
                raise ConfigError(f"training key 'env.game.{key}': set it with 'env.{instead}'")
        try:
            self.game_config()
        except (ConfigError, TypeError) as exc:
            raise ConfigError(f"training key 'env.game': {exc}") from None

    def game_config(self) -> Any:
        return self.spec.make_config(self.game, self.players, self.max_rounds)


@dataclass
class PPOSection:
    learning_rate: float = 3e-4
    n_steps: int = 512  # steps per environment between updates
    batch_size: int = 512
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None

    def check(self) -> None:
        _positive("ppo.learning_rate", self.learning_rate)
        _range("ppo.n_steps", self.n_steps, 2, 1_000_000)
        _range("ppo.batch_size", self.batch_size, 2, 10_000_000)
        _range("ppo.n_epochs", self.n_epochs, 1, 1000)
        for key in ("gamma", "gae_lambda", "clip_range"):
            _unit(f"ppo.{key}", getattr(self, key))
        for key in ("ent_coef", "vf_coef"):
            if getattr(self, key) < 0:
                raise ConfigError(f"training key 'ppo.{key}': must be >= 0, got {getattr(self, key)}")
        _positive("ppo.max_grad_norm", self.max_grad_norm)
        if self.target_kl is not None:
            _positive("ppo.target_kl", self.target_kl)


@dataclass
class PolicySection:
    features: int = 512  # width of the shared layer after symlog (training/policy.py)
    pi: list[int] = field(default_factory=lambda: [256])
    vf: list[int] = field(default_factory=lambda: [256])
    activation: str = "relu"
    # inputs gathered around a place the observation names (the game's `network_focus`, ktenv.gamekit.focus),
    # in that place's own frame
    focus: bool = False
    # the logits of step actions also read from a choice of destination (the game's `network_steer`,
    # ktenv.gamekit.steer)
    steer: bool = False
    # the logits of actions that name a row of an observation table also scored from that row (the game's
    # `network_rows`, ktenv.gamekit.rows)
    rows: bool = False
    # with the row scores, the game's step actions scored from the rows they lead to (network_rows(cfg, steps=True))
    row_steps: bool = False

    def check(self) -> None:
        from .policy import ACTIVATIONS

        _range("policy.features", self.features, 1, 65_536)
        for key in ("pi", "vf"):
            for width in getattr(self, key):
                _range(f"policy.{key}", width, 1, 65_536)
        _choice("policy.activation", self.activation, tuple(ACTIVATIONS))


@dataclass
class LeagueSection:
    # Share of training games against each agent (any agent spec: random, greedy, expert, ppo:PATH, a user's
    # FILE.py:CLASS, ...); the rest against frozen snapshots of the learner (uniform over the pool). Before the
    # first snapshot, these agents share it all.
    opponents: dict[str, float] = field(default_factory=lambda: {"random": 0.5, "greedy": 0.1})
    snapshots: float = 0.4
    snapshot_every: int = 100_000  # learner steps between frozen snapshots
    max_snapshots: int = 8  # the oldest leaves the pool
    snapshot_play: str = "sample"  # snapshots sample their actions ("sample") or take the best ("best")

    def check(self) -> None:
        for name, share in self.opponents.items():
            if not isinstance(name, str) or not name:
                raise ConfigError(f"training key 'league.opponents': expected agent names, got {name!r}")
            if not isinstance(share, (int, float)) or isinstance(share, bool) or share < 0:
                raise ConfigError(f"training key 'league.opponents.{name}': expected a share >= 0, got {share!r}")
        if not isinstance(self.snapshots, (int, float)) or self.snapshots < 0:
            raise ConfigError(f"training key 'league.snapshots': expected a share >= 0, got {self.snapshots!r}")
        if sum(self.opponents.values()) + self.snapshots <= 0:
            raise ConfigError("training key 'league': the opponent shares add up to 0")
        if sum(self.opponents.values()) <= 0:
            raise ConfigError("training key 'league.opponents': at least one agent needs a share > 0 "
                              "(the pool of snapshots is empty at the start)")
        _range("league.snapshot_every", self.snapshot_every, 1, 10**12)
        _range("league.max_snapshots", self.max_snapshots, 1, 1000)
        _choice("league.snapshot_play", self.snapshot_play, ("sample", "best"))


@dataclass
class EvalSection:
    every: int = 250_000  # learner steps between evaluations (0: only at the end)
    games: int = 40  # per opponent, seats swapped
    # any agent spec the arena plays (ppo:PATH, ismcts, FILE.py:CLASS, ...); LABEL=SPEC names it in the logs;
    # "A + B + C" a whole table: the model and those agents, one seat each (eval_seats)
    opponents: list[str] = field(default_factory=lambda: ["random", "greedy", "expert"])
    workers: int = 2
    play: str = "best"  # the model takes its best legal action ("best", agent ppo:) or samples ("sample", ppo-sample:)
    best_against: str | None = None  # keep best.zip: the evaluated model that beat this opponent most often

    def check(self) -> None:
        _range("eval.every", self.every, 0, 10**12)
        _choice("eval.play", self.play, ("best", "sample"))
        _range("eval.games", self.games, 1, 1_000_000)
        _range("eval.workers", self.workers, 1, 1024)
        if not self.opponents:
            raise ConfigError("training key 'eval.opponents': name at least one agent")
        try:
            labels = [opponent_name(name) for name in self.opponents]  # (a table's members: check_opponents)
        except ConfigError as exc:
            raise ConfigError(f"training key 'eval.opponents': {exc}") from None
        if len(set(labels)) != len(labels):
            raise ConfigError(f"training key 'eval.opponents': an agent is named twice ({labels})")


@dataclass
class ImitationSection:
    # A warm start before PPO (training/imitation.py): the policy first copies a teacher agent.
    teacher: str | None = None  # an agent name ("expert"); null: no warm start
    decisions: int = 100_000  # the teacher's own decisions, from its games
    dagger_rounds: int = 0  # then rounds where the learner plays and the teacher labels (DAgger)
    dagger_decisions: int = 50_000  # labelled decisions per round
    epochs: int = 2  # passes over everything gathered so far, after each collection
    batch_size: int = 256
    learning_rate: float = 5e-4
    vf_coef: float = 0.5  # the value head learns the returns that followed each decision
    games: int = 32  # games played at once while collecting
    opponents: dict[str, float] = field(default_factory=lambda: {"teacher": 0.2, "greedy": 0.6, "random": 0.2})

    def check(self) -> None:
        from .imitation import OPPONENT_KINDS

        if self.teacher is not None:
            from ktenv import agents

            if self.teacher not in agents.names():
                raise ConfigError(f"training key 'imitation.teacher': {self.teacher!r} is not an agent "
                                  f"({', '.join(agents.names())})")
        _range("imitation.decisions", self.decisions, 1, 10**9)
        _range("imitation.dagger_rounds", self.dagger_rounds, 0, 1000)
        _range("imitation.dagger_decisions", self.dagger_decisions, 1, 10**9)
        _range("imitation.epochs", self.epochs, 1, 1000)
        _range("imitation.batch_size", self.batch_size, 1, 1_000_000)
        _positive("imitation.learning_rate", self.learning_rate)
        if self.vf_coef < 0:
            raise ConfigError(f"training key 'imitation.vf_coef': must be >= 0, got {self.vf_coef}")
        _range("imitation.games", self.games, 1, 1024)
        for name, share in self.opponents.items():
            _choice("imitation.opponents", name, OPPONENT_KINDS)
            if isinstance(share, bool) or not isinstance(share, (int, float)) or share < 0:
                raise ConfigError(f"training key 'imitation.opponents.{name}': expected a share >= 0, got {share!r}")
        if sum(self.opponents.values()) <= 0:
            raise ConfigError("training key 'imitation.opponents': the shares add up to 0")


@dataclass
class ExpertIterationSection:
    # Learning from a search (training/expert_iteration.py): after the warm start, rounds where an agent that
    # searches labels the decisions of games, each followed by training on every label so far; then PPO.
    search: str | None = None  # the labelling agent, one that searches ("ismcts:playouts=..."); null: no such stage
    play: list[str] = field(default_factory=lambda: ["search", "learner"])  # per round, who plays: search or learner
    labels: int = 20_000  # labelled decisions per round (at least: whole shards)
    shard_games: int = 16  # games per shard, played at once; a kill loses at most the shard under way
    threads: int = 2  # searches at once (the native search releases the GIL)
    # the labelled side's opponents: teacher (the labelled side in every seat), expert, greedy, random, ppo:PATH
    opponents: dict[str, float] = field(default_factory=lambda: {"teacher": 0.25, "expert": 0.5, "greedy": 0.25})
    epochs: int = 2  # passes over every label so far, after each round
    batch_size: int = 256
    learning_rate: float = 3e-4
    vf_coef: float = 0.5
    soft: float = 0.0  # weight of the soft target softmax(gains / temperature) over the search's candidates
    temperature: float = 0.05

    def check(self) -> None:
        from .imitation import check_opponent_kinds

        if self.search is not None and (not isinstance(self.search, str) or not self.search):
            raise ConfigError(f"training key 'expert_iteration.search': expected an agent name, got {self.search!r}")
        if not self.play:
            raise ConfigError("training key 'expert_iteration.play': name at least one round (search or learner)")
        for who in self.play:
            _choice("expert_iteration.play", who, ("search", "learner"))
        _range("expert_iteration.labels", self.labels, 1, 10**9)
        _range("expert_iteration.shard_games", self.shard_games, 1, 1024)
        _range("expert_iteration.threads", self.threads, 1, 256)
        check_opponent_kinds(self.opponents, "expert_iteration.opponents")
        for name, share in self.opponents.items():
            if isinstance(share, bool) or not isinstance(share, (int, float)) or share < 0:
                raise ConfigError(f"training key 'expert_iteration.opponents.{name}': expected a share >= 0, "
                                  f"got {share!r}")
        if sum(self.opponents.values()) <= 0:
            raise ConfigError("training key 'expert_iteration.opponents': the shares add up to 0")
        _range("expert_iteration.epochs", self.epochs, 1, 1000)
        _range("expert_iteration.batch_size", self.batch_size, 1, 1_000_000)
        _positive("expert_iteration.learning_rate", self.learning_rate)
        if isinstance(self.vf_coef, bool) or self.vf_coef < 0:
            raise ConfigError(f"training key 'expert_iteration.vf_coef': must be >= 0, got {self.vf_coef}")
        if not 0 <= self.soft <= 1:
            raise ConfigError(f"training key 'expert_iteration.soft': expected a weight in [0, 1], got {self.soft}")
        _positive("expert_iteration.temperature", self.temperature)


def _searching_agent(name: str, game: str | None) -> None:
    """`name` is an agent of `game` that searches (it takes a world sampler for its seat) and loads."""
    from ktenv import agents

    key = "training key 'expert_iteration.search'"
    try:
        agent = agents.make(name, game=game)
    except Exception as exc:  # an agent's options may raise anything: refuse now, not in the middle of a run
        raise ConfigError(f"{key}: {name!r} cannot be made: {exc}") from None
    if not getattr(agent, "needs_worlds", False):
        raise ConfigError(f"{key}: {name!r} does not search (labels come from an agent that searches sampled "
                          "worlds, such as ismcts:...; to copy a plain agent use imitation.teacher)")


@dataclass
class RLlibSection:
    # `trainer: rllib` (training/rllib_train.py): PPO on RLlib, every seat an RLlib agent.
    env_runners: int = 1  # Ray actors playing the games (n_envs games each); 0: in the driver
    ray_address: str | None = None  # null: a local Ray cluster; "auto" or HOST:PORT: an existing one

    def check(self) -> None:
        _range("rllib.env_runners", self.env_runners, 0, 4096)
        if self.ray_address is None or self.ray_address == "auto":
            return
        from ktenv.ray_cluster import RayClusterError, parse_address

        bad = ConfigError(f"training key 'rllib.ray_address': expected 'auto' or HOST:PORT, got {self.ray_address!r}")
        if not isinstance(self.ray_address, str):
            raise bad
        try:
            parse_address(self.ray_address)
        except RayClusterError:
            raise bad from None


TRAINERS = ("sb3", "rllib")


@dataclass
class TrainConfig:
    out: str = "runs/ppo"  # the run folder: config, TensorBoard logs, checkpoints, league, eval results
    trainer: str = "sb3"  # "sb3": MaskablePPO (training/train_ppo.py); "rllib": RLlib PPO (training/rllib_train.py)
    seed: int = 1
    total_steps: int = 1_000_000  # learner decisions
    n_envs: int = 64  # games in parallel (one batch of native games; or one subprocess each)
    vec_env: str = "vector"  # "vector" (batched native games), "subproc" or "dummy" (SingleAgentEnvs)
    checkpoint_every: int = 100_000
    keep_checkpoints: int = 3  # the newest kept (0: all); final.zip and latest.json's checkpoint always stay
    log_every_seconds: float = 30.0  # the console progress line
    torch_threads: int = 1
    learner_precision: str = "auto"  # bf16 where the CPU multiplies bfloat16 natively (AMX, AVX512-BF16), else fp32
    env: EnvSection = field(default_factory=EnvSection)
    ppo: PPOSection = field(default_factory=PPOSection)
    policy: PolicySection = field(default_factory=PolicySection)
    league: LeagueSection = field(default_factory=LeagueSection)
    eval: EvalSection = field(default_factory=EvalSection)
    imitation: ImitationSection = field(default_factory=ImitationSection)
    expert_iteration: ExpertIterationSection = field(default_factory=ExpertIterationSection)
    rllib: RLlibSection = field(default_factory=RLlibSection)
    # warm start: the learner begins with this model's weights (a zip of ktenv train: final.zip, a checkpoint,
    # models/ppo_2p.zip) instead of the imitation; its game, players, sizes and network must be the config's
    init_from: str | None = None

    def check(self) -> None:
        if not isinstance(self.out, str) or not self.out:
            raise ConfigError(f"training key 'out': expected a folder path, got {self.out!r}")
        _range("seed", self.seed, 0, 2**31 - 1)
        _range("total_steps", self.total_steps, 1, 10**12)
        _range("n_envs", self.n_envs, 1, 1024)
        _choice("vec_env", self.vec_env, VEC_ENVS)
        if self.vec_env == "vector" and self.env.engine == "python":
            raise ConfigError("training key 'vec_env': 'vector' runs native games, and env.engine is 'python' "
                              "(choose vec_env subproc or dummy for the Python engine)")
        spec = self.env.spec
        if not spec.has("learner_vec_env") and self.vec_env == "vector":
            raise ConfigError(f"training key 'vec_env': {spec.title} trains in subproc or dummy games (it has no "
                              "batched native games with a learning seat)")
        if not spec.has("vector_env") and self.imitation.teacher:  # the teacher plays the batched games
            raise ConfigError(f"training key 'imitation.teacher': {spec.title} has no batched native games to "
                              "watch a teacher in (set it to null)")
        _range("checkpoint_every", self.checkpoint_every, 1, 10**12)
        _range("keep_checkpoints", self.keep_checkpoints, 0, 1_000_000)
        _positive("log_every_seconds", self.log_every_seconds)
        _range("torch_threads", self.torch_threads, 1, 256)
        _choice("learner_precision", self.learner_precision, PRECISIONS)
        _choice("trainer", self.trainer, TRAINERS)
        for section in (self.env, self.ppo, self.policy, self.league, self.eval, self.imitation,
                        self.expert_iteration, self.rllib):
            section.check()
        if self.expert_iteration.search is not None:
            check_expert_iteration(self)
        if self.policy.focus and not spec.has("network_focus"):
            raise ConfigError(f"training key 'policy.focus': {spec.title} names no place for a network to focus on")
        if self.policy.focus and self.trainer != "sb3":
            raise ConfigError("training key 'policy.focus': the focus is for trainer sb3 only")
        if self.policy.steer and not spec.has("network_steer"):
            raise ConfigError(f"training key 'policy.steer': {spec.title} has no steps for a network to steer")
        if self.policy.steer and self.trainer != "sb3":
            raise ConfigError("training key 'policy.steer': the steer is for trainer sb3 only")
        if self.policy.rows and not spec.has("network_rows"):
            raise ConfigError(f"training key 'policy.rows': {spec.title} names no table rows for a network to score")
        if self.policy.rows and self.trainer != "sb3":
            raise ConfigError("training key 'policy.rows': the row scores are for trainer sb3 only")
        if self.policy.row_steps and not self.policy.rows:
            raise ConfigError("training key 'policy.row_steps': the steps are scored with the row scores "
                              "(set policy.rows: true)")
        if self.trainer == "rllib" and self.imitation.teacher is not None:
            raise ConfigError("training key 'imitation.teacher': the imitation warm start is for trainer sb3 only "
                              "(set it to null for trainer rllib)")
        check_opponents(self)  # (after every section: it needs the game, the players and the vec_env)
        if self.eval.best_against is not None and self.eval.best_against not in self.eval.opponents:
            raise ConfigError(f"eval.best_against: {self.eval.best_against!r} is not one of eval.opponents "
                              f"{self.eval.opponents}")
        if self.init_from is not None:
            check_init_from(self)
        if self.ppo.batch_size > self.ppo.n_steps * self.n_envs:
            raise ConfigError(f"training key 'ppo.batch_size': {self.ppo.batch_size} is more than one rollout "
                              f"(ppo.n_steps x n_envs = {self.ppo.n_steps * self.n_envs})")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_mapping(cls, data: dict, source: str = "config") -> TrainConfig:
        try:
            return _checked(cls, data)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None

    @classmethod
    def from_yaml(cls, path: str | Path, overrides: dict | None = None,
                  labels: dict[str, str] | None = None) -> TrainConfig:
        """The file with `overrides` ({dotted key: value}) set; an error names its source: the file,
        or the override that brought the problem in (``labels[key]``, else ``--set key=value``)."""
        data, overrides = load_yaml(path), overrides or {}
        try:
            return _checked(cls, _overridden(data, overrides))
        except ConfigError as exc:
            culprit = _culprit(cls, data, overrides, str(exc))
            if culprit is None:
                raise ConfigError(f"{path}: {exc}") from None
            raise ConfigError(f"{(labels or {}).get(culprit) or f'--set {culprit}={overrides[culprit]}'}: "
                              f"{exc}") from None

    def save(self, path: str | Path) -> None:
        import yaml

        Path(path).write_text("# resolved by ktenv train: every key, defaults filled in\n"
                              + yaml.safe_dump(self.to_dict(), sort_keys=False))


# ----------------------------------------------------------------------------- opponents and init_from

def check_opponents(cfg: TrainConfig) -> None:
    """Every league and evaluation opponent is an agent of the game that the run can play: a model of this
    game, player count and observation size, a user's file that loads, a search only where the training
    games can give it the game state. Checked on load, not in the middle of a run."""
    for name in cfg.league.opponents:
        check_agent(cfg, "league.opponents", name, training_seat=True)
    for item in cfg.eval.opponents:
        seats = eval_seats(item)
        if len(seats) > 1 and len(seats) != cfg.env.players - 1:
            raise ConfigError(f"training key 'eval.opponents': the table {item!r} seats {len(seats)} agents beside "
                              f"the model; a game of {cfg.env.players} players has {cfg.env.players - 1} such seats")
        for member in seats:
            try:
                spec = agent_label(member)[1]
            except ConfigError as exc:
                raise ConfigError(f"training key 'eval.opponents': {exc}") from None
            check_agent(cfg, "eval.opponents", spec, training_seat=False)


TABLE = " + "  # an evaluation opponent "A + B + C": a whole table


def eval_seats(item: str) -> list[str]:
    """The agents an evaluation opponent sits beside the model: one agent (the tournament's rotation then fills a
    larger table with copies of both: at 4 players the model holds two seats), or the table ``A + B + C``, one seat
    each, as the tournaments people run (``--agents MODEL,expert,greedy,random``)."""
    return [m.strip() for m in item.split(TABLE)] if TABLE in item else [item]


def opponent_name(item: str) -> str:
    """An evaluation opponent as the logs name it: its LABEL, its spec, or the table as written."""
    return item if TABLE in item else agent_label(item)[0]


def eval_tournament(cfg: TrainConfig, me: str, opponent: str, step: int, db: Path):
    """The arena's tournament of one evaluation: the model `me` against `opponent` (an item of eval.opponents)."""
    from ktenv.arena.config import TournamentConfig

    return TournamentConfig(
        agents=[me, *eval_seats(opponent)], players=cfg.env.players, games=cfg.eval.games, workers=cfg.eval.workers,
        seed=cfg.seed + 1_000 + step % 1_000_000, max_rounds=cfg.env.max_rounds, game=dict(cfg.env.game),
        progress=False, fresh=True, game_name=cfg.env.game_name, db=str(db))


def opponent_tag(item: str) -> str:
    """An evaluation opponent's name in TensorBoard tags and file names: its LABEL of ``LABEL=SPEC``, else its
    spec with what a path holds (``/``, ``:``) as ``_``: ``ppo:models/ppo_2p.zip`` -> ``ppo_models_ppo_2p.zip``;
    a table: its members' tags joined by ``+``."""
    if TABLE in item:
        return "+".join(opponent_tag(member) for member in eval_seats(item))
    label, spec = agent_label(item)
    return label if label != spec else re.sub(r"[^A-Za-z0-9_.-]+", "_", spec).strip("_") or "agent"


def check_agent(cfg: TrainConfig, key: str, name: str, training_seat: bool) -> None:
    """`name` (an agent spec) as an opponent of the run; `training_seat`: it plays in the training games."""
    from ktenv import agents

    spec, where = cfg.env.spec, f"training key '{key}'"
    table = spec.agents.AGENTS
    if not table.known(name):
        raise ConfigError(f"{where}: unknown agent {name!r}{did_you_mean(name, table.names())} (known: "
                          f"{', '.join(table.names())}, ppo:PATH, ppo-sample:PATH, rllib:PATH, or FILE.py:CLASS)")
    if training_seat and cfg.trainer == "rllib" and name not in HEURISTIC_AGENTS:
        raise ConfigError(f"{where}: trainer rllib plays {', '.join(HEURISTIC_AGENTS)} and the learner's snapshots "
                          f"in its league, not {name!r} (trainer sb3 plays any agent)")
    prefix, sep, path = name.partition(":")
    if sep and prefix in MODEL_PREFIXES:
        if not Path(path).expanduser().is_file():
            raise ConfigError(f"{where}: {name}: no such model file")
        agents.check_models([name], spec.name, cfg.env.players, where)
        if prefix != "rllib":
            from .policy import CheckpointError, read_meta

            try:
                meta = read_meta(Path(path).expanduser())
            except CheckpointError as exc:
                raise ConfigError(f"{where}: {name}: {exc}") from None
            check_sizes(cfg, meta, f"{where}: {name}")
        return
    if name in HEURISTIC_AGENTS:
        return
    try:
        agent = table.make(name)
    except Exception as exc:  # a user's file may raise anything: it must load now, not in the middle of a run
        raise ConfigError(f"{where}: {name!r} cannot be loaded: {exc}") from None
    if training_seat and cfg.vec_env == "vector" and getattr(agent, "needs_worlds", False):
        raise ConfigError(f"{where}: {name!r} searches the game state, which the batched games (vec_env: vector) "
                          "do not hand to a seat; train against it with vec_env: subproc")


def check_expert_iteration(cfg: TrainConfig) -> None:
    """The labelling rounds need batched native games, a world sampler for the search and, where the learner
    plays the first round, a learner that has learnt something (a warm start)."""
    spec, where = cfg.env.spec, "training key 'expert_iteration.search'"
    if cfg.trainer != "sb3":
        raise ConfigError(f"{where}: learning from a search is for trainer sb3 only")
    if not (spec.has("vector_env") and spec.has("analysis")):
        raise ConfigError(f"{where}: {spec.title} has no batched native games with a world sampler to label in")
    if cfg.env.engine == "python":
        raise ConfigError(f"{where}: the labels are made in native games, and env.engine is 'python'")
    _searching_agent(cfg.expert_iteration.search, cfg.env.game_name)
    for name in cfg.expert_iteration.opponents:
        if name != "teacher":
            check_agent(cfg, "expert_iteration.opponents", name, training_seat=True)
    if cfg.expert_iteration.play[0] == "learner" and not (cfg.init_from or cfg.imitation.teacher):
        raise ConfigError("training key 'expert_iteration.play': the learner plays round 0, but it starts untrained "
                          "(set init_from or imitation.teacher, or let the search play round 0)")


def check_init_from(cfg: TrainConfig) -> None:
    """`init_from` is a model of this run's game, player count, observation and action sizes and network."""
    from ktenv import agents

    from .policy import CheckpointError, read_meta

    where = "training key 'init_from'"
    if cfg.trainer != "sb3":
        raise ConfigError(f"{where}: the warm start from a model is for trainer sb3 only")
    path = Path(cfg.init_from).expanduser()
    try:
        meta = read_meta(path)
    except CheckpointError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    game, players = agents.model_game(f"ppo:{path}") or ("?", "?")
    if (game, players) != (cfg.env.spec.name, cfg.env.players):
        raise ConfigError(f"{where}: {path} is a model of {game} for {players} players; this run trains "
                          f"{cfg.env.spec.name} with {cfg.env.players} players")
    check_sizes(cfg, meta, f"{where}: {path}")
    mine = network_of(cfg)
    if meta["network"] != mine:
        raise ConfigError(f"{where}: {path} has the network {_network(meta['network'])}; this config's policy is "
                          f"{_network(mine)} (set policy.* to the model's)")


def network_of(cfg: TrainConfig) -> dict:
    """The ``network`` entry of the run's model files: the policy section, with the focus, steer and row tables
    when it has them."""
    net = {"features": cfg.policy.features, "pi": list(cfg.policy.pi), "vf": list(cfg.policy.vf),
           "activation": cfg.policy.activation}
    if cfg.policy.focus:
        net["focus"] = cfg.env.spec.network_focus(cfg.env.game_config()).to_json()
    if cfg.policy.steer:
        net["steer"] = cfg.env.spec.network_steer(cfg.env.game_config()).to_json()
    if cfg.policy.rows:
        net["rows"] = cfg.env.spec.network_rows(cfg.env.game_config(), steps=cfg.policy.row_steps).to_json()
    return net


def check_sizes(cfg: TrainConfig, meta: dict, what: str) -> None:
    """A model's observation and action sizes are those of the run's games (game options change them)."""
    observation_size, action_size = game_sizes(cfg.env)
    for name, theirs, ours in (("observation size", meta["observation_size"], observation_size),
                               ("action size", meta["action_size"], action_size)):
        if theirs != ours:
            raise ConfigError(f"{what} has the {name} {theirs}; this run's games have {ours} (env.players and "
                              "env.game options set it)")


def game_sizes(env: EnvSection) -> tuple[int, int]:
    """(observation size, action size) of a seat in the games `env` describes."""
    import json

    return _sizes(env.game_name, json.dumps(env.game_config().to_dict(), sort_keys=True, default=str))


@functools.lru_cache(maxsize=16)
def _sizes(game_name: str | None, config_json: str) -> tuple[int, int]:
    import json

    spec = registry.game(game_name)
    aec = spec.raw_env(**json.loads(config_json))
    seat = aec.possible_agents[0]
    return int(aec.observation_space(seat)["observation"].shape[0]), int(aec.action_space(seat).n)


def _network(net: dict) -> str:
    return (f"features {net.get('features')}, pi {net.get('pi')}, vf {net.get('vf')}, "
            f"activation {net.get('activation')}" + (", with a focus" if net.get("focus") else "")
            + (", with a steer" if net.get("steer") else "") + (", with row scores" if net.get("rows") else ""))


# ----------------------------------------------------------------------------- building and checks

def _checked(cls, data: dict):
    cfg = _build(cls, data, "")
    cfg.check()
    return cfg


def _overridden(data: dict, overrides: dict) -> dict:
    data = copy.deepcopy(data)
    for dotted, value in overrides.items():
        _set_dotted(data, dotted, value)
    return data


def _culprit(cls, data: dict, overrides: dict, message: str) -> str | None:
    """The first override after which the settings fail with `message` (None: the file alone does)."""
    keys = list(overrides)
    for n in range(len(keys) + 1):
        try:
            _checked(cls, _overridden(data, {k: overrides[k] for k in keys[:n]}))
        except ConfigError as exc:
            if str(exc) == message:
                return keys[n - 1] if n else None
    return keys[-1] if keys else None


def _build(cls, data, prefix: str):
    if not isinstance(data, dict):
        raise ConfigError(f"training key '{prefix[:-1] or '(top)'}': expected a mapping, got {data!r}")
    hints = typing.get_type_hints(cls)
    known = [f.name for f in fields(cls)]
    for key in data:
        if key not in known:
            raise ConfigError(f"unknown training key '{prefix}{key}'{did_you_mean(key, known)} "
                              f"(known here: {', '.join(known)})")
    values = {}
    for key, value in data.items():
        kind = hints[key]
        if isinstance(kind, type) and hasattr(kind, "__dataclass_fields__"):
            values[key] = _build(kind, value, f"{prefix}{key}.")
        else:
            values[key] = _typed(f"{prefix}{key}", value, kind)
    return cls(**values)


def _typed(key: str, value, kind):
    """`value` checked (and int->float widened) against the annotation `kind`."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if value is None and type(None) in args:
            return None
        kind = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(kind), typing.get_args(kind)
    bad = ConfigError(f"training key '{key}': expected {_describe(kind)}, got {value!r}")
    if kind is bool:
        if not isinstance(value, bool):
            raise bad
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad
        value = float(value)
    elif kind is str:
        if not isinstance(value, str):
            raise bad
    elif origin is list:
        if not isinstance(value, list):
            raise bad
        value = [_typed(key, v, args[0]) for v in value]
    elif origin is dict or kind is dict:
        if not isinstance(value, dict):
            raise bad
        if args:
            value = {_typed(key, k, args[0]): _typed(f"{key}.{k}", v, args[1]) for k, v in value.items()}
    return value


def _describe(kind) -> str:
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "a text"}
    if kind in names:
        return names[kind]
    origin = typing.get_origin(kind)
    return "a list" if origin is list else "a mapping" if origin is dict or kind is dict else str(kind)


def _set_dotted(data: dict, dotted: str, value) -> None:
    *path, last = dotted.split(".")
    node = data
    for part in path:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"training key '{part}' is not a section (it holds {node!r})")
    node[last] = value


def _range(key: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"training key '{key}': expected a whole number {low}-{high}, got {value!r}")


def _positive(key: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ConfigError(f"training key '{key}': expected a number > 0, got {value!r}")


def _unit(key: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ConfigError(f"training key '{key}': expected a number in (0, 1], got {value!r}")


def _choice(key: str, value, allowed: tuple) -> None:
    if value not in allowed:
        raise ConfigError(f"training key '{key}': {value!r} is not one of {list(allowed)}")

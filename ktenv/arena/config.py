"""Tournament settings: one record, from a YAML file and/or command-line flags.

Every option of `ktenv tournament` is a key here; a YAML file (``--config FILE``) gives any of
them and command-line flags override it. A bad file or value is an error naming the key::

    agents: [expert, greedy, random]
    players: 4
    games: 200
    workers: 2
    seed: 1
    max_rounds: 40
    game: {victory: standard}      # any GameConfig key (R0.3 options) except n_players/max_rounds
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from .. import registry as games
from ..errors import ConfigError, did_you_mean

DEFAULT_MAX_DECISIONS = 200_000  # a safety bound; the round limit ends every normal game

BACKENDS = ("process", "ray")


@dataclass
class TournamentConfig:
    agents: list[str] = field(default_factory=lambda: ["expert", "greedy", "random"])
    players: int = 4
    games: int = 100
    workers: int = 2
    seed: int = 1
    max_rounds: int = 40
    game: dict = field(default_factory=dict)  # further options of the game's config
    db: str | None = None  # SQLite file; default: runs/<name>.sqlite
    resume: bool = False
    fresh: bool = False
    records: str | None = None  # folder for one JSON record per game
    dataset: str | None = None  # folder for the games as Parquet tables, written while the games are played
    summary_json: str | None = None
    plot: str | None = None
    backend: str = "process"
    ray_address: str | None = None
    progress: bool = True
    max_decisions: int = DEFAULT_MAX_DECISIONS
    engine: str = "auto"  # the rules engine: auto, native or python (the same games either way)
    game_name: str | None = None  # a registered game (ktenv.registry); None: the default game

    def __post_init__(self) -> None:
        self.validate()

    # ----- validation: every error names its key

    def validate(self) -> None:
        from ..gamekit.cli import agent_label, split_names

        if self.game_name is not None and not isinstance(self.game_name, str):
            raise ConfigError(f"tournament key 'game_name': expected a game's name, got {self.game_name!r}")
        try:
            spec = self.spec
        except ConfigError as exc:
            raise ConfigError(f"tournament key 'game_name': {exc}") from None
        if isinstance(self.agents, str):
            self.agents = split_names(self.agents)
        registry = spec.agents.AGENTS  # the game's own agents

        if not isinstance(self.agents, list) or not self.agents or not all(isinstance(a, str) for a in self.agents):
            raise ConfigError(f"tournament key 'agents': expected a list of agent names, got {self.agents!r}")
        _whole("players", self.players, 1, 64)
        from ktenv.agents import check_models

        try:
            pairs = [agent_label(a) for a in self.agents]
        except ConfigError as exc:
            raise ConfigError(f"tournament key 'agents': {exc}") from None
        specs = [spec_ for _, spec_ in pairs]
        check_models(specs, spec.name, self.players, "tournament key 'agents'")
        for name in specs:
            if not registry.known(name):
                raise ConfigError(f"tournament key 'agents': unknown agent {name!r}"
                                  f"{did_you_mean(name, registry.names())} "
                                  f"(known: {', '.join(registry.names())}, ppo:PATH, ppo-sample:PATH, rllib:PATH, "
                                  "cmd:COMMAND, llm:OPTIONS or FILE.py:CLASS; LABEL=SPEC gives one a short name)")
            if ":" in name:  # a model or a user's file: it must load now, not in the middle of a tournament
                try:
                    registry.make(name)
                except Exception as exc:
                    raise ConfigError(f"tournament key 'agents': {name!r} cannot be loaded: {exc}") from None
        labels = [label for label, _ in pairs]
        if len(set(labels)) != len(labels):
            raise ConfigError(f"tournament key 'agents': an agent is named twice ({labels})")
        clash = [label for label, spec_ in pairs if label != spec_ and (label in specs or registry.known(label))]
        if clash:
            raise ConfigError(f"tournament key 'agents': short name {clash[0]!r} is the name of another agent")
        spec.check_players(self.players, "tournament key 'players'")
        _whole("games", self.games, 1, 10_000_000)
        _whole("workers", self.workers, 1, 1024)
        if "human" in specs and (self.workers > 1 or self.backend != "process"):  # a person answers one game
            raise ConfigError("tournament key 'agents': a human seat plays at this terminal, one game at a time: "
                              "use --workers 1 (and the process backend)")
        _whole("seed", self.seed, 0, 2**62)
        _whole("max_rounds", self.max_rounds, 1, 10_000)
        _whole("max_decisions", self.max_decisions, 1, 10**9)
        if self.engine not in ("auto", "native", "python"):
            raise ConfigError(f"tournament key 'engine': expected auto, native or python, got {self.engine!r}")
        spec.check_engine(self.engine, "tournament key 'engine'")
        if not isinstance(self.game, dict):
            raise ConfigError(f"tournament key 'game': expected a mapping of game options, got {self.game!r}")
        for key in ("n_players", "max_rounds"):
            if key in self.game:
                raise ConfigError(f"tournament key 'game.{key}': set it with the tournament key "
                                  f"'{'players' if key == 'n_players' else key}' instead")
        try:
            self.game_config()
        except ConfigError as exc:
            raise ConfigError(f"tournament key 'game': {exc}") from None
        except TypeError as exc:
            raise ConfigError(f"tournament key 'game': {exc}") from None
        for key in ("db", "records", "dataset", "summary_json", "plot", "ray_address"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"tournament key '{key}': expected a path or name, got {value!r}")
        if self.records is not None and Path(self.records).exists() and not Path(self.records).is_dir():
            raise ConfigError(f"tournament key 'records': {self.records} is a file; give a folder for the game records")
        if self.dataset is not None and self.records is None:
            raise ConfigError("tournament key 'dataset' needs 'records' (--dataset needs --records DIR): the tables' "
                              "decisions come from the game records")
        for key in ("resume", "fresh", "progress"):
            if not isinstance(getattr(self, key), bool):
                raise ConfigError(f"tournament key '{key}': expected true or false, got {getattr(self, key)!r}")
        if self.resume and self.fresh:
            raise ConfigError("tournament keys 'resume' and 'fresh': choose one")
        if self.backend not in BACKENDS:
            raise ConfigError(f"tournament key 'backend': {self.backend!r} is not one of {list(BACKENDS)}")

    @property
    def spec(self) -> games.GameSpec:
        """The game played (`ktenv.registry`)."""
        return games.game(self.game_name)

    def game_config(self) -> Any:
        return self.spec.make_config(self.game, self.players, self.max_rounds)

    @property
    def labels(self) -> list[str]:
        """Each agent's name in the standings, the store and the records (its short name, else its spec)."""
        from ..gamekit.cli import agent_label

        return [agent_label(a)[0] for a in self.agents]

    @property
    def specs(self) -> dict[str, str]:
        """Label -> the agent spec that builds it."""
        from ..gamekit.cli import agent_label

        return dict(agent_label(a) for a in self.agents)

    @property
    def name(self) -> str:
        agents = "-".join(re.sub(r"[^A-Za-z0-9_.-]+", "_", a) for a in self.labels)  # ppo:PATH has slashes
        return f"{self.spec.run_prefix}{agents}_{self.players}p_seed{self.seed}"

    @property
    def db_path(self) -> Path:
        return Path(self.db) if self.db else Path("runs") / f"tournament_{self.name}.sqlite"

    def identity(self) -> dict:
        """What must match for games to belong to the same tournament (checked on --resume).

        An agent played from a file (``ppo:PATH``, ``FILE.py:CLASS``) is identified by the file's
        SHA-256 too, so games of a retrained model are never mixed with the old model's."""
        out = {"agents": self.agents, "players": self.players, "seed": self.seed,
               "game": self.game_config().to_dict()}
        files = self.agent_files()
        if files:  # only then: stores of built-in agents keep the identity they were written with
            out["agent_files"] = files
        if self.max_decisions != DEFAULT_MAX_DECISIONS:  # a bound that cuts games changes which games count
            out["max_decisions"] = self.max_decisions
        return out

    def agent_files(self) -> dict[str, str]:
        """SHA-256 of the file behind each agent that is played from one (a model, a user's source)."""
        out = {}
        for label, spec in self.specs.items():
            path = agent_file(spec)
            if path is not None:
                out[label] = file_digest(path)
        return out

    def to_dict(self) -> dict:
        return asdict(self)

    # ----- sources

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def from_mapping(cls, data: dict, source: str = "config") -> TournamentConfig:
        if not isinstance(data, dict):
            raise ConfigError(f"{source}: expected a mapping of tournament keys, got {type(data).__name__}")
        known = cls.keys()
        for key in data:
            if key not in known:
                raise ConfigError(f"{source}: unknown tournament key '{key}'{did_you_mean(key, known)} "
                                  f"(known: {', '.join(known)})")
        try:
            return cls(**data)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None

    @classmethod
    def from_yaml(cls, path: str | Path, overrides: dict | None = None) -> TournamentConfig:
        """The file's keys, then `overrides` (command-line flags that were given) on top."""
        data = load_yaml(path)
        data.update(overrides or {})
        return cls.from_mapping(data, source=str(path))


def load_yaml(path: str | Path) -> dict:
    try:
        import yaml
    except ImportError:  # pragma: no cover - pyyaml is a dependency
        raise ConfigError("reading a YAML config needs the 'pyyaml' package (pip install pyyaml)") from None
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML ({exc})") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of tournament keys at the top, got {type(data).__name__}")
    return data


def agent_file(name: str) -> Path | None:
    """The file an agent name plays from: PATH of ``prefix:PATH`` or FILE.py of ``FILE.py:CLASS``; None for a
    registered agent (its code is ktenv's own)."""
    from ktenv import agents as registry

    if name in registry.names():
        return None
    path, sep, attr = name.rpartition(":")
    if sep and attr.isidentifier() and path.endswith(".py"):
        return Path(path).expanduser()
    prefix, sep, arg = name.partition(":")
    finder = getattr(registry.SHARED_PREFIXES.get(prefix), "source_file", None)
    if sep and arg and finder is not None:  # an argument that names its file among other words (cmd:python bot.py)
        return finder(arg)
    if sep and arg and Path(arg).expanduser().is_file():
        return Path(arg).expanduser()
    return None


def file_digest(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it to identify the agent ({exc.strerror or exc})") from None


def short_digest(digest: str) -> str:
    return digest[:12]


def _whole(key: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"tournament key '{key}': expected a whole number {low}-{high}, got {value!r}")

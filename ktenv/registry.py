"""The game registry: each game registers one `GameSpec`, and the shared layers look games up by name.

The CLI, the arena, game records, ratings, training and the environments' entry points never name a
game: they call `game(name)` (or `game_of_config(cfg)`, `game_of_state(state)`) and use the spec's
parts. A game is a package of its own (``ktenv/<name>/``) whose ``spec.py`` builds its `GameSpec`;
packages declare it under the ``ktenv.games`` entry-point group (pyproject.toml), so a third game,
in ktenv or in another distribution, is one new folder and one entry point. `register` adds a spec at
run time (a notebook's own game, a test's).

A spec's light facts (name, title, player counts, Gymnasium id) are plain fields; its parts are
"module:attribute" references imported on first use, so looking a game up loads nothing heavy.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError

ENTRY_POINT_GROUP = "ktenv.games"

# The parts every game provides, as "module:attribute" references (a bare "module" is the module itself),
# and what the shared layers do with them.
PARTS: dict[str, str] = {
    "config_type": "the frozen config record (`from_dict`, `to_dict`); its `n_players` is the player count",
    "make_config": "make_config(options, players, max_rounds) -> config: the tournament's and trainer's settings",
    "engine": "a gamekit.Engine: state type, new_game(cfg, seed), step, legal_mask, describe_action",
    "new_game": "new_game(cfg, seed, backend='auto') -> state: the engine chosen by `backend`",
    "env": "env(**config): the PettingZoo AEC environment with the usual wrappers",
    "raw_env": "the AEC environment class",
    "single_env": "the Gymnasium single-agent environment class (one seat learns)",
    "agents": "the package of the game's agents; its AGENTS (an agents.AgentTable) names them",
    "play_game": "play_game(cfg, seed, agent_names, record=, max_decisions=, backend=) -> arena GameResult",
    "play_command": "play_command(args) -> exit code: `ktenv play --game NAME` (one seeded game, its summary)",
    "render_command": "render_command(args) -> exit code: `ktenv render` of a saved game of this game",
    "result_of": "result_of(state, decisions) -> the result mapping stored in records and tournaments",
    "replay_view": "a gamekit.ReplayView: how `ktenv replay` dates and tells moves, draws and sums up a game",
    "saved_game": "saved_game(data) -> whether a parsed JSON save belongs to this game",
    "record_schema": "the save format that records' state fingerprints hash (result_of's 'state_schema')",
}
# Parts a game may lack (the shared layers then say what is not available for it).
OPTIONAL_PARTS: dict[str, str] = {
    "vector_env": "the batched games' class (VectorEnv): many games stepped in native code per call",
    "learner_vec_env": "LearnerVecEnv(n_envs, opponents=, ...): the batched games as an SB3 VecEnv, one seat learning",
    "dataset": "dataset(cfg) -> a datasets.game.GameReader: what `ktenv dataset` reads from a state",
    "web_view": "the module of the browser app's page views of the game (ktenv.web.views lists what it holds)",
    "analysis": "the module of the policy analysis' game parts: world_sampler(state, seat), paired_differences(...)",
    "network_focus": "network_focus(cfg) -> a gamekit.focus.FocusTable: inputs a policy network gathers around a "
                     "place the observation names (policy.focus in a training config)",
    "network_steer": "network_steer(cfg) -> a gamekit.steer.SteerTable: step actions whose logits a policy network "
                     "also reads from a choice of destination (policy.steer in a training config)",
    "network_rows": "network_rows(cfg, steps=False) -> a gamekit.rows.RowTable: action blocks whose logits a policy "
                    "network also scores from their rows of an observation table, and with steps the step actions "
                    "from the rows they lead to (policy.rows, policy.row_steps in a training config)",
    "bot_view": "the module of a seat's view for bots and language models, all from its observation vector alone: "
                "seat_view() (an agents.human.SeatView), layout(observation) (the ObservationLayout naming the "
                "vector's fields), players(observation)",
}


@dataclass(frozen=True)
class GameSpec:
    """One game as the shared layers see it. `parts` maps each name of `PARTS` to "module:attribute"."""

    name: str  # the registry key and the --game value: lowercase_with_underscores
    title: str  # in English, for tables and pages
    players: tuple[int, ...]  # the player counts the rules cover
    default_players: int
    gym_id: str  # gymnasium.make(gym_id)
    env_name: str  # PettingZoo's metadata name
    parts: Mapping[str, str]
    players_rule: str = ""  # the rule that sets the player counts, cited in errors
    engines: tuple[str, ...] = ("python",)  # the rules engines: "python" (the reference), "native" (C++)
    has_round_limit: bool = True  # whether the game takes a round limit (max_rounds)
    round_word: str = "rounds"  # what one turn of the table is called in reports (rounds, years)
    stat_labels: tuple[str, str] = ("income", "hexes")  # the two per-seat figures averaged in standings
    run_prefix: str = ""  # prefix of default run and tournament names ("" for the default game)
    default: bool = False  # the game of `ktenv.env()` and of a command without --game
    _loaded: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        missing = sorted(set(PARTS) - set(self.parts))
        unknown = sorted(set(self.parts) - set(PARTS) - set(OPTIONAL_PARTS))
        if missing or unknown:
            raise ValueError(f"game {self.name!r}: parts missing {missing}, unknown {unknown}")

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_") or key not in self.parts:
            raise AttributeError(f"game {self.name!r} has no part {key!r}")
        if key not in self._loaded:
            module, _, attribute = self.parts[key].partition(":")
            loaded = importlib.import_module(module)
            self._loaded[key] = getattr(loaded, attribute) if attribute else loaded
        return self._loaded[key]

    def has(self, part: str) -> bool:
        """Whether the game provides an optional part (`OPTIONAL_PARTS`)."""
        return part in self.parts

    def check_engine(self, engine: str, key: str = "engine") -> None:
        """`engine`: auto, or one of the game's engines."""
        if engine != "auto" and engine not in self.engines:
            raise ConfigError(f"{key}: {self.title} has the engines {', '.join(self.engines)} (or auto), "
                              f"got {engine!r}")

    def check_players(self, players: int, key: str = "players") -> None:
        if players not in self.players:
            rule = f" ({self.players_rule})" if self.players_rule else ""
            raise ConfigError(f"{key}: {self.title} is for {_counts(self.players)} players{rule}, got {players}")


_GAMES: dict[str, GameSpec] = {}
_discovered = False


def register(spec: GameSpec) -> GameSpec:
    """Add a game (an entry point's spec, or one made at run time). A second spec of the same name is refused."""
    old = _GAMES.get(spec.name)
    if old is not None and old is not spec:
        raise ValueError(f"a game called {spec.name!r} is registered already")
    _GAMES[spec.name] = spec
    return spec


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    from importlib.metadata import entry_points

    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        spec = point.load()
        if not isinstance(spec, GameSpec) or spec.name != point.name:
            raise ValueError(f"entry point {point.name} = {point.value}: expected the GameSpec named {point.name!r}")
        register(spec)


def names() -> list[str]:
    _discover()
    return sorted(_GAMES)


def game(name: str | None = None) -> GameSpec:
    """The game called `name` (the default game for None); ConfigError naming the known games otherwise."""
    _discover()
    if name is None:
        return default()
    spec = _GAMES.get(name)
    if spec is None:
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(sorted(_GAMES))})")
    return spec


def default() -> GameSpec:
    _discover()
    marked = [g for g in _GAMES.values() if g.default]
    if len(marked) != 1:
        raise ValueError(f"expected one default game, found {[g.name for g in marked]}")
    return marked[0]


def game_of_config(cfg: Any) -> GameSpec:
    """The game whose config record `cfg` is."""
    _discover()
    for spec in _GAMES.values():
        if isinstance(cfg, spec.config_type):
            return spec
    raise ConfigError(f"{type(cfg).__name__} is the config of no registered game")


def game_of_state(state: Any) -> GameSpec:
    """The game a state (of either engine) belongs to, by its config."""
    return game_of_config(state.cfg)


def config_from_dict(data: Any, saved: bool = False) -> Any:
    """A game's config from a mapping: ``"game": NAME`` picks the game (the default game when absent). With
    `saved` the mapping comes from a file an earlier ktenv may have written: the config type's `from_saved`
    reads it where the type has one."""
    if not isinstance(data, dict):
        raise ConfigError(f"expected a mapping of game options, got {type(data).__name__}")
    spec = game(data.get("game")) if data.get("game") is not None else default()
    options = {k: v for k, v in data.items() if k != "game"}
    reader = getattr(spec.config_type, "from_saved", None) if saved else None
    return (reader or spec.config_type.from_dict)(options)


def config_to_dict(cfg: Any) -> dict:
    """The mapping `config_from_dict` reads back: the default game's without a "game" key (as older records)."""
    spec = game_of_config(cfg)
    out = cfg.to_dict()
    return out if spec.default else {"game": spec.name, **out}


def _counts(players: tuple[int, ...]) -> str:
    if len(players) > 1 and players == tuple(range(players[0], players[-1] + 1)):
        return f"{players[0]} to {players[-1]}"
    return ", ".join(map(str, players[:-1])) + f" or {players[-1]}"


__all__ = ["ENTRY_POINT_GROUP", "OPTIONAL_PARTS", "PARTS", "GameSpec", "config_from_dict", "config_to_dict", "default",
           "game",
           "game_of_config", "game_of_state", "names", "register"]

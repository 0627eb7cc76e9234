"""One game between agents, straight on the engine (the arena's inner loop).

The engine runs the rules; each agent gets only its observation (`ktenv.kings_and_things.env.ObservationEncoder`,
the same vector and mask the AEC env gives) and answers with an action. Observations are encoded
only for agents that read them (``needs_observation``; the random agent needs only the mask),
since encoding costs about as much as the engine's own step. Agents that search (``needs_worlds``)
also get ``observation["worlds"]``, a `ktenv.kings_and_things.worlds.WorldSampler` for their seat (agents.base).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from ..arena.config import DEFAULT_MAX_DECISIONS
from ..arena.game import ENGINE_ERROR, ForfeitError, GameResult, agent_seed, close_agents, forfeit_outcome, take_turn
from ..errors import ConfigError
from .board import board_radius, geometry
from .config import GameConfig
from .engine import legal_mask, new_game, step
from .env.observation import ObservationEncoder
from .env.stats import FORT_LEVELS, GOLD, HEROES, HEXES, INCOME, player_stats
from .worlds import WorldSampler


def encoder_for(cfg: GameConfig) -> ObservationEncoder:
    return ObservationEncoder(cfg, geometry(board_radius(cfg.n_players)).n_hexes)


def make_agents(names: list[str], seed: int) -> list:
    from ktenv.agents.kings_and_things import AGENTS

    return [AGENTS.make(name, seed=agent_seed(seed, seat)) for seat, name in enumerate(names)]


@dataclass
class Played:
    """One game played out: the final state, every action, and why it stopped short if it did."""

    state: object
    actions: list[int]
    seconds: float
    dead_end: str = ""  # no legal action in a running game (a rules-engine bug), in words
    forfeit: ForfeitError | None = None  # the seat whose bot lost the game by its fault (arena.game.ForfeitError)


def play_out(cfg: GameConfig, seed: int, names: list[str], max_decisions: int = DEFAULT_MAX_DECISIONS,
             backend: str = "auto") -> Played:
    """The one game loop of `ktenv play` and the tournaments: seat i is played by agent `names[i]`, seeded
    by `agent_seed`, so the same seed and agents give the same game either way."""
    if len(names) != cfg.n_players:
        raise ValueError(f"{len(names)} agents for {cfg.n_players} players")
    seats = make_agents(names, seed)
    try:
        return _play_seats(cfg, seed, names, seats, max_decisions, backend)
    finally:
        close_agents(seats)  # a bot's process never outlives its game


def _play_seats(cfg: GameConfig, seed: int, names: list[str], seats: list, max_decisions: int,
                backend: str) -> Played:
    readers = [bool(getattr(a, "needs_observation", False)) for a in seats]
    searchers = [bool(getattr(a, "needs_worlds", False)) for a in seats]
    encoder = encoder_for(cfg) if any(readers) else None
    t0 = time.perf_counter()
    s = new_game(cfg, seed, backend=backend)
    actions: list[int] = []
    while not s.game_over and len(actions) < max_decisions:
        p = s.actor
        mask = legal_mask(s)
        if not mask.any():  # never in a correct engine: stop and report it instead of crashing
            from . import decisions as D

            return Played(s, actions, time.perf_counter() - t0,
                          f"no legal action for player {p} at '{D.NAMES.get(s.decision, s.decision)}', "
                          f"round {s.round}")
        observation = {"observation": encoder.encode(s, p), "action_mask": mask} if readers[p] else None
        if searchers[p]:  # worlds its seat cannot tell apart, never the true state (agents.base)
            observation = {**(observation or {"action_mask": mask}), "worlds": WorldSampler(s, p)}
        try:
            actions.append(take_turn(seats[p], names[p], p, observation, mask, lambda action: step(s, action)))
        except ForfeitError as fault:  # the game ends here, the seat loses it
            return Played(s, actions, time.perf_counter() - t0, forfeit=fault)
    return Played(s, actions, time.perf_counter() - t0)


def play_game(cfg: GameConfig, seed: int, names: list[str], record: bool = False,
              max_decisions: int = DEFAULT_MAX_DECISIONS, backend: str = "auto") -> GameResult:
    """Play one game (`play_out`) and return its result (with its record when `record`)."""
    played = play_out(cfg, seed, names, max_decisions, backend)
    s, actions = played.state, played.actions
    stats = player_stats(s)
    saved = None
    if record:
        from ..arena.records import record_of

        saved = record_of(cfg, seed, names, actions, s, played.forfeit).to_dict()
    note = played.dead_end
    if played.forfeit is not None:
        winners, reason, note = forfeit_outcome(played.forfeit, cfg.n_players)
    elif s.game_over:
        winners, reason = list(s.winners), s.reason
    elif played.dead_end:
        winners, reason = [], ENGINE_ERROR
    else:
        winners, reason = [], "step_limit"
    return GameResult(
        seed=int(seed), agents=list(names), winners=[int(w) for w in winners], reason=reason,
        rounds=int(s.round), decisions=len(actions), seconds=played.seconds,
        income=[int(x) for x in stats[:, INCOME]], hexes=[int(x) for x in stats[:, HEXES]],
        gold=[int(x) for x in stats[:, GOLD]], forts=[int(x) for x in stats[:, FORT_LEVELS]],
        heroes=[int(x) for x in stats[:, HEROES]], note=note, actions=actions if record else [],
        record=saved)


def play(cfg: GameConfig, seed: int, names: list[str], engine: str = "auto"):
    """`ktenv play`: one game (`play_out`); returns the final state. Agent i plays seat i."""
    return play_out(cfg, seed, names, backend=engine).state


_FLAGS = {"n_players": "--players", "max_rounds": "--max-rounds", "victory": "--victory"}


def cli_config(args) -> GameConfig:
    """`ktenv play`'s game: the flags, then --set KEY=VALUE; a key given both ways with two values is an error."""
    from ..gamekit.cli import set_options

    flags: dict = {}
    if args.players is not None:
        flags["n_players"] = args.players
    if args.max_rounds is not None:
        flags["max_rounds"] = None if args.max_rounds == 0 else args.max_rounds
    if args.victory:
        flags["victory"] = args.victory
    values = {"n_players": 4, **flags}
    for key, value in set_options(args.set).items():
        if key in flags and flags[key] != value:
            shown = "0" if key == "max_rounds" and flags[key] is None else flags[key]
            raise ConfigError(f"--set {key}={value} conflicts with {_FLAGS[key]} {shown}; give it once")
        values[key] = value
    return GameConfig.from_dict(values)


def play_command(args) -> int:
    """`ktenv play`: one seeded game between agents, its summary printed (the final state and the record saved
    where --save and --record say)."""
    from ..arena.play import finish_play, play_setup
    from ..gamekit.cli import left_early, players_from_agents
    from .summary import format_summary, summary

    players_from_agents(args)
    cfg = cli_config(args)
    setup = play_setup(args, cfg.n_players, "kings_and_things")
    try:
        played = play_out(cfg, args.seed, setup.specs, backend=args.engine)
    except KeyboardInterrupt as exc:  # Ctrl-C, or a human seat that quit (ktenv.agents.human)
        return left_early(exc)
    if played.dead_end or played.forfeit:
        print(f"ktenv: the game stopped early: {played.dead_end or played.forfeit}", file=sys.stderr)
    return finish_play(args, setup, cfg, played.state, played.actions, summary, format_summary, played.forfeit)


def result_of(s, decisions: int) -> dict:
    """A finished game's result as records and tournaments keep it."""
    from ..arena.records import state_fingerprint
    from .state import SCHEMA_VERSION

    stats = player_stats(s)
    return {
        "winners": [int(w) for w in s.winners] if s.game_over else [],
        "reason": s.reason if s.game_over else "step_limit",
        "rounds": int(s.round),
        "decisions": int(decisions),
        "income": [int(x) for x in stats[:, INCOME]],
        "hexes": [int(x) for x in stats[:, HEXES]],
        "state_sha256": state_fingerprint(s),
        "state_schema": SCHEMA_VERSION,  # the save format the fingerprint hashes
    }


def _replay_view():
    from ..gamekit import ReplayView
    from . import render
    from .engine import describe_action
    from .state import PHASE_NAMES
    from .summary import format_summary, summary

    return ReplayView(lambda s: f"round {s.round}, {PHASE_NAMES[s.phase]}", describe_action, render.ansi,
                      lambda s, path: render.image(s).save(path), summary, format_summary)


def __getattr__(name: str):
    if name == "REPLAY_VIEW":  # built on first use: rendering loads Pillow
        return _replay_view()
    raise AttributeError(name)

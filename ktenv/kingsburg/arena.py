"""Kingsburg in the arena (`ktenv play|tournament|replay|render --game kingsburg`): one game between agents
straight on the engine (agents that search, ``needs_worlds``, also get ``observation["worlds"]``, a
`worlds.WorldSampler` for their seat), its summary, and its result in the shape the tournament store and the game
records keep for Kings & Things (`ktenv.kings_and_things.arena.GameResult`, `ktenv.arena.records`).

The store's columns are named for Kings & Things; for Kingsburg they hold: ``rounds`` = years played (5),
``income`` = final VP, ``hexes`` = buildings, ``gold`` = goods, ``forts`` = "+2" tokens, ``heroes`` = 0.
Non-winners are ranked by VP, then buildings (for the ratings); the winners are those of K10.3.
"""

from __future__ import annotations

import sys
import time

from ..arena.config import DEFAULT_MAX_DECISIONS
from ..arena.game import ForfeitError, GameResult, agent_seed, close_agents, forfeit_outcome, take_turn
from . import catalog as cat
from .config import GAME, KingsburgConfig
from .machine import legal_mask, new_game, step
from .observation import ObservationEncoder
from .results import result_of
from .state import KingsburgState
from .worlds import WorldSampler


def make_agents(names: list[str], seed: int) -> list:
    from ktenv.agents.kingsburg import AGENTS

    return [AGENTS.make(name, seed=agent_seed(seed, seat)) for seat, name in enumerate(names)]


def play(cfg: KingsburgConfig, seed: int, names: list[str], max_decisions: int = DEFAULT_MAX_DECISIONS,
         backend: str = "auto") -> tuple[KingsburgState, list[int]]:
    """Play one game: (the final state, every action). Each agent sees only its observation and mask."""
    s, actions, _ = play_out(cfg, seed, names, max_decisions, backend)
    return s, actions


def play_out(cfg: KingsburgConfig, seed: int, names: list[str], max_decisions: int = DEFAULT_MAX_DECISIONS,
             backend: str = "auto") -> tuple[KingsburgState, list[int], ForfeitError | None]:
    """`play`, and the seat whose bot lost the game by its fault (arena.game.ForfeitError) where one did."""
    if len(names) != cfg.n_players:
        raise ValueError(f"{len(names)} agents for {cfg.n_players} players")
    seats = make_agents(names, seed)
    try:
        return _play_seats(cfg, seed, names, seats, max_decisions, backend)
    finally:
        close_agents(seats)  # a bot's process never outlives its game


def _play_seats(cfg: KingsburgConfig, seed: int, names: list[str], seats: list, max_decisions: int,
                backend: str) -> tuple[KingsburgState, list[int], ForfeitError | None]:
    readers = [bool(getattr(a, "needs_observation", False)) for a in seats]
    searchers = [bool(getattr(a, "needs_worlds", False)) for a in seats]
    encoder = ObservationEncoder(cfg.n_players)
    s = new_game(cfg, seed, backend=backend)
    actions: list[int] = []
    while not s.game_over and len(actions) < max_decisions:
        p, mask = s.actor, legal_mask(s)
        observation = {"observation": encoder.encode(s, p), "action_mask": mask} if readers[p] else None
        if searchers[p]:  # a search samples worlds its seat cannot tell apart, never the true game (agents.base)
            observation = {**(observation or {"action_mask": mask}), "worlds": WorldSampler(s, p)}
        try:
            a = take_turn(seats[p], names[p], p, observation, mask, lambda action: step(s, action))
        except ForfeitError as fault:  # the game ends here, the seat loses it
            return s, actions, fault
        actions.append(int(a))
    return s, actions, None


def play_game(cfg: KingsburgConfig, seed: int, names: list[str], record: bool = False,
              max_decisions: int = DEFAULT_MAX_DECISIONS, backend: str = "auto") -> GameResult:
    """One game; seat i is played by `names[i]` (Kingsburg agents); `backend`: auto, native or python."""
    t0 = time.perf_counter()
    s, actions, fault = play_out(cfg, seed, names, max_decisions, backend)
    saved = None
    if record:
        from ..arena.records import record_of

        saved = record_of(cfg, seed, names, actions, s, fault).to_dict()
    res = result_of(s, len(actions))
    n = cfg.n_players
    note = ""
    if fault is not None:
        res["winners"], res["reason"], note = forfeit_outcome(fault, n)
    return GameResult(seed=int(seed), agents=list(names), winners=res["winners"], reason=res["reason"],
                      rounds=res["rounds"], decisions=len(actions), seconds=time.perf_counter() - t0,
                      income=res["income"], hexes=res["hexes"], gold=[s.goods_count(p) for p in range(n)],
                      forts=[int(t) for t in s.tokens], heroes=[0] * n, note=note,
                      actions=actions if record else [], record=saved)


def summary(s: KingsburgState) -> dict:
    players = [{"seat": p, "vp": int(s.vp[p]), "goods": s.goods_count(p), "buildings": s.building_count(p),
                "tokens": int(s.tokens[p]),
                "built": [cat.BUILDING_NAMES[i] for i in range(cat.N_BUILDINGS) if s.built[p].flat[i]]}
               for p in range(s.n_players)]
    return {"game": GAME, "winners": list(s.winners), "reason": "game_end" if s.game_over else "unfinished",
            "year": int(s.year), "decisions": int(s.steps), "players": players}


def format_summary(info: dict) -> str:
    winners = ", ".join(f"player {w}" for w in info["winners"]) or "nobody"
    lines = [f"Kingsburg: {winners} {'share the victory' if len(info['winners']) > 1 else 'wins'} "
             f"after year {info['year']} ({info['decisions']} decisions)"]
    for p in info["players"]:
        lines.append(f"  player {p['seat']}: {p['vp']:3d} VP, {p['goods']:2d} goods, {p['buildings']:2d} buildings "
                     f"({', '.join(p['built']) or 'none'})")
    return "\n".join(lines)


def play_command(args) -> int:
    """`ktenv play --game kingsburg`: one seeded game of Kingsburg, its summary printed."""

    from ..arena.play import finish_play, play_setup
    from ..errors import ConfigError
    from ..gamekit.cli import left_early, players_from_agents, set_options

    if args.max_rounds is not None or args.victory:
        raise ConfigError("--max-rounds and --victory are Kings & Things options; Kingsburg lasts five years")
    from .spec import GAME as SPEC

    SPEC.check_engine(args.engine, "--engine")
    players_from_agents(args)
    cfg = KingsburgConfig.from_dict({"n_players": args.players or 4, **set_options(args.set)})
    setup = play_setup(args, cfg.n_players, "kingsburg")
    try:
        state, actions, fault = play_out(cfg, args.seed, setup.specs, backend=args.engine)
    except KeyboardInterrupt as exc:  # Ctrl-C, or a human seat that quit (ktenv.agents.human)
        return left_early(exc)
    if fault is not None:
        print(f"ktenv: the game stopped early: {fault}", file=sys.stderr)
    return finish_play(args, setup, cfg, state, actions, summary, format_summary, fault)


def _replay_view():
    from PIL import Image

    from ..gamekit import ReplayView
    from . import render
    from .machine import describe_action
    from .state import PHASE_NAMES

    return ReplayView(lambda s: f"year {s.year}, {PHASE_NAMES[s.phase]}", describe_action, render.ansi,
                      lambda s, path: Image.fromarray(render.rgb_array(s)).save(path), summary, format_summary,
                      picture_word="picture")


def __getattr__(name: str):
    if name == "REPLAY_VIEW":  # built on first use: rendering loads Pillow
        return _replay_view()
    raise AttributeError(name)

"""`ktenv tournament` and `ktenv replay` (added to the `ktenv` command line by ktenv.cli)."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import ConfigError
from ..gamekit.cli import set_options

# flag dest -> tournament key (flags left out keep the YAML's or the default value)
_FLAG_KEYS = ("agents", "players", "games", "workers", "seed", "max_rounds", "db", "records", "dataset",
              "summary_json", "plot", "backend", "ray_address", "max_decisions", "engine", "game_name")


def add_tournament_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("tournament", help="play a bot-vs-bot tournament and print the standings",
                       description="Play a tournament between registered agents (seats rotated and balanced, games "
                                   "in parallel, results in a resumable SQLite file) and print the standings.")
    p.add_argument("--config", metavar="YAML", help="tournament settings from a YAML file (flags override it)")
    p.add_argument("--agents", help="comma-separated agent names (default expert,greedy,random)")
    p.add_argument("--players", type=int, help="players per game, 2-4, or 6 with two boxes (R20.1) (default 4)")
    p.add_argument("--games", type=int, help="number of games (default 100)")
    p.add_argument("--workers", type=int, help="parallel worker processes (default 2)")
    p.add_argument("--seed", type=int, help="tournament seed (default 1)")
    p.add_argument("--max-rounds", type=int, help="round limit of every game; at the cap the highest income wins "
                                                   "(default 40)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="a game option of the rules page")
    p.add_argument("--db", metavar="PATH", help="SQLite results file (default runs/tournament_<name>.sqlite)")
    p.add_argument("--resume", action="store_true", default=None, help="continue a stored tournament")
    p.add_argument("--fresh", action="store_true", default=None, help="delete the stored results and start over")
    p.add_argument("--records", metavar="DIR", help="save every game as a JSON record in DIR")
    p.add_argument("--dataset", metavar="DIR", help="write the games as Parquet tables in DIR while they are played "
                                                    "(as `ktenv dataset` would; needs --records)")
    p.add_argument("--summary-json", metavar="PATH", help="write the standings as JSON")
    p.add_argument("--plot", metavar="PNG", help="draw ratings and the head-to-head matrix")
    p.add_argument("--backend", choices=("process", "ray"), help="process (default) or ray")
    p.add_argument("--ray-address", metavar="ADDRESS", help="Ray cluster to use (default: a local one)")
    p.add_argument("--max-decisions", type=int, help="safety bound on decisions per game (default 200000)")
    p.add_argument("--engine", choices=("auto", "native", "python"),
                   help="rules engine: auto (default: native where it plays the config), native or python")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_game_flag(p)
    p.set_defaults(func=cmd_tournament)
    return p


def add_game_flag(p: argparse.ArgumentParser) -> None:
    """``--game``: which registered game (`ktenv.registry`; the default game without it)."""
    from .. import registry

    names = registry.names()
    p.add_argument("--game", dest="game_name", choices=names, default=None,
                   help=f"the board game: {', '.join(names)} (default {registry.default().name})")


def tournament_config(args: argparse.Namespace):
    from .config import TournamentConfig

    overrides = {}
    for key in _FLAG_KEYS:
        value = getattr(args, key, None)
        if value is not None:
            overrides[key] = value
    if args.resume:
        overrides["resume"] = True
    if args.fresh:
        overrides["fresh"] = True
    if args.no_progress:
        overrides["progress"] = False
    sets = set_options(args.set)
    if args.config:
        from .config import load_yaml

        data = load_yaml(args.config)
        if sets:
            game = data.get("game") or {}
            if not isinstance(game, dict):
                raise ConfigError(f"{args.config}: tournament key 'game': expected a mapping of game options")
            overrides["game"] = {**game, **sets}
        data.update(overrides)
        return TournamentConfig.from_mapping(data, source=args.config)
    if sets:
        overrides["game"] = sets
    return TournamentConfig.from_mapping(overrides, source="command line")


def cmd_tournament(args: argparse.Namespace) -> int:
    from .tournament import TournamentError, report_text, run_tournament, write_summary_json

    cfg = tournament_config(args)
    try:
        report = run_tournament(cfg)
    except TournamentError as exc:
        print(f"ktenv: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        kept = f"{cfg.db_path} and {cfg.dataset}" if cfg.dataset else f"{cfg.db_path}"
        print(f"\nktenv: interrupted; finished games are kept in {kept} "
              "(run the same command with --resume to continue)", file=sys.stderr)
        return 130
    print(report_text(cfg, report))
    if cfg.summary_json:
        write_summary_json(cfg.summary_json, cfg, report)
        print(f"standings written to {cfg.summary_json}")
    if cfg.plot:
        from .plots import plot_standings

        title = f"{', '.join(cfg.labels)}: {len(report['games'])} games, {cfg.players} players"
        plot_standings(cfg.plot, report["standings"], report["games"], title)
        print(f"plot written to {cfg.plot}")
    if cfg.dataset:
        print(f"dataset written to {cfg.dataset} ({report['dataset_games']} games)")
    return 0


# ----------------------------------------------------------------------------- replay

def add_replay_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("replay", help="re-simulate a game record, verify it, show or draw any move",
                       description="Replay a game record (saved by `ktenv tournament --records DIR`): every action is "
                                   "re-applied from the seed and the result is checked against the record.")
    p.add_argument("record", metavar="RECORD.json")
    p.add_argument("--list", action="store_true", help="print every move in English")
    p.add_argument("--show", type=int, action="append", metavar="K", help="print move K and the board before it")
    p.add_argument("--render", metavar="PNG", help="draw the board (before move --at K; default: the end)")
    p.add_argument("--at", type=int, metavar="K", help="the move --render draws the board before")
    p.add_argument("--json", action="store_true", help="print the verified result as JSON")
    add_game_flag(p)
    p.set_defaults(func=cmd_replay)
    return p


def cmd_replay(args: argparse.Namespace) -> int:
    from .. import registry
    from .records import GameRecord, RecordError, replay

    try:
        rec = GameRecord.load(args.record)
        game = registry.game_of_config(rec.config)
        if getattr(args, "game_name", None) not in (None, game.name):
            raise RecordError(f"{args.record} is a game of {game.name}, not of {args.game_name}")
        pieces = game.replay_view
        shows = set(args.show or [])
        for k in shows:
            if not 0 <= k < len(rec.actions):
                raise RecordError(f"--show {k}: the record has moves 0..{len(rec.actions) - 1}")

        def on_move(s, k, a):
            if args.list or k in shows:
                print(f"move {k}: {pieces.when(s)}, player {s.actor} ({rec.agents[s.actor]}): "
                      f"{pieces.describe_action(s, a)}")
            if k in shows:
                print(pieces.ansi(s))
                print()

        done = replay(rec, on_move=on_move if (args.list or shows) else None)
        if args.render:
            state = done.state if args.at is None else replay(rec, upto=args.at).state
            pieces.save_picture(state, args.render)
            print(f"{pieces.picture_word} written to {args.render}")
    except RecordError as exc:
        print(f"ktenv: error: {exc}", file=sys.stderr)
        return 2
    info = pieces.summary(done.state)
    if args.json:
        note = {"note": done.note} if done.note else {}
        print(json.dumps({"verified": True, "moves": done.moves, "agents": rec.agents, **note, **info}))
    else:
        print(f"verified: {done.moves} moves replayed from seed {rec.seed}; the result is identical to the record")
        if done.note:
            print(f"note: {done.note}")
        print(f"agents: {', '.join(f'{p}={a}' for p, a in enumerate(rec.agents))}")
        print(pieces.format_summary(info))
    return 0

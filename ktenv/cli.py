"""Command line: `ktenv play`, `render`, `tournament`, `replay` and `train`, for every registered game
(``--game NAME``; the default game without it). The game's own parts do the game's work (`ktenv.registry`)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import registry
from .arena.cli import add_game_flag, add_replay_parser, add_tournament_parser
from .datasets.cli import add_dataset_parser
from .errors import ConfigError, missing_extra
from .training.config import add_train_arguments
from .web.cli import add_serve_parser


def cmd_play(args: argparse.Namespace) -> int:
    return registry.game(args.game_name).play_command(args)


def cmd_render(args: argparse.Namespace) -> int:
    """`ktenv render`: the game named by --game, else the one whose schema the save file carries."""
    if args.width is not None and args.width <= 0:
        raise ConfigError(f"--width: expected a positive number of pixels, got {args.width}")
    spec = registry.game(args.game_name) if args.game_name else _game_of_save(args.game)
    return spec.render_command(args)


def _game_of_save(path: str) -> registry.GameSpec:
    """The game a save file belongs to; an unreadable file is left to the default game's render command,
    which names the problem."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return registry.default()
    for name in registry.names():
        if registry.game(name).saved_game(data):
            return registry.game(name)
    return registry.default()


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(prog="ktenv",
                                     description="ktenv: a research environment and bot arena for board games")
    parser.add_argument("--version", action="version", version=f"ktenv {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_play_parser(sub)
    _add_render_parser(sub)
    add_tournament_parser(sub)
    add_replay_parser(sub)
    add_dataset_parser(sub)
    add_serve_parser(sub)
    train = sub.add_parser("train", help="self-play MaskablePPO from a YAML config (needs the 'train' extra)",
                           description="Train a MaskablePPO agent by self-play against an opponent league, all "
                                       "settings in one YAML file (configs/ppo_2p.yaml). Needs the 'train' extra.")
    add_train_arguments(train)
    train.set_defaults(func=cmd_train)
    _add_training_tool(sub, "export", "a model zip's policy alone, small enough to ship (float16 with --half)")
    _add_training_tool(sub, "curve", "draw a training run's learning curve again from its logs")
    _add_exploit_parser(sub)
    return parser


def _add_exploit_parser(sub) -> None:
    """`ktenv exploit`: ktenv.analysis.exploiter (imported when it runs: it loads torch and pandas)."""
    summary = "train a fixed-budget PPO best response to a frozen model and report its win rate against it"
    exploit = sub.add_parser("exploit", help=summary + " (needs the 'train' and 'data' extras)",
                             description=summary[0].upper() + summary[1:] + ", an exploitability proxy, and what it "
                                         "found (docs/analysis.md). Settings: configs/exploiter.yaml.")
    exploit.add_argument("model", metavar="MODEL", help="the frozen target: a model zip of ktenv train")
    exploit.add_argument("--budget", type=int, required=True, metavar="STEPS", help="the exploiter's learner steps")
    exploit.add_argument("--out", required=True, metavar="DIR",
                         help="the exploiter's run folder (one that holds a run goes on from its last checkpoint)")
    exploit.add_argument("--games", type=int, default=200, help="games of each match afterwards (default 200)")
    exploit.add_argument("--config", metavar="FILE", help="training settings (default configs/exploiter.yaml)")
    exploit.add_argument("--workers", type=int, default=1, help="processes playing the matches (default 1)")
    exploit.add_argument("--seed", type=int, default=None, help="the training's seed (default: the config's)")
    exploit.add_argument("--from-scratch", action="store_true", help="start from fresh weights, not the target's")
    exploit.add_argument("--set", action="append", metavar="KEY=VALUE", help="any other training key (n_envs=16)")
    exploit.add_argument("--json", action="store_true", help="print the report as JSON")
    exploit.set_defaults(func=cmd_exploit)


def cmd_exploit(args: argparse.Namespace) -> int:
    try:
        from ktenv.analysis.exploiter import run
    except ModuleNotFoundError as exc:
        raise missing_extra("exploit", "train", exc) from None
    return run(args)


def _add_training_tool(sub, name: str, summary: str) -> None:
    """`ktenv export` / `ktenv curve`: the modules ktenv.training.export / .curve (light to import: torch and
    matplotlib load when the tool runs) as subcommands."""
    import importlib

    module = importlib.import_module(f"ktenv.training.{name}")
    tool = sub.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")
    module.add_arguments(tool)

    def run(args: argparse.Namespace) -> int:
        try:
            return module.run(args)
        except ModuleNotFoundError as exc:
            raise missing_extra(name, "train", exc) from None

    tool.set_defaults(func=run)


def _add_render_parser(sub) -> argparse.ArgumentParser:
    render = sub.add_parser("render", help="draw a saved game as a PNG picture",
                            description="Draw a game saved by `ktenv play --save` as a PNG picture: the board with "
                                        "its forts and stacks, and each player's gold, income and land.")
    render.add_argument("game", metavar="SAVED_GAME.json", help="a game saved with `ktenv play --save`")
    render.add_argument("--out", default="board.png", metavar="PNG", help="picture to write (default board.png)")
    render.add_argument("--width", type=int, default=None, help="picture width in pixels (default 1200)")
    render.add_argument("--text", action="store_true", help="also print the text board")
    add_game_flag(render)
    render.set_defaults(func=cmd_render)
    return render


def _add_play_parser(sub) -> argparse.ArgumentParser:
    play = sub.add_parser("play", help="play one seeded game between agents and print a summary",
                          description="Play one seeded game between agents and print its summary (winner, reason, "
                                      "each player's land, income, gold and forts). The same seed and agents "
                                      "always give the same game.")
    play.add_argument("--players", type=int, default=None,
                      help="players per game, as many as the game's rules cover (default: one per --agents "
                           "name, else 4)")
    play.add_argument("--seed", type=int, default=0, help="game seed (default 0)")
    play.add_argument("--agents", default="random",
                      help="comma-separated agent names, one per seat or one for all (default random); "
                           "LABEL=SPEC gives a seat a short name")
    play.add_argument("--max-rounds", type=int, default=None, help="round limit (0: none; default 100)")
    play.add_argument("--victory", default=None,
                      help="standard, quick, unique_a, unique_b, fixed_rounds or land_conquest")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option of the rules page")
    play.add_argument("--engine", choices=("auto", "native", "python"), default="auto",
                      help="rules engine: auto (default: native where it plays the config), native or python; "
                           "the same game either way")
    play.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    play.add_argument("--save", metavar="PATH", help="write the final game state as JSON (its folder is made)")
    play.add_argument("--record", metavar="PATH", help="write the game's record, which `ktenv replay` plays "
                                                       "again move by move (its folder is made)")
    add_game_flag(play)
    play.set_defaults(func=cmd_play)
    return play


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from ktenv.training.train_ppo import run
    except ModuleNotFoundError as exc:
        raise missing_extra("train", "train", exc) from None
    return run(args)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader left early (`ktenv replay R --list | head`): not an error
        _silence_stdout()
        return 0
    except (ConfigError, ValueError) as exc:
        print(f"ktenv: error: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # a tournament that cannot go on (its finished games are kept)
        print(f"ktenv: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ktenv: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's flush at exit does not raise a second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (captured in a test)
        pass


if __name__ == "__main__":
    sys.exit(main())

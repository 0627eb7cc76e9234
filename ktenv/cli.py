"""Command line: `ktenv play` runs one seeded game between agents and prints its summary."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .arena.cli import add_game_flag, add_replay_parser, add_tournament_parser
from .config import ConfigError, GameConfig, parse_value
from .engine import legal_mask, new_game, step
from .render import add_render_parser
from .summary import format_summary, summary
from .training.config import add_train_arguments

DEFAULT_PLAYERS = 4


def game_config(args: argparse.Namespace) -> GameConfig:
    """The game's options: the flags, then --set KEY=VALUE; a key given both ways with two values is an error."""
    flags: dict = {}
    if args.players is not None:
        flags["n_players"] = args.players
    if args.max_rounds is not None:
        flags["max_rounds"] = None if args.max_rounds == 0 else args.max_rounds
    if args.victory:
        flags["victory"] = args.victory
    values = {"n_players": DEFAULT_PLAYERS, **flags}
    for item in args.set or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE")
        key, value = key.strip(), parse_value(value.strip())
        if key in flags and flags[key] != value:
            flag = {"n_players": "--players", "max_rounds": "--max-rounds", "victory": "--victory"}[key]
            raise ConfigError(f"--set {key}={value} conflicts with {flag} {_flag_text(key, flags[key])}; give it once")
        values[key] = value
    return GameConfig.from_dict(values)


def _flag_text(key: str, value) -> str:
    return "0" if key == "max_rounds" and value is None else str(value)


def check_save_path(path: str) -> Path:
    """`play --save PATH`: make sure the file can be written before the game is played (its folder is made)."""
    out = Path(path)
    if out.is_dir():
        raise ConfigError(f"--save {path}: is a folder; give a file name such as {out / 'game.json'}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"--save {path}: cannot make its folder {out.parent} ({exc.strerror or exc})") from None
    if not out.parent.is_dir():
        raise ConfigError(f"--save {path}: {out.parent} is not a folder")
    return out


def play_game(cfg: GameConfig, seed: int, agent_names: list[str], engine: str = "auto"):
    """One game; returns the final state. Agent i plays seat i (a single name plays every seat)."""
    from ktenv import agents

    if len(agent_names) == 1:
        agent_names = agent_names * cfg.n_players
    if len(agent_names) != cfg.n_players:
        raise ValueError(f"--agents: {len(agent_names)} names for {cfg.n_players} players")
    seats = [agents.make(name, seed=seed * 100 + i) for i, name in enumerate(agent_names)]
    encoder = None
    if any(getattr(a, "needs_observation", False) for a in seats):
        from .arena.game import encoder_for

        encoder = encoder_for(cfg)
    s = new_game(cfg, seed, backend=engine)
    while not s.game_over:
        agent, mask = seats[s.actor], legal_mask(s)
        observation = None
        if encoder is not None and getattr(agent, "needs_observation", False):
            observation = {"observation": encoder.encode(s, s.actor), "action_mask": mask}
        if getattr(agent, "needs_worlds", False):  # a searching agent: worlds its seat cannot tell apart
            from .worlds import WorldSampler

            observation = {**(observation or {"action_mask": mask}), "worlds": WorldSampler(s, s.actor)}
        step(s, agent.act(observation, mask))
    return s


def cmd_play(args: argparse.Namespace) -> int:
    if args.game_name == "kingsburg":
        return _play_kingsburg(args)
    cfg = game_config(args)
    save = check_save_path(args.save) if args.save else None
    from ktenv import agents

    s = play_game(cfg, args.seed, agents.split_names(args.agents), engine=args.engine)
    info = summary(s)
    if save is not None:
        try:
            save.write_text(s.to_json())
        except OSError as exc:
            raise ConfigError(f"--save {args.save}: cannot write it ({exc.strerror or exc})") from None
    print(json.dumps(info) if args.json else format_summary(info))
    return 0


def _play_kingsburg(args: argparse.Namespace) -> int:
    """`ktenv play --game kingsburg`: one seeded game of Kingsburg (ktenv/kingsburg/)."""
    from .kingsburg import KingsburgConfig
    from .kingsburg.arena import format_summary, play, summary

    if args.max_rounds is not None or args.victory:
        raise ConfigError("--max-rounds and --victory are Kings & Things options; Kingsburg lasts five years")
    values: dict = {"n_players": args.players or DEFAULT_PLAYERS}
    for item in args.set or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE")
        values[key.strip()] = parse_value(value.strip())
    cfg = KingsburgConfig.from_dict(values)
    save = check_save_path(args.save) if args.save else None
    from ktenv import agents

    names = agents.split_names(args.agents)
    if len(names) == 1:
        names = names * cfg.n_players
    if len(names) != cfg.n_players:
        raise ValueError(f"--agents: {len(names)} names for {cfg.n_players} players")
    state, _ = play(cfg, args.seed, names)
    if save is not None:
        try:
            save.write_text(state.to_json())
        except OSError as exc:
            raise ConfigError(f"--save {args.save}: cannot write it ({exc.strerror or exc})") from None
    info = summary(state)
    print(json.dumps(info) if args.json else format_summary(info))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(prog="ktenv", description="Kings & Things research environment")
    parser.add_argument("--version", action="version", version=f"ktenv {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_play_parser(sub)
    render = add_render_parser(sub)
    render.description = ("Draw a game saved by `ktenv play --save` as a PNG picture: the board with its forts and "
                          "stacks, and each player's gold, income and land.")
    add_game_flag(render)
    render.set_defaults(func=cmd_render)

    add_tournament_parser(sub)
    add_replay_parser(sub)
    train = sub.add_parser("train", help="self-play MaskablePPO from a YAML config (needs the 'train' extra)",
                           description="Train a MaskablePPO agent by self-play against an opponent league, all "
                                       "settings in one YAML file (configs/ppo_2p.yaml). Needs the 'train' extra.")
    add_train_arguments(train)
    train.set_defaults(func=cmd_train)
    return parser


def _add_play_parser(sub) -> argparse.ArgumentParser:
    play = sub.add_parser("play", help="play one seeded game between agents and print a summary",
                          description="Play one seeded game between agents and print its summary (winner, reason, "
                                      "each player's land, income, gold and forts). The same seed and agents "
                                      "always give the same game.")
    play.add_argument("--players", type=int, default=None,
                      help=f"2-4 players, or 6 with two boxes (R20.1) (default {DEFAULT_PLAYERS})")
    play.add_argument("--seed", type=int, default=0, help="game seed (default 0)")
    play.add_argument("--agents", default="random",
                      help="comma-separated agent names, one per seat or one for all (default random)")
    play.add_argument("--max-rounds", type=int, default=None, help="round limit (0: none; default 100)")
    play.add_argument("--victory", default=None,
                      help="standard, quick, unique_a, unique_b, fixed_rounds or land_conquest")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option of the rules page")
    play.add_argument("--engine", choices=("auto", "native", "python"), default="auto",
                      help="rules engine: auto (default: native where it plays the config), native or python; "
                           "the same game either way")
    play.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    play.add_argument("--save", metavar="PATH", help="write the final game state as JSON (its folder is made)")
    add_game_flag(play)
    play.set_defaults(func=cmd_play)
    return play


def cmd_render(args: argparse.Namespace) -> int:
    """`ktenv render`, with its width checked before the render module is asked (0 is not 'the default')."""
    from .render import render_command

    if args.width is not None and args.width <= 0:
        raise ConfigError(f"--width: expected a positive number of pixels, got {args.width}")
    if args.game_name == "kingsburg" or (args.game_name is None and _saved_kingsburg(args.game)):
        from .kingsburg.render import render_command as kingsburg_render

        return kingsburg_render(args)
    return render_command(args)


def _saved_kingsburg(path: str) -> bool:
    """Whether a save file is a Kingsburg game (its schema says so); an unreadable file is left to the
    render command, which names the problem."""
    import json

    from .kingsburg.state import SCHEMA

    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("schema") == SCHEMA


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from ktenv.training.train_ppo import run
    except ModuleNotFoundError as exc:
        raise ConfigError(f"ktenv train needs the 'train' extra ({exc.name} is missing): "
                          "pip install torch==2.13.0 && pip install -e \".[train]\"") from None
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

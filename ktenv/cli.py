"""Command line: `ktenv play` runs one seeded game between agents and prints its summary."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .config import ConfigError, GameConfig
from .engine import legal_mask, new_game, step
from .render import add_render_parser
from .summary import format_summary, summary


def _parse_value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def game_config(args: argparse.Namespace) -> GameConfig:
    values: dict = {"n_players": args.players}
    if args.max_rounds is not None:
        values["max_rounds"] = None if args.max_rounds == 0 else args.max_rounds
    if args.victory:
        values["victory"] = args.victory
    for item in args.set or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE")
        values[key.strip()] = _parse_value(value.strip())
    return GameConfig.from_dict(values)


def play_game(cfg: GameConfig, seed: int, agent_names: list[str]):
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
    s = new_game(cfg, seed)
    while not s.game_over:
        agent, mask = seats[s.actor], legal_mask(s)
        if encoder is not None and getattr(agent, "needs_observation", False):
            step(s, agent.act({"observation": encoder.encode(s, s.actor), "action_mask": mask}, mask))
        else:
            step(s, agent.act(None, mask))
    return s


def cmd_play(args: argparse.Namespace) -> int:
    cfg = game_config(args)
    s = play_game(cfg, args.seed, [n.strip() for n in args.agents.split(",") if n.strip()])
    info = summary(s)
    if args.save:
        Path(args.save).write_text(s.to_json())
    print(json.dumps(info) if args.json else format_summary(info))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ktenv", description="Kings & Things research environment")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one seeded game between agents and print a summary")
    play.add_argument("--players", type=int, default=4, help="2-4 players, or 6 with two boxes (R20.1) (default 4)")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--agents", default="random", help="comma-separated agent names, one per seat or one for all")
    play.add_argument("--max-rounds", type=int, default=None, help="round limit (0: none; default 100)")
    play.add_argument("--victory", default=None,
                      help="standard, quick, unique_a, unique_b, fixed_rounds or land_conquest")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="any game option of the rules page")
    play.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    play.add_argument("--save", metavar="PATH", help="write the final game state as JSON")
    play.set_defaults(func=cmd_play)
    add_render_parser(sub)
    from .arena.cli import add_replay_parser, add_tournament_parser

    add_tournament_parser(sub)
    add_replay_parser(sub)
    train = sub.add_parser("train", help="self-play MaskablePPO from a YAML config (needs the 'train' extra)")
    _add_train_arguments(train)
    train.set_defaults(func=cmd_train)
    return parser


def _add_train_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="training YAML (configs/ppo_2p.yaml)")
    parser.add_argument("--resume", action="store_true", help="continue the run in the config's 'out' folder")
    parser.add_argument("--out", help="run folder (overrides the config's 'out')")
    parser.add_argument("--total-steps", type=int, help="learner steps in all (overrides 'total_steps')")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE", help="override any key, e.g. ppo.n_epochs=8")


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
    except (ConfigError, ValueError) as exc:
        print(f"ktenv: error: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # a tournament that cannot go on (its finished games are kept)
        print(f"ktenv: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ktenv: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

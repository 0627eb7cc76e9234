"""`ktenv play`'s checks before the game and its files after it (every game's play command uses these): each
seat's agent and short name, the models' game and player count, the --save and --record files."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from ..files import write_text_atomically
from ..gamekit.cli import agent_label, check_save_path, seat_names
from .records import record_of


@dataclass
class PlaySetup:
    """What `ktenv play` checked before its game: each seat's (short name, spec), and the files to write."""

    seats: list[tuple[str, str]]
    save: Path | None
    record: Path | None

    @property
    def specs(self) -> list[str]:
        return [spec for _, spec in self.seats]

    @property
    def labels(self) -> list[str]:
        return [label for label, _ in self.seats]


def play_setup(args: argparse.Namespace, players: int, game: str) -> PlaySetup:
    """--agents (one per seat or one for all; ``LABEL=SPEC`` names a seat), checked against the game with its
    models' game and player count, and --save/--record checked writable: all before any game is played."""
    from ktenv.agents import check_models

    seats = [agent_label(name) for name in seat_names(args.agents, players)]
    check_models([spec for _, spec in seats], game, players, "--agents")
    return PlaySetup(seats, check_save_path(args.save) if args.save else None,
                     check_save_path(args.record, "--record") if getattr(args, "record", None) else None)


def _write(path: Path, text: str, flag: str) -> None:
    try:
        write_text_atomically(path, text)
    except OSError as exc:
        raise ConfigError(f"{flag} {path}: cannot write it ({exc.strerror or exc})") from None


def finish_play(args: argparse.Namespace, setup: PlaySetup, cfg, state, actions: list[int], summary,
                format_summary, forfeit=None) -> int:
    """The end of `ktenv play`: the final state saved where --save says, the game's record where --record says
    (`ktenv replay` plays it again), the summary printed (--json) with the agent of every seat. `forfeit`: the
    seat whose bot lost the game by its fault (arena.game.ForfeitError), kept in the record."""
    import json

    if setup.save is not None:
        _write(setup.save, state.to_json(), "--save")
    if setup.record is not None:
        record = record_of(cfg, args.seed, setup.specs, actions, state, forfeit).with_labels(setup.labels)
        _write(setup.record, record.to_json(), "--record")
    names = setup.labels
    info = {**summary(state), "agents": list(names)}
    seats = "agents: " + ", ".join(f"{p}={name}" if name == spec else f"{p}={name} ({spec})"
                                   for p, (name, spec) in enumerate(setup.seats))
    print(json.dumps(info) if args.json else seats + "\n" + format_summary(info))
    return 0

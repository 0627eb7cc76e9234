"""What every game's command line shares: the --set options, the --agents list, the save file."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ..errors import ConfigError


def parse_value(text: str):
    """A `--set key=value` value: true/false, none/null, an integer, or the text itself."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def set_options(items: list[str] | None) -> dict:
    """The --set KEY=VALUE items as a mapping."""
    out: dict = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE")
        out[key.strip()] = parse_value(value.strip())
    return out


def split_names(text: str) -> list[str]:
    """Agent names from a comma-separated list; an item ``KEY=VALUE`` (no ``:`` on either side of the ``=``)
    right after an agent's options belongs to that agent: ``ismcts:playouts=50,c=1,expert`` ->
    ["ismcts:playouts=50,c=1", "expert"]. Any other ``LABEL=SPEC`` is a new agent with a short name
    (``me=ppo:models/x.zip,gr=greedy``)."""
    out: list[str] = []
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if sep and ":" not in key and ":" not in value and out and "=" in out[-1].partition(":")[2]:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


LABEL = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,31}")


def agent_label(item: str) -> tuple[str, str]:
    """``LABEL=SPEC`` -> (LABEL, SPEC), the short name the standings and records use; a plain spec is its own
    label. An ``=`` after a ``:`` belongs to the spec's options (``ismcts:playouts=50``)."""
    key, sep, spec = item.partition("=")
    if not sep or ":" in key:
        return item, item
    if not LABEL.fullmatch(key) or not spec:
        raise ConfigError(f"agent {item!r}: a short name is LABEL=SPEC with LABEL a letter then up to 31 letters, "
                          "digits, '_', '.' or '-' (me=ppo:models/ppo_2p.zip)")
    return key, spec


def seat_names(text: str, players: int) -> list[str]:
    """--agents: one name per seat, or one name for every seat."""
    names = split_names(text)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--agents: {len(names)} names for {players} players")
    return names


def check_save_path(path: str, flag: str = "--save") -> Path:
    """`play --save PATH` (or --record): make sure the file can be written before the game is played (its
    folder is made)."""
    out = Path(path)
    if out.is_dir():
        raise ConfigError(f"{flag} {path}: is a folder; give a file name such as {out / 'game.json'}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{flag} {path}: cannot make its folder {out.parent} ({exc.strerror or exc})") from None
    if not out.parent.is_dir():
        raise ConfigError(f"{flag} {path}: {out.parent} is not a folder")
    return out


def players_from_agents(args: argparse.Namespace) -> None:
    """`ktenv play --agents human,expert` without --players: one seat per agent named (a single name fills
    the game's default number of seats); a player count given with --set n_players is left alone."""
    named = len(split_names(args.agents))
    if args.players is None and named > 1 and "n_players" not in set_options(args.set):
        args.players = named


def left_early(exc: KeyboardInterrupt) -> int:
    """A game given up before its end (Ctrl-C, or a person at the terminal quitting): one line, exit 130."""
    print(f"ktenv: {exc or 'interrupted'}; the game was not finished", file=sys.stderr)
    return 130

"""A person at the terminal as an agent (``human``): `ktenv play --agents human,expert`.

At each of its decisions the agent prints what its seat may know (the board as that seat sees it) and the
legal actions numbered 1..k in English, then reads a choice. Everything printed is made from the seat's
observation vector and mask alone, by the game's `SeatView` (``agents/<game>/human_view.py``), never from
the game's state, so the text shows no more than the observation does: the observation's leak tests cover
it. What the other players did is seen only in the board they leave behind (describing their actions
would name the counters they placed face down).

At the prompt: a number picks that action; ``b`` prints the board again, ``h`` or ``?`` the help; ``q``,
Ctrl-C or the end of the input leaves the game (`QuitGame`, a KeyboardInterrupt: the arena lets it pass,
``ktenv play`` ends with exit status 130). Anything else is refused with a message and asked again.

The agent reads and writes the streams it is given (``input=``, ``output=``; the terminal by default), so a
test scripts it. It plays only in the process that owns the terminal: a tournament with a human seat runs
with ``--workers 1`` (or a single game), and the agent refuses to be made in a worker process.
"""

from __future__ import annotations

import multiprocessing
import sys
from typing import Protocol, TextIO

import numpy as np

from ..errors import ConfigError

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("h", "help", "?")
BOARD_WORDS = ("b", "board")
COLUMN_LIMIT = 12  # more choices than this are printed in two columns


class SeatView(Protocol):
    """One game's text of a seat's view, made from that seat's observation vector only."""

    def board(self, observation: np.ndarray) -> str:
        """The table as the seat sees it: players, its own counters, the public board."""

    def decision(self, observation: np.ndarray) -> str:
        """One line: where the game is and what the seat decides now."""

    def describe(self, observation: np.ndarray, action: int) -> str:
        """What `action` does now, in the game's words."""


class QuitGame(KeyboardInterrupt):
    """The person left the game (q, Ctrl-C or the end of the input); the message says how."""


class HumanAgent:
    """The decisions of a seat, asked of a person at the terminal."""

    name = "human"
    needs_observation = True  # the arena encodes the observation only for agents that read it

    def __init__(self, view: SeatView, seed: int | None = None, input: TextIO | None = None,
                 output: TextIO | None = None) -> None:
        if multiprocessing.parent_process() is not None:  # a pool worker has no terminal to ask
            raise ConfigError("agent 'human' plays only in the terminal's own process: run a tournament with a "
                              "human seat with --workers 1")
        self.view = view
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.shown_board = ""

    def reset(self, seed: int | None = None) -> None:
        self.shown_board = ""

    def act(self, observation, action_mask: np.ndarray) -> int:
        vector = observation["observation"] if isinstance(observation, dict) else observation
        if vector is None:
            raise ValueError("human agent: it needs the observation vector (needs_observation)")
        vector = np.asarray(vector)
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if not legal:
            raise ValueError("human agent: the action mask allows no action")
        board = self.view.board(vector)
        if board != self.shown_board:  # the board again only when something on it changed
            self._say("\n" + board)
            self.shown_board = board
        choices = [self.view.describe(vector, a) for a in legal]
        self._say("\n" + self.view.decision(vector))
        if len(legal) == 1:  # nothing to decide: say what happens and go on
            self._say(f"  only one choice: {choices[0]}")
            return legal[0]
        self._say(numbered(choices))
        return legal[self._ask(vector, choices) - 1]

    # ----- the prompt

    def _ask(self, vector: np.ndarray, choices: list[str]) -> int:
        """The number of the chosen line, 1..k; asks again until it gets one."""
        k = len(choices)
        while True:
            text = self._read(f"your choice [1-{k}, h for help, q to quit]> ").strip().lower()
            if text in QUIT_WORDS:
                raise QuitGame("you left the game (q)")
            if text in HELP_WORDS:
                self._say(help_text(k))
            elif text in BOARD_WORDS:
                self._say("\n" + self.view.board(vector) + "\n\n" + self.view.decision(vector) + "\n"
                          + numbered(choices))
            elif text.isdecimal() and 1 <= int(text) <= k:
                return int(text)
            else:
                shown = text if len(text) <= 20 else text[:20] + "..."
                self._say(f"'{shown}' is not a choice: type a number from 1 to {k} (h for help, q to quit)"
                          if text else f"type a number from 1 to {k} (h for help, q to quit)")

    def _read(self, prompt: str) -> str:
        try:
            line = self._line(prompt)
        except KeyboardInterrupt:
            self._say("")
            raise QuitGame("you left the game (Ctrl-C)") from None
        if not line:  # end of the input (Ctrl-D, or a script that ran out)
            self._say("")
            raise QuitGame("you left the game (end of input)")
        if not _is_terminal(self.input):  # a script's answers: shown, so the transcript reads as a dialogue
            self.output.write(line if line.endswith("\n") else line + "\n")
        return line

    def _line(self, prompt: str) -> str:
        """One line of input with its newline; '' at the end of the input."""
        if self.input is sys.stdin and self.output is sys.stdout and _is_terminal(sys.stdin):
            try:
                return input(prompt) + "\n"  # the terminal's line editing and history
            except EOFError:
                return ""
        self.output.write(prompt)
        self.output.flush()
        return self.input.readline()

    def _say(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def numbered(choices: list[str]) -> str:
    """The choices as lines '  1. ...'; a long list in two columns."""
    width = len(str(len(choices)))
    items = [f"{i:>{width}}. {c}" for i, c in enumerate(choices, 1)]
    if len(items) <= COLUMN_LIMIT:
        return "\n".join("  " + item for item in items)
    half = (len(items) + 1) // 2
    left = max(len(item) for item in items[:half]) + 3
    rows = [items[i].ljust(left) + (items[i + half] if i + half < len(items) else "") for i in range(half)]
    return "\n".join("  " + row.rstrip() for row in rows)


def help_text(k: int) -> str:
    return (f"  1-{k}: take that action   b: show the board again   h or ?: this help\n"
            "  q (or Ctrl-C, or the end of the input): leave the game")


__all__ = ["HumanAgent", "QuitGame", "SeatView", "help_text", "numbered"]

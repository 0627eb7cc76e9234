"""A bot in any language: ``cmd:COMMAND`` starts one process per seat and game and speaks JSON lines with it
over its stdin and stdout (the protocol of docs/bots.md, version `VERSION`).

ktenv sends one JSON object per line, the bot answers one per line:

- ``hello`` (the game, the seat, the players, the time limits, the observation's layout) -> ``{"type": "ready"}``
  (optionally ``"fields"``: what each decision should carry, of `FIELDS`);
- ``decide`` (the seat's view: its named observation fields, the page view, the decision in words, the legal
  actions with ids and English labels) -> ``{"action": ID}``;
- ``end`` when the game is over; then the bot's stdin closes and it should exit.

Everything sent is made from the seat's observation vector and mask alone (`ktenv.text`). A bot that does not
answer in time, exits, prints anything but the expected JSON on stdout or answers an action that is not legal
loses the game (`ktenv.arena.game.ForfeitError`, fault timeout, crash, garbage or illegal). Its stderr goes to
a log file (``log=DIR``, else $KTENV_BOT_LOGS, else runs/bot_logs). The process runs in its own session (a
Ctrl-C at the terminal does not reach it), is killed with its children when its game ends, and dies with the
process that started it (Linux's parent-death signal), so no bot outlives its game.

Options come before the command, as ``env`` takes them: ``cmd:timeout=2 start_timeout=20 python bot.py``.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path

import numpy as np

from ..arena.game import ForfeitError
from ..text import view as text

PROTOCOL, VERSION = "ktenv-bot", 1
FIELDS = ("observation", "view", "text", "vector")  # what a decide message may carry
DEFAULT_FIELDS = ("observation",)  # the page view costs more to build than a game step: asked for
DEFAULT_TIMEOUT, DEFAULT_START_TIMEOUT = 10.0, 30.0  # seconds per decision, and for the hello
MAX_LINE = 1 << 20  # a longer answer is garbage
END_GRACE = 1.0  # seconds a bot has to exit after the end of its game
OPTIONS = ("timeout", "start_timeout", "log")
SEAT_NAMES = ("you", "opp1", "opp2", "opp3", "opp4", "opp5", "opp6", "opp7")


def parse_command(argument: str) -> tuple[list[str], dict]:
    """``[timeout=S] [start_timeout=S] [log=DIR] COMMAND ...`` -> (argv, options)."""
    try:
        words = shlex.split(argument)
    except ValueError as exc:
        raise ValueError(f"cmd:{argument}: {exc}") from None
    options: dict = {}
    while words and words[0].partition("=")[0] in OPTIONS and "=" in words[0]:
        key, _, value = words.pop(0).partition("=")
        if key == "log":
            options[key] = value
            continue
        try:
            options[key] = float(value)
        except ValueError:
            raise ValueError(f"cmd: {key}={value}: expected a number of seconds") from None
        if not 0 < options[key] <= 3600:
            raise ValueError(f"cmd: {key}={value}: expected seconds above 0 and at most 3600")
    if not words:
        raise ValueError(f"cmd:{argument}: no command to run (cmd:python bot.py)")
    if shutil.which(words[0]) is None:
        raise ValueError(f"cmd: no program {words[0]!r} to run (not on PATH, not an executable file)")
    return words, options


def source_file(argument: str) -> Path | None:
    """The file a ``cmd:`` bot runs from (its script, or its program when that is a path): the last word of the
    command naming a file. Its digest identifies the bot in tournaments and records, as a model file does."""
    try:
        argv, _ = parse_command(argument)
    except ValueError:
        return None
    files = [Path(w).expanduser() for w in argv if Path(w).expanduser().is_file()]
    return files[-1] if files else None


def _die_with_parent() -> None:
    """In the bot's process before it runs: killed when the process that started it dies (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _kill(process: subprocess.Popen) -> None:
    """The bot and every process it started (its session's group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _slug(argv: list[str]) -> str:
    """A short name of the command for its log file: the stem of its last word that names a file."""
    files = [w for w in argv if Path(w).suffix and not w.startswith("-")]
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(files[-1] if files else argv[0]).stem)[:40] or "bot"


class StdioAgent:
    """One seat played by a process speaking the protocol; the process starts at the seat's first decision."""

    name = "cmd"
    needs_observation = True
    needs_seat = True  # the arena adds observation["seat"] (the hello names it)

    def __init__(self, command: str, game: str, seed: int | None = None, timeout: float | None = None,
                 start_timeout: float | None = None, log: str | None = None) -> None:
        self.argv, options = parse_command(command)
        self.command, self.game, self.seed = command, game, seed
        self.timeout = float(timeout or options.get("timeout", DEFAULT_TIMEOUT))
        self.start_timeout = float(start_timeout or options.get("start_timeout", DEFAULT_START_TIMEOUT))
        self.log_dir = Path(log or options.get("log") or os.environ.get("KTENV_BOT_LOGS", "runs/bot_logs"))
        self.process: subprocess.Popen | None = None
        self.log_path: Path | None = None
        self.fields: tuple[str, ...] = DEFAULT_FIELDS
        self.decisions = 0
        self.faulted = False
        self._buffer = b""
        self._finalizer = None

    def reset(self, seed: int | None = None) -> None:
        """A new game: the bot's process (if one runs) is ended; the next decision starts a fresh one with its
        hello. (The arena makes a new agent for every game anyway.)"""
        self.close()
        self.decisions, self.faulted, self._buffer = 0, False, b""
        if seed is not None:
            self.seed = seed

    # ----- the game's side

    def act(self, observation, action_mask: np.ndarray) -> int:
        vector = text.vector_of(observation)
        mask = np.asarray(action_mask)
        if self.process is None:
            seat = observation.get("seat") if isinstance(observation, dict) else None
            self._start(seat, vector)
        message = self._decide(vector, mask)
        deadline = time.monotonic() + self.timeout  # the bot's time: from here, not while ktenv writes the view
        self._send(message, deadline, "decision")
        reply = self._receive(deadline, "decision")
        action = reply.get("action") if isinstance(reply, dict) else reply
        if isinstance(action, bool) or not isinstance(action, int):
            raise self._fault("garbage", f"answered {_shown(reply)} to a decision, expected {{\"action\": ID}}")
        if not (0 <= action < mask.size and mask[action]):
            raise self._fault("illegal", f"answered action {action}, which is not legal now")
        self.decisions += 1
        return action

    def close(self) -> None:
        """Tell the bot the game is over, give it `END_GRACE` seconds to exit, then kill what is left."""
        process = self.process
        if process is None:
            return
        try:
            if process.poll() is None and not self.faulted:  # a bot at fault is killed at once
                self._send({"type": "end"}, time.monotonic() + 0.2, "end")
                process.stdin.close()
                process.wait(timeout=END_GRACE)
        except (OSError, ValueError, ForfeitError, subprocess.TimeoutExpired):
            pass
        self.process = None
        _kill(process)
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if self._finalizer is not None:
            self._finalizer.detach()

    # ----- messages

    def _hello(self, seat: int | None, vector: np.ndarray) -> dict:
        from .. import registry

        return {"type": "hello", "protocol": PROTOCOL, "version": VERSION, "game": self.game,
                "title": registry.game(self.game).title, "seat": seat,
                "players": int(text.bot_view(self.game).players(vector)), "seed": self.seed,
                "time_limit": self.timeout, "fields": list(self.fields),
                "layout": text.layout_doc(self.game, vector)}

    def _decide(self, vector: np.ndarray, mask: np.ndarray) -> dict:
        seen = text.seat_text(self.game, vector, mask, board="text" in self.fields)
        out = {"type": "decide", "n": self.decisions, "time_limit": self.timeout, "decision": seen.decision,
               "actions": [{"id": a, "label": label} for a, label in seen.choices]}
        if "observation" in self.fields:
            out["observation"] = text.fields(self.game, vector)
        if "view" in self.fields:
            out["view"] = _page(self.game, vector, mask)
        if "text" in self.fields:
            out["text"] = seen.board
        if "vector" in self.fields:
            out["vector"] = [float(x) for x in vector]
        return out

    # ----- the process

    def _start(self, seat: int | None, vector: np.ndarray) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.log_dir / f"{self.game}_{_slug(self.argv)}_seat{seat}_{self.seed}.log"
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the descriptor
            log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {shlex.join(self.argv)} (seat {seat})\n".encode())
            log.flush()
            try:
                self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                                start_new_session=True, preexec_fn=_die_with_parent)
            except OSError as exc:
                raise self._fault("crash", f"could not start {self.argv[0]!r}: {exc.strerror or exc}") from None
        self._finalizer = weakref.finalize(self, _kill, self.process)
        os.set_blocking(self.process.stdin.fileno(), False)
        hello = self._hello(seat, vector)
        deadline = time.monotonic() + self.start_timeout
        self._send(hello, deadline, "hello")
        reply = self._receive(deadline, "hello")
        if not isinstance(reply, dict) or reply.get("type") != "ready":
            raise self._fault("garbage", f"answered {_shown(reply)} to the hello, expected {{\"type\": \"ready\"}}")
        wanted = reply.get("fields", list(DEFAULT_FIELDS))
        if not isinstance(wanted, list) or not set(wanted) <= set(FIELDS):
            raise self._fault("garbage", f"asked for fields {_shown(wanted)}; known: {', '.join(FIELDS)}")
        self.fields = tuple(wanted)

    def _send(self, message: dict, deadline: float, what: str) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        fd = self.process.stdin.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while data:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fault("timeout", f"did not read the {what} within {self._limit(what):g} s")
                if not sel.select(left):
                    continue
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise self._crashed(what) from None

    def _receive(self, deadline: float, what: str):
        """The next non-empty line from the bot, parsed as JSON."""
        fd = self.process.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                line, sep, rest = self._buffer.partition(b"\n")
                if sep and line.strip():
                    self._buffer = rest
                    break
                if sep:
                    self._buffer = rest
                    continue
                if len(self._buffer) > MAX_LINE:
                    raise self._fault("garbage", f"wrote a line of more than {MAX_LINE} bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fault("timeout", f"gave no answer to the {what} within {self._limit(what):g} s")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._crashed(what)
                self._buffer += chunk
        try:
            return json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise self._fault("garbage", f"wrote {_shown(line.decode(errors='replace'))}, not JSON") from None

    def _limit(self, what: str) -> float:
        return self.start_timeout if what == "hello" else self.timeout

    def _crashed(self, what: str) -> ForfeitError:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        how = "closed its stdout" if code is None else f"exited with status {code}"
        last = _last_line(self.log_path)
        return self._fault("crash", f"{how} before answering the {what}" + (f" (its stderr: {last})" if last else ""))

    def _fault(self, fault: str, detail: str) -> ForfeitError:
        self.faulted = True
        where = f"; its stderr is in {self.log_path}" if self.log_path is not None else ""
        return ForfeitError(fault, f"bot {shlex.join(self.argv)!r} {detail}{where}")


def _page(game: str, vector: np.ndarray, mask: np.ndarray) -> dict:
    """The browser page's view of the seat (the game's web_view part), without what only the page draws with."""
    from .. import registry

    spec = registry.game(game)
    if not spec.has("web_view"):
        return {}
    n = int(text.bot_view(game).players(vector))
    page = spec.web_view.seat_view(vector, mask, list(SEAT_NAMES[:n]))
    return {k: v for k, v in page.items() if k not in ("kind", "actions")}


def _shown(value) -> str:
    shown = value if isinstance(value, str) else json.dumps(value)
    return repr(shown if len(shown) <= 60 else shown[:60] + "...")


def _last_line(path: Path | None) -> str:
    if path is None or not path.is_file():
        return ""
    with open(path, "rb") as f:
        f.seek(max(0, path.stat().st_size - 2000))
        lines = [ln for ln in f.read().decode(errors="replace").splitlines() if ln.strip()]
    return lines[-1][:200] if lines and not lines[-1].startswith("--- ") else ""


def make(argument: str, game: str, **kwargs) -> StdioAgent:
    """``cmd:[OPTIONS] COMMAND``: the agent factory (`ktenv.agents`)."""
    return StdioAgent(argument, game, **kwargs)


__all__ = ["DEFAULT_TIMEOUT", "FIELDS", "PROTOCOL", "VERSION", "StdioAgent", "make", "parse_command", "source_file"]

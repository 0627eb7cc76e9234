"""Shared by the bot tests: the example and faulty bots as agent specs, and the processes still running a file."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY_BOT = ROOT / "examples" / "bots" / "random_bot.py"
JS_BOT = ROOT / "examples" / "bots" / "random_bot.js"
C_BOT = ROOT / "examples" / "bots" / "first_bot.c"
FAULTY = Path(__file__).with_name("faulty_bot.py")
HAS_NODE = shutil.which("node") is not None


def python_bot(path: Path = PY_BOT, *args: str, options: str = "") -> str:
    return f"cmd:{options + ' ' if options else ''}{sys.executable} {path} {' '.join(args)}".rstrip()


def faulty(tmp_path: Path, fault: str, after: int, options: str = "") -> tuple[str, Path]:
    """A spec of the faulty bot run from its own copy (so its processes can be found), and that copy."""
    copy = tmp_path / f"faulty_{fault}_{after}.py"
    shutil.copy(FAULTY, copy)
    return python_bot(copy, fault, str(after), options=options), copy


def running(marker: str) -> list[int]:
    """Process ids whose command line names `marker` (a file only one test uses)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = next((ln for ln in (proc / "status").read_text().splitlines() if ln.startswith("State:")), "")
        except OSError:
            continue
        if marker in cmdline and "zombie" not in state:
            found.append(int(proc.name))
    return found

"""The README and docs/*.md as scripts: every command of their ```bash blocks runs, in order, in a fresh
folder, and every ```python block runs as a program (a block that is only an illustration is written as
```text or ```console instead).

Commands that install packages or run the tests are left out by the reviewed list `SKIP` (each rule
gives its reason, and a rule that matches nothing fails, so the list stays true); commands that train
or take many minutes are written in ```console blocks, which are shown, not run.
The rest run as written, with game counts and benchmark seconds shrunk by `shrink` so a command takes
seconds: `--games N` becomes N // 48 (at least 1), a tournament without `--games` plays 2 games.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

# (pattern of one command, why the test does not run it)
SKIP = [
    (r"^pip install\b", "installs packages"),
    (r"^python -m pytest\b", "the test suite itself"),
]
COPIED = ("configs", "bench", "models", "examples")  # folders the commands read, relative to the repository root


def python_blocks(text: str) -> list[str]:
    """The ```python blocks, whole."""
    return [m.group(1) for m in re.finditer(r"^```python\n(.*?)^```", text, re.M | re.S)]


def bash_lines(text: str) -> list[str]:
    """The shell lines of the ```bash blocks (comments dropped, continued lines joined)."""
    lines, inside, pending = [], False, ""
    for raw in text.splitlines():
        if raw.strip().startswith("```"):
            inside = raw.strip() == "```bash"
            continue
        if not inside:
            continue
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = (pending + line).strip(), ""
        if line:
            lines.append(line)
    return lines


def skip_reason(command: str) -> str | None:
    for pattern, reason in SKIP:
        if re.search(pattern, command):
            return reason
    return None


def shrink(command: str) -> str:
    """Fewer games and seconds; the command is otherwise the README's own."""
    command = re.sub(r"--games (\d+)", lambda m: f"--games {max(1, int(m[1]) // 48)}", command)
    command = re.sub(r"--seconds \d+", "--seconds 1", command)
    if command.startswith("ktenv tournament") and "--games" not in command:
        command = command.replace("ktenv tournament", "ktenv tournament --games 2", 1)
    return command


def runnable(line: str) -> str | None:
    """The line's `&&`-joined commands that the test runs (shrunk), or None when it runs none of them."""
    kept = [shrink(c.strip()) for c in line.split("&&") if skip_reason(c.strip()) is None]
    return " && ".join(kept) or None


LINES = [line for page in PAGES for line in bash_lines(page.read_text())]
COMMANDS = [c for c in (runnable(line) for line in LINES) if c]
SNIPPETS = [(page.relative_to(ROOT), k, code)
            for page in PAGES for k, code in enumerate(python_blocks(page.read_text()))]


def test_the_readme_has_shell_lines_and_every_skip_rule_is_used():
    assert len(bash_lines(README.read_text())) >= 5 and len(COMMANDS) >= 20
    commands = [c.strip() for line in LINES for c in line.split("&&")]
    for pattern, reason in SKIP:
        assert any(re.search(pattern, c) for c in commands), f"skip rule {pattern!r} ({reason}) matches nothing"


def test_shrink_keeps_the_command():
    assert shrink("ktenv tournament --agents a,b --games 96 --seed 1") == \
        "ktenv tournament --agents a,b --games 2 --seed 1"
    assert shrink("ktenv tournament --config c.yaml") == "ktenv tournament --games 2 --config c.yaml"
    assert runnable("pip install -e . && ktenv play --seed 1") == "ktenv play --seed 1"
    assert runnable("pip install torch && python -m pytest -q") is None


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    if shutil.which("ktenv") is None:
        pytest.skip("the ktenv command is not installed (pip install -e .)")
    where = tmp_path_factory.mktemp("readme")
    for name in COPIED:
        shutil.copytree(ROOT / name, where / name, ignore=shutil.ignore_patterns("__pycache__"))
    return where


@pytest.mark.slow  # 2-10 s a command, about a minute in all
@pytest.mark.parametrize("command", COMMANDS, ids=[f"{i}:{c.split(' --')[0][:40]}" for i, c in enumerate(COMMANDS)])
def test_readme_command_runs(folder, command):
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")  # this checkout's ktenv, no display
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert_only_runs_written(folder)


def assert_only_runs_written(folder: Path) -> None:
    """What the docs' commands write goes under runs/ (or /tmp), never beside the repository's own files."""
    stray = sorted(p.name for p in folder.iterdir() if p.name not in (*COPIED, "runs"))
    assert not stray, f"written outside runs/: {stray}"


@pytest.mark.slow
@pytest.mark.parametrize("page, k, code", SNIPPETS, ids=[f"{page}#{k}" for page, k, _ in SNIPPETS])
def test_python_snippet_runs(folder, page, k, code):
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    done = subprocess.run(["python", "-c", code], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page}, python block {k}:\n{code}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert_only_runs_written(folder)


def test_the_docs_have_python_snippets():
    assert len(SNIPPETS) >= 5 and all("import" in code for _, _, code in SNIPPETS[:1])


def test_ci_runs_the_readmes_test_command():
    """The README opens with the install-and-test line; .ci/run must run exactly that line."""
    first_block = re.search(r"^```bash\n(.*?)^```", README.read_text(), re.M | re.S).group(1).splitlines()
    test_line = next(line for line in first_block if "pytest" in line)
    assert test_line in (ROOT / ".ci" / "run").read_text().splitlines()

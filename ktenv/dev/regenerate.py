"""Regenerates every file derived from the code, and rebuilds the native core in between.

    python -m ktenv.dev.regenerate             # the native headers, rebuild, the generated docs, the playthroughs
    python -m ktenv.dev.regenerate --check     # exit 1 naming what is out of date (nothing written, no build)
    python -m ktenv.dev.regenerate --no-build  # write them without rebuilding (the core is built already)

Each game lists its derived files in its ``dev`` package (``DERIVED``); those made from the compiled core
(docs of its tables, golden playthroughs replayed on both engines) come after the rebuild. Each step runs
in a fresh interpreter, so it loads the core just built.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import subprocess
import sys

from .layout import ROOT, games


def steps() -> list[tuple[str, str, list[str], list[str], bool]]:
    out = []
    for game in games():
        derived = importlib.import_module(f"ktenv.{game}.dev").DERIVED
        out += [(f"{game}: {what}", *rest) for what, *rest in derived]
    return out


def rebuild() -> int:
    """`pip install -e .` without touching the dependencies; without build isolation when the build tools
    are here, so CMake's build folder is reused and only what changed compiles."""
    isolated = importlib.util.find_spec("scikit_build_core") is None or importlib.util.find_spec("nanobind") is None
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "-e", str(ROOT)]
    if not isolated:
        cmd.insert(5, "--no-build-isolation")
    print("rebuilding the native core:", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT).returncode


def _run(module: str, args: list[str]) -> int:
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.dev.regenerate", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 naming what is out of date")
    parser.add_argument("--no-build", action="store_true", help="do not rebuild the native core")
    args = parser.parse_args(argv)
    todo = steps()
    if args.check:
        stale = [what for what, module, _, check, _ in todo if _run(module, check) != 0]
        print("out of date: " + ", ".join(stale) if stale else "every derived file is up to date")
        return 1 if stale else 0
    built = args.no_build
    for what, module, write, _, after_build in todo:
        if after_build and not built:
            if rebuild() != 0:
                print("the rebuild failed; fix it and run again", file=sys.stderr)
                return 1
            built = True
        print(f"== {what}", flush=True)
        if _run(module, write) != 0:
            print(f"{what}: failed", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

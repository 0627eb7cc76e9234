"""A development build of the native core while the port is under way: `python -m ktenv.kings_and_things.native.devbuild NAME`.

Builds every engine module (`src/engine/<module>.cpp`) in `build/dev-NAME/` with CMake, without
optimisation (quick to compile), leaves out those that do not compile yet (their functions get stubs
that throw Unported), and prints the path to load the module from:

    KTENV_NATIVE_PATH=build/dev-NAME/_core....so python -m ktenv.kings_and_things.dev.diff ...

`pip install -e .` remains the real build (every module in); this one lets several people port
different modules in one checkout without one half-written file stopping the others' builds.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "ktenv" / "native" / "src"
ENGINE = SRC / "engine"


def _nanobind(flag: str) -> str:
    return subprocess.run([sys.executable, "-m", "nanobind", flag], capture_output=True, text=True,
                          check=True).stdout.strip()


def _build(build: Path, skip: set[str], jobs: int) -> tuple[int, str]:
    configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Dev",
                 f"-DPython_EXECUTABLE={sys.executable}", f"-Dnanobind_DIR={_nanobind('--cmake_dir')}",
                 f"-DKTENV_ENGINE_SKIP={';'.join(sorted(skip))}"]
    r = subprocess.run(configure, capture_output=True, text=True)
    if r.returncode:
        return r.returncode, r.stdout + r.stderr
    r = subprocess.run(["cmake", "--build", str(build), "-j", str(jobs), "--", "-k"], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", help="build folder suffix: build/dev-NAME")
    ap.add_argument("--skip", default="", help="modules to leave out anyway (comma-separated)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    build = ROOT / "build" / f"dev-{args.name}"
    skip = {m for m in args.skip.split(",") if m}
    # First pass: every module, keep going past errors; then leave out the modules that failed.
    code, out = _build(build, skip, args.jobs)
    failed = set(re.findall(r"src/engine/(\w+)\.cpp\.o\] Error", out))
    if failed:
        for m in sorted(failed):
            errors = [ln for ln in out.splitlines() if f"engine/{m}." in ln and "error" in ln][:8]
            print(f"--- left out {m} (does not compile):\n" + "\n".join(errors) + "\n", file=sys.stderr)
        if failed & {"core", "machine", "common"}:
            print("error: core, machine and common must compile", file=sys.stderr)
            return 1
        skip |= failed
        code, out = _build(build, skip, args.jobs)
    if code:
        print(out[-8000:], file=sys.stderr)
        return 1
    lib = build / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    print(f"left out: {', '.join(sorted(skip)) or 'nothing'}")
    print(f"KTENV_NATIVE_PATH={lib}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

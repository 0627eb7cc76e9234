"""A development build of the native core while the port is under way: `python -m ktenv.native.devbuild NAME`.

Checks each engine module (`src/engine/<module>.cpp` and its header) with the compiler alone, leaves
out those that do not compile yet (they get stubs that throw Unported), builds the module in
`build/dev-NAME/` with CMake, and prints the path to load it from:

    KTENV_NATIVE_PATH=build/dev-NAME/_core....so python -m ktenv.native.diff ...

`pip install -e .` remains the real build (every module in); this one lets several people port
different modules in one checkout without one half-written file stopping the others' builds.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "ktenv" / "native" / "src"
ENGINE = SRC / "engine"


def _nanobind(flag: str) -> str:
    return subprocess.run([sys.executable, "-m", "nanobind", flag], capture_output=True, text=True,
                          check=True).stdout.strip()


def check(path: Path) -> str:
    """'' if the file compiles on its own, else the compiler's first lines."""
    cmd = ["g++", "-std=c++20", "-fsyntax-only", "-w", f"-I{SRC}", "-x", "c++", str(path)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return "" if r.returncode == 0 else "\n".join(r.stderr.splitlines()[:12])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", help="build folder suffix: build/dev-NAME")
    ap.add_argument("--skip", default="", help="modules to leave out anyway (comma-separated)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    modules = sorted({p.stem for p in ENGINE.glob("*.cpp")} | {p.stem for p in ENGINE.glob("*.hpp")})
    skip = {m for m in args.skip.split(",") if m}
    files = [p for m in modules for p in (ENGINE / f"{m}.hpp", ENGINE / f"{m}.cpp") if p.is_file()]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = dict(zip(files, pool.map(check, files)))
    for path, err in results.items():
        if err:
            skip.add(path.stem)
            print(f"--- left out {path.stem} ({path.name} does not compile):\n{err}\n", file=sys.stderr)
    for core_module in ("core", "machine", "hooks", "common"):
        if core_module in skip:
            print(f"error: {core_module} must compile", file=sys.stderr)
            return 1
    build = ROOT / "build" / f"dev-{args.name}"
    configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 f"-DPython_EXECUTABLE={sys.executable}", f"-Dnanobind_DIR={_nanobind('--cmake_dir')}",
                 f"-DKTENV_ENGINE_SKIP={';'.join(sorted(skip))}"]
    if subprocess.run(configure, capture_output=True, text=True).returncode:
        subprocess.run(configure)
        return 1
    r = subprocess.run(["cmake", "--build", str(build), "-j", str(args.jobs)], capture_output=True, text=True)
    if r.returncode:
        print(r.stdout[-6000:], r.stderr[-4000:], file=sys.stderr)
        return 1
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    lib = build / f"_core{suffix}"
    print(f"left out: {', '.join(sorted(skip)) or 'nothing'}")
    print(f"KTENV_NATIVE_PATH={lib}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

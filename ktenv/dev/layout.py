"""Where the packages of ktenv are in a source checkout, read from the build's package mapping
(pyproject.toml, ``[tool.scikit-build] wheel.packages``): agents/ installs as ktenv.agents and
training/ as ktenv.training. Tools and tests that walk the tree ask here, not a copy of the mapping.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def packages(root: Path = ROOT) -> dict[str, Path]:
    """Import name -> folder, longest names first (``ktenv.agents`` before ``ktenv``)."""
    data = tomllib.loads((root / "pyproject.toml").read_text())
    mapping = data["tool"]["scikit-build"]["wheel"]["packages"]
    out = {target.replace("/", "."): root / source for target, source in mapping.items()}
    return dict(sorted(out.items(), key=lambda kv: -len(kv[0])))


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the installed package tree: dotted name -> file."""
    mapped = packages(root)
    out: dict[str, Path] = {}
    for pkg, base in mapped.items():
        for path in sorted(base.rglob("*.py")):
            parts = path.relative_to(base).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join((pkg, *parts))] = path
    return out


def games(root: Path = ROOT) -> list[str]:
    """The games' names, from the entry points of pyproject.toml (`ktenv.registry`)."""
    data = tomllib.loads((root / "pyproject.toml").read_text())
    return sorted(data["project"]["entry-points"]["ktenv.games"])

"""The import graph of ktenv/ (issue 13): no cycles, and the layers point one way.

Every module of ktenv/ (and of the packages mapped into it: agents/ is ktenv.agents, training/ is
ktenv.training) is parsed with `ast`; every import counts, inside functions too, so an import
hidden in a function cannot close a circle. Layers: ktenv.engine imports nothing from ktenv.env,
ktenv.arena, ktenv.agents or ktenv.training; ktenv.env imports nothing from ktenv.agents or
ktenv.training.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"ktenv": ROOT / "ktenv", "ktenv.agents": ROOT / "agents", "ktenv.training": ROOT / "training"}


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg, base in PACKAGES.items():
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("").parts
            if rel[-1] == "__init__":
                rel = rel[:-1]
            name = ".".join((pkg, *rel))
            if name.startswith("ktenv.") and pkg == "ktenv" and name.split(".")[1] in ("agents", "training"):
                continue
            out[name] = path
    return out


def _resolve(name: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = name.split(".") if is_pkg else name.split(".")[:-1]
    parts = parts[:len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def graph() -> dict[str, set[str]]:
    """Module -> the ktenv modules it imports (a `from pkg import name` counts name when it is a module)."""
    mods = _modules()
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_pkg, node)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for t in targets:
                while t and t not in mods:  # `import ktenv.engine.machine` and the like: the deepest module known
                    t = t.rpartition(".")[0]
                if t and t != name:
                    edges[name].add(t)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def _a_circle(edges: dict[str, set[str]], comp: list[str]) -> list[str]:
    """One concrete circle inside a strongly connected component, for the failure message."""
    members = set(comp)
    start = comp[0]
    path, seen = [start], {start}
    while True:
        nxt = sorted(w for w in edges[path[-1]] if w in members)
        back = [w for w in nxt if w in seen]
        if back:
            return path[path.index(back[0]):] + [back[0]]
        w = next(w for w in nxt if w not in seen)
        path.append(w)
        seen.add(w)


def test_no_import_cycles():
    edges = graph()
    found = cycles(edges)
    msg = "\n".join(f"{len(c)} modules: {' -> '.join(_a_circle(edges, c))}" for c in found)
    assert not found, f"import cycles in ktenv/:\n{msg}"


def _imports_from(edges: dict[str, set[str]], layer: str, banned: tuple[str, ...]) -> list[str]:
    return sorted(f"{m} imports {t}" for m, ts in edges.items() if m == layer or m.startswith(layer + ".")
                  for t in ts if any(t == b or t.startswith(b + ".") for b in banned))


def test_engine_imports_no_upper_layer():
    bad = _imports_from(graph(), "ktenv.engine", ("ktenv.env", "ktenv.arena", "ktenv.agents", "ktenv.training"))
    assert not bad, "\n".join(bad)


def test_env_imports_no_agents_or_training():
    bad = _imports_from(graph(), "ktenv.env", ("ktenv.agents", "ktenv.training"))
    assert not bad, "\n".join(bad)


def test_the_graph_sees_imports_inside_functions():
    edges = graph()
    assert "ktenv.engine.machine" in edges["ktenv.engine"]
    assert edges["ktenv.engine.movement"], "movement imports other modules"


OPTIONAL = ("ktenv.engine.powers", "ktenv.engine.house", "ktenv.engine.boat", "ktenv.engine.kadab")


def test_core_engine_never_imports_the_optional_rules():
    """R20.3, R21, R22 hook into the core (`ktenv.engine.hooks`); only the machine, which assembles the
    parts of the turn, and the optional modules themselves import them."""
    edges = graph()
    allowed = {"ktenv.engine.machine", *OPTIONAL}
    bad = sorted(f"{m} imports {t}" for m, ts in edges.items() if m.startswith("ktenv.engine.") and m not in allowed
                 for t in ts if t in OPTIONAL)
    assert not bad, "\n".join(bad)

"""The import graph of ktenv (and of the packages mapped into it: agents/ is ktenv.agents, training/ is
ktenv.training, `ktenv.dev.layout`): no cycles, and the layers point one way.

Every module is parsed with `ast`; every import counts, inside functions too, so an import hidden in a
function cannot close a circle. Layers: a game's engine imports nothing from its env, the arena, the
agents or training; a game's env imports nothing from the agents or training; games never import each
other; the shared layers (everything outside the games' folders) import no game and name none.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ktenv.dev.layout import games, modules

ROOT = Path(__file__).resolve().parents[2]
GAMES = games()


def _modules() -> dict[str, Path]:
    return modules(ROOT)


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
                while t and t not in mods:  # `import ktenv.<game>.engine.machine` and the like: the deepest known
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
    for game in GAMES:
        engine = f"ktenv.{game}.engine" if f"ktenv.{game}.engine" in graph() else f"ktenv.{game}.machine"
        bad = _imports_from(graph(), engine, (f"ktenv.{game}.env", "ktenv.arena", "ktenv.agents", "ktenv.training"))
        assert not bad, "\n".join(bad)


def test_env_imports_no_agents_or_training():
    bad = _imports_from(graph(), "ktenv.kings_and_things.env", ("ktenv.agents", "ktenv.training"))
    assert not bad, "\n".join(bad)


def _game_of(module: str) -> str | None:
    """The game whose folder a module is in (ktenv/<game>/ or agents/<game>/), else None (a shared module)."""
    for game in GAMES:
        if any(module == f"{b}.{game}" or module.startswith(f"{b}.{game}.") for b in ("ktenv", "ktenv.agents")):
            return game
    return None


def test_games_never_import_each_other():
    bad = sorted(f"{m} imports {t}" for m, ts in graph().items() if _game_of(m)
                 for t in ts if _game_of(t) and _game_of(t) != _game_of(m))
    assert not bad, "\n".join(bad)


def test_shared_layers_import_no_game():
    """The CLI, arena, registry, gamekit, training and the agents' shared parts reach a game only through
    `ktenv.registry`, by name."""
    bad = sorted(f"{m} imports {t}" for m, ts in graph().items() if _game_of(m) is None for t in ts if _game_of(t))
    assert not bad, "\n".join(bad)


def _game_words() -> list[str]:
    from ktenv import registry

    words = []
    for name in GAMES:
        spec = registry.game(name)
        words += [name, name.replace("_", " "), spec.title, spec.gym_id, spec.env_name]
    return sorted(set(words))


def test_no_shared_module_names_a_game():
    """No shared module names a game, in code, strings or comments: a third game touches none of them."""
    words = _game_words()
    bad = []
    for name, path in sorted(_modules().items()):
        if _game_of(name) is not None:
            continue
        text = path.read_text(encoding="utf-8").lower()
        bad += [f"{path.relative_to(ROOT)}: {w!r}" for w in words if w.lower() in text]
    assert not bad, "shared modules that name a game:\n" + "\n".join(bad)


def test_the_name_test_sees_a_game_name():
    assert "kingsburg" in [w.lower() for w in _game_words()]
    assert _game_of("ktenv.kingsburg.machine") == "kingsburg" and _game_of("ktenv.arena.records") is None
    assert _game_of("ktenv.agents.kings_and_things.expert") == "kings_and_things"


def test_the_graph_sees_imports_inside_functions():
    edges = graph()
    assert "ktenv.kings_and_things.engine.machine" in edges["ktenv.kings_and_things.engine"]
    assert edges["ktenv.kings_and_things.engine.movement"], "movement imports other modules"


OPTIONAL = tuple(f"ktenv.kings_and_things.engine.{m}" for m in ("powers", "house", "boat", "kadab"))


def test_core_engine_never_imports_the_optional_rules():
    """R20.3, R21, R22 hook into the core (`ktenv.kings_and_things.engine.hooks`); only the machine, which assembles the
    parts of the turn, and the optional modules themselves import them."""
    edges = graph()
    allowed = {"ktenv.kings_and_things.engine.machine", *OPTIONAL}
    engine = "ktenv.kings_and_things.engine."
    bad = sorted(f"{m} imports {t}" for m, ts in edges.items() if m.startswith(engine) and m not in allowed
                 for t in ts if t in OPTIONAL)
    assert not bad, "\n".join(bad)

"""docs/rules.md stays in step with the code.

(a) Every rule number the code cites (R11.3.4, RD10.2, RP-5.9, C.10, RI.4, RT.18 ...) in ktenv/,
    agents/ or training/ has an entry on docs/rules.md (a heading or a bold entry).
(b) Every code reference on the page exists: `path.py: name, Class.method` names a file that
    exists and module-level functions, classes or constants (or methods) defined in it; any other
    backticked repository path exists; a bare backticked identifier (`legal_stack`, an option key)
    is defined somewhere in ktenv/ or is an option key or value.

Pure text and `ast`: nothing is imported, so the test takes well under a second.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
CODE_DIRS = ("ktenv", "agents", "training")

# One rule number: R11.3.4, RD10.2, RP-5.9 / RP-S1 / RP-O, RI.4, RT.18, A.0.1, B.10, C.10, D.3.
RULE = re.compile(r"(?<![\w.])(RP-[A-Z0-9]+(?:\.\d+)*|RD\d+(?:\.\d+)*|R\d+(?:\.\d+)*|RI\.\d+|RT\.\d+"
                  r"|[ABCD]\.\d+(?:\.\d+)*)(?!\w)")
# Where the page defines a number: a heading that starts with it, or a bold entry that starts with it.
DEFINED = re.compile(r"^#+\s+(\S+)|\*\*([^*\s]+)", re.MULTILINE)
# `path.py: name, name` (the form of the Code lines), or `path.py` alone.
CODE_REF = re.compile(r"`((?:ktenv|agents|training)/[\w/]+\.py)(?::\s*([^`]+))?`")
PATH_REF = re.compile(r"`((?:ktenv|agents|training|docs|tests)/[\w./-]+\.\w+)`")
BARE_NAME = re.compile(r"`([a-z_][a-z0-9_]*)`")


def _code_files() -> list[Path]:
    return sorted(p for d in CODE_DIRS for p in (ROOT / d).rglob("*.py"))


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def cited_rules() -> dict[str, str]:
    """Rule number -> the first place it is cited (file:line)."""
    cited: dict[str, str] = {}
    for path in _code_files():
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule in RULE.findall(line):
                cited.setdefault(rule, f"{path.relative_to(ROOT)}:{i}")
    return cited


def documented_rules(text: str) -> set[str]:
    found = set()
    for heading, bold in DEFINED.findall(text):
        token = (heading or bold).rstrip(".,:")
        found.update(RULE.findall(token))
    return found


@functools.cache
def _names(path: Path) -> frozenset[str]:
    """Module-level functions, classes and assigned names, and `Class.member` for class members."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()

    def targets(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Assign):  # `A = ...` and `A, B = ...`
            elts = [e for t in node.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
            return [e.id for e in elts if isinstance(e, ast.Name)]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return [node.target.id]
        return []

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                for member in node.body:
                    if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        names.add(f"{node.name}.{member.name}")
                    names.update(f"{node.name}.{t}" for t in targets(member))
        names.update(targets(node))
    return frozenset(names)


@functools.cache
def _vocabulary() -> frozenset[str]:
    """Identifiers defined anywhere in the code (functions, classes, constants, `self.x` attributes,
    class members), plus every string constant of ktenv/kings_and_things/config.py (option keys and values)."""
    words: set[str] = set()
    for path in _code_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                words.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                words.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                words.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                words.add(node.target.id)
    config = ast.parse((ROOT / "ktenv" / "kings_and_things" / "config.py").read_text(encoding="utf-8"))
    words.update(n.value for n in ast.walk(config) if isinstance(n, ast.Constant) and isinstance(n.value, str))
    return frozenset(words)


def test_every_cited_rule_is_on_the_page():
    documented = documented_rules(_doc())
    missing = {rule: where for rule, where in cited_rules().items() if rule not in documented}
    assert not missing, ("rule numbers cited in the code without an entry on docs/rules.md "
                         f"(add a heading or a bold entry): {dict(sorted(missing.items()))}")


def test_code_references_exist():
    problems = []
    for match in CODE_REF.finditer(_doc()):
        rel, names = match.group(1), match.group(2)
        path = ROOT / rel
        if not path.is_file():
            problems.append(f"{rel}: no such file")
            continue
        for name in filter(None, (n.strip() for n in (names or "").split(","))):
            if name not in _names(path):
                problems.append(f"{rel}: {name} is not defined there")
    assert not problems, "docs/rules.md names code that does not exist: " + "; ".join(problems)


def test_other_paths_and_names_exist():
    text = _doc()
    paths = [p for p in PATH_REF.findall(text) if not (ROOT / p).exists()]
    assert not paths, f"docs/rules.md names files that do not exist: {paths}"
    vocabulary = _vocabulary()
    names = sorted({n for n in BARE_NAME.findall(text) if n not in vocabulary})
    assert not names, f"docs/rules.md names identifiers defined nowhere in the code: {names}"


def test_the_checks_catch_drift():
    """The parsers are not vacuous: the page has many references, and a wrong one is caught."""
    text = _doc()
    assert len(CODE_REF.findall(text)) > 200
    assert len(documented_rules(text)) > 400
    assert "R11.3.4" in documented_rules("- **R11.3.4** Sea.") and "RP-5.9" in documented_rules("- **RP-5.9** x")
    assert "no_such_function" not in _names(ROOT / "ktenv" / "kings_and_things" / "engine" / "movement.py")
    assert "legal_stack" in _names(ROOT / "ktenv" / "kings_and_things" / "engine" / "movement.py")
    assert "GameState.income" in _names(ROOT / "ktenv" / "kings_and_things" / "state.py")

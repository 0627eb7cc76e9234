"""The two engines mirror each other file for file and function for function.

Each Python engine module (ktenv/kings_and_things/engine/<module>.py) names its C++ twin in its docstring, on a line
"C++ twin: PATH" (PATH relative to the game's folder), and every top-level function of the module
(read with ast) is defined in native/src/engine/<module>.cpp or <module>.hpp under the same name.
C++ has no leading underscore: a private `_name` is `name` in the file's anonymous namespace, or
`name_of` where C++ needs `name` for a local variable or a namespace (`x_of`, `setup_of`, `spent_of`).
The few Python functions with no C++ twin are listed in EXCEPTIONS, each with its reason.

A rule is changed in both engines in the same commit (docs/native.md); this test keeps the names in
step, so that the twin of a function is found by its name. It reads source files only: no build needed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ktenv.kings_and_things.engine
import ktenv.kings_and_things.native

ENGINE = Path(ktenv.kings_and_things.engine.__file__).parent
GAME = ENGINE.parent  # the game's folder: twin paths are relative to it
NATIVE = Path(ktenv.kings_and_things.native.__file__).parent / "src" / "engine"

_LAYOUT = ("the action layout is built in Python and handed to the native core with the game's tables "
           "(native/bridge.py); C++ reads it as s.t->layout")

# (module, function): why the function has no C++ twin. Python-only plumbing, nothing that plays a rule.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("actions", "action_layout"): _LAYOUT,
    ("actions", "layout"): _LAYOUT,
    ("describe", "describe_action"): "English for people: a native game is described through its Python state "
                                     "(NativeGame.describe_action)",
    ("events", "add_event"): "fills the Python event tables for an optional rule's event (the Portal); C++'s "
                             "switches over the event call house::portal_* by name",
    ("events", "_always"): "PLAYABLE's entry for an event that is always playable; in C++ a `return true` in the "
                           "switch of `playable`",
    ("events", "_shared"): "builds the routed (legal, apply) pairs of FAN_HEX and ESCAPE_HEX; C++ writes them out "
                           "(legal_fan_hex, apply_fan_hex, legal_escape_hex, apply_escape_hex)",
    ("hooks", "point"): "the decorator that declares a hook point; hooks.hpp writes each point out as a function",
    ("hooks", "_nothing"): "the empty body `point` compares a declaration against",
    ("kadab", "seen"): "asked only outside the engine (the observation encoder, worlds.py), whose native twins "
                       "read s.seen in place",
    ("machine", "resolve_backend"): "chooses between the two engines",
    ("machine", "legal_actions"): "np.flatnonzero of the mask, for Python callers",
    ("machine", "resume"): "the entry for a state edited by hand; a native game resumes with machine::edited "
                           "and machine::advance (NativeGame.resume)",
}

_TWIN_LINE = re.compile(r"^C\+\+ twin: (\S+)", re.M)
# A line at column 0 (not a comment, a directive or a statement) that names a function: its name, then "(".
_HEAD = re.compile(r"^(?![ \t/#*])(?!return\b)[^;=(){}]*?\b([A-Za-z_]\w*)\s*\(", re.M)
_TAIL = re.compile(r"\s*(?:const\b|noexcept\b|override\b|->\s*[\w:<>&*, ]+?(?=\s*\{))*\s*\{")


def modules() -> list[Path]:
    return sorted(p for p in ENGINE.glob("*.py") if p.stem != "__init__")


def python_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def cpp_definitions(text: str) -> set[str]:
    """Names of the functions defined (with a body, not only declared) at namespace level in C++ source."""
    out = set()
    for m in _HEAD.finditer(text):
        depth, i = 0, m.end() - 1
        while i < len(text):  # to the parenthesis that closes the parameter list
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        if _TAIL.match(text, i + 1):
            out.add(m.group(1))
    return out


def twin_source(module: str) -> str:
    return "".join(f.read_text() for f in (NATIVE / f"{module}.cpp", NATIVE / f"{module}.hpp") if f.is_file())


def has_twin(name: str, defined: set[str]) -> bool:
    bare = name.lstrip("_")
    return bare in defined or (name.startswith("_") and f"{bare}_of" in defined)


def test_every_engine_module_names_its_cpp_twin():
    bad = []
    for path in modules():
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        found = _TWIN_LINE.findall(doc)
        if len(found) != 1:
            bad.append(f"{path.name}: {len(found)} 'C++ twin: PATH' lines in the docstring (one wanted)")
        elif found[0] != "none" and not (GAME / found[0]).is_file():
            bad.append(f"{path.name}: its C++ twin {found[0]} does not exist")
    assert not bad, "\n".join(bad)


def test_every_engine_function_has_its_cpp_twin_of_the_same_name():
    missing = []
    for path in modules():
        defined = cpp_definitions(twin_source(path.stem))
        for name in python_functions(path):
            if (path.stem, name) not in EXCEPTIONS and not has_twin(name, defined):
                missing.append(f"{path.stem}.{name}: no C++ {name.lstrip('_')}() in native/src/engine/{path.stem}"
                               f".cpp or .hpp")
    assert not missing, ("Python engine functions without their C++ twin (rename one side, or list Python-only "
                         "plumbing in EXCEPTIONS with its reason):\n  " + "\n  ".join(missing))


def test_the_exceptions_are_still_needed():
    stale = []
    for (module, name), reason in EXCEPTIONS.items():
        path = ENGINE / f"{module}.py"
        if not path.is_file() or name not in python_functions(path):
            stale.append(f"{module}.{name}: no such Python function any more")
        elif has_twin(name, cpp_definitions(twin_source(module))):
            stale.append(f"{module}.{name}: it has a C++ twin now")
        assert reason, (module, name)
    assert not stale, "\n".join(stale)


def test_the_definition_reader_tells_definitions_from_declarations():
    text = """namespace ktenv::m {
namespace {
Battle& bt(State& s) { return *s.frame<Battle>(); }
}  // namespace
void declared_only(State& s, int n);
bool defined(const State& s,
             int hx) {
  return helper(s, hx);
}
inline int table(int value) { return std::min(6, value); }
const Series& order(const State& s) noexcept { return s.order; }
template <class F>
void each(State& s, F f) {
  f(s);
}
// commented(State& s) {
}  // namespace ktenv::m
"""
    assert cpp_definitions(text) == {"bt", "defined", "table", "order", "each"}

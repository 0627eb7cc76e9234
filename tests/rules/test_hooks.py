"""The hook points of ktenv/kings_and_things/engine/hooks.py: declared once, implemented per option."""

from __future__ import annotations

import pytest

from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine import hooks
from ktenv.kings_and_things.engine.machine import new_game


def test_every_point_has_a_dispatcher_and_a_standard_answer():
    for name, point in hooks.POINTS.items():
        dispatcher = getattr(hooks, name)
        assert dispatcher.hook is point and callable(point.standard)
        assert point.combine in ("first", "any", "each")


def test_optional_modules_register_their_implementations():
    by_option = {o for point in hooks.POINTS.values() for _, _, o in point.impls}
    assert {"encounter_powers", "house_content", "mysterious_kadab"} <= by_option
    boat = "ktenv.kings_and_things.engine.boat"
    assert any(f.__module__ == boat for p in hooks.POINTS.values() for _, f, _ in p.impls)


def test_an_implementation_applies_only_when_its_option_is_on():
    plain = new_game(GameConfig(n_players=4, max_rounds=1), 0)
    powers = new_game(GameConfig(n_players=4, max_rounds=1, encounter_powers=True,
                                 powers=("Builder", "Amoeba", "Lucky", "Nomad")), 0)
    assert hooks.build_cost(plain, 0, 5) == 5
    assert hooks.build_cost(powers, 0, 5) == 4  # R21.3 Builder
    assert hooks.build_cost(powers, 1, 5) == 5


def test_a_declaration_checks_the_implementations():
    point = hooks.POINTS["build_cost"]
    with pytest.raises(TypeError, match="parameters"):
        point.implement("encounter_powers")(lambda s, player: 0)
    with pytest.raises(ValueError, match="not a GameConfig option"):
        point.implement("no_such_option")
    assert len(point.impls) == 1


def test_nobody_imports_a_dispatcher_by_name():
    """`from .hooks import build_cost` would keep the dispatcher of import time, before the optional
    modules registered: the points are called as ``hooks.<point>(...)``."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    bad = []
    for path in [*(root / "ktenv").rglob("*.py"), *(root / "agents").rglob("*.py"), *(root / "tests").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("hooks"):
                bad += [f"{path.relative_to(root)}: {a.name}" for a in node.names if a.name in hooks.POINTS]
    assert not bad, bad

"""What a seat's page receives holds nothing that seat may not know: over many positions of several games,
changing a hidden fact (another player's face-down counters and screen, the cup, face-down tiles, the enemy
deck, future dice) leaves the page's JSON unchanged, and the log lines of another seat's move (with the
battle lines it set off) change only where what the watcher sees after it changes. The same variants as the
observation's leak checks."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ktenv import registry
from ktenv.kings_and_things.env import testing as kt_testing
from ktenv.kingsburg import testing as kb_testing
from ktenv.web.session import Table, events_of
from ktenv.web.views import view_of

CASES = [("kings_and_things", kt_testing, {"n_players": 2}, 40), ("kings_and_things", kt_testing, {"n_players": 3}, 25),
         ("kings_and_things", kt_testing, {"n_players": 4, "house_content": True}, 15),
         ("kingsburg", kb_testing, {"n_players": 2}, 25), ("kingsburg", kb_testing, {"n_players": 4}, 15)]


def page_of(spec, state, seat: int) -> str:
    """The JSON a person's page gets at `seat` (the app's own `Table.page`)."""
    agents = ["random"] * state.cfg.n_players
    agents[seat] = "human"
    table = Table("0" * 12, spec, state.cfg, 0, agents, state=state, logs={seat: []})
    return json.dumps(table.page(seat), sort_keys=True)


@pytest.mark.parametrize("name, testing, options, count", CASES)
def test_a_seat_page_ignores_hidden_facts(name, testing, options, count):
    spec = registry.game(name)
    rng = np.random.default_rng(7)
    checked = 0
    for s in testing.random_states(options, count, seed=3):
        for seat in range(s.cfg.n_players):
            base = page_of(spec, s, seat)
            for what, t in testing.hidden_variants(s, seat, rng):
                assert page_of(spec, t, seat) == base, f"hidden change '{what}' changed seat {seat}'s page"
                checked += 1
    assert checked > count


@pytest.mark.parametrize("name, testing, options, count", CASES[:1] + CASES[3:4])
def test_a_seat_page_shows_public_changes(name, testing, options, count):
    spec = registry.game(name)
    rng = np.random.default_rng(8)
    for s in testing.random_states(options, count // 4, seed=5):
        seat = int(rng.integers(s.cfg.n_players))
        base = page_of(spec, s, seat)
        for what, t in testing.public_variants(s, seat, rng):
            if what != "hex owner" or t.hex_terrain[np.flatnonzero(t.hex_owner != s.hex_owner)].max() < 7:
                assert page_of(spec, t, seat) != base, f"public change '{what}' left seat {seat}'s page unchanged"


@pytest.mark.parametrize("name, testing, options, count", CASES[:2] + CASES[3:4])
def test_log_lines_of_other_seats_moves_ignore_hidden_facts(name, testing, options, count):
    spec = registry.game(name)
    view, engine = view_of(spec), spec.engine
    rng = np.random.default_rng(9)
    compared = 0
    for s in testing.random_states(options, count, seed=11):
        n = s.cfg.n_players
        watcher = (int(s.actor) + 1 + int(rng.integers(n - 1))) % n
        names = ["you"] + [f"p{k}" for k in range(1, n)]
        action = int(rng.choice(np.flatnonzero(engine.legal_mask(s))))
        lines = set()
        for _what, t in [("as is", s)] + testing.hidden_variants(s, watcher, rng):
            if not engine.legal_mask(t)[action]:
                continue
            before = view.encode(t, watcher)
            after_state = t.copy()
            engine.step(after_state, action)
            after = view.encode(after_state, watcher)
            line = view.public_move(before, (int(s.actor) - watcher) % n, action, after, names)
            lines.add((after.tobytes(), "\n".join([line, *events_of(view, before, after, names)])))
        by_view: dict[bytes, set[str]] = {}
        for seen, line in lines:
            by_view.setdefault(seen, set()).add(line)
        assert all(len(v) == 1 for v in by_view.values()), by_view
        compared += len(lines)
    assert compared >= count


def test_a_record_position_seen_by_a_seat_is_its_page(tmp_path):
    """The watch page of a seat holds the same view as a person's page at that seat, and its next move and log
    come from the seat's observations (a record of random play, every position of both seats)."""
    from ktenv.arena.records import record_of
    from ktenv.web import runs

    spec = registry.game("kings_and_things")
    cfg = spec.make_config({}, 2, 1)
    s = spec.new_game(cfg, 5)
    actions, states = [], []
    rng = np.random.default_rng(0)
    while not s.game_over:
        states.append(s.copy())
        a = int(rng.choice(np.flatnonzero(spec.engine.legal_mask(s))))
        spec.engine.step(s, a)
        actions.append(a)
    path = tmp_path / "game.json"
    record_of(cfg, 5, ["random", "random"], actions, s).save(path)
    for at in range(0, len(actions), max(1, len(actions) // 12)):
        for seat in (0, 1):
            got = runs.position(path, at, str(seat))
            mine = json.loads(page_of(spec, states[at], seat))
            assert got["view"] == mine["view"]


def test_the_win_chances_a_seat_is_shown_ignore_hidden_facts():
    from ktenv.kings_and_things.web import win_chances

    rng = np.random.default_rng(4)
    for s in kt_testing.random_states({"n_players": 2, "max_rounds": 6}, 4, seed=6, gap=(20, 80)):
        seat = int(s.actor)
        base = win_chances(s, seat, worlds=3)
        for what, t in kt_testing.hidden_variants(s, seat, rng):
            assert win_chances(t, seat, worlds=3) == base, what

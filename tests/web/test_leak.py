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
from ktenv.rng import Dice
from ktenv.web.session import Table, events_of, roll_lines_of, rolls_of
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


class _SeenDice(Dice):
    """The game's generator, writing down every die it rolls (dice are public once rolled, RD1.1)."""

    __slots__ = ("seen",)

    def d6(self) -> int:
        value = super().d6()
        self.seen.append(value)
        return value


def _step_seeing_dice(state, action: int):
    """(the state after `action`, the dice rolled on the way): on a Python copy, the same game bit for bit."""
    t = (state.to_python() if hasattr(state, "to_python") else state).copy()
    seen = _SeenDice(state=t.rng.state)
    seen.script, seen.seen = list(t.rng.script), []
    t.rng = seen
    registry.game_of_config(t.cfg).engine.step(t, action)
    return t, tuple(seen.seen)


def _later_dice_changed(s, action: int) -> tuple:
    """A copy of `s` that rolls the same dice in `action` as `s` does, and other dice after it."""
    _, rolled = _step_seeing_dice(s, action)
    t = (s.to_python() if hasattr(s, "to_python") else s).copy()
    t.rng = Dice(state=t.rng.state ^ 0x5DEECE66D)
    t.rng.script = [*rolled, 6, 5, 4, 3, 2, 1] * 4
    return "the dice after the move's changed", t


def _log_of_move(view, s, t, watcher: int, action: int, names: list[str]) -> tuple[tuple, str]:
    """(what the watcher sees after another seat's move in variant `t` of `s`: its observation and the dice
    rolled; the move's log lines: the move, its rolls, what it set off)."""
    n = s.cfg.n_players
    before = view.encode(t, watcher)
    rolls = rolls_of(view, t, action)
    after_state, rolled = _step_seeing_dice(t, action)
    after = view.encode(after_state, watcher)
    line = view.public_move(before, (int(s.actor) - watcher) % n, action, after, names)
    lines = [line, *roll_lines_of(view, rolls, watcher, names), *events_of(view, before, after, names)]
    return (after.tobytes(), rolled), "\n".join(lines)


def _check_log_lines(testing, view, engine, states, rng, moves=None) -> int:
    """For each state (and a move, random unless `moves` gives it), the log lines a watching seat gets are the
    same in every hidden variant where what it sees after the move (its observation, the dice) is the same."""
    compared = 0
    for k, s in enumerate(states):
        n = s.cfg.n_players
        watcher = (int(s.actor) + 1 + int(rng.integers(n - 1))) % n
        names = ["you"] + [f"p{k}" for k in range(1, n)]
        action = moves[k] if moves else int(rng.choice(np.flatnonzero(engine.legal_mask(s))))
        lines = set()
        for _what, t in [("as is", s), _later_dice_changed(s, action)] + testing.hidden_variants(s, watcher, rng):
            if engine.legal_mask(t)[action]:
                lines.add(_log_of_move(view, s, t, watcher, action, names))
        by_view: dict[tuple, set[str]] = {}
        for seen, line in lines:
            by_view.setdefault(seen, set()).add(line)
        assert all(len(v) == 1 for v in by_view.values()), by_view
        compared += len(lines)
    return compared


@pytest.mark.parametrize("name, testing, options, count", CASES[:2] + CASES[3:4])
def test_log_lines_of_other_seats_moves_ignore_hidden_facts(name, testing, options, count):
    spec = registry.game(name)
    states = list(testing.random_states(options, count, seed=11))
    assert _check_log_lines(testing, view_of(spec), spec.engine, states, np.random.default_rng(9)) >= count


def battle_moves(players: int, count: int, seed: int = 0) -> list[tuple]:
    """(state, move) pairs of random play where the move rolls battle dice (Combat phase, R13.4)."""
    from ktenv.kings_and_things.rolls import move_rolls

    spec = registry.game("kings_and_things")
    rng = np.random.default_rng(seed)
    out, game = [], 0
    while len(out) < count and game < 40:
        s = spec.new_game(spec.make_config({}, players, 12), seed * 101 + game)
        while not s.game_over and len(out) < count:
            a = int(rng.choice(np.flatnonzero(spec.engine.legal_mask(s))))
            if any(r["kind"] == "battle" for r in move_rolls(s, a)) and rng.random() < 0.5:
                out.append((s.copy(), a))
            spec.engine.step(s, a)
        game += 1
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_battle_roll_lines_ignore_hidden_facts(players):
    """Moves that roll battle dice: the roll lines (attackers by name, dice, hits) a watching seat reads
    depend only on what it sees after the move and the dice rolled, never on a hidden counter or the dice to
    come; and they are there (every battle roll reaches the log)."""
    spec = registry.game("kings_and_things")
    found = battle_moves(players, 12, seed=players)
    assert len(found) >= 8
    states, moves = [s for s, _ in found], [a for _, a in found]
    view = view_of(spec)
    assert _check_log_lines(kt_testing, view, spec.engine, states, np.random.default_rng(2), moves) >= len(found)
    for s, a in found:
        assert any(" rolls " in line for line in roll_lines_of(view, rolls_of(view, s, a), 0, ["you", "p1", "p2"]))


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


@pytest.mark.parametrize("name, testing, options, count", CASES[:1] + CASES[2:4])
def test_the_whole_table_shows_every_hidden_fact(name, testing, options, count):
    """The whole table of a record (for analysis, asked for by name) changes with every hidden fact a seat's
    page ignores: other players' face-down counters and screens, face-down tiles, the enemy deck. The dice to
    come are no fact of the table."""
    view = view_of(registry.game(name))
    rng = np.random.default_rng(12)
    checked = 0
    for s in testing.random_states(options, count // 2, seed=13):
        names = [f"p{k}" for k in range(s.cfg.n_players)]
        base = json.dumps(view.table_view(s, names), sort_keys=True)
        for what, t in testing.hidden_variants(s, int(rng.integers(s.cfg.n_players)), rng):
            if what not in ("future dice", "future dice changed"):
                assert json.dumps(view.table_view(t, names), sort_keys=True) != base, what
                checked += 1
    assert checked >= count // 2

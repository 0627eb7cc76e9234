"""What a bot or a language model receives holds nothing its seat may not know: over many positions of both
games, every hidden change the env's leak tests make (another player's face-down counters and screen, the cup,
face-down tiles, the enemy deck, future dice) leaves the stdio protocol's messages (with every field a bot may
ask for) and the model's prompt byte for byte the same, while a public change shows in them."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from ktenv.agents import make
from ktenv.agents.stdio import FIELDS

from ktenv import registry, text
from ktenv.kings_and_things.env import testing as kt_testing
from ktenv.kingsburg import testing as kb_testing

CASES = [("kings_and_things", kt_testing, {"n_players": 2}, 12), ("kings_and_things", kt_testing, {"n_players": 3}, 5),
         ("kingsburg", kb_testing, {"n_players": 2}, 12), ("kingsburg", kb_testing, {"n_players": 4}, 6)]


def received(game: str, state, seat: int) -> str:
    """Everything sent to a bot and a model in `seat` at this position: the hello, and when the seat decides,
    the decide message with every field and the chat prompt."""
    spec = registry.game(game)
    bot = make(f"cmd:{sys.executable} -c pass", game=game, seed=1)
    bot.fields = FIELDS
    vector = spec.web_view.encode(state, seat)
    out = {"hello": bot._hello(seat, vector), "fields": text.fields(game, vector)}
    if state.actor == seat and not state.game_over:
        mask = spec.engine.legal_mask(state)
        out["decide"] = bot._decide(vector, mask)
        out["prompt"] = text.messages(game, state.cfg.n_players, text.seat_text(game, vector, mask))
    return json.dumps(out, sort_keys=True)


@pytest.mark.parametrize("game, testing, options, count", CASES)
def test_what_a_bot_receives_ignores_hidden_facts(game, testing, options, count):
    rng = np.random.default_rng(11)
    checked = deciding = 0
    for s in testing.random_states(options, count, seed=4):
        for seat in range(s.cfg.n_players):
            base = received(game, s, seat)
            deciding += s.actor == seat
            for what, t in testing.hidden_variants(s, seat, rng):
                assert received(game, t, seat) == base, f"hidden change '{what}' changed what seat {seat} receives"
                checked += 1
    assert checked > 2 * count and deciding >= count // 2


@pytest.mark.parametrize("game, testing, options, count", CASES[:1] + CASES[2:3])
def test_what_a_bot_receives_shows_public_changes(game, testing, options, count):
    rng = np.random.default_rng(12)
    shown = 0
    for s in testing.random_states(options, count // 2, seed=6):
        seat = int(s.actor)
        base = received(game, s, seat)
        for what, t in testing.public_variants(s, seat, rng):
            if not np.array_equal(registry.game(game).web_view.encode(t, seat),
                                  registry.game(game).web_view.encode(s, seat)):
                assert received(game, t, seat) != base, f"public change '{what}' not shown to seat {seat}"
                shown += 1
    assert shown >= count // 2

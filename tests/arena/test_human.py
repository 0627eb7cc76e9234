"""The terminal agent `human` (`ktenv.agents.human`): whole scripted games of both games through `ktenv play`,
bad input refused and asked again, quitting (exit status 130), a tournament seat, and the text a seat reads
holding no hidden fact (the observation's leak check run on the text)."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from ktenv.agents.human import HumanAgent, QuitGame, numbered
from ktenv.agents.kings_and_things.human_view import KingsAndThingsSeatView
from ktenv.agents.kingsburg.human_view import KingsburgSeatView

from ktenv import agents
from ktenv.cli import main
from ktenv.errors import ConfigError

BAD = "abc\n0\n999\n\n"  # a word, a number too small, one too large, an empty line


def _play(monkeypatch, capsys, answers: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    rc = main(["play", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


# ---------------------------------------------------------------- the prompt


class _Scripted:
    """A seat view with fixed text, to test the prompt alone."""

    def board(self, observation):
        return "THE BOARD"

    def decision(self, observation):
        return "you decide: something"

    def describe(self, observation, action):
        return f"action {action}"


def _agent(answers: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    return HumanAgent(_Scripted(), input=io.StringIO(answers), output=out), out


def test_bad_input_is_refused_and_asked_again():
    agent, out = _agent(BAD + "2\n")
    mask = np.zeros(10, np.int8)
    mask[[3, 5, 7]] = 1
    assert agent.act({"observation": np.zeros(4), "action_mask": mask}, mask) == 5  # the second legal action
    text = out.getvalue()
    assert "'abc' is not a choice: type a number from 1 to 3" in text
    assert "'0' is not a choice" in text and "'999' is not a choice" in text
    assert text.count("your choice [1-3") == 5  # asked again after each of the four bad answers
    assert "  1. action 3\n  2. action 5\n  3. action 7" in text
    assert text.count("THE BOARD") == 1


def test_help_board_and_a_forced_choice():
    agent, out = _agent("h\nb\n1\n")
    mask = np.array([0, 1, 1], np.int8)
    assert agent.act(np.zeros(4), mask) == 1
    text = out.getvalue()
    assert "b: show the board again" in text and text.count("THE BOARD") == 2
    agent, out = _agent("")  # a single legal action is taken without asking
    assert agent.act(np.zeros(4), np.array([0, 0, 1], np.int8)) == 2
    assert "only one choice: action 2" in out.getvalue()


@pytest.mark.parametrize("answers, how", [("q\n", "(q)"), ("", "(end of input)")])
def test_quit_and_end_of_input(answers, how):
    agent, _ = _agent(answers)
    with pytest.raises(QuitGame, match=f"you left the game {how}".replace("(", r"\(").replace(")", r"\)")):
        agent.act(np.zeros(4), np.array([1, 1], np.int8))


def test_ctrl_c_at_the_prompt_quits():
    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    agent = HumanAgent(_Scripted(), input=Interrupted(), output=io.StringIO())
    with pytest.raises(QuitGame, match="Ctrl-C"):
        agent.act(np.zeros(4), np.array([1, 1], np.int8))


def test_long_lists_in_two_columns():
    text = numbered([f"choice {i}" for i in range(1, 21)])
    assert len(text.splitlines()) == 10
    assert text.splitlines()[0].split() == ["1.", "choice", "1", "11.", "choice", "11"]


def test_no_human_in_a_worker_process(monkeypatch):
    monkeypatch.setattr("multiprocessing.parent_process", lambda: object())
    with pytest.raises(ConfigError, match="--workers 1"):
        agents.make("human")


# ---------------------------------------------------------------- whole games through `ktenv play`


def test_kings_and_things_scripted_game(monkeypatch, capsys):
    rc, out, err = _play(monkeypatch, capsys, BAD + "1\n" * 3000, "--agents", "human,expert", "--max-rounds", "1",
                         "--seed", "3")
    assert rc == 0, err
    assert "agents: 0=human, 1=expert" in out and "Game over after" in out  # two seats from the two names
    assert "Kings & Things, round 0 (1 left), setup: you decide: choose start position" in out
    assert "'abc' is not a choice" in out and "'999' is not a choice" in out
    first = out.split("your choice")
    assert first[1].startswith(" [1-6") and first[5].startswith(" [1-6")  # the same decision, asked again
    assert "Your screen:" in out and "* yours" in out


def test_kingsburg_scripted_game(monkeypatch, capsys):
    rc, out, err = _play(monkeypatch, capsys, BAD + "1\n" * 3000, "--game", "kingsburg", "--agents", "human,greedy")
    assert rc == 0, err
    assert "agents: 0=human, 1=greedy" in out and "Kingsburg: player" in out
    assert "Kingsburg, year 1 of 5, Aid from the King: you decide: aid good (P1)" in out
    assert "'abc' is not a choice" in out
    assert "This year's enemy is one of:" in out and "advisor 1 Jester: 1 VP" in out


@pytest.mark.parametrize("game", ["kings_and_things", "kingsburg"])
def test_quitting_ends_play_with_status_130(monkeypatch, capsys, game):
    rc, out, err = _play(monkeypatch, capsys, "1\nq\n", "--game", game, "--agents", "human,random")
    assert rc == 130
    assert err.strip() == "ktenv: you left the game (q); the game was not finished"
    assert "Game over" not in out
    rc, _, err = _play(monkeypatch, capsys, "", "--game", game, "--agents", "human,random")
    assert rc == 130 and "end of input" in err


def test_a_tournament_seat(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    rc = main(["tournament", "--agents", "human,expert", "--players", "2", "--games", "1", "--workers", "1",
               "--max-rounds", "1", "--db", str(tmp_path / "t.sqlite"), "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "you decide" in out and "human" in out.split("Tournament")[-1]


# ---------------------------------------------------------------- nothing hidden in the text


def _text(view, encoder):
    """What the seat reads: the board, the decision and, when it decides, every legal action described."""

    def encode(s, p):
        from ktenv.kings_and_things.engine import legal_mask
        from ktenv.kingsburg.machine import legal_mask as kingsburg_mask

        obs = encoder.encode(s, p)
        lines = [view.board(obs), view.decision(obs)]
        if s.actor == p and not s.game_over:
            mask = (kingsburg_mask if isinstance(view, KingsburgSeatView) else legal_mask)(s)
            lines += [view.describe(obs, int(a)) for a in np.flatnonzero(mask)]
        return np.array("\n".join(lines))

    return encode


def test_kings_and_things_text_has_no_hidden_fact():
    from ktenv.kings_and_things.arena import encoder_for
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.env.testing import check_no_leak, hidden_variants, random_states

    cfg = GameConfig(n_players=2, max_rounds=4)
    encode = _text(KingsAndThingsSeatView(), encoder_for(cfg))
    rng = np.random.default_rng(0)
    checked = hidden = 0
    for s in random_states(cfg, 12, seed=1):
        for p in range(2):
            checked += check_no_leak(encode, s, p, rng)
            hidden += len(hidden_variants(s, p, rng)) - 1  # besides the future dice
    assert hidden > 5 and checked > hidden  # the states had face-down counters and screens to change


def test_kings_and_things_text_names_own_counters_only():
    from ktenv.kings_and_things import catalog as cat
    from ktenv.kings_and_things.arena import encoder_for
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.constants import BOARD, SCREEN
    from ktenv.kings_and_things.env.testing import random_states

    cfg = GameConfig(n_players=2, max_rounds=4)
    encoder, view = encoder_for(cfg), KingsAndThingsSeatView()
    s = next(iter(random_states(cfg, 1, seed=2, gap=(60, 61))))
    mine = np.flatnonzero((s.thing_place == SCREEN) & (s.thing_owner == 0))
    theirs = np.flatnonzero((s.thing_place == BOARD) & (s.thing_owner == 1) & ~s.thing_public & ~s.thing_face_up)
    assert mine.size and theirs.size
    text = view.board(encoder.encode(s, 0))
    assert all(cat.THING_NAME[t] in text for t in mine)
    shown = sum(int(n) for n in re.findall(r"opp1: (?:[^;\n]*, )?(\d+) face down", text))
    assert shown == theirs.size  # the opponent's face-down counters: counted, never named


def test_kingsburg_text_has_no_hidden_fact():
    from ktenv.kingsburg.config import KingsburgConfig
    from ktenv.kingsburg.observation import ObservationEncoder
    from ktenv.kingsburg.testing import check_no_leak, random_states

    cfg = KingsburgConfig(n_players=3)
    encode = _text(KingsburgSeatView(), ObservationEncoder(3))
    rng = np.random.default_rng(0)
    checked = sum(check_no_leak(encode, s, p, rng) for s in random_states(cfg, 10, seed=1) for p in range(3))
    assert checked > 60

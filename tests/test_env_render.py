"""Render modes and `ktenv render SAVED_GAME.json --out board.png` (through `render_command`)."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from ktenv import render
from ktenv.config import GameConfig
from ktenv.constants import TERRAIN_NAMES
from ktenv.env.testing import random_states
from ktenv.render import RenderError, add_render_parser, render_command


@pytest.fixture(scope="module")
def mid_game():
    return next(random_states(GameConfig(n_players=4, max_rounds=4), 1, seed=5, gap=(330, 331)))


def test_ansi_lists_players_and_hexes(mid_game):
    s = mid_game
    text = render.ansi(s)
    lines = text.splitlines()
    assert lines[0].startswith("Kings & Things: round")
    assert sum(line.startswith("p") and line[1].isdigit() for line in lines) == 4
    assert sum(line.startswith("h") for line in lines) == s.geo.n_hexes
    for hx in range(s.geo.n_hexes):
        assert TERRAIN_NAMES[s.hex_terrain[hx]] in next(line for line in lines if line.startswith(f"h{hx} "))
    assert f"{int(s.gold[0])}" in lines[3]


def test_ansi_never_names_hidden_counters(mid_game):
    from ktenv import catalog as cat
    from ktenv.constants import BOARD

    s = mid_game
    text = render.ansi(s)
    hidden = np.flatnonzero((s.thing_place == BOARD) & ~s.thing_public & ~s.thing_face_up)
    assert hidden.size
    names = {cat.THING_NAME[c] for c in hidden} - {cat.THING_NAME[c] for c in range(cat.N_THINGS)
                                                    if s.thing_public[c] or s.thing_face_up[c]}
    assert not any(name in text for name in names)


def test_rgb_array_picture(mid_game):
    pytest.importorskip("PIL")
    picture = render.rgb_array(mid_game)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[1] == 1200 and picture.shape[0] >= 600
    colours = {tuple(c) for c in picture.reshape(-1, 3)[::7].tolist()}
    used = {render.TERRAIN_RGB[t] for t in set(mid_game.hex_terrain.tolist())}
    assert used <= colours  # every terrain on the board is painted
    assert render.PLAYER_RGB[0] in colours
    small = render.rgb_array(mid_game, width=600)
    assert small.shape[1] == 600


def test_render_command_writes_a_png(tmp_path, mid_game, capsys):
    pil = pytest.importorskip("PIL.Image")
    saved = tmp_path / "game.json"
    saved.write_text(mid_game.to_json())
    out = tmp_path / "board.png"
    parser = argparse.ArgumentParser(prog="ktenv")
    add_render_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["render", str(saved), "--out", str(out)])
    assert args.func is render_command and args.func(args) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pil.open(out) as img:
        assert img.size[0] == 1200
    assert "wrote" in capsys.readouterr().out


def test_render_command_errors_are_clear(tmp_path):
    out = tmp_path / "board.png"
    missing = argparse.Namespace(game=str(tmp_path / "nope.json"), out=str(out))
    with pytest.raises(RenderError, match="cannot read saved game"):
        render_command(missing)
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"schema": "ktenv.state", "version": 1, "config": {"n_pla')
    with pytest.raises(RenderError, match="not valid JSON"):
        render_command(argparse.Namespace(game=str(corrupt), out=str(out)))
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"schema": "something else"}')
    with pytest.raises(RenderError, match="schema"):
        render_command(argparse.Namespace(game=str(wrong), out=str(out)))
    assert not out.exists()
    assert issubclass(RenderError, ValueError)  # the CLI reports ValueErrors as "ktenv: error: ..."

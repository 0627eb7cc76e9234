"""Render modes and `ktenv render SAVED_GAME.json --out board.png` (through `render_command`)."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from ktenv.cli import build_parser
from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import render
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import CITY, SEA, SPECIAL_INCOME, TERRAIN_NAMES, VILLAGE
from ktenv.kings_and_things.engine import new_game
from ktenv.kings_and_things.env.testing import random_states
from ktenv.kings_and_things.render import RenderError, render_command


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
    from ktenv.kings_and_things import catalog as cat
    from ktenv.kings_and_things.constants import BOARD

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
    args = build_parser().parse_args(["render", str(saved), "--out", str(out)])
    assert args.func(args) == 0
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
    corrupt.write_text('{"schema": "ktenv.kings_and_things.state", "version": 1, "config": {"n_pla')
    with pytest.raises(RenderError, match="not valid JSON"):
        render_command(argparse.Namespace(game=str(corrupt), out=str(out)))
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"schema": "something else"}')
    with pytest.raises(RenderError, match="schema"):
        render_command(argparse.Namespace(game=str(wrong), out=str(out)))
    assert not out.exists()
    assert issubclass(RenderError, ValueError)  # the CLI reports ValueErrors as "ktenv: error: ..."


# ----------------------------------------------------------------- width and labels


@pytest.mark.parametrize("width", [0, -1, 299, 8001, 10**6, 24.7, "600", True, None])
def test_a_bad_width_is_refused(mid_game, tmp_path, width):
    pytest.importorskip("PIL")
    with pytest.raises(ValueError, match="width: expected a whole number of pixels 300-8000"):
        render.rgb_array(mid_game, width=width)
    with pytest.raises(ValueError, match="width"):
        render.image(mid_game, width)


def test_render_command_refuses_width_zero(tmp_path, mid_game):
    """`ktenv render --width 0` used to draw 1200 px quietly."""
    pytest.importorskip("PIL")
    saved = tmp_path / "game.json"
    saved.write_text(mid_game.to_json())
    out = tmp_path / "board.png"
    with pytest.raises(RenderError, match="--width: expected a whole number of pixels 300-8000, got 0"):
        render_command(argparse.Namespace(game=str(saved), out=str(out), width=0))
    assert not out.exists()


def _inside(corners, x: float, y: float) -> bool:
    """Point inside a convex polygon given clockwise or counter-clockwise."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        signs.add(cross > 0)
    return len(signs) == 1


def _every_income_counter_on_the_board(n_players: int):
    """A board with every kind of income counter on some land hex (only the picture reads them)."""
    s = new_game(GameConfig(n_players=n_players), 0)
    kinds = np.isin(cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))
    ids = list({cat.THING_NAME[c]: int(c) for c in np.flatnonzero(kinds)}.values())
    land = np.flatnonzero(s.hex_terrain != SEA)
    for i, hx in enumerate(land):
        s.hex_income[hx] = ids[i % len(ids)]
    return s, len(ids)


@pytest.mark.parametrize("n_players", [2, 4, 6])
def test_income_labels_fit_their_hex(n_players):
    """No label is cut ("Diamond Fiel 1" was): each shows the whole name or its short form, and the text
    (measured with PIL's textbbox) and its box lie inside the hex on the 2-, 4- and 6-player boards."""
    pil = pytest.importorskip("PIL.ImageDraw")
    from PIL import Image

    s, kinds = _every_income_counter_on_the_board(n_players)
    draw = pil.Draw(Image.new("RGB", (1, 1)))
    for width in (1200, 800):
        labels = render.income_labels(s, width)
        if width == 1200:
            assert len(labels) == np.count_nonzero(s.hex_income >= 0) >= kinds
        for hx, (text, size, box, corners) in labels.items():
            c = int(s.hex_income[hx])
            name = {CITY: "City", VILLAGE: "Village"}.get(int(cat.THING_KIND[c]), cat.THING_NAME[c])
            value = int(cat.THING_INCOME[c])
            assert text in (f"{name} {value}", f"{render.SHORT_NAMES.get(name, name)} {value}")
            assert size >= render.MIN_LABEL_FONT
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            left, top, right, bottom = draw.textbbox(centre, text, font=render._font(size), anchor="mm")
            assert box[0] <= left and right <= box[2], (hx, text)
            for x, y in ((left, top), (right, top), (left, bottom), (right, bottom),
                         (box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
                assert _inside(corners, x, y), (n_players, width, hx, text)


def test_short_names_are_distinct():
    kinds = np.isin(cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))
    names = {cat.THING_NAME[c] for c in np.flatnonzero(kinds)}
    short = [render.SHORT_NAMES.get(n, n) for n in names]
    assert len(set(short)) == len(short)

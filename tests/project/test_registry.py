"""The game registry: every game found by name, every part of its spec loadable, and the shared layers
(CLI, arena, records, training, Gymnasium) reaching each game through it."""

from __future__ import annotations

import gymnasium
import pytest

import ktenv
from ktenv import registry
from ktenv.errors import ConfigError

GAMES = registry.names()


def test_both_games_are_registered_and_one_is_the_default():
    assert GAMES == ["kings_and_things", "kingsburg"]
    assert registry.default().name == "kings_and_things" and registry.game(None) is registry.default()


def test_an_unknown_game_is_an_error_naming_the_known_ones():
    with pytest.raises(ConfigError, match="unknown game 'chess' .*kings_and_things, kingsburg"):
        registry.game("chess")


@pytest.mark.parametrize("name", GAMES)
def test_every_part_of_a_spec_loads(name):
    spec = registry.game(name)
    for part in (*registry.PARTS, *(p for p in registry.OPTIONAL_PARTS if spec.has(p))):
        assert getattr(spec, part) is not None, part
    with pytest.raises(AttributeError, match="no part"):
        spec.no_such_part  # noqa: B018


@pytest.mark.parametrize("name", GAMES)
def test_a_game_round_trips_through_the_registry(name):
    spec = registry.game(name)
    cfg = spec.make_config({}, spec.default_players, 5)
    assert registry.game_of_config(cfg) is spec
    assert registry.config_from_dict(registry.config_to_dict(cfg)) == cfg
    state = spec.new_game(cfg, 3)
    assert registry.game_of_state(state) is spec
    mask = spec.engine.legal_mask(state)
    assert mask.any() and isinstance(spec.engine.describe_action(state, int(mask.argmax())), str)
    env = ktenv.env(game=name, num_players=spec.default_players)
    env.reset(seed=1)
    assert env.metadata["name"] == spec.env_name
    single = gymnasium.make(spec.gym_id, num_players=spec.default_players)
    observation, info = single.reset(seed=1)
    assert observation.shape == single.observation_space.shape and info["action_mask"].any()
    assert spec.agents.AGENTS.names() == ktenv.agents.names(name)


def test_player_counts_and_engines_are_checked_with_the_rule_named():
    with pytest.raises(ConfigError, match=r"Kings & Things is for 2, 3, 4 or 6 players \(R1, R20.1"):
        registry.game("kings_and_things").check_players(5)
    with pytest.raises(ConfigError, match=r"Kingsburg is for 2 to 5 players \(K1.1\)"):
        registry.game("kingsburg").check_players(6)
    with pytest.raises(ConfigError, match="Kingsburg has the engines native, python"):
        registry.game("kingsburg").check_engine("cuda")
    registry.game("kings_and_things").check_engine("native")
    registry.game("kingsburg").check_engine("native")


def test_a_spec_missing_a_part_is_refused():
    with pytest.raises(ValueError, match="parts missing"):
        registry.GameSpec(name="x", title="X", players=(2,), default_players=2, gym_id="ktenv/X-v0", env_name="x_v0",
                          parts={"config_type": "x:Config"})


def test_a_second_game_of_the_same_name_is_refused():
    spec = registry.game("kingsburg")
    assert registry.register(spec) is spec  # the same spec again is fine
    clone = registry.GameSpec(**{**{f: getattr(spec, f) for f in ("name", "title", "players", "default_players",
                                                                  "gym_id", "env_name")}, "parts": dict(spec.parts)})
    with pytest.raises(ValueError, match="registered already"):
        registry.register(clone)


def test_the_cli_offers_every_game():
    from ktenv.cli import build_parser

    help_text = build_parser()._subparsers._group_actions[0].choices["tournament"].format_help()
    assert all(name in help_text for name in GAMES)

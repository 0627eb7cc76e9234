"""Kingsburg as the registry sees it (`ktenv.registry`): light facts here, the parts imported on use."""

from ..registry import GameSpec

_HERE = "ktenv.kingsburg"

GAME = GameSpec(
    name="kingsburg",
    title="Kingsburg",
    players=(2, 3, 4, 5),  # K1.1
    default_players=4,
    players_rule="K1.1",
    gym_id="ktenv/Kingsburg-v0",
    env_name="kingsburg_v0",
    has_round_limit=False,  # five years, always (K3.1)
    round_word="years",
    stat_labels=("VP", "bldgs"),
    run_prefix="kingsburg_",
    engines=("native", "python"),  # the C++ twin (ktenv/kingsburg/native) and the reference; auto: native if built
    parts={
        "config_type": f"{_HERE}.config:KingsburgConfig",
        "make_config": f"{_HERE}.config:make_config",
        "engine": f"{_HERE}.machine:ENGINE",
        "new_game": f"{_HERE}.machine:new_game",
        "env": f"{_HERE}.aec:env",
        "raw_env": f"{_HERE}.aec:raw_env",
        "single_env": f"{_HERE}.single:KingsburgSingleEnv",
        "agents": "ktenv.agents.kingsburg",
        "play_game": f"{_HERE}.arena:play_game",
        "play_command": f"{_HERE}.arena:play_command",
        "render_command": f"{_HERE}.render:render_command",
        "result_of": f"{_HERE}.results:result_of",
        "replay_view": f"{_HERE}.arena:REPLAY_VIEW",
        "record_schema": f"{_HERE}.state:SCHEMA",
        "saved_game": f"{_HERE}.state:is_saved_game",
        "dataset": f"{_HERE}.dataset:reader",
        "web_view": f"{_HERE}.web",
        "bot_view": "ktenv.agents.kingsburg.bot_view",
        "vector_env": f"{_HERE}.native.vector:VectorEnv",
        "learner_vec_env": f"{_HERE}.learner_sb3:learner_vec_env",
    },
)

"""Kings & Things as the registry sees it (`ktenv.registry`): light facts here, the parts imported on use."""

from ..registry import GameSpec

_HERE = "ktenv.kings_and_things"

GAME = GameSpec(
    name="kings_and_things",
    title="Kings & Things",
    players=(2, 3, 4, 6),  # R1: 2-4 players, 6 with two boxes (R20.1)
    default_players=4,
    players_rule="R1, R20.1: 2-4, or 6 with two boxes",
    gym_id="ktenv/KingsAndThings-v0",
    env_name="kings_and_things_v0",
    engines=("native", "python"),
    default=True,
    parts={
        "config_type": f"{_HERE}.config:GameConfig",
        "make_config": f"{_HERE}.config:make_config",
        "engine": f"{_HERE}.engine:ENGINE",
        "new_game": f"{_HERE}.engine.machine:new_game",
        "env": f"{_HERE}.env.aec:env",
        "raw_env": f"{_HERE}.env.aec:raw_env",
        "single_env": f"{_HERE}.env.single:SingleAgentEnv",
        "agents": "ktenv.agents.kings_and_things",
        "play_game": f"{_HERE}.arena:play_game",
        "play_command": f"{_HERE}.arena:play_command",
        "render_command": f"{_HERE}.render:render_command",
        "result_of": f"{_HERE}.arena:result_of",
        "replay_view": f"{_HERE}.arena:REPLAY_VIEW",
        "vector_env": f"{_HERE}.vector:VectorEnv",
        "learner_vec_env": f"{_HERE}.vector.sb3:learner_vec_env",
        "record_schema": f"{_HERE}.state:SCHEMA_VERSION",
        "saved_game": f"{_HERE}.state:is_saved_game",
        "dataset": f"{_HERE}.dataset:reader",
        "web_view": f"{_HERE}.web",
        "bot_view": "ktenv.agents.kings_and_things.bot_view",
        "analysis": f"{_HERE}.analysis",
        "network_focus": f"{_HERE}.env.focus:focus_table",
        "network_steer": f"{_HERE}.env.steer:steer_table",
        "network_rows": f"{_HERE}.env.rows:row_table",
    },
)

"""Kings & Things for the policy analysis (`ktenv.analysis`): worlds for a seat and the paired evaluation.

`paired_differences` plays each candidate action out from the same sampled worlds with the same future
dice and the same rollout experts (common random numbers: the search agent's paired root evaluation,
`agents.kings_and_things.ismcts`, native ``Search::decide_paired``), one world per call so that every
world's difference is returned and the caller can put an interval on their mean. The worlds are drawn from
what the seat may know (`worlds.NativeWorldSampler`): the true hidden facts never reach the result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .worlds import WorldSampler, native_sampling


def world_sampler(s: Any, seat: int) -> WorldSampler:
    """What the arena gives an agent that searches (``observation["worlds"]``) for `seat`."""
    return WorldSampler(s, seat)


def _native(s: Any) -> Any:
    if hasattr(s, "native"):
        return s
    if not native_sampling(s.cfg):
        raise ValueError("the paired evaluation runs on the native engine, which samples worlds of the base game "
                         "at 2-4 players only")
    from .native.game import NativeGame

    return NativeGame.from_python(s)


def paired_differences(s: Any, seat: int, candidates: list[int], worlds: int = 32, cutoff: int = 150,
                       seed: int = 0) -> np.ndarray:
    """[worlds, len(candidates) - 1]: per sampled world, the seat's rollout value of each candidate after the
    first minus that of the first (a win is 1, an unfinished game the seat's share of the public score,
    `agents.kings_and_things.ismcts.public_value`). World i comes from ``seed`` and i alone."""
    from ktenv.agents.kings_and_things.ismcts import W_CITADEL, W_RACE, W_TOP

    from .native import core
    from .native.expert import expert_plan_for
    from .native.observation import stats_encoder
    from .worlds import NativeWorldSampler

    game = _native(s)
    sampler = NativeWorldSampler(game, seat)
    plan, expert = stats_encoder(game.cfg).plan, expert_plan_for(game.cfg)
    k = len(candidates)
    seeds = np.random.SeedSequence(int(seed)).generate_state(int(worlds), np.uint64)
    out = np.empty((int(worlds), k - 1))
    for i, world_seed in enumerate(seeds):
        # playouts = k: one round, one sampled world, every candidate played in a copy of it
        *_, gains = core().ismcts_paired(sampler.handle, plan, expert, [int(a) for a in candidates], k, 0.0,
                                         int(cutoff), W_CITADEL, W_TOP, W_RACE, 1e9, int(world_seed))
        out[i] = gains[1:]
    return out

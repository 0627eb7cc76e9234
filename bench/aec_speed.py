"""AEC steps/s of random play: ktenv through PettingZoo beside PettingZoo's own classic games.

    python bench/aec_speed.py --seconds 10 --players 4

Every environment is driven by the same loop (the PettingZoo documentation's):

    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else uniform choice among obs["action_mask"]
        env.step(action)

and restarted with a new seed when its episode ends. Rows:

- ktenv engine: `new_game` / `legal_mask` / `step` alone (the floor the env adds to);
- ktenv raw_env and ktenv env() (AssertOutOfBounds + OrderEnforcing wrappers), observing every
  step (the observation is computed lazily, so this is the full cost of an agent that looks);
- the same with `last(observe=False)` and the mask from `env.unwrapped.action_masks()` (an agent
  that needs only the mask, e.g. random play, pays nothing for the observation);
- Kingsburg (ktenv.kingsburg) beside it: its engine alone and its env() wrapped, observing
  and mask only, at the same player count (2-5);
- connect_four_v3 and chess_v6 from `pettingzoo.classic` (needs `pip install "pettingzoo[classic]"`;
  chess also needs python-chess). Missing ones are reported and skipped.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def run_aec(make, seconds: float, observe: bool = True, seed: int = 0) -> tuple[float, int, int]:
    """(steps/s, steps, episodes) of masked uniform random play for about `seconds`."""
    rng = np.random.default_rng(seed)
    env = make()
    steps = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + episodes)
        episodes += 1
        for _agent in env.agent_iter():
            if observe:
                obs, _, terminated, truncated, _ = env.last()
                mask = None if obs is None else obs["action_mask"]
            else:
                _, _, terminated, truncated, _ = env.last(observe=False)
                mask = None if terminated or truncated else env.unwrapped.action_masks()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(mask)
                action = int(legal[rng.integers(legal.size)])
                steps += 1
            env.step(action)
            if steps % 256 == 0 and time.perf_counter() > deadline:
                break
    elapsed = time.perf_counter() - start
    return steps / elapsed, steps, episodes


def run_engine(cfg, seconds: float, seed: int = 0, backend: str = "auto", kingsburg: bool = False
               ) -> tuple[float, int, int]:
    """(decisions/s, decisions, games) of the engine alone: `new_game` / `legal_mask` / `step`
    (`kingsburg`: the Kingsburg engine, whose `new_game` takes no backend)."""
    from ktenv.kings_and_things.engine import legal_mask, new_game, step

    if kingsburg:
        from ktenv.kingsburg import legal_mask, step
        from ktenv.kingsburg import new_game as kingsburg_new_game

        def new_game(cfg, seed, backend):
            return kingsburg_new_game(cfg, seed)

    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        s = new_game(cfg, seed + games, backend=backend)
        games += 1
        while not s.game_over:
            legal = np.flatnonzero(legal_mask(s))
            step(s, int(legal[rng.integers(legal.size)]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() > deadline:
                break
    elapsed = time.perf_counter() - start
    return steps / elapsed, steps, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per row (default 10)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--max-rounds", type=int, default=100)
    args = parser.parse_args()

    import ktenv
    from ktenv.kings_and_things.config import GameConfig

    cfg = {"n_players": args.players, "max_rounds": args.max_rounds}
    rows: list[tuple[str, float, int, int]] = []

    def row(name, result):
        rows.append((name, *result))
        print(f"  {name:<44} {result[0]:>10,.0f} steps/s  ({result[1]} steps, {result[2]} episodes)", flush=True)

    print(f"random play, {args.seconds:g} s per row, ktenv with {args.players} players, max_rounds {args.max_rounds}")
    row("ktenv engine (no env)", run_engine(GameConfig(**cfg), args.seconds))
    row("ktenv raw_env, observing", run_aec(lambda: ktenv.raw_env(**cfg), args.seconds))
    row("ktenv env() wrapped, observing", run_aec(lambda: ktenv.env(**cfg), args.seconds))
    row("ktenv raw_env, mask only", run_aec(lambda: ktenv.raw_env(**cfg), args.seconds, observe=False))
    row("ktenv env() wrapped, mask only", run_aec(lambda: ktenv.env(**cfg), args.seconds, observe=False))
    if 2 <= args.players <= 5:
        import ktenv.kingsburg as kingsburg

        kb = {"num_players": args.players}
        row("kingsburg engine (no env)", run_engine(kingsburg.KingsburgConfig(n_players=args.players), args.seconds,
                                                   kingsburg=True))
        row("kingsburg env() wrapped, observing", run_aec(lambda: kingsburg.env(**kb), args.seconds))
        row("kingsburg env() wrapped, mask only", run_aec(lambda: kingsburg.env(**kb), args.seconds, observe=False))
    peers = []
    try:
        from pettingzoo.classic import connect_four_v3

        peers.append(("pettingzoo connect_four_v3", connect_four_v3.env))
    except ImportError as exc:
        print(f"  connect_four_v3 unavailable ({exc}); pip install 'pettingzoo[classic]'")
    try:
        from pettingzoo.classic import chess_v6

        peers.append(("pettingzoo chess_v6", chess_v6.env))
    except ImportError as exc:
        print(f"  chess_v6 unavailable ({exc}); pip install 'pettingzoo[classic]' (needs python-chess)")
    for name, make in peers:
        row(name, run_aec(make, args.seconds))

    by_name = {name: rate for name, rate, _, _ in rows}
    print("\nratios (ktenv env() wrapped / peer):")
    for mode in ("observing", "mask only"):
        ours = by_name[f"ktenv env() wrapped, {mode}"]
        for name, _ in peers:
            print(f"  {mode:<10} vs {name:<28} {ours / by_name[name]:6.2f}x")
    engine = by_name["ktenv engine (no env)"]
    print(f"  env() wrapped observing / engine alone       {by_name['ktenv env() wrapped, observing'] / engine:6.2f}x")
    print(f"  env() wrapped mask only / engine alone       {by_name['ktenv env() wrapped, mask only'] / engine:6.2f}x")


if __name__ == "__main__":
    main()

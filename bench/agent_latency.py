"""Each agent's decision latency on the same Kings & Things positions, side by side.

    python bench/agent_latency.py random greedy expert ppo:models/ppo_2p.zip ismcts --positions 200

First `expert` plays `--games` seeded games against itself (native engine) and every `--every`-th decision
with more than one legal action is kept as a position (a copy of the game, the seat to act). Then each agent
decides at every position in turn, as an arena seat would (its own observation and mask; a searching agent
gets the seat's world sampler, never the true game), and the wall time of each `act` is taken. Printed per
agent: the mean, median, 90th and 99th percentile and the slowest decision, in milliseconds. Agents keep
their own memory between positions (a move plan), as they would over a game; the positions are the same
for every agent, so the figures compare. `--json FILE` writes them.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from ktenv import agents
from ktenv.kings_and_things.arena import agent_seed, encoder_for
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine import new_game
from ktenv.kings_and_things.worlds import WorldSampler


def positions(cfg: GameConfig, games: int, every: int, limit: int, seed: int) -> list[tuple]:
    """(game copy, seat) at every `every`-th real choice of `games` expert self-play games, at most `limit`."""
    kept: list[tuple] = []
    enc = encoder_for(cfg)
    for g in range(games):
        s = new_game(cfg, seed + g)
        seats = [agents.make("expert", seed=agent_seed(seed + g, p)) for p in range(cfg.n_players)]
        choices = 0
        while not s.game_over and len(kept) < limit:
            p, mask = s.actor, s.legal_mask()
            if mask.sum() > 1:
                choices += 1
                if choices % every == 0:
                    kept.append((s.copy(), p))
            s.step(seats[p].act({"observation": enc.encode(s, p), "action_mask": mask}, mask))
    return kept


def latencies(spec: str, cfg: GameConfig, kept: list[tuple], seed: int) -> np.ndarray:
    """Seconds of each of `spec`'s decisions at the kept positions."""
    enc = encoder_for(cfg)
    agent = agents.make(spec, seed=seed)
    out = np.empty(len(kept))
    for k, (s, p) in enumerate(kept):
        mask = s.legal_mask()
        given = {"observation": enc.encode(s, p), "action_mask": mask}
        if getattr(agent, "needs_worlds", False):
            given["worlds"] = WorldSampler(s, p)
        t0 = time.perf_counter()
        action = agent.act(given, mask)
        out[k] = time.perf_counter() - t0
        if not mask[int(action)]:
            raise RuntimeError(f"{spec} chose the illegal action {action} at position {k}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("agents", nargs="+", help="agent specs, e.g. expert ppo:models/ppo_2p.zip ismcts")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--games", type=int, default=20, help="expert self-play games the positions come from")
    ap.add_argument("--every", type=int, default=7, help="keep every n-th real choice")
    ap.add_argument("--max-rounds", type=int, default=30)
    ap.add_argument("--seed", type=int, default=31000)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    cfg = GameConfig(n_players=args.players, max_rounds=args.max_rounds)
    kept = positions(cfg, args.games, args.every, args.positions, args.seed)
    print(f"{len(kept)} positions from expert self-play ({args.players} players)")
    print("| agent | decisions | mean ms | median | p90 | p99 | slowest |\n|---|---|---|---|---|---|---|")
    figures = {}
    for spec in args.agents:
        ms = latencies(spec, cfg, kept, args.seed) * 1e3
        figures[spec] = {"decisions": len(ms), "mean_ms": ms.mean(), **{
            name: float(np.percentile(ms, q)) for name, q in (("median_ms", 50), ("p90_ms", 90), ("p99_ms", 99))},
            "max_ms": ms.max()}
        f = figures[spec]
        print(f"| `{spec}` | {len(ms)} | {f['mean_ms']:.2f} | {f['median_ms']:.2f} | {f['p90_ms']:.2f} | "
              f"{f['p99_ms']:.2f} | {f['max_ms']:.2f} |", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"players": args.players, "positions": len(kept), "agents": figures}, fh, indent=1)


if __name__ == "__main__":
    main()

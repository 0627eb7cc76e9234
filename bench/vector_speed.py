"""Decisions/s of batched random play: ktenv.kings_and_things.vector.VectorEnv beside the AEC env, in one run.

    python bench/vector_speed.py --seconds 5 --players 2 --envs 64,256,1024 --threads 1,2

Rows:

- VectorEnv(num_envs, num_threads): every game's action chosen in numpy from the masks at once
  (argmax of uniform random floats times the mask: a uniform legal action), observations included
  (the env writes every actor's observation and mask on each step whether it is read or not);
- the AEC env (``ktenv.kings_and_things.env.env()``, native backend) driven by the PettingZoo loop with ``last()``
  observing every decision and a uniform legal action, restarted with a new seed when a game ends.

Ratios are to the AEC row. "per CPU s" divides by the process's CPU time (all its threads): on a
machine shared with other work it says what the code costs where wall-clock rates say what it got.
Figures depend on the machine and its load: compare rows of one run.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def run_vector(num_envs: int, threads: int, players: int, seconds: float, seed: int = 0) -> tuple[float, float, int]:
    """(decisions/s, decisions per CPU second, games ended) of VectorEnv random play for about `seconds`."""
    from ktenv.kings_and_things.vector import VectorEnv

    env = VectorEnv(num_envs, num_players=players, seed=seed, num_threads=threads)
    rng = np.random.default_rng(seed)
    out = env.reset()
    noise = np.empty(out["action_mask"].shape, np.float32)
    for _ in range(20):  # warm up: caches, threads, the first games' setups
        out = env.step(_choose(out, rng, noise))
    calls = ended = 0
    start, cpu = time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        out = env.step(_choose(out, rng, noise))
        ended += int(np.count_nonzero(out["terminated"] | out["truncated"]))
        calls += 1
    cpu = time.process_time() - cpu
    env.close()
    return calls * num_envs / elapsed, calls * num_envs / cpu, ended


def _choose(out: dict, rng: np.random.Generator, noise: np.ndarray) -> np.ndarray:
    """A uniform legal action per row: argmax of uniform noise on the legal actions."""
    rng.random(out=noise, dtype=np.float32)
    noise *= out["action_mask"]
    return noise.argmax(1)


def run_aec(players: int, seconds: float, seed: int = 0) -> tuple[float, float, int]:
    """(decisions/s, decisions per CPU second, games ended) of the AEC env (native backend) with random play,
    observing every step."""
    import ktenv

    env = ktenv.env(num_players=players, backend="native")
    rng = np.random.default_rng(seed)
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + games)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() - start > seconds:
                break
        else:
            games += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per row")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--envs", default="64,256,1024", help="num_envs values, comma-separated")
    parser.add_argument("--threads", default="1,2", help="num_threads values, comma-separated")
    args = parser.parse_args()

    aec, aec_cpu, aec_games = run_aec(args.players, args.seconds)
    print(f"{args.players} players, random actions, observations included; {args.seconds:g} s per row; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    print(f"{'environment':<40} {'decisions/s':>12} {'x AEC':>7} {'per CPU s':>10} {'games ended':>12}")
    print(f"{'AEC env() native, last() each step':<40} {aec:>12,.0f} {1.0:>7.1f} {aec_cpu:>10,.0f} {aec_games:>12}")
    for n in (int(v) for v in args.envs.split(",")):
        for threads in (int(v) for v in args.threads.split(",")):
            rate, cpu, ended = run_vector(n, threads, args.players, args.seconds)
            label = f"VectorEnv(num_envs={n}, num_threads={threads})"
            print(f"{label:<40} {rate:>12,.0f} {rate / aec:>7.1f} {cpu:>10,.0f} {ended:>12}")


if __name__ == "__main__":
    main()

"""The native engine beside the Python engine and the peers, in one run.

    python bench/native_speed.py --seconds 5 --players 4
    python bench/native_speed.py --players 6 --set mysterious_kadab=true --set where_will_they_stop=true
    python bench/native_speed.py --seconds 5 --players 4 --set house_content=true   # any GameConfig option
    python bench/native_speed.py --seconds 5 --players 4 --set encounter_powers=true

Rows (random play, decisions per second; each row for about `--seconds`):

- Python engine: `new_game(backend="python")` / `legal_mask` / `step`;
- native engine driven from Python: `legal_mask` + `step` of a native game (`backend="native"`), per
  decision one call each;
- native random playouts inside native code (`_core.play_random_games`, one core);
- native observation encode (all seats) and `copy()`, in microseconds, timed inside native code;
- `ktenv.env()` and `raw_env` on both engines (PettingZoo AEC loop, observing every step);
- PettingZoo `connect_four_v3` through the same AEC loop (needs pygame: `pip install -e ".[bench]"`);
- Catanatron 3.2.1 random 4-player games: all its actions, and its real choices (ticks with two or more
  playable actions), as ktenv counts only decisions with two or more legal actions (needs catanatron).

Then the ratios and the issue's targets, met or not. Missing peers are reported and skipped.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aec_speed import run_aec, run_engine  # noqa: E402


def run_native_core(cfg, seconds: float, seed: int = 0) -> tuple[float, int, int]:
    """The native state driven from Python with one buffer: the floor of any Python driver."""
    from ktenv.kings_and_things.dev.diff import rules_for
    from ktenv.kings_and_things.native import core

    rules = rules_for(cfg)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    mask = None
    while time.perf_counter() < deadline:
        s = core().State.new_game(rules, seed + games)
        if mask is None:
            mask = np.zeros(s.layout_size, np.int8)
        games += 1
        while s.phase != 10:
            s.legal_mask(mask)
            legal = np.flatnonzero(mask)
            s.step(int(legal[rng.integers(legal.size)]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() > deadline:
                break
    return steps / (time.perf_counter() - start), steps, games


def run_native_playouts(cfg, seconds: float, seed: int = 0) -> tuple[float, int, int]:
    from ktenv.kings_and_things.dev.diff import rules_for
    from ktenv.kings_and_things.native import core

    rules = rules_for(cfg)
    decisions = games = 0
    took = 0.0
    while took < seconds:
        d, t = core().play_random_games(rules, seed + games, 4)
        decisions, games, took = decisions + d, games + 4, took + t
    return decisions / took, decisions, games


def native_micro(cfg) -> dict[str, float]:
    """Microseconds per copy() and per observation encode (all seats), timed inside native code."""
    from ktenv.kings_and_things.engine import legal_mask, new_game, step

    s = new_game(cfg, 7, backend="native")
    rng = np.random.default_rng(7)
    for _ in range(400):  # a position in the middle of a game
        if s.game_over:
            break
        legal = np.flatnonzero(legal_mask(s))
        step(s, int(legal[rng.integers(legal.size)]))
    out = {"copy": s.native.time_copies(20_000) * 1e6}
    try:
        from ktenv.kings_and_things.native.observation import NativeObservationEncoder

        encoder = NativeObservationEncoder(cfg)
        out["encode"] = encoder.time_encode(s, 0, 20_000) * 1e6
        out["encode all seats"] = encoder.time_encode(s, -1, 5_000) * 1e6
    except (ImportError, AttributeError) as exc:
        print(f"  native observation encode unavailable ({exc})")
    return out


def run_catanatron(seconds: float) -> tuple[float, float, int] | None:
    """(actions/s, real choices/s, games) of random 4-player Catan, or None if not installed."""
    try:
        from catanatron import Color, Game, RandomPlayer
    except ImportError as exc:
        print(f"  catanatron unavailable ({exc}); pip install catanatron==3.2.1")
        return None
    actions = choices = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game([RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)], seed=games)
        games += 1
        while game.winning_color() is None and game.state.num_turns < 1000:
            if len(game.state.playable_actions) >= 2:
                choices += 1
            game.play_tick()
            actions += 1
    took = time.perf_counter() - start
    return actions / took, choices / took, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row (default 5)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--max-rounds", type=int, default=100)
    parser.add_argument("--set", "--option", dest="set", action="append", default=[], metavar="OPTION=VALUE",
                        help="a game option, e.g. --set house_content=true (repeatable; as diff's --set)")
    args = parser.parse_args()

    import ktenv
    from ktenv.kings_and_things import native
    from ktenv.kings_and_things.config import GameConfig
    from ktenv.kings_and_things.dev.diff import parse_sets

    native.core()  # a clear error if the native core is not built
    opts = {**parse_sets(args.set), "n_players": args.players, "max_rounds": args.max_rounds}
    cfg = GameConfig(**opts)
    rate: dict[str, float] = {}

    def row(name: str, result) -> None:
        rate[name] = result[0]
        print(f"  {name:<46} {result[0]:>12,.0f} /s  ({result[1]} steps, {result[2]} games)", flush=True)

    print(f"random play, {args.seconds:g} s per row, ktenv with {args.players} players, max_rounds {args.max_rounds}"
          + "".join(f", {o}" for o in args.set))
    row("python engine", run_engine(cfg, args.seconds, backend="python"))
    row("native engine from Python (NativeGame)", run_engine(cfg, args.seconds, backend="native"))
    row("native engine from Python (raw State)", run_native_core(cfg, args.seconds))
    row("native playouts inside native code", run_native_playouts(cfg, args.seconds))
    micro = native_micro(cfg)
    for name, us in micro.items():
        print(f"  native {name:<39} {us:>12.2f} us")
    for backend in ("python", "native"):
        row(f"ktenv.env() {backend}, observing", run_aec(lambda b=backend: ktenv.env(backend=b, **opts), args.seconds))
        row(f"ktenv.raw_env {backend}, observing",
            run_aec(lambda b=backend: ktenv.raw_env(backend=b, **opts), args.seconds))
    try:
        from pettingzoo.classic import connect_four_v3

        row("pettingzoo connect_four_v3", run_aec(connect_four_v3.env, args.seconds))
    except ImportError as exc:
        print(f"  connect_four_v3 unavailable ({exc}); pip install -e '.[bench]'")
    catan = run_catanatron(args.seconds)
    if catan is not None:
        rate["catanatron actions"], rate["catanatron real choices"] = catan[0], catan[1]
        print(f"  {'catanatron 4p random, all actions':<46} {catan[0]:>12,.0f} /s  ({catan[2]} games)")
        print(f"  {'catanatron 4p random, real choices':<46} {catan[1]:>12,.0f} /s")

    py = rate["python engine"]
    print("\nratios")
    for name in ("native engine from Python (NativeGame)", "native engine from Python (raw State)",
                 "native playouts inside native code"):
        print(f"  {name:<46} {rate[name] / py:8.1f}x the python engine")
    c4 = rate.get("pettingzoo connect_four_v3")
    if c4:
        for name in ("ktenv.env() native, observing", "ktenv.raw_env native, observing",
                     "ktenv.env() python, observing"):
            print(f"  {name:<46} {rate[name] / c4:8.2f}x connect_four_v3")
    if catan is not None:
        print(f"  {'python engine vs catanatron real choices':<46} {py / rate['catanatron real choices']:8.2f}x")
        print(f"  {'native playouts vs catanatron real choices':<46} "
              f"{rate['native playouts inside native code'] / rate['catanatron real choices']:8.1f}x")

    print("\ntargets")
    playouts = rate["native playouts inside native code"]
    checks = [
        ("native playouts >= 500k decisions/s on one core", playouts >= 500_000, f"{playouts:,.0f}"),
        ("native playouts >= 50x the python engine", playouts >= 50 * py, f"{playouts / py:.1f}x"),
        ("native from Python >= 100k decisions/s", rate["native engine from Python (raw State)"] >= 100_000,
         f"{rate['native engine from Python (raw State)']:,.0f}"),
        ("copy() <= 2 us", micro["copy"] <= 2, f"{micro['copy']:.2f} us"),
    ]
    if "encode" in micro:
        checks.append(("observation encode <= 10 us", micro["encode"] <= 10, f"{micro['encode']:.2f} us"))
    if c4:
        env_ratio = rate["ktenv.env() native, observing"] / c4
        raw_ratio = rate["ktenv.raw_env native, observing"] / c4
        checks += [("env() >= 1.5x connect_four_v3", env_ratio >= 1.5, f"{env_ratio:.2f}x"),
                   ("raw_env >= 2x connect_four_v3", raw_ratio >= 2, f"{raw_ratio:.2f}x")]
    for text, ok, value in checks:
        print(f"  [{'met' if ok else 'NOT met'}] {text}: {value}")


if __name__ == "__main__":
    main()

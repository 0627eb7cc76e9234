"""Learning from a search (expert iteration): the config's ``expert_iteration`` section, in resumable stages.

After the warm start (``init_from`` or the ``imitation`` of a teacher), before PPO:

- **Stage A, labels.** Batched native games (training/imitation.py's `collect`) where the labelled seats are
  played by the search (``play: search``) or by the learner (``play: learner``: DAgger, the search only says
  what it would do in the learner's own states), against the ``opponents`` (``teacher``: the labelled side
  in every seat; native ``expert``, ``greedy``, ``random``; a model ``ppo:PATH``). The search sees its seat's
  world sampler only (worlds drawn from what the seat may know) and runs in a thread pool (``threads``; the
  native search releases the GIL). Each labelled decision keeps the seat's observation and mask, the search's
  choice, the candidates it weighed with their paired values (``ismcts``'s paired root evaluation), and the
  discounted return that followed (the value target). The labels are written in shards of ``shard_games``
  games (``<out>/labels/round<R>/shard<K>.npz``, written whole or not at all), each from its own seed: a kill
  loses at most the shard under way, and a resumed run writes the same shards as one never stopped
  (with a search bounded by ``playouts``, not ``seconds``).
- **Stage B, training.** The network learns every label of the rounds so far (`imitation.clone`: the search's
  choice, with ``soft`` > 0 also softmax(gains / ``temperature``) over its candidates; the value head the
  returns); the round's model is saved as ``<out>/expert_iteration/round<R>.zip``. A resumed run loads the
  newest round model and goes on from the next round.
- **Stage C, PPO** (training/train_ppo.py) continues from the last round's weights against the ``league``.

Progress on the console and in TensorBoard (``expert_iteration/*``).
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ktenv.errors import ConfigError

from .imitation import Demonstrations, clone, collect, every, merge_all

LABELS = "labels"
MODELS = "expert_iteration"
PLAYERS = ("search", "learner")  # who plays the labelled seats in a round
SHARD_FIELDS = ("observations", "masks", "actions", "returns", "candidates", "gains")


def shard_seed(seed: int, rnd: int, shard: int) -> int:
    """The first game seed of a shard (its games play this and the next ``shard_games - 1``)."""
    return int(np.random.SeedSequence([seed, rnd, shard]).generate_state(1)[0]) % 2**31


def shard_path(run_dir: Path, rnd: int, shard: int) -> Path:
    return Path(run_dir) / LABELS / f"round{rnd}" / f"shard{shard:05d}.npz"


def round_model(run_dir: Path, rnd: int) -> Path:
    return Path(run_dir) / MODELS / f"round{rnd}.zip"


def write_shard(path: Path, demos: Demonstrations, info: dict) -> None:
    """The shard in one file, written under another name and then renamed: whole or absent."""
    path.parent.mkdir(parents=True, exist_ok=True)
    k = len(demos)
    arrays = {name: getattr(demos, name) for name in SHARD_FIELDS[:4]}
    arrays["candidates"] = demos.candidates if demos.candidates is not None else np.full((k, 0), -1, np.int32)
    arrays["gains"] = demos.gains if demos.gains is not None else np.full((k, 0), np.nan, np.float32)
    meta = {**info, "games": demos.games, "acting_wins": demos.acting_wins}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8), **arrays)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(buffer.getvalue())
    os.replace(tmp, path)


def read_shard(path: Path, search: str) -> tuple[Demonstrations, dict]:
    """A shard and its description; a shard of another search, or a damaged one, is a clear error."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(data["meta"].tobytes().decode())
            arrays = {name: data[name] for name in SHARD_FIELDS}
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not a readable shard of labels ({exc}); delete it to label it again") from None
    if meta.get("search") != search:
        raise ConfigError(f"{path} holds labels of the search {meta.get('search')!r}, this run's is {search!r} "
                          "(use another 'out' folder, or delete the labels folder)")
    if arrays["candidates"].shape[1] == 0:
        arrays["candidates"] = arrays["gains"] = None
    demos = Demonstrations(arrays["observations"], arrays["masks"], arrays["actions"], arrays["returns"],
                           int(meta["games"]), float(meta["acting_wins"]), arrays["candidates"], arrays["gains"])
    return demos, meta


def label_round(cfg, run_dir: Path, rnd: int, policy=None, say: Callable[[str], None] = print) -> dict:
    """Stage A of round `rnd`: shards until the round holds ``labels`` decisions (existing shards are kept).
    Returns the round's totals: labels, games, seconds spent now, shards written now."""
    ei, env = cfg.expert_iteration, cfg.env
    game = {k: v for k, v in env.game_config().to_dict().items() if k != "n_players"}
    labels = games = written = 0
    spent = 0.0
    shard = 0
    while labels < ei.labels:
        path = shard_path(run_dir, rnd, shard)
        if path.exists():
            demos, _ = read_shard(path, ei.search)
        else:
            t0 = time.perf_counter()

            def shown(kept: int, labelled: int, k=shard, t0=t0) -> None:
                spent_now = time.perf_counter() - t0
                say(f"round {rnd} shard {k}: {labelled:,} decisions labelled so far, {kept:,} of them in "
                    f"finished games ({spent_now:.0f} s, {labelled / spent_now:.1f} labels/s)")

            progress = every(cfg.log_every_seconds, shown)
            seed = shard_seed(cfg.seed, rnd, shard)
            demos = collect(ei.search, 0, players=env.players, game=game, reward=env.reward, gamma=cfg.ppo.gamma,
                            opponents=ei.opponents, seed=seed, num_envs=ei.shard_games, policy=policy,
                            progress=progress, game_name=env.game_name, threads=ei.threads, one_game_each=True)
            seconds = time.perf_counter() - t0
            write_shard(path, demos, {"search": ei.search, "round": rnd, "shard": shard, "seed": seed,
                                      "play": ei.play[rnd], "seconds": seconds})
            spent += seconds
            written += 1
            say(f"round {rnd} shard {shard}: {len(demos):,} labels from {demos.games} games in {seconds:.0f} s "
                f"({len(demos) / seconds:.1f} labels/s); the labelled side won {demos.acting_wins:.1%} against "
                f"other opponents; {labels + len(demos):,} of {ei.labels:,}")
        labels += len(demos)
        games += demos.games
        shard += 1
    return {"labels": labels, "games": games, "seconds": spent, "written": written, "shards": shard}


def round_labels(cfg, run_dir: Path, rounds: int) -> Demonstrations:
    """Every label of rounds 0 .. rounds - 1 (the shards each round needed, in order)."""
    parts = []
    for rnd in range(rounds):
        total, shard = 0, 0
        while total < cfg.expert_iteration.labels:
            demos, _ = read_shard(shard_path(run_dir, rnd, shard), cfg.expert_iteration.search)
            parts.append(demos)
            total += len(demos)
            shard += 1
    return merge_all(parts)


def iterate(cfg, run_dir: Path, model, meta: dict) -> None:
    """The ``expert_iteration`` rounds (stages A and B) on `model` (a MaskablePPO), resumable; see the module."""
    from torch.utils.tensorboard import SummaryWriter

    from .checkpoints import load_checkpoint, save_model

    ei = cfg.expert_iteration
    run_dir = Path(run_dir)

    def say(text: str) -> None:
        print(f"[ktenv train] expert iteration: {text}", file=sys.stderr, flush=True)

    done = [r for r in range(len(ei.play)) if round_model(run_dir, r).exists()]
    first = 0
    if done:
        first = max(done) + 1
        load_checkpoint(model, round_model(run_dir, first - 1), meta)
        say(f"loaded {round_model(run_dir, first - 1)}")
    writer = SummaryWriter(str(run_dir / "tb"))
    try:
        for rnd in range(first, len(ei.play)):
            learner = ei.play[rnd] == "learner"
            say(f"round {rnd}: {'the learner' if learner else ei.search} plays, {ei.search} labels "
                f"{ei.labels:,} decisions in shards of {ei.shard_games} games ({ei.threads} threads)")
            stage_a = label_round(cfg, run_dir, rnd, policy=model.policy if learner else None, say=say)
            if stage_a["written"]:
                rate = stage_a["labels"] / stage_a["seconds"] if stage_a["written"] == stage_a["shards"] else None
                say(f"round {rnd} stage A: {stage_a['labels']:,} labels from {stage_a['games']} games; "
                    f"{stage_a['seconds']:.0f} s for {stage_a['written']} new shards"
                    + (f" ({rate:.1f} labels/s)" if rate else ""))
                if rate:
                    writer.add_scalar("expert_iteration/labels_per_second", rate, rnd)
            train_round(cfg, model, round_labels(cfg, run_dir, rnd + 1), rnd, writer, say)
            save_model(model, round_model(run_dir, rnd), meta)
            say(f"round {rnd}: saved {round_model(run_dir, rnd)}")
    finally:
        writer.close()


def train_round(cfg, model, demos: Demonstrations, rnd: int, writer, say: Callable[[str], None]) -> None:
    """Stage B: `clone` on every label so far, logged per epoch."""
    ei = cfg.expert_iteration
    t0 = time.perf_counter()
    step = rnd * ei.epochs

    def log(record) -> None:
        for key in ("policy_loss", "value_loss", "agreement"):
            writer.add_scalar(f"expert_iteration/{key}", getattr(record, key), step + record.epoch)
        say(f"round {rnd} epoch {record.epoch}: loss {record.policy_loss:.3f}, value loss {record.value_loss:.4f}, "
            f"agreement with the search {record.agreement:.1%} ({record.seconds:.0f} s)")

    clone(model.policy, demos, epochs=ei.epochs, batch_size=ei.batch_size, learning_rate=ei.learning_rate,
          vf_coef=ei.vf_coef, seed=cfg.seed * 1_009 + rnd, progress=log, soft=ei.soft, temperature=ei.temperature)
    say(f"round {rnd} stage B: {len(demos):,} labels, {ei.epochs} epochs in {time.perf_counter() - t0:.0f} s")


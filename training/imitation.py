"""The imitation warm start: before self-play, the learner copies a teacher agent (behaviour cloning).

PPO from scratch learns slowly here: after 1.6 M steps it beat `greedy` only 22% of the time, while
the hand-written `expert` beats it 83-85%. So a run may start by imitating a teacher (``imitation``
in the training config):

1. `collect`: the teacher plays batched native games (the game's `VectorEnv`, `ktenv.registry`), in every seat of some
   games (self-play) and against the native `expert`, `greedy` and `random` seats in others, as the config's
   ``opponents`` shares say. Every teacher decision is kept: the teacher's observation (its own seat's
   view, exactly what the learner will see), its mask, its action, and the discounted return that
   followed it for that seat (the training reward, ``gamma`` of PPO), so the critic starts right too.
   Only finished games are kept.
2. `clone`: the policy network is trained on them by minibatch gradient steps: the masked policy's
   negative log-likelihood of the teacher's action plus ``vf_coef`` times the squared error of the
   value against the return. A held-out share measures the agreement with the teacher.

Then PPO goes on from the cloned weights as usual. The teacher only ever sees its own observation and
mask (an agent like any other), so nothing hidden reaches the learner through it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ktenv.errors import ConfigError

OPPONENT_KINDS = ("teacher", "expert", "greedy", "random")  # the teacher's opponents while it is watched


@dataclass
class Demonstrations:
    """The teacher's decisions: row k is one decision of a finished game."""

    observations: np.ndarray  # float16 [M, observation_size] (exact below 2,048; half the memory)
    masks: np.ndarray  # bool [M, n_actions]
    actions: np.ndarray  # int64 [M]
    returns: np.ndarray  # float32 [M]: discounted return from this decision on, for the deciding seat
    games: int  # finished games they come from
    acting_wins: float  # the acting side's share of wins in the games against other opponents

    def __len__(self) -> int:
        return len(self.actions)


@dataclass
class _Episode:
    """One game under way: its teacher decisions, per seat, with the rewards that followed each."""

    rows: list  # per seat: [(observation, mask, action)]
    rewards: list  # per seat: [reward after each decision]


def seat_rows(num_envs: int, players: int, opponents: dict[str, float]) -> list[tuple[str, ...]]:
    """Who sits where in each game: a share of games per opponent kind (largest remainders), the
    teacher's seat rotating over the games so that it plays every seat."""
    kinds = [k for k in opponents if opponents[k] > 0]
    total = sum(opponents[k] for k in kinds)
    quota = {k: num_envs * opponents[k] / total for k in kinds}
    count = {k: int(quota[k]) for k in kinds}
    for k in sorted(kinds, key=lambda k: count[k] - quota[k])[:num_envs - sum(count.values())]:
        count[k] += 1
    rows = []
    for kind in kinds:
        for _ in range(count[kind]):
            seat = len(rows) % players
            other = "external" if kind == "teacher" else kind
            rows.append(tuple("external" if p == seat else other for p in range(players)))
    return rows


def collect(teacher: str, decisions: int, *, players: int, game: dict, reward: str, gamma: float,
            opponents: dict[str, float], seed: int, num_envs: int = 32, policy=None,
            progress: Callable[[int], None] | None = None, game_name: str | None = None) -> Demonstrations:
    """At least `decisions` teacher decisions from finished games (see the module's docstring).

    With `policy` (DAgger), the policy's most likely legal action is played in the watched seats and the
    teacher only says what it would have done: the labels then cover the states the policy itself
    reaches, where its mistakes have led it."""
    from ktenv import agents, registry

    spec = registry.game(game_name)

    for kind in opponents:
        if kind not in OPPONENT_KINDS:
            raise ConfigError(f"training key 'imitation.opponents': {kind!r} is not one of {list(OPPONENT_KINDS)}")
    rows = seat_rows(num_envs, players, opponents)
    env = spec.vector_env(num_envs, num_players=players, seed=seed, reward=reward, seats=rows, **game)
    teachers = [[agents.make(teacher, game=game_name) if kind == "external" else None for kind in row] for row in rows]
    store: dict[str, list] = {"observations": [], "masks": [], "actions": [], "returns": []}
    kept = games = contests = wins = 0
    try:
        out = env.reset()
        episodes = [_new_episode(players) for _ in rows]
        _reset_teachers(teachers, out["seed"], range(num_envs))
        while kept < decisions:
            labels = np.empty(num_envs, np.int64)
            for i in range(num_envs):
                p = int(out["actor"][i])
                observation, mask = out["observation"][i], out["action_mask"][i]
                labels[i] = teachers[i][p].act(observation, mask)
                episodes[i].rows[p].append((observation.astype(np.float16), mask.astype(bool), int(labels[i])))
                episodes[i].rewards[p].append(0.0)
            out = env.step(labels if policy is None else best_actions(policy, out["observation"], out["action_mask"]))
            for i in range(num_envs):
                for p in range(players):
                    if episodes[i].rewards[p]:
                        episodes[i].rewards[p][-1] += float(out["rewards"][i, p])
            ended = np.flatnonzero(out["terminated"] | out["truncated"])
            for i in ended:
                kept += _keep(episodes[i], gamma, store)
                games += 1
                if "external" in rows[i] and any(k != "external" for k in rows[i]):
                    contests += 1
                    wins += bool(out["final_winners"][i][rows[i].index("external")])
                episodes[i] = _new_episode(players)
            _reset_teachers(teachers, out["seed"], ended)
            if progress is not None:
                progress(kept)
    finally:
        env.close()
    return Demonstrations(np.concatenate(store["observations"]), np.concatenate(store["masks"]),
                          np.concatenate(store["actions"]), np.concatenate(store["returns"]), games,
                          wins / contests if contests else float("nan"))


def best_actions(policy, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The policy's most likely legal action in each row (as the arena's ``ppo:`` agent plays)."""
    import torch

    from .policy import batch_logits

    with torch.no_grad():
        logits = batch_logits(policy, torch.as_tensor(observations)).numpy()
    return np.where(masks.astype(bool), logits, -np.inf).argmax(1)


def merge(a: Demonstrations | None, b: Demonstrations) -> Demonstrations:
    """DAgger's aggregate: every labelled decision so far."""
    if a is None:
        return b
    return Demonstrations(np.concatenate([a.observations, b.observations]), np.concatenate([a.masks, b.masks]),
                          np.concatenate([a.actions, b.actions]), np.concatenate([a.returns, b.returns]),
                          a.games + b.games, b.acting_wins)


def _new_episode(players: int) -> _Episode:
    return _Episode([[] for _ in range(players)], [[] for _ in range(players)])


def _reset_teachers(teachers: list, seeds: np.ndarray, games) -> None:
    for i in games:
        for p, agent in enumerate(teachers[i]):
            if agent is not None:
                agent.reset(int(seeds[i]) * 8 + p)  # the teacher's own choices, seeded per game and seat


def _keep(episode: _Episode, gamma: float, store: dict) -> int:
    """Move a finished game's decisions into `store`, with each seat's discounted returns."""
    kept = 0
    for rows, rewards in zip(episode.rows, episode.rewards):
        if not rows:
            continue
        returns = np.empty(len(rows), np.float32)
        g = 0.0
        for t in range(len(rows) - 1, -1, -1):
            g = rewards[t] + gamma * g
            returns[t] = g
        store["observations"].append(np.stack([r[0] for r in rows]))
        store["masks"].append(np.stack([r[1] for r in rows]))
        store["actions"].append(np.array([r[2] for r in rows], np.int64))
        store["returns"].append(returns)
        kept += len(rows)
    return kept


@dataclass
class CloneEpoch:
    epoch: int
    policy_loss: float  # the teacher's actions' mean negative log-likelihood (training rows)
    value_loss: float
    agreement: float  # held-out rows where the policy's most likely action is the teacher's
    seconds: float


def clone(policy, demos: Demonstrations, *, epochs: int, batch_size: int, learning_rate: float,
          vf_coef: float, seed: int, held_out: float = 0.05,
          progress: Callable[[CloneEpoch], None] | None = None) -> list[CloneEpoch]:
    """Train `policy` (a MaskableActorCriticPolicy) on `demos` (see the module's docstring)."""
    import torch

    from .policy import follow_optimizer

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(demos))
    n_test = int(len(order) * held_out) if len(order) >= 20 else 0
    test, train = order[:n_test], order[n_test:]
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    follow_optimizer(policy, optimizer)
    history = []
    for epoch in range(1, epochs + 1):
        t0 = time.perf_counter()
        policy.train()
        losses = []
        rng.shuffle(train)
        for start in range(0, len(train), batch_size):
            rows = np.sort(train[start:start + batch_size])  # sorted: rows read in memory order
            obs, masks, actions, returns = _batch(demos, rows)
            values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), returns)
            optimizer.zero_grad()
            (policy_loss + vf_coef * value_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            losses.append((policy_loss.item(), value_loss.item()))
        mean = np.mean(losses, axis=0) if losses else (float("nan"), float("nan"))
        record = CloneEpoch(epoch, float(mean[0]), float(mean[1]), agreement(policy, demos, test),
                            time.perf_counter() - t0)
        history.append(record)
        if progress is not None:
            progress(record)
    policy.set_training_mode(False)
    return history


def agreement(policy, demos: Demonstrations, rows: np.ndarray, chunk: int = 2048) -> float:
    """Share of `rows` where the policy's most likely legal action is the teacher's."""
    import torch

    from .policy import batch_logits

    if len(rows) == 0:
        return float("nan")
    policy.set_training_mode(False)
    same = 0
    with torch.no_grad():
        for start in range(0, len(rows), chunk):
            obs, masks, actions, _ = _batch(demos, rows[start:start + chunk])
            logits = batch_logits(policy, obs).masked_fill(~masks, -torch.inf)
            same += int((logits.argmax(1) == actions).sum())
    return same / len(rows)


def _batch(demos: Demonstrations, rows: np.ndarray):
    import torch

    return (torch.as_tensor(demos.observations[rows].astype(np.float32)), torch.as_tensor(demos.masks[rows]),
            torch.as_tensor(demos.actions[rows]), torch.as_tensor(demos.returns[rows]))


def warm_start(cfg, policy, tb_dir) -> Demonstrations:
    """The config's ``imitation`` section, played out: the teacher's games, then ``dagger_rounds`` rounds of
    the learner's own, `clone` after each; progress on the console and in TensorBoard (``imitation/*``)."""
    import sys

    from torch.utils.tensorboard import SummaryWriter

    im, env = cfg.imitation, cfg.env
    game = {k: v for k, v in env.game_config().to_dict().items() if k != "n_players"}
    writer = SummaryWriter(str(tb_dir))
    demos, step = None, 0

    def say(text: str) -> None:
        print(f"[ktenv train] imitation: {text}", file=sys.stderr, flush=True)

    def log(record: CloneEpoch) -> None:
        nonlocal step
        step += 1
        for key in ("policy_loss", "value_loss", "agreement"):
            writer.add_scalar(f"imitation/{key}", getattr(record, key), step)
        say(f"epoch {record.epoch}: loss {record.policy_loss:.3f}, value loss {record.value_loss:.4f}, "
            f"agreement with {im.teacher} {record.agreement:.1%} ({record.seconds:.0f} s)")

    t0 = time.perf_counter()
    for rnd in range(im.dagger_rounds + 1):
        target = im.decisions if rnd == 0 else im.dagger_decisions
        who = im.teacher if rnd == 0 else "the learner"
        say(f"round {rnd}: {who} plays {target:,} decisions, {im.teacher} labels them")
        new = collect(im.teacher, target, players=env.players, game=game, reward=env.reward,
                      gamma=cfg.ppo.gamma, opponents=im.opponents, seed=cfg.seed * 1_000_003 + rnd * 100_003,
                      num_envs=im.games, policy=None if rnd == 0 else policy, game_name=env.game_name)
        writer.add_scalar("imitation/acting_win_rate", new.acting_wins, rnd)
        say(f"round {rnd}: {len(new):,} decisions from {new.games} games; {who} won {new.acting_wins:.1%} "
            "against other opponents")
        demos = merge(demos, new)
        clone(policy, demos, epochs=im.epochs, batch_size=im.batch_size, learning_rate=im.learning_rate,
              vf_coef=im.vf_coef, seed=cfg.seed + rnd, progress=log)
    say(f"done in {time.perf_counter() - t0:.0f} s on {len(demos):,} decisions")
    writer.close()
    return demos

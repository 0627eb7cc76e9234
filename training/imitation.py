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

A teacher that searches (``needs_worlds``, e.g. ``ismcts``) gets, at each decision, the game's world sampler
for the deciding seat (the registry's ``analysis.world_sampler``): worlds drawn from what that seat may know,
never the true hidden state; its searches run in a thread pool (``threads``; the native search releases the
GIL). Where it reports the candidates it weighed and their values (``last_choices``, ``last_gains``: the
paired search's), they are kept beside its choice for a soft policy target (`clone`'s ``soft``).
training/expert_iteration.py builds its stage pipeline on these functions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ktenv.errors import ConfigError

OPPONENT_KINDS = ("teacher", "expert", "greedy", "random")  # the teacher's opponents while it is watched
MODEL_SEATS = ("ppo:", "ppo-sample:")  # a trained model as an opponent: a native seat of the batched games
SKIP = -1  # the batched games' action for a game left as it is (collect's one_game_each: a game played out)


@dataclass
class Demonstrations:
    """The teacher's decisions: row k is one decision of a finished game."""

    observations: np.ndarray  # float16 [M, observation_size] (exact below 2,048; half the memory)
    masks: np.ndarray  # bool [M, n_actions]
    actions: np.ndarray  # int64 [M]
    returns: np.ndarray  # float32 [M]: discounted return from this decision on, for the deciding seat
    games: int  # finished games they come from
    acting_wins: float  # the acting side's share of wins in the games against other opponents
    # a teacher that reports its candidates (a search): per row, the actions it weighed (-1: padding; all -1
    # where it did not search) and each one's value relative to the first (NaN: padding); None otherwise
    candidates: np.ndarray | None = None  # int32 [M, K]
    gains: np.ndarray | None = None  # float32 [M, K]

    def __len__(self) -> int:
        return len(self.actions)


@dataclass
class _Episode:
    """One game under way: its teacher decisions, per seat, with the rewards that followed each."""

    rows: list  # per seat: [(observation, mask, action, candidates, gains)]
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


def check_opponent_kinds(opponents: dict[str, float], key: str = "imitation.opponents") -> None:
    """Each kind is the teacher, a native agent of the batched games, or a trained model (``ppo:PATH``)."""
    for kind in opponents:
        if kind not in OPPONENT_KINDS and not kind.startswith(MODEL_SEATS):
            raise ConfigError(f"training key '{key}': {kind!r} is not one of {list(OPPONENT_KINDS)} or a model "
                              f"({' or '.join(p + 'PATH' for p in MODEL_SEATS)})")


def collect(teacher: str, decisions: int, *, players: int, game: dict, reward: str, gamma: float,
            opponents: dict[str, float], seed: int, num_envs: int = 32, policy=None,
            progress: Callable[[int, int], None] | None = None, game_name: str | None = None, threads: int = 1,
            one_game_each: bool = False) -> Demonstrations:
    """At least `decisions` teacher decisions from finished games (see the module's docstring).

    With `policy` (DAgger), the policy's most likely legal action is played in the watched seats and the
    teacher only says what it would have done: the labels then cover the states the policy itself
    reaches, where its mistakes have led it. `threads`: teacher decisions made at once (a searching
    teacher's; the choices do not depend on it). `one_game_each`: every game row plays one game to its
    end and then waits (`decisions` is ignored): a fixed set of games, as a shard of labels is. `progress` is
    called after every step with the decisions kept (of finished games) and those labelled so far."""
    from ktenv import agents, registry

    spec = registry.game(game_name)
    check_opponent_kinds(opponents)
    rows = seat_rows(num_envs, players, opponents)
    env = spec.vector_env(num_envs, num_players=players, seed=seed, reward=reward, seats=rows, **game)
    teachers = [[agents.make(teacher, game=game_name) if kind == "external" else None for kind in row] for row in rows]
    label = _Labeller(spec, env, teachers, threads)
    store: dict[str, list] = {"observations": [], "masks": [], "actions": [], "returns": [], "candidates": [],
                              "gains": []}
    kept = labelled = games = contests = wins = 0
    done = np.zeros(num_envs, bool)  # one_game_each: the rows whose game has ended
    try:
        out = env.reset()
        episodes = [_new_episode(players) for _ in rows]
        _reset_teachers(teachers, out["seed"], range(num_envs))
        while not done.all() if one_game_each else kept < decisions:
            live = np.flatnonzero(~done)
            labels = label(out, live)
            labelled += len(live)
            for i in live:
                p = int(out["actor"][i])
                observation, mask = out["observation"][i].astype(np.float16), out["action_mask"][i].astype(bool)
                episodes[i].rows[p].append((observation, mask, int(labels[i]), *label.extras[i]))
                episodes[i].rewards[p].append(0.0)
            played = labels if policy is None else best_actions(policy, out["observation"], out["action_mask"])
            label.told(out, live, played)
            out = env.step(np.where(done, SKIP, played))
            for i in live:
                for p in range(players):
                    if episodes[i].rewards[p]:
                        episodes[i].rewards[p][-1] += float(out["rewards"][i, p])
            ended = [i for i in live if out["terminated"][i] or out["truncated"][i]]
            for i in ended:
                kept += _keep(episodes[i], gamma, store)
                games += 1
                if "external" in rows[i] and any(k != "external" for k in rows[i]):
                    contests += 1
                    wins += bool(out["final_winners"][i][rows[i].index("external")])
                episodes[i] = _new_episode(players)
                done[i] = one_game_each
            _reset_teachers(teachers, out["seed"], ended)
            if progress is not None:
                progress(kept, labelled)
    finally:
        label.close()
        env.close()
    return _demonstrations(store, games, wins / contests if contests else float("nan"))


class _Labeller:
    """The teachers' decisions in the rows of one step: a searching teacher gets its seat's world sampler and
    runs in the thread pool; `extras[i]` then holds row i's (candidates, gains) where the teacher reports them."""

    def __init__(self, spec, env, teachers: list, threads: int) -> None:
        searches = any(getattr(a, "needs_worlds", False) for row in teachers for a in row if a is not None)
        if searches and not spec.has("analysis"):
            raise ConfigError(f"a teacher that searches needs {spec.title}'s world sampler (its 'analysis' part)")
        self.spec, self.env, self.teachers, self.searches = spec, env, teachers, searches
        self.pool = ThreadPoolExecutor(threads) if searches and threads > 1 else None
        self.extras: list[tuple] = [((), ())] * len(teachers)
        self.last = np.full(len(teachers), SKIP, np.int64)  # the labels of the step under way

    def __call__(self, out: dict, live: np.ndarray) -> np.ndarray:
        labels = np.full(len(self.teachers), SKIP, np.int64)
        jobs = []
        for i in live:
            p = int(out["actor"][i])
            observation, mask = out["observation"][i], out["action_mask"][i]
            agent = self.teachers[i][p]
            if getattr(agent, "needs_worlds", False):  # worlds its seat cannot tell apart, never the true game
                given = {"observation": observation, "action_mask": mask,
                         "worlds": self.spec.analysis.world_sampler(self.env.game(int(i)), p)}
                jobs.append((i, agent, given, mask))
            else:
                labels[i], self.extras[i] = agent.act(observation, mask), ((), ())
        results = self.pool.map(_search, jobs) if self.pool is not None else map(_search, jobs)
        for (i, *_), (action, extras) in zip(jobs, results):
            labels[i], self.extras[i] = action, extras
        self.last = labels
        return labels

    def told(self, out: dict, live: np.ndarray, played: np.ndarray) -> None:
        """Each teacher whose label was not played (DAgger: the learner chose) hears what was, so a teacher that
        keeps a plan (the expert's move under way) labels the rest of that move as the learner started it."""
        from ktenv.agents.base import tell_played

        for i in live:
            agent = self.teachers[i][int(out["actor"][i])]
            if agent is not None and played[i] != self.last[i]:
                tell_played(agent, int(played[i]))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def _search(job: tuple) -> tuple[int, tuple]:
    """One searching teacher's decision and the candidates it reports (none where it did not weigh any)."""
    _, agent, given, mask = job
    action = int(agent.act(given, mask))
    choices, gains = list(getattr(agent, "last_choices", ()) or ()), list(getattr(agent, "last_gains", ()) or ())
    if len(choices) < 2 or len(gains) != len(choices) or action not in choices:
        return action, ((), ())
    return action, (tuple(int(c) for c in choices), tuple(float(g) for g in gains))


def _demonstrations(store: dict, games: int, acting_wins: float) -> Demonstrations:
    candidates, gains = _padded(store["candidates"], store["gains"])
    return Demonstrations(np.concatenate(store["observations"]), np.concatenate(store["masks"]),
                          np.concatenate(store["actions"]), np.concatenate(store["returns"]), games, acting_wins,
                          candidates, gains)


def _padded(candidates: list, gains: list) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Per-row candidate lists as [M, K] arrays (K the longest; -1 and NaN fill); None if no row has any."""
    width = max((len(c) for block in candidates for c in block), default=0)
    if width == 0:
        return None, None
    rows = [c for block in candidates for c in block]
    values = [g for block in gains for g in block]
    c = np.full((len(rows), width), -1, np.int32)
    g = np.full((len(rows), width), np.nan, np.float32)
    for k, (cs, gs) in enumerate(zip(rows, values)):
        c[k, :len(cs)], g[k, :len(gs)] = cs, gs
    return c, g


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
    return merge_all([a, b])


def merge_all(parts: list[Demonstrations]) -> Demonstrations:
    """Demonstrations one after another (candidate columns padded to the widest); the last part's win share."""
    def column(name: str) -> np.ndarray:
        return np.concatenate([getattr(d, name) for d in parts])

    width = max((d.candidates.shape[1] for d in parts if d.candidates is not None), default=0)
    candidates = gains = None
    if width:
        candidates = np.concatenate([_widened(d.candidates, len(d), width, -1, np.int32) for d in parts])
        gains = np.concatenate([_widened(d.gains, len(d), width, np.nan, np.float32) for d in parts])
    return Demonstrations(column("observations"), column("masks"), column("actions"), column("returns"),
                          sum(d.games for d in parts), parts[-1].acting_wins, candidates, gains)


def _widened(a: np.ndarray | None, rows: int, width: int, fill, dtype) -> np.ndarray:
    out = np.full((rows, width), fill, dtype)
    if a is not None:
        out[:, :a.shape[1]] = a
    return out


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
        store.setdefault("candidates", []).append([r[3] if len(r) > 3 else () for r in rows])
        store.setdefault("gains", []).append([r[4] if len(r) > 3 else () for r in rows])
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
          progress: Callable[[CloneEpoch], None] | None = None, soft: float = 0.0,
          temperature: float = 0.05) -> list[CloneEpoch]:
    """Train `policy` (a MaskableActorCriticPolicy) on `demos` (see the module's docstring).

    `soft` > 0 (demonstrations with candidates): the policy loss is (1 - soft) x the teacher's action's negative
    log-likelihood plus soft x the cross-entropy with softmax(gains / `temperature`) over the row's candidates
    (rows without candidates: the teacher's action alone)."""
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
            if soft > 0 and demos.candidates is not None:
                values, policy_loss = _soft_loss(policy, demos, rows, obs, masks, actions, soft, temperature)
            else:
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


def soft_targets(demos: Demonstrations, rows: np.ndarray, temperature: float) -> np.ndarray:
    """[len(rows), n_actions]: softmax(gains / temperature) over each row's candidates; the teacher's action
    alone where a row has none."""
    out = np.zeros((len(rows), demos.masks.shape[1]), np.float32)
    out[np.arange(len(rows)), demos.actions[rows]] = 1.0
    candidates, gains = demos.candidates[rows], demos.gains[rows]
    weighed = (candidates >= 0).sum(1) >= 2
    for k in np.flatnonzero(weighed):
        keep = candidates[k] >= 0
        z = gains[k, keep].astype(np.float64) / temperature
        q = np.exp(z - z.max())
        out[k] = 0.0
        out[k, candidates[k, keep]] = q / q.sum()
    return out


def _soft_loss(policy, demos: Demonstrations, rows: np.ndarray, obs, masks, actions, soft: float,
               temperature: float):
    """(values, (1 - soft) x NLL of the teacher's action + soft x cross-entropy with `soft_targets`)."""
    import torch

    features = policy.extract_features(obs)
    pi, vf = (features, features) if policy.share_features_extractor else features
    latent_pi, latent_vf = policy.mlp_extractor.forward_actor(pi), policy.mlp_extractor.forward_critic(vf)
    distribution = policy.action_dist.proba_distribution(policy.action_logits(obs, latent_pi))
    distribution.apply_masking(masks)
    log_probs = distribution.log_probs
    target = torch.as_tensor(soft_targets(demos, rows, temperature))
    hard = -log_probs.gather(-1, actions.reshape(-1, 1)).mean()
    cross = -(target * log_probs).sum(-1).mean()
    return policy.value_net(latent_vf), (1 - soft) * hard + soft * cross


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


def every(seconds: float, report: Callable[[int, int], None]) -> Callable[[int, int], None]:
    """`collect`'s progress callback that passes on at most one call per `seconds` (a long collection shows it
    is alive without a line per step)."""
    last = [time.perf_counter()]

    def progress(kept: int, labelled: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= seconds:
            last[0] = now
            report(kept, labelled)
    return progress


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
                      num_envs=im.games, policy=None if rnd == 0 else policy, game_name=env.game_name,
                      progress=every(cfg.log_every_seconds, lambda kept, _, target=target, rnd=rnd: say(
                          f"round {rnd}: {kept:,} of {target:,} decisions kept (from finished games)")))
        writer.add_scalar("imitation/acting_win_rate", new.acting_wins, rnd)
        say(f"round {rnd}: {len(new):,} decisions from {new.games} games; {who} won {new.acting_wins:.1%} "
            "against other opponents")
        demos = merge(demos, new)
        clone(policy, demos, epochs=im.epochs, batch_size=im.batch_size, learning_rate=im.learning_rate,
              vf_coef=im.vf_coef, seed=cfg.seed + rnd, progress=log)
    say(f"done in {time.perf_counter() - t0:.0f} s on {len(demos):,} decisions")
    writer.close()
    return demos

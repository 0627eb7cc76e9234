"""RLlib's env runners on the native batched games: a custom `EnvRunner` that steps a whole batch at once.

A game with batched games (the registry's ``learner_vec_env``: one learning seat per game, the league's seats
playing inside native code) trains on RLlib through `BatchedEnvRunner`, a `SingleAgentEnvRunner` (RLlib's
documented way to sample a special environment) whose ``_sample`` runs the batch of ``n_envs`` games:

- every step is one forward pass of the learner's module over all the games, an action sampled per game from
  the masked logits, and one call into the games (which play every league seat natively until the learner
  decides again); nothing per game and per step crosses RLlib's connectors;
- after ``rollout_fragment_length`` steps the fragment becomes RLlib episodes in bulk (one
  `SingleAgentEpisode` per game segment, its columns numpy slices), as the stock runner would return them, so
  RLlib's PPO learner (GAE, minibatches, KL) and everything else (weight sync, metrics, fault tolerance) are
  RLlib's own.

The league: each game draws its opponent seats with its own generator (`RunnerLeague`: the config's shares and
the snapshot pool). The stream of a runner is ``[seed, runner index, start step]`` (`BatchedEnvRunner.set_stream`),
so a seed gives the same league games and a resumed or replaced runner draws new ones. Snapshots reach the
runners as weights (`snapshot_weights`, `BatchedEnvRunner.set_league`): each runner writes them into a model zip
of its own and the games load it as a native policy seat (``ppo:PATH`` or ``ppo-sample:PATH``).

Counting: a step is a learner decision (one row of one batch step), as the SB3 trainer counts it.
"""

from __future__ import annotations

import io
import json
import math
import shutil
import tempfile
import uuid
import zipfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ktenv.agents.network import FORMAT, META_ENTRY
from ray.rllib.core.columns import Columns
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
from ray.rllib.env.single_agent_episode import SingleAgentEpisode
from ray.rllib.env.utils.infinite_lookback_buffer import InfiniteLookbackBuffer

from .policy import ILLEGAL_GAP

WINDOW = 200  # training games averaged in the game/ scalars (per runner)
WEIGHTS = "policy.pth"


# ----------------------------------------------------------------------------- the league on a runner

class RunnerLeague:
    """Whom the learner meets in each game: the config's shares per agent, and the snapshot share spread over the
    pool (policy seat kinds ``ppo:PATH`` / ``ppo-sample:PATH`` of zips on this runner). Called by the batched
    games as ``opponents(game, k, rng)`` with each game's own generator."""

    def __init__(self, opponents: dict[str, float], snapshots: float, play: str = "sample") -> None:
        self.opponents = {name: float(share) for name, share in opponents.items() if share > 0}
        self.snapshots, self.kind = float(snapshots), "ppo-sample" if play == "sample" else "ppo"
        self.pool: list[str] = []

    def __call__(self, game: int, k: int, rng: np.random.Generator) -> str:
        names, weights = list(self.opponents), list(self.opponents.values())
        if self.pool and self.snapshots > 0:
            names += self.pool
            weights += [self.snapshots / len(self.pool)] * len(self.pool)
        p = np.asarray(weights) / sum(weights)
        return names[int(rng.choice(len(names), p=p))]


def snapshot_weights(module_state: dict) -> dict[str, np.ndarray]:
    """The learner module's actor weights under the names a native policy seat reads (the SB3 trainer's):
    ``network.shared.0`` -> ``pi_features_extractor.linear.0``, ``network.pi.{2i}`` -> ``mlp_extractor.policy_net
    .{2i}``, the last ``network.pi`` layer -> ``action_net``."""
    state = {k: np.asarray(v.detach().cpu().numpy() if isinstance(v, torch.Tensor) else v, np.float32)
             for k, v in module_state.items()}
    pi = sorted({int(k.split(".")[2]) for k in state if k.startswith("network.pi.")})
    names = {"network.shared.0": "pi_features_extractor.linear.0", f"network.pi.{pi[-1]}": "action_net"}
    names.update({f"network.pi.{i}": f"mlp_extractor.policy_net.{i}" for i in pi[:-1]})
    return {f"{new}.{part}": state[f"{old}.{part}"] for old, new in names.items() for part in ("weight", "bias")}


def write_policy_zip(weights: dict[str, np.ndarray], meta: dict, path: Path) -> Path:
    """A model zip a native policy seat plays (``ppo:PATH``): ``policy.pth`` and ``ktenv.json``."""
    blob = io.BytesIO()
    torch.save({k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in weights.items()}, blob)
    tmp = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(tmp, "w") as archive:
        archive.writestr(WEIGHTS, blob.getvalue())
        archive.writestr(META_ENTRY, json.dumps({"format": FORMAT, "trainer": "rllib-snapshot", **meta}))
    tmp.replace(path)
    return path


# ----------------------------------------------------------------------------- the games

def symlog(x: np.ndarray) -> np.ndarray:
    """sign(x) log(1 + |x|), once per step: the learner's module takes the observations symlog'd (``prescaled``)."""
    return np.copysign(np.log1p(np.abs(x, dtype=np.float32)), x).astype(np.float32, copy=False)


class BatchedGames(gym.vector.VectorEnv):
    """The game's batched games (its ``learner_vec_env``) with the spaces RLlib builds its module from: a dict of
    the learner's observation and its action mask, one discrete action."""

    def __init__(self, config: dict) -> None:
        from ktenv import registry

        config = dict(config)
        self.league = RunnerLeague(config["opponents"], config["snapshots"], config.get("snapshot_play", "sample"))
        game = dict(config["game"])
        players = int(game.pop("n_players"))
        self.games = registry.game(config.get("game_name")).learner_vec_env(
            int(config["num_envs"]), num_players=players, num_threads=1, reward=config["reward"], seat="random",
            opponents=self.league, **game)
        self.num_envs = self.games.num_envs
        size, n = int(self.games.observation_space.shape[0]), int(self.games.action_space.n)
        self.single_observation_space = gym.spaces.Dict({
            "observations": gym.spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (n,), np.float32)})
        self.single_action_space = gym.spaces.Discrete(n)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)

    def start(self, seed: int) -> np.ndarray:
        """Every game anew, game seeds and league draws from `seed`; the learner's observations."""
        self.games.seed(int(seed))
        return self.games.reset()

    def close_extras(self, **kwargs: Any) -> None:
        self.games.close()


class Fragment:
    """One sample call's columns, [steps, games, ...]: what the learner saw, did and earned."""

    def __init__(self, steps: int, games: int, size: int, n_actions: int) -> None:
        self.obs = np.empty((steps + 1, games, size), np.float32)
        self.masks = np.empty((steps + 1, games, n_actions), np.float32)
        self.actions = np.empty((steps, games), np.int64)
        self.logp = np.empty((steps, games), np.float32)
        self.logits = np.empty((steps, games, n_actions), np.float32)
        self.rewards = np.empty((steps, games), np.float32)
        self.ends: dict[tuple[int, int], dict] = {}  # (step, game) -> the ended game's last info


# ----------------------------------------------------------------------------- the env runner

class BatchedEnvRunner(SingleAgentEnvRunner):
    """RLlib's single-agent env runner over one batch of native games (see the module docstring)."""

    def make_env(self) -> None:
        if self.env is not None:
            self.env.close()
        if self.worker_index:  # a runner actor has one CPU: more threads would spin against the learner's
            torch.set_num_threads(1)
        config = dict(self.config.env_config)
        config["num_envs"] = self.config.num_envs_per_env_runner
        self.env = BatchedGames(config)
        self.num_envs = self.env.num_envs
        self._seed_base = int(config.get("seed", 0))
        self._stream = [int(self.worker_index or 0), 0]
        self._league_dir = Path(tempfile.mkdtemp(prefix="ktenv-league-"))
        self._league_meta = {"observation_size": int(self.env.single_observation_space["observations"].shape[0]),
                             "action_size": int(self.env.single_action_space.n), "network": config["network"],
                             "game": config["game"]}
        self._league_steps: list[int] = []
        self._current: np.ndarray | None = None  # the learner's observations now (None: start the games first)
        self._episode = [uuid.uuid4().hex for _ in range(self.num_envs)]
        self._t = np.zeros(self.num_envs, np.int64)
        self._needs_initial_reset = True

    # ----- driven by the trainer (foreach_env_runner)

    def set_stream(self, start_step: int) -> None:
        """Draw league games from ``[seed, runner index, start_step]`` from the next sample on (all games anew)."""
        self._stream = [int(self.worker_index or 0), int(start_step)]
        self._current = None

    def set_league(self, snapshots: list[tuple[int, dict[str, np.ndarray]]]) -> list[int]:
        """The snapshot pool: (step, weights) pairs as `snapshot_weights` gives them, oldest first. A snapshot this
        runner already holds is kept; returns the steps of the pool (a runner without games holds none)."""
        if self.env is None:
            return []
        wanted = [step for step, _ in snapshots]
        paths = {}
        for step, weights in snapshots:
            path = self._league_dir / f"snapshot_{step:010d}.zip"
            if not path.exists():
                write_policy_zip(weights, self._league_meta, path)
            paths[step] = path
        for old in self._league_dir.glob("snapshot_*.zip"):
            if int(old.stem.split("_")[1]) not in wanted:
                old.unlink(missing_ok=True)  # the games still playing it hold their own copy of the network
        self.env.league.pool = [f"{self.env.league.kind}:{paths[s]}" for s in wanted]
        self._league_steps = wanted
        return wanted

    def league_steps(self) -> list[int]:
        return list(self._league_steps)

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(getattr(self, "_league_dir", ""), ignore_errors=True)

    # ----- sampling

    def _sample(self, *, num_timesteps: int | None = None, num_episodes: int | None = None, explore: bool,
                random_actions: bool = False, force_reset: bool = False) -> list[SingleAgentEpisode]:
        if num_episodes is not None:
            raise ValueError("the batched games sample steps (batch_mode truncate_episodes), not whole episodes")
        if self._current is None or force_reset:
            self._current = symlog(self.env.start(int(np.random.SeedSequence([self._seed_base, *self._stream])
                                                      .generate_state(1)[0])))
            self._episode = [uuid.uuid4().hex for _ in range(self.num_envs)]
            self._t[:] = 0
        self._needs_initial_reset = False
        steps = max(1, math.ceil(num_timesteps / self.num_envs))
        space = self.env.single_observation_space
        frag = Fragment(steps, self.num_envs, space["observations"].shape[0], self.env.single_action_space.n)
        games = self.env.games
        for t in range(steps):
            frag.obs[t] = self._current
            frag.masks[t] = games.action_masks()
            self._act(frag, t, explore, random_actions)
            current, rewards, dones, infos = games.step(frag.actions[t])
            self._current = symlog(current)
            frag.rewards[t] = rewards
            for i in np.flatnonzero(dones):
                frag.ends[(t, int(i))] = infos[i]
        frag.obs[steps] = self._current
        frag.masks[steps] = games.action_masks()
        episodes = self._episodes(frag, steps)
        self._log_games(frag)
        self._increase_sampled_metrics(steps * self.num_envs, len(frag.ends))
        return episodes

    def _act(self, frag: Fragment, t: int, explore: bool, random_actions: bool) -> None:
        """The module's actions for step t of every game (sampled from the masked logits, or the best)."""
        with torch.no_grad():
            batch = {Columns.OBS: {"observations": torch.from_numpy(frag.obs[t]),
                                   "action_mask": torch.from_numpy(frag.masks[t])}}
            logits = self.module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
            legal = batch[Columns.OBS]["action_mask"] > 0
            if random_actions:
                logits = torch.where(legal, 0.0, -ILLEGAL_GAP)
            choose = torch.where(legal, logits, -torch.inf)  # an illegal action is never played
            if explore or random_actions:
                choose = choose - torch.log(-torch.log(torch.rand_like(logits).clamp_(1e-20, 1.0)))  # Gumbel-max
            actions = torch.argmax(choose, dim=1)
            logp = torch.log_softmax(logits, dim=1).gather(1, actions[:, None])[:, 0]
        frag.actions[t], frag.logp[t], frag.logits[t] = actions.numpy(), logp.numpy(), logits.numpy()

    def _episodes(self, frag: Fragment, steps: int) -> list[SingleAgentEpisode]:
        """The fragment as RLlib episodes: each game's steps cut where its games ended."""
        space, action_space = self.env.single_observation_space, self.env.single_action_space
        out = []
        ended = {}
        for t, i in frag.ends:
            ended.setdefault(i, []).append(t)
        for i in range(self.num_envs):
            start = 0
            for t in [*ended.get(i, []), None]:
                stop = steps if t is None else t + 1
                if stop <= start:
                    continue
                if t is None:  # the game goes on: its last observation is the one the next fragment starts from
                    obs, masks = frag.obs[start:stop + 1, i], frag.masks[start:stop + 1, i]
                    terminated = truncated = False
                else:
                    info = frag.ends[(t, i)]
                    final = symlog(np.asarray(info["terminal_observation"], np.float32)[None])
                    obs = np.concatenate([frag.obs[start:stop, i], final])
                    every = np.ones((1, frag.masks.shape[2]), frag.masks.dtype)  # the end: no decision, no mask
                    masks = np.concatenate([frag.masks[start:stop, i], every])
                    truncated = bool(info.get("TimeLimit.truncated", False))
                    terminated = not truncated
                n = stop - start
                out.append(SingleAgentEpisode(
                    id_=self._episode[i], observation_space=space, action_space=action_space,
                    observations=InfiniteLookbackBuffer({"observations": obs, "action_mask": masks}, 0, space),
                    infos=InfiniteLookbackBuffer([{}] * (n + 1), 0),
                    actions=InfiniteLookbackBuffer(frag.actions[start:stop, i], 0, action_space),
                    rewards=InfiniteLookbackBuffer(frag.rewards[start:stop, i], 0),
                    extra_model_outputs={
                        Columns.ACTION_LOGP: InfiniteLookbackBuffer(frag.logp[start:stop, i], 0),
                        Columns.ACTION_DIST_INPUTS: InfiniteLookbackBuffer(frag.logits[start:stop, i], 0)},
                    terminated=terminated, truncated=truncated, t_started=int(self._t[i]), len_lookback_buffer=0))
                self._t[i] += n
                if t is not None:
                    self._episode[i], self._t[i] = uuid.uuid4().hex, 0
                start = stop
        return out

    def _log_games(self, frag: Fragment) -> None:
        """Per finished game: its length and return, the learner's share of the win (ties split), overall and per
        opponent kind, and the game's rounds, income and hexes."""
        log = self.metrics.log_value
        for info in frag.ends.values():
            episode = info.get("episode", {})
            self._log_episode_metrics(int(episode.get("l", 0)), float(episode.get("r", 0.0)),
                                      float(episode.get("t", 0.0)))
            winners = info.get("winners", [])
            win = 1.0 / len(winners) if f"player_{info.get('seat')}" in winners else 0.0
            log("game/win_rate", win, reduce="mean", window=WINDOW)
            for kind in set(info.get("opponents", [])):
                log(f"game/win_rate_vs_{kind}", win, reduce="mean", window=WINDOW)
            for key, tag in (("round", "rounds"), ("income", "income"), ("hexes", "hexes")):
                log(f"game/{tag}", float(info.get(key, 0)), reduce="mean", window=WINDOW)
            log("game/games", 1, reduce="sum")

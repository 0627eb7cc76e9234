"""What a training run watches and keeps: game statistics, snapshots, checkpoints, evaluations.

TensorBoard scalars (beside SB3's own ``rollout/``, ``train/`` and ``time/``):

- ``game/win_rate``, ``game/win_rate_vs_<opponent>`` (training games, last 200), ``game/income``,
  ``game/hexes``, ``game/rounds``, ``game/length`` (learner decisions per game), ``game/games``;
- ``game/illegal_actions``: actions the env refused (MaskablePPO never sends one: must stay 0);
- ``eval/win_rate_vs_<agent>`` and ``eval/rating_vs_<agent>``: the arena's tournament code
  (`ktenv.arena.run_tournament`), the same numbers ``ktenv tournament`` prints;
- ``speed/steps_per_second`` and ``speed/env_share`` (share of wall time spent waiting for the
  games: stepping and masks, measured by `GameVecEnv`).
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict, deque
from pathlib import Path

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnvWrapper

from .checkpoints import keep_if_best, prune_checkpoints, save_model, save_policy, write_latest
from .config import TrainConfig, eval_tournament, opponent_name, opponent_tag
from .league import add_snapshot, checkpointed
from .policy import symlog_array

WINDOW = 200  # training games averaged in the game/ scalars
FIRST_LOG_SECONDS = 10.0  # the first progress line comes this soon (then every log_every_seconds)


class GameVecEnv(VecEnvWrapper):
    """The training games: counts the wall time spent in them, and serves MaskablePPO's masks.

    The batched games (the game's `learner_vec_env`, opponents' turns included in their
    step) answer ``action_masks()`` themselves. In SB3's vector envs of `SingleAgentEnv`s the learner's
    mask comes in every step's and reset's info, so ``env_method("action_masks")`` answers from them
    instead of a second round trip to every game process per step.

    ``symlog``: hand the learner symlog(observation) (terminal observations too), once per step, for a
    policy whose `SymlogFeatures` is ``prescaled``: the policy's own first step, moved here so that the
    PPO epochs do not repeat it; its time is the learner's, not the games'."""

    def __init__(self, venv, symlog: bool = False) -> None:
        super().__init__(venv)
        self.env_seconds = 0.0
        self.masks = np.ones((venv.num_envs, venv.action_space.n), bool)
        self.batched = callable(getattr(venv, "action_masks", None))
        self.symlog = symlog

    def _take_masks(self, infos, dones=None) -> None:
        if self.batched:
            return
        reset_infos = getattr(self.venv, "reset_infos", None)
        for i, info in enumerate(infos):
            if dones is not None and dones[i] and reset_infos is not None:
                info = reset_infos[i]  # the game ended and a new one began in that process
            mask = info.get("action_mask")
            self.masks[i] = True if mask is None else mask  # None: not the learner's turn (the game is over)

    def reset(self):
        t = time.perf_counter()
        try:
            obs = self.venv.reset()
            self._take_masks(self.venv.reset_infos)
        finally:
            self.env_seconds += time.perf_counter() - t
        return symlog_array(obs) if self.symlog else obs

    def step_async(self, actions) -> None:
        t = time.perf_counter()
        self.venv.step_async(actions)
        self.env_seconds += time.perf_counter() - t

    def step_wait(self):
        t = time.perf_counter()
        try:
            obs, rewards, dones, infos = self.venv.step_wait()
            self._take_masks(infos, dones)
        finally:
            self.env_seconds += time.perf_counter() - t
        if self.symlog:
            obs = symlog_array(obs)
            for info in infos:
                if info.get("terminal_observation") is not None:
                    info["terminal_observation"] = symlog_array(info["terminal_observation"])
        return obs, rewards, dones, infos

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks" and not args and not kwargs and not self.batched:
            rows = range(self.num_envs) if indices is None else ([indices] if isinstance(indices, int) else indices)
            return [self.masks[i].copy() for i in rows]
        t = time.perf_counter()
        try:
            return self.venv.env_method(method_name, *args, indices=indices, **kwargs)
        finally:
            self.env_seconds += time.perf_counter() - t


def learner_share(info: dict) -> float:
    """The learner's share of the win in a finished game (ties split; 0 without a winner)."""
    winners = info.get("winners") or []
    me = f"player_{info.get('seat', -1)}"
    return 1.0 / len(winners) if me in winners else 0.0


class Monitor(BaseCallback):
    """The callback of `training.train_ppo` (see the module docstring)."""

    def __init__(self, cfg: TrainConfig, run_dir: Path, meta: dict, start: int,
                 counters: dict[str, int] | None = None) -> None:
        super().__init__(verbose=0)
        self.cfg, self.run_dir, self.meta = cfg, Path(run_dir), meta
        counters = counters or {}  # a resumed run's totals go on from its checkpoint's
        self.games = counters.get("games", 0)
        self.illegal = counters.get("illegal_actions", 0)
        self.recent: deque = deque(maxlen=WINDOW)  # (win, income, hexes, rounds, length)
        self.by_opponent: dict[str, deque] = defaultdict(lambda: deque(maxlen=WINDOW))
        self.evals: dict[str, float] = {}
        every = cfg.league.snapshot_every
        self.next_snapshot = (start // every + 1) * every
        self.next_checkpoint = (start // cfg.checkpoint_every + 1) * cfg.checkpoint_every
        self.next_eval = (start // cfg.eval.every + 1) * cfg.eval.every if cfg.eval.every else None
        self.start_step = start
        self.t0 = time.perf_counter()
        self.next_log = self.t0 + min(cfg.log_every_seconds, FIRST_LOG_SECONDS)
        self.env0 = 0.0

    # ----- SB3 hooks

    def _on_training_start(self) -> None:
        self.t0 = time.perf_counter()
        self.next_log = self.t0 + min(self.cfg.log_every_seconds, FIRST_LOG_SECONDS)
        self.env0 = self._env_seconds()
        self.start_step = self.num_timesteps
        self.cycles: tuple[int, float, float] | None = None  # (steps, time, env seconds) at the last rollout start

    def _on_rollout_start(self) -> None:
        if self.num_timesteps > self.start_step:  # a rollout and its PPO update are done
            self.cycles = (self.num_timesteps, time.perf_counter(), self._env_seconds())

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"]):
            if info.get("illegal_action"):
                self.illegal += 1
            if done:
                self._count_game(info)
        step = self.num_timesteps
        if step >= self.next_snapshot:
            add_snapshot(self.run_dir, self.model, step, self.cfg.league.max_snapshots,
                         lambda m, p: save_policy(m, p, self.meta))
            self.next_snapshot += self.cfg.league.snapshot_every
        path = None
        if step >= self.next_checkpoint:
            path = self.checkpoint(self.model)
            self.next_checkpoint += self.cfg.checkpoint_every
        if self.next_eval is not None and step >= self.next_eval:
            if step < self.cfg.total_steps:  # the last one is the final evaluation
                self.evaluate(path or self.checkpoint(self.model))
            self.next_eval += self.cfg.eval.every
        if time.perf_counter() >= self.next_log:
            self.next_log = time.perf_counter() + self.cfg.log_every_seconds
            print(self.progress_line(), file=sys.stderr, flush=True)
        return True

    def _on_rollout_end(self) -> None:
        record = self.logger.record
        if self.recent:
            rows = np.asarray(self.recent, float)
            for k, name in enumerate(("win_rate", "income", "hexes", "rounds", "length")):
                record(f"game/{name}", float(rows[:, k].mean()))
        for opponent, wins in self.by_opponent.items():
            record(f"game/win_rate_vs_{opponent_tag(opponent)}", float(np.mean(wins)))
        record("game/games", self.games)
        record("game/illegal_actions", self.illegal)
        if self.cycles is not None:  # whole rollout-and-update cycles only: the update after this rollout
            sps, share = self.speed(*self.cycles)  # is still to come, and it is most of the learner's time
            record("speed/steps_per_second", sps)
            record("speed/env_share", share)

    # ----- statistics

    def _count_game(self, info: dict) -> None:
        self.games += 1
        win = learner_share(info)
        length = info.get("episode", {}).get("l", 0)
        # a game's infos name its two figures and its turn of the table (income/hexes/round, vp/buildings/year)
        self.recent.append((win, info.get("income", info.get("vp", 0)), info.get("hexes", info.get("buildings", 0)),
                            info.get("round", info.get("year", 0)), length))
        for name in set(info.get("opponents", [])):
            self.by_opponent[name].append(win)

    def _env_seconds(self) -> float:
        venv = self.model.get_env() if self.model is not None else None
        return float(getattr(venv, "env_seconds", 0.0))

    def speed(self, step: int | None = None, now: float | None = None, env_seconds: float | None = None
              ) -> tuple[float, float]:
        """(learner steps/s, share of the wall time in the games) since training started, up to now or to
        the given moment."""
        step = self.num_timesteps if step is None else step
        wall = max((time.perf_counter() if now is None else now) - self.t0, 1e-9)
        env = self._env_seconds() if env_seconds is None else env_seconds
        return (step - self.start_step) / wall, (env - self.env0) / wall

    def progress_line(self) -> str:
        total, step = self.cfg.total_steps, self.num_timesteps
        sps, share = self.speed()
        eta = max(total - step, 0) / sps if sps > 0 else 0.0
        parts = [f"[ktenv train] step {step:,}/{total:,} ({100 * step / total:.0f}%)", f"{sps:,.0f} steps/s",
                 f"games {self.games}"]
        if self.recent:
            parts.append(f"win {100 * np.mean([r[0] for r in self.recent]):.0f}% (last {len(self.recent)})")
        if self.evals:
            parts.append("eval " + " ".join(f"{k} {100 * v:.0f}%" for k, v in self.evals.items()))
        parts += [f"env {100 * share:.0f}% of time", f"illegal {self.illegal}", f"ETA {eta / 60:.0f} min"]
        return " | ".join(parts)

    # ----- keeping and judging

    def checkpoint(self, model) -> Path:
        """Save, point latest.json at it, then remove the checkpoints beyond keep_checkpoints."""
        step = int(model.num_timesteps)
        path = self.run_dir / "checkpoints" / f"step_{step:010d}.zip"
        save_model(model, path, self.meta, {"games": self.games, "illegal_actions": self.illegal})
        write_latest(self.run_dir, path, step)
        checkpointed(self.run_dir)
        prune_checkpoints(self.run_dir, self.cfg.keep_checkpoints)
        return path

    def evaluate(self, model_path: Path, final: bool = False) -> dict[str, float]:
        """Win rate of the model (``ppo:PATH``) against each eval opponent, by the tournament code."""
        from ktenv.arena.tournament import run_tournament

        step = int(self.num_timesteps) if self.model is not None else 0
        results = {}
        for opponent in self.cfg.eval.opponents:
            me = f"{'ppo' if self.cfg.eval.play == 'best' else 'ppo-sample'}:{model_path}"
            tag = opponent_tag(opponent)
            db = self.run_dir / "eval" / f"{'final' if final else f'step_{step:010d}'}_vs_{tag}.sqlite"
            tcfg = eval_tournament(self.cfg, me, opponent, step, db)
            report = run_tournament(tcfg)
            row = next(s for s in report["standings"] if s.agent == me)
            results[opponent] = row.win_rate
            self.logger.record(f"eval/win_rate_vs_{tag}", row.win_rate)
            self.logger.record(f"eval/rating_vs_{tag}", row.rating_mu)
        self.evals = results
        keep_if_best(self.run_dir, model_path, results, self.cfg.eval.best_against, step)
        if final:
            self.logger.dump(step)
        print(f"[ktenv train] eval at step {step:,}: " + ", ".join(
            f"{opponent_name(k)} {100 * v:.1f}% of {self.cfg.eval.games}" for k, v in results.items()),
            file=sys.stderr, flush=True)
        return results

    def close(self) -> None:
        self.logger.close()

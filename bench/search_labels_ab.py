"""Search labels against the expert's labels on the same decisions: what learning from the search adds.

Stage A of an expert-iteration config's round 0 (training/expert_iteration.py: the search plays, its shards
written into RUN, resumable: run it again to go on), then two copies of the start model are trained the same
way (stage B's settings), one on the search's choices and one on the expert's choices at the very same
decisions (the paired search's candidate 0 is the move an `expert` seat would play there); the two models are
written as RUN/ab/search.zip and RUN/ab/expert.zip, to be played against `expert` by the arena:

    python bench/search_labels_ab.py configs/expert_iteration_2p.yaml --labels 3000 --out runs/ab
    ktenv tournament --agents ppo:runs/ab/ab/search.zip,expert --players 2 --games 100 --max-rounds 30

Prints the cost of each stage, the share of decisions where the search overrode the expert, and each
model's agreement with its labels on held-out decisions.
"""

from __future__ import annotations

import argparse
import io
import json
import time
from pathlib import Path

from ktenv.training import expert_iteration as ei
from ktenv.training.config import TrainConfig
from ktenv.training.imitation import Demonstrations, clone


def expert_labels(demos: Demonstrations) -> Demonstrations:
    """The same decisions labelled with the expert's move (candidate 0 where the search weighed candidates)."""
    actions = demos.actions.copy()
    if demos.candidates is not None:
        weighed = (demos.candidates >= 0).sum(1) >= 2
        actions[weighed] = demos.candidates[weighed, 0]
    return Demonstrations(demos.observations, demos.masks, actions, demos.returns, demos.games, demos.acting_wins)


def train_copy(start: str, demos: Demonstrations, cfg: TrainConfig, target: Path) -> dict:
    import torch
    from ktenv.training.checkpoints import write_zip
    from ktenv.training.policy import META_ENTRY, load_network, meta_bytes

    torch.manual_seed(cfg.seed)
    policy, meta = load_network(start)
    e = cfg.expert_iteration
    t0 = time.perf_counter()
    history = clone(policy, demos, epochs=e.epochs, batch_size=e.batch_size, learning_rate=e.learning_rate,
                    vf_coef=e.vf_coef, seed=cfg.seed, held_out=0.1)
    weights = io.BytesIO()
    torch.save(policy.state_dict(), weights)
    meta = {k: v for k, v in meta.items() if k != "format"}
    meta.update(contents="policy", trained_on=f"{len(demos)} labels")
    write_zip(target, {"policy.pth": weights.getvalue(), META_ENTRY: meta_bytes(meta)})
    return {"model": str(target), "seconds": round(time.perf_counter() - t0, 1),
            "held_out_agreement": [round(h.agreement, 4) for h in history]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", help="an expert-iteration training config (its search, opponents, stage B)")
    parser.add_argument("--labels", type=int, default=3000, help="labels of round 0")
    parser.add_argument("--out", required=True, help="the run folder of the labels (resumable)")
    parser.add_argument("--start", help="the model both copies start from (default: the config's init_from)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="another config override")
    args = parser.parse_args()
    import yaml

    overrides = {"out": args.out, "expert_iteration.labels": args.labels}
    overrides.update({k: yaml.safe_load(v) for k, v in (item.split("=", 1) for item in args.set)})
    cfg = TrainConfig.from_yaml(args.config, overrides)
    start = args.start or cfg.init_from
    run = Path(args.out)
    t0 = time.perf_counter()
    stage_a = ei.label_round(cfg, run, 0, say=lambda text: print(f"stage A: {text}", flush=True))
    print(json.dumps({"stage_a": stage_a, "wall_s": round(time.perf_counter() - t0, 1)}), flush=True)
    demos = ei.round_labels(cfg, run, 1)
    expert = expert_labels(demos)
    differ = float((expert.actions != demos.actions).mean())
    weighed = int(((demos.candidates >= 0).sum(1) >= 2).sum()) if demos.candidates is not None else 0
    print(json.dumps({"labels": len(demos), "games": demos.games, "searched": weighed,
                      "search_overrode_expert": round(differ, 4)}), flush=True)
    for name, labelled in (("search", demos), ("expert", expert)):
        print(json.dumps({name: train_copy(start, labelled, cfg, run / "ab" / f"{name}.zip")}), flush=True)
    print(f"play them: ktenv tournament --agents ppo:{run / 'ab' / 'search.zip'},expert --players 2 --games 100 "
          f"--max-rounds {cfg.env.max_rounds}", flush=True)


if __name__ == "__main__":
    main()

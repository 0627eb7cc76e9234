"""Training: self-play MaskablePPO with an opponent league (``ktenv train``; needs the ``train`` extra).

- `training.train_ppo`: the run, top to bottom (``python -m ktenv.training.train_ppo --config FILE``).
- `training.config`: the validated YAML settings.
- `training.policy`: the network and the safe model loader.
- `training.checkpoints`: the files a run keeps (checkpoints, snapshots, final.zip) and resuming.
- `training.league`: the opponent pool of frozen snapshots and heuristic agents.
- `training.monitor`: TensorBoard scalars, snapshots, checkpoints, evaluations.
- `training.curve`: the learning-curve PNG from TensorBoard logs.
"""

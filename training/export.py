"""Ship a trained model: the policy's weights only, optionally in half precision.

    python -m ktenv.training.export runs/ppo_2p/final.zip models/ppo_2p.zip --half

The result is a ktenv model zip like a league snapshot (``policy.pth`` and ``ktenv.json``; no optimizer),
loaded by ``ppo:PATH`` with ``torch.load(weights_only=True)`` as any other. ``--half`` stores the weights
as float16, half the size (the baseline network: 3.7 MB instead of 7.5); they are widened back to
float32 on loading, so a half-precision model is its own model: evaluate the exported file, not its
source.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path


def export(source: str | Path, target: str | Path, half: bool = False) -> Path:
    """Write `source`'s policy to `target` (see the module's docstring); returns `target`."""
    import torch

    from .checkpoints import write_zip
    from .policy import META_ENTRY, load_network, meta_bytes

    policy, meta = load_network(source)
    state, halves = {}, {}
    for key, value in policy.state_dict().items():
        if half and value.is_floating_point():  # shared tensors (the features extractor's aliases) stay shared
            value = halves.setdefault(value.data_ptr(), value.half())
        state[key] = value
    weights = io.BytesIO()
    torch.save(state, weights)
    meta = {k: v for k, v in meta.items() if k != "format"}
    meta.update(contents="policy", exported_from=Path(source).name, precision="float16" if half else "float32")
    return write_zip(Path(target), {"policy.pth": weights.getvalue(), META_ENTRY: meta_bytes(meta)})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`ktenv export` and `python -m ktenv.training.export` take the same arguments."""
    parser.add_argument("source", help="a ktenv model zip (final.zip, a checkpoint or a snapshot)")
    parser.add_argument("target", help="where to write the policy-only zip")
    parser.add_argument("--half", action="store_true", help="store the weights as float16")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.training.export", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    from .policy import CheckpointError

    try:
        path = export(args.source, args.target, args.half)
    except CheckpointError as exc:
        print(f"ktenv export: error: {exc}", file=sys.stderr)
        return 2
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Untrained ktenv model files for the tests: the format `ktenv train` writes, with weights scaled up so that
their logits differ by more than rounding."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path


def untrained_model(path: Path, meta: dict, seed: int = 0, adjust=None):
    """Write a model zip of `meta`'s network at `path`; return its torch policy. `adjust(policy)` may change the
    weights before they are written (layers that start at zero)."""
    import torch
    from ktenv.training.policy import build_policy, meta_bytes

    torch.manual_seed(seed)
    policy = build_policy(meta)
    with torch.no_grad():
        for parameter in policy.parameters():
            parameter.mul_(3.0)
        if adjust is not None:
            adjust(policy)
    blob = io.BytesIO()
    torch.save(policy.state_dict(), blob)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("ktenv.json", meta_bytes(meta))
        archive.writestr("policy.pth", blob.getvalue())
    return policy

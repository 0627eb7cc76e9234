"""A trained model's actor in numpy, read from its zip without torch: a `ppo:` agent plays its first move
in well under a second, and a tournament's worker processes never import torch.

A model zip (written by `ktenv train`, see `training.checkpoints`) holds ``ktenv.json`` (the network and
the game) and ``policy.pth``, torch's zip of a state dict: ``data.pkl`` names each tensor's storage,
dtype, offset, shape and strides, and ``data/<key>`` holds the raw bytes. `read_state` reads that pickle
with an unpickler that knows four names (an ordered dict, torch's tensor rebuild function and its storage
types) and refuses any other, so nothing else in the file can run: the same guarantee as torch's
``weights_only=True``. A file it cannot read is a `ModelFileError` naming what is wrong.
"""

from __future__ import annotations

import collections
import io
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np

from ..gamekit.focus import FocusTable
from ..gamekit.rows import RowTable
from ..gamekit.steer import SteerTable

FORMAT = 1  # the ``ktenv.json`` format this reads (training.policy.FORMAT)
META_ENTRY = "ktenv.json"

# torch storage type -> the numpy dtype of its bytes ("bfloat16" is widened by hand: numpy has no such type)
STORAGES = {"FloatStorage": np.float32, "HalfStorage": np.float16, "DoubleStorage": np.float64,
            "BFloat16Storage": "bfloat16", "LongStorage": np.int64, "IntStorage": np.int32,
            "BoolStorage": np.bool_}
ACTIVATIONS = {"none": lambda h: h, "relu": lambda h: np.maximum(h, 0, out=h), "tanh": lambda h: np.tanh(h, out=h),
               "elu": lambda h: np.where(h > 0, h, np.expm1(np.minimum(h, 0)))}


class ModelFileError(ValueError):
    """A model file that cannot be read (missing, not a ktenv model, corrupt)."""


def read_meta(path: str | Path) -> dict:
    """The model's ``ktenv.json``: its network, observation and action sizes, and the game it plays."""
    path = Path(path)
    if not path.is_file():
        raise ModelFileError(f"{path}: no such model file")
    try:
        with zipfile.ZipFile(path) as archive:
            if META_ENTRY not in archive.namelist():
                raise ModelFileError(f"{path}: not a ktenv model (no {META_ENTRY} inside; was it saved by "
                                     "ktenv train?)")
            meta = json.loads(archive.read(META_ENTRY).decode())
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ModelFileError(f"{path}: not a readable model zip ({exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ModelFileError(f"{path}: {META_ENTRY} is corrupt ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else "?"
        raise ModelFileError(f"{path}: {META_ENTRY} has format {found}, this ktenv reads format {FORMAT}")
    for key, kind in (("observation_size", int), ("action_size", int), ("network", dict), ("game", dict)):
        if not isinstance(meta.get(key), kind):
            raise ModelFileError(f"{path}: {META_ENTRY} lacks a valid '{key}'")
    return meta


class _Storage:
    def __init__(self, dtype) -> None:
        self.dtype = dtype


def _rebuild(storage: np.ndarray, offset: int, shape: tuple, stride: tuple, *_unused) -> np.ndarray:
    """torch._utils._rebuild_tensor_v2, for a storage read as a flat numpy array."""
    if not shape:
        return storage[offset].copy()
    view = np.lib.stride_tricks.as_strided(storage[offset:], shape=tuple(shape),
                                           strides=tuple(s * storage.itemsize for s in stride))
    return np.array(view)


class _StateUnpickler(pickle.Unpickler):
    def __init__(self, data: bytes, read_storage) -> None:
        super().__init__(io.BytesIO(data))
        self.read_storage = read_storage

    def find_class(self, module: str, name: str):
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild
        if module == "torch" and name in STORAGES:
            return _Storage(STORAGES[name])
        raise pickle.UnpicklingError(f"{module}.{name} is not a tensor's part (refused)")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) >= 3 and pid[0] == "storage" and isinstance(pid[1], _Storage)):
            raise pickle.UnpicklingError(f"unexpected persistent id {pid!r}")
        return self.read_storage(str(pid[2]), pid[1].dtype)


def read_state(path: str | Path, entry: str = "policy.pth") -> dict[str, np.ndarray]:
    """The state dict inside a model zip as float32 numpy arrays (see the module docstring)."""
    try:
        with zipfile.ZipFile(path) as archive:
            inner = zipfile.ZipFile(io.BytesIO(archive.read(entry)))
        pkl = next(n for n in inner.namelist() if n.endswith("/data.pkl"))
        root = pkl[: -len("data.pkl")]
        if root + "byteorder" in inner.namelist() and inner.read(root + "byteorder").strip() != b"little":
            raise ModelFileError(f"{path}: {entry} was written big-endian")

        def read_storage(key: str, dtype) -> np.ndarray:
            raw = inner.read(f"{root}data/{key}")
            if dtype == "bfloat16":
                return (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
            return np.frombuffer(raw, np.dtype(dtype).newbyteorder("<"))

        state = _StateUnpickler(inner.read(pkl), read_storage).load()
    except KeyError:
        raise ModelFileError(f"{path}: no {entry} inside") from None
    except StopIteration:
        raise ModelFileError(f"{path}: {entry} is corrupt (no data.pkl)") from None
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, TypeError, IndexError, AttributeError,
            pickle.UnpicklingError) as exc:
        if isinstance(exc, ModelFileError):
            raise
        raise ModelFileError(f"{path}: {entry} is corrupt ({exc})") from None
    if not isinstance(state, dict) or not all(isinstance(v, np.ndarray) for v in state.values()):
        raise ModelFileError(f"{path}: {entry} is not a state dict of tensors")
    return {str(k): np.asarray(v, np.float32) for k, v in state.items()}


class ActorNetwork:
    """The actor's path of a saved policy: symlog, the shared layer with ReLU, the policy MLP, the action
    layer (the network of `training.policy`), in float32 numpy.

    Only the observation entries some row uses are read from the first layer (about 9% of an observation
    is nonzero and symlog(0) = 0): a game asks for one row at a time, and a dense product would read all
    of the first layer's weights for each."""

    def __init__(self, first: tuple[np.ndarray, np.ndarray], hidden: list[tuple[np.ndarray, np.ndarray, str]],
                 action: tuple[np.ndarray, np.ndarray],
                 critic: list[tuple[np.ndarray, np.ndarray, str]] | None = None,
                 focus: FocusTable | None = None, steer: SteerTable | None = None, rows: RowTable | None = None,
                 row_weights: list | None = None, row_step_weights: list | None = None) -> None:
        self.first, self.hidden, self.action = first, hidden, action  # weights [in, out], bias (, activation)
        # the value path after the shared first layer (the critic MLP, then the value head with activation
        # "none"), when the file's critic shares the actor's first layer; None otherwise
        self.critic = critic
        self.focus = focus  # extra inputs gathered from the observation (ktenv.gamekit.focus), or None
        self.steer = steer  # step logits also read from a choice of destination (ktenv.gamekit.steer), or None
        # the row scores (ktenv.gamekit.rows), per block ((embed weights [columns, width], bias), (context
        # weights [hidden, width], bias)) and per step context (weights [hidden, width], bias); or None
        self.rows, self.row_weights, self.row_step_weights = rows, row_weights, row_step_weights or []
        self.observation_size = first[0].shape[0] - (focus.size if focus else 0)

    @classmethod
    def from_state(cls, state: dict[str, np.ndarray], meta: dict, path: str | Path = "model") -> ActorNetwork:
        def layer(prefix: str) -> tuple[np.ndarray, np.ndarray]:
            try:
                return np.ascontiguousarray(state[prefix + ".weight"].T), state[prefix + ".bias"].copy()
            except KeyError:
                raise ModelFileError(f"{path}: the weights lack {prefix}") from None

        net = meta["network"]
        activation = net.get("activation", "relu")
        if activation not in ACTIVATIONS:
            raise ModelFileError(f"{path}: unknown activation {activation!r}")
        hidden = [(*layer(f"mlp_extractor.policy_net.{2 * i}"), activation) for i in range(len(net.get("pi", [])))]
        first = layer("pi_features_extractor.linear.0")
        # the critic, where the file holds it whole and it reads the actor's first layer (else the actor alone:
        # an RLlib snapshot keeps no critic)
        critic = None
        vf = [f"mlp_extractor.value_net.{2 * i}" for i in range(len(net.get("vf", [])))] + ["value_net"]
        shared = state.get("vf_features_extractor.linear.0.weight")
        if (all(f"{name}.weight" in state and f"{name}.bias" in state for name in vf)
                and (shared is None or np.array_equal(shared.T, first[0]))):
            critic = [(*layer(name), activation) for name in vf[:-1]] + [(*layer("value_net"), "none")]
        try:
            focus = FocusTable.from_json(net["focus"], meta["observation_size"]) if net.get("focus") else None
            steer = (SteerTable.from_json(net["steer"], meta["observation_size"], meta["action_size"])
                     if net.get("steer") else None)
            rows = (RowTable.from_json(net["rows"], meta["observation_size"], meta["action_size"])
                    if net.get("rows") else None)
        except ValueError as exc:
            raise ModelFileError(f"{path}: {META_ENTRY}: {exc}") from None
        row_weights, steps = None, None
        if rows is not None:
            row_weights = [(layer(f"row_embed.{k}"), layer(f"row_context.{k}")) for k in range(len(rows.blocks))]
            steps = [layer(f"row_step_context.{k}") for k in range(rows.step_contexts)]
            latent = hidden[-1][0].shape[1] if hidden else first[0].shape[1]
            if (any(e[0].shape != (b.columns, rows.width) or c[0].shape != (latent, rows.width)
                    for b, (e, c) in zip(rows.blocks, row_weights))
                    or any(w.shape != (latent, rows.width) for w, _ in steps)):
                raise ModelFileError(f"{path}: the row scores' weights do not fit the table in {META_ENTRY}")
        out = cls(first, hidden, layer("action_net"), critic, focus, steer, rows, row_weights, steps)
        heads = meta["action_size"] + (steer.extra if steer else 0)  # the steer's own logits after the actions
        if (out.observation_size, out.action[0].shape[1]) != (meta["observation_size"], heads):
            raise ModelFileError(f"{path}: the weights do not fit the sizes in {META_ENTRY}")
        return out

    def features(self, observations: np.ndarray) -> np.ndarray:
        """The shared first layer, float32 [rows, features]: symlog, then Linear and ReLU (only the rows of the
        weights for entries some observation uses, where that is under half of them)."""
        x = np.asarray(observations, np.float32).reshape(-1, self.observation_size)
        if self.focus is not None:
            x = self.focus.apply(x)
        weights, bias = self.first
        used = np.flatnonzero(x.any(axis=0))
        if 2 * used.size < x.shape[1]:
            x, weights = x[:, used], weights[used]
        x = np.copysign(np.log1p(np.abs(x)), x)  # symlog
        return np.maximum(x @ weights + bias, 0)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Unmasked logits, float32 [rows, actions], of observations [rows, observation_size]."""
        h = self.features(observations)
        for weights, bias, activation in self.hidden:
            h = ACTIVATIONS[activation](h @ weights + bias)
        logits = h @ self.action[0] + self.action[1]
        if self.rows is not None:
            logits = self.rows.apply(observations, h, logits, self.row_weights, self.row_step_weights)
        return logits if self.steer is None else self.steer.apply(observations, logits)

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The critic's V, float32 [rows], of observations [rows, observation_size] (needs `critic`)."""
        if self.critic is None:
            raise ValueError("this model has no value head after the actor's first layer")
        h = self.features(observations)
        for weights, bias, activation in self.critic:
            h = ACTIVATIONS[activation](h @ weights + bias)
        return h[:, 0]


def load_actor(path: str | Path) -> tuple[ActorNetwork, dict]:
    """(the actor, meta) of a model zip, without torch."""
    meta = read_meta(path)
    return ActorNetwork.from_state(read_state(path), meta, path), meta

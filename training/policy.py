"""The policy network for ktenv's flat observation, and the safe way to load it back.

The choice (documented in the README): the observation (docs/observation.md) is a vector of about
7,000 floats, mostly 0/1 flags and small counts, with a few large numbers (gold, rounds, income).

    symlog(x) = sign(x) * log(1 + |x|)     squashes the large numbers, keeps 0/1 and small counts
    Linear(obs, features) + ReLU           one shared layer for policy and value (most weights live here)
    policy head: MLP `pi` -> logits over Discrete(N)  (MaskablePPO masks illegal actions to -inf)
    value head:  MLP `vf` -> V

symlog needs no running statistics (unlike VecNormalize), so a saved model is weights only and
plays the same in training, in the arena and in a notebook.

Files (training/checkpoints.py): a model is a zip with the ``policy.pth`` weights and
``ktenv.json``, which names the network and the game it was trained for (checkpoints and
``final.zip`` also hold the rest of SB3's zip, optimizer included). `load_network` reads that entry
and the weights with ``torch.load(weights_only=True)``: nothing in the file is unpickled.
"""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from functools import partial
from pathlib import Path

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from ..agents.network import FORMAT, META_ENTRY, ActorNetwork, ModelFileError
from ..agents.network import read_meta as read_model_meta
from ..gamekit.focus import ONE, FocusTable
from ..gamekit.rows import RowTable
from ..gamekit.steer import EPS, SteerTable

ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh, "elu": nn.ELU}


class CheckpointError(ModelFileError):
    """A model or checkpoint file that cannot be used (missing, corrupt, or for another game)."""


def symlog(x: torch.Tensor) -> torch.Tensor:
    """sign(x) * log(1 + |x|), in two passes over the batch instead of four (the same numbers)."""
    return torch.log1p(x.abs()).copysign_(x)


def symlog_array(x: np.ndarray) -> np.ndarray:
    """`symlog` on a float32 numpy array, into a new array (torch's kernels: the same numbers as numpy's,
    on all of torch's threads)."""
    return symlog(torch.from_numpy(np.ascontiguousarray(x, np.float32))).numpy()


class SymlogFeatures(BaseFeaturesExtractor):
    """symlog, then one linear layer with ReLU (see the module docstring).

    Two switches for training speed, neither of them saved with the weights (a loaded model takes raw
    observations and computes in float32):
    - ``prescaled``: the observations arrive with `symlog` already applied (training/monitor.py's
      GameVecEnv applies it once per step; without it every PPO epoch would apply it again to the same
      rollout);
    - ``bf16``: the big first layer multiplies in bfloat16 (torch.autocast, float32 weights and
      accumulation): about 3x faster on CPUs with AMX or AVX512-BF16 (the 7,081 x 256 layer holds most
      of the network's arithmetic)."""

    def __init__(self, observation_space: spaces.Box, features_dim: int = 512, focus: dict | None = None) -> None:
        super().__init__(observation_space, features_dim)
        size = int(np.prod(observation_space.shape))
        # a focus (ktenv.gamekit.focus): inputs gathered from the observation, read after it (its table is
        # in the model file's ktenv.json, not among the weights)
        self.focus = FocusTable.from_json(focus, size) if focus else None
        self.linear = nn.Sequential(nn.Linear(size + (self.focus.size if self.focus else 0), features_dim), nn.ReLU())
        if self.focus is not None:
            anchor, gather = self.focus.arrays()
            self.register_buffer("focus_anchor", torch.tensor(anchor), persistent=False)
            self.register_buffer("focus_gather", torch.tensor(gather), persistent=False)
        self.prescaled = False
        self.bf16 = False
        self._bf16_layer: tuple | None = None  # (weight, its _version, bfloat16 weight, bfloat16 bias)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = observations if self.prescaled else symlog(observations)
        if self.focus is not None:
            x = self.with_focus(x)
        if not self.bf16:
            return self.linear(x)
        if not torch.is_grad_enabled():  # the games' forward passes: what autocast computes, minus recasting
            weight, bias = self._bfloat16_weights()  # 1.8 M weights per call of a few dozen rows
            return torch.relu(nn.functional.linear(x.to(torch.bfloat16), weight, bias)).float()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return self.linear(x).float()

    def with_focus(self, x: torch.Tensor) -> torch.Tensor:
        """``concat(x, focus)`` of symlog'd observations x (`FocusTable.apply`, after symlog: the gather commutes
        with it, and a constant 1 becomes symlog(1))."""
        hit = x[:, self.focus_anchor] != 0
        rows = self.focus_gather[hit.to(torch.uint8).argmax(1)]  # the first anchor set (zeroed below if none)
        values = x.gather(1, rows.clamp(min=0))
        one = torch.tensor(float(np.log1p(1.0)), dtype=x.dtype)
        values = torch.where(rows >= 0, values, torch.where(rows == ONE, one, torch.zeros((), dtype=x.dtype)))
        return torch.cat([x, values * hit.any(1, keepdim=True).to(x.dtype)], 1)

    def forget_bf16(self) -> None:
        """The weights changed where the version counter does not show it (fused Adam): cast them again."""
        self._bf16_layer = None

    def _bfloat16_weights(self) -> tuple[torch.Tensor, torch.Tensor]:
        """The first layer in bfloat16, cast again only once the optimizer (or a load) has changed it: after
        every step of an optimizer `follow_optimizer` watches, or once an in-place change bumps the weight's
        version counter."""
        layer = self.linear[0]
        cached = self._bf16_layer
        if cached is None or cached[0] is not layer.weight or cached[1] != layer.weight._version:
            cached = self._bf16_layer = (layer.weight, layer.weight._version, layer.weight.detach().to(torch.bfloat16),
                                         layer.bias.detach().to(torch.bfloat16))
        return cached[2], cached[3]


ILLEGAL_GAP = 60.0  # how far below a row's best legal logit an illegal action's logit is put (see MaskedCategorical)


class MaskedCategorical(MaskableCategoricalDistribution):
    """sb3-contrib's masked categorical distribution, in one log-softmax and without exp's slow path.

    sb3-contrib sets an illegal action's logit to -1e8 and normalizes twice (before and after masking);
    exp of such numbers underflows, and torch's vectorized exp falls back to a slow path on every vector
    that holds one: 4/5 of the distribution's time, a quarter of a PPO minibatch. Here an illegal logit
    becomes the row's best legal logit minus `ILLEGAL_GAP`: its probability (e^-60 = 9e-27, times at most
    a few hundred actions) vanishes in float32 beside the legal ones, which gives the same log-probabilities
    and entropy to float rounding, and no gradient reaches an illegal logit. Sampling and the mode see
    exactly 0 for an illegal action."""

    def proba_distribution(self, action_logits: torch.Tensor) -> MaskedCategorical:
        self.logits = action_logits.view(-1, self.action_dim)
        self.masks: torch.Tensor | None = None
        self._log_probs: torch.Tensor | None = None
        return self

    def apply_masking(self, masks) -> None:
        self.masks = None if masks is None else torch.as_tensor(
            masks, dtype=torch.bool, device=self.logits.device).reshape(self.logits.shape)
        self._log_probs = None

    @property
    def log_probs(self) -> torch.Tensor:
        """The normalized log-probabilities of every action, [batch, actions]."""
        if self._log_probs is None:
            logits = self.logits
            if self.masks is not None:
                best = logits.detach().masked_fill(~self.masks, -torch.inf).amax(-1, keepdim=True)
                floor = best.clamp_min(torch.finfo(logits.dtype).min) - ILLEGAL_GAP  # no legal action: uniform
                logits = torch.where(self.masks, logits, floor)
            self._log_probs = torch.log_softmax(logits, -1)
        return self._log_probs

    def probs(self) -> torch.Tensor:
        probs = self.log_probs.detach().exp()
        return probs if self.masks is None else probs.masked_fill(~self.masks, 0.0)

    def log_prob(self, actions: torch.Tensor) -> torch.Tensor:
        return self.log_probs.gather(-1, actions.long().reshape(-1, 1)).squeeze(-1)

    def entropy(self) -> torch.Tensor:
        log_probs = self.log_probs
        p_log_p = log_probs.exp() * log_probs
        if self.masks is not None:
            p_log_p = p_log_p.masked_fill(~self.masks, 0.0)
        return -p_log_p.sum(-1)

    def sample(self) -> torch.Tensor:
        """One action per row, by inverting the cumulative probabilities at a uniform draw (torch.multinomial,
        which torch's Categorical uses, takes 15x longer on a few dozen rows). An action of probability 0
        spans an empty interval of the cumulative sum, so it is never drawn."""
        cumulative = self.probs().cumsum(-1)
        total = cumulative[:, -1:]
        point = torch.minimum(torch.rand_like(total) * total, torch.nextafter(total, torch.zeros_like(total)))
        return torch.searchsorted(cumulative, point, right=True).squeeze(-1)

    def mode(self) -> torch.Tensor:
        return self.log_probs.argmax(-1)


class LearnerPolicy(MaskableActorCriticPolicy):
    """sb3-contrib's `MaskableActorCriticPolicy` (the same network and weights) with `MaskedCategorical`,
    bfloat16 observations (training/buffer.py's minibatches) handed to the features extractor as they are,
    instead of cast back to float32 first, optional row scores (ktenv.gamekit.rows: the table as JSON in the
    model file's ktenv.json, the weights ``row_embed.B`` and ``row_context.B`` among the network's) and an
    optional steer (ktenv.gamekit.steer: its table as JSON, kept in the model file's ktenv.json; with `extra`
    logits, the action head gives them after the actions) applied to the action logits, in that order."""

    def __init__(self, observation_space, action_space, lr_schedule, *args, steer: dict | None = None,
                 rows: dict | None = None, **kwargs) -> None:
        super().__init__(observation_space, action_space, lr_schedule, *args, **kwargs)
        self.action_dist = MaskedCategorical(self.action_space.n)  # the action net is built: same shape
        self.steer_json, self.rows_json = steer, rows
        size = int(np.prod(self.observation_space.shape))
        self.rows = RowTable.from_json(rows, size, int(self.action_space.n)) if rows else None
        if self.rows is not None:
            self._add_row_scores(lr_schedule)
        self.steer = SteerTable.from_json(steer, size, int(self.action_space.n)) if steer else None
        if self.steer is not None and self.steer.extra:  # the head gives the steer's own logits after the actions
            self.action_net = nn.Linear(self.action_net.in_features, int(self.action_space.n) + self.steer.extra)
            if self.ortho_init:
                self.action_net.apply(partial(self.init_weights, gain=0.01))
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
        if self.steer is not None:
            for name, values in (("anchor", self.steer.anchor), ("sources", self.steer.sources),
                                 ("targets", self.steer.targets)):
                self.register_buffer(f"steer_{name}", torch.tensor(values), persistent=False)
            self.register_buffer("steer_weights", torch.tensor(self.steer.weights()), persistent=False)

    def _add_row_scores(self, lr_schedule) -> None:
        """The row scores' layers; the context starts at zero, so a fresh policy's logits are those without."""
        latent = self.mlp_extractor.latent_dim_pi
        self.row_embed = nn.ModuleList(nn.Linear(b.columns, self.rows.width) for b in self.rows.blocks)
        self.row_context = nn.ModuleList(nn.Linear(latent, self.rows.width) for _ in self.rows.blocks)
        for layer in self.row_context:
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)
        for k, block in enumerate(self.rows.blocks):
            self.register_buffer(f"row_index_{k}", torch.tensor(block.indices()), persistent=False)
        self.row_step_context = nn.ModuleList(nn.Linear(latent, self.rows.width)
                                              for _ in range(self.rows.step_contexts))
        for layer in self.row_step_context:
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)
        for k, block in enumerate(self.rows.step_blocks):
            self.register_buffer(f"row_step_anchor_{k}", torch.tensor(block.anchor), persistent=False)
            self.register_buffer(f"row_step_rows_{k}", torch.tensor(block.rows), persistent=False)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "steer": self.steer_json, "rows": self.rows_json}

    def extract_features(self, obs, features_extractor=None):
        if obs.dtype != torch.bfloat16:
            return super().extract_features(obs, features_extractor)
        if self.share_features_extractor:
            return (features_extractor or self.features_extractor)(obs)
        return self.pi_features_extractor(obs), self.vf_features_extractor(obs)

    def action_logits(self, obs: torch.Tensor, latent_pi: torch.Tensor) -> torch.Tensor:
        """The actor's logits (unmasked) from its latent, with the row scores where the network has them, steered
        where the observation asks for it."""
        logits = self.action_net(latent_pi)
        if self.rows is not None:
            logits = self.row_scored(obs, latent_pi, logits)
        if self.steer is None:
            return logits
        return self.steered(obs, logits)[:, :logits.shape[1] - self.steer.extra]

    def row_scored(self, obs: torch.Tensor, latent_pi: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:
        """`RowTable.apply` in torch (obs raw, or symlog'd already where the features extractor is `prescaled`)."""
        x = obs.float() if self.pi_features_extractor.prescaled else symlog(obs.float())
        latent = latent_pi.float()
        scores, embedded = [], []
        for k, block in enumerate(self.rows.blocks):
            embedded.append(torch.relu(self.row_embed[k](x[:, getattr(self, f"row_index_{k}")])))
            scores.append((block.action, torch.einsum("nrw,nw->nr", embedded[-1], self.row_context[k](latent))))
        contexts = iter(self.row_step_context)
        for k, block in enumerate(self.rows.step_blocks):
            hit = x[:, getattr(self, f"row_step_anchor_{k}")] != 0
            ahead = getattr(self, f"row_step_rows_{k}")[hit.to(torch.uint8).argmax(1)]  # [n, actions, steps]
            total = 0
            for step in range(block.steps):
                target = ahead[:, :, step]
                rows = torch.gather(embedded[block.block], 1, target.clamp(min=0)[:, :, None].expand(
                    -1, -1, self.rows.width))
                on = ((target >= 0) & hit.any(1)[:, None]).to(rows.dtype)
                total = total + torch.einsum("naw,nw->na", rows, next(contexts)(latent)) * on
            scores.append((block.action, total))
        pieces, at = [], 0
        for action, score in sorted(scores, key=lambda item: item[0]):
            pieces += [torch.zeros_like(logits[:, at:action]), score.to(logits.dtype)]
            at = action + score.shape[1]
        pieces.append(torch.zeros_like(logits[:, at:]))
        return logits + torch.cat(pieces, 1)

    def steered(self, obs: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:
        """`SteerTable.apply` in torch (obs raw or symlog'd: only which entries are nonzero matters)."""
        hit = obs[:, self.steer_anchor] != 0
        rows = torch.nonzero(hit.any(1) & (obs[:, self.steer.gate] != 0)).flatten()
        if rows.numel() == 0:
            return logits
        p = torch.softmax(logits[rows][:, self.steer_sources].float(), 1)
        weights = self.steer_weights[hit[rows].to(torch.uint8).argmax(1)]
        add = torch.log(torch.einsum("rs,rst->rt", p, weights) + EPS).to(logits.dtype)
        delta = torch.zeros_like(logits)
        delta[rows.unsqueeze(1), self.steer_targets] = add
        return logits + delta

    def _latents(self, obs):
        features = self.extract_features(obs)
        if self.share_features_extractor:
            return self.mlp_extractor(features)
        return self.mlp_extractor.forward_actor(features[0]), self.mlp_extractor.forward_critic(features[1])

    def _distribution(self, obs, latent_pi, action_masks):
        distribution = self.action_dist.proba_distribution(action_logits=self.action_logits(obs, latent_pi))
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution

    # sb3-contrib's three passes, with the steered logits
    def forward(self, obs, deterministic: bool = False, action_masks=None):
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._distribution(obs, latent_pi, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), self.value_net(latent_vf), log_prob

    def evaluate_actions(self, obs, actions, action_masks=None):
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._distribution(obs, latent_pi, action_masks)
        return self.value_net(latent_vf), distribution.log_prob(actions), distribution.entropy()

    def get_distribution(self, obs, action_masks=None):
        features = BasePolicy.extract_features(self, obs, self.pi_features_extractor)
        return self._distribution(obs, self.mlp_extractor.forward_actor(features), action_masks)


def policy_kwargs(features: int, pi: list[int], vf: list[int], activation: str, focus: dict | None = None,
                  steer: dict | None = None, rows: dict | None = None) -> dict:
    """The keyword arguments of `LearnerPolicy` for this network (`focus`, `steer`, `rows`: their tables as JSON)."""
    extractor = {"features_dim": features, **({"focus": focus} if focus else {})}
    return {"features_extractor_class": SymlogFeatures, "features_extractor_kwargs": extractor,
            "net_arch": {"pi": list(pi), "vf": list(vf)}, "activation_fn": ACTIVATIONS[activation],
            **({"steer": steer} if steer else {}), **({"rows": rows} if rows else {})}


def native_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware (AMX or AVX512-BF16): there, autocast to
    bfloat16 is about 3x faster on the first layer; elsewhere it is emulated and slower than float32."""
    try:
        with open("/proc/cpuinfo") as info:
            flags = next((line for line in info if line.startswith("flags")), "").split()
    except OSError:
        return False
    return "amx_bf16" in flags or "avx512_bf16" in flags


def fused_adam() -> dict:
    """Adam's keyword for one fused pass over the weights (instead of ten), where this torch has it on
    the CPU (2.4 and later); nothing otherwise."""
    try:
        torch.optim.Adam([torch.zeros(1, requires_grad=True)], fused=True)
    except (RuntimeError, TypeError, ValueError):
        return {}
    return {"fused": True}


def features_extractors(policy) -> list[SymlogFeatures]:
    """The policy's `SymlogFeatures` extractors, each once (shared or not)."""
    return [e for e in {id(e): e for e in (policy.features_extractor, policy.pi_features_extractor,
                                           policy.vf_features_extractor)}.values() if isinstance(e, SymlogFeatures)]


def set_learner_speedups(policy, precision: str, prescaled: bool) -> bool:
    """Switch a policy's features extractors to `SymlogFeatures`' training speedups (precision: "auto",
    "bf16" or "fp32"; prescaled: the observations arrive symlog'd). Nothing saved changes. Returns whether
    the first layer multiplies in bfloat16."""
    bf16 = precision == "bf16" or (precision == "auto" and native_bf16())
    for extractor in features_extractors(policy):
        extractor.bf16, extractor.prescaled = bf16, prescaled
    follow_optimizer(policy, policy.optimizer)
    return bf16


def follow_optimizer(policy, optimizer) -> None:
    """After every step of `optimizer`, the games' bfloat16 copy of the first layer is made again. Fused Adam
    (`fused_adam`) changes the weights in place without bumping their version counter: without this the
    games would go on playing the first layer of the first rollout while PPO trains another."""
    if getattr(optimizer, "_ktenv_follows", None) is policy:
        return
    extractors = features_extractors(policy)
    optimizer.register_step_post_hook(lambda *_: [e.forget_bf16() for e in extractors])
    optimizer._ktenv_follows = policy


def meta_bytes(meta: dict) -> bytes:
    """The ``ktenv.json`` entry for `meta` (training/checkpoints.py writes it into every zip)."""
    return json.dumps({"format": FORMAT, **meta}, indent=1).encode()


def read_meta(path: str | Path) -> dict:
    """The model's ``ktenv.json`` (`ktenv.agents.network.read_meta`), a `CheckpointError` if it cannot be used."""
    try:
        return read_model_meta(path)
    except ModelFileError as exc:
        raise CheckpointError(str(exc)) from None


def read_weights(path: str | Path, entry: str = "policy.pth") -> dict:
    """A state dict from the zip, loaded with ``weights_only=True`` (no unpickling of objects)."""
    try:
        with zipfile.ZipFile(path) as archive:
            blob = archive.read(entry)
        return torch.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
    except KeyError:
        raise CheckpointError(f"{path}: no {entry} inside") from None
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError, pickle.UnpicklingError) as exc:
        raise CheckpointError(f"{path}: {entry} is corrupt ({exc})") from None


def build_policy(meta: dict):
    """A fresh `LearnerPolicy` shaped as `meta` says (weights not loaded)."""
    net = meta["network"]
    obs_space = spaces.Box(-np.inf, np.inf, (meta["observation_size"],), np.float32)
    return LearnerPolicy(obs_space, spaces.Discrete(meta["action_size"]), lambda _: 0.0,
                         **policy_kwargs(net["features"], net["pi"], net["vf"], net["activation"], net.get("focus"),
                                         net.get("steer"), net.get("rows")))


def load_network(path: str | Path):
    """(policy in eval mode, meta) from a ktenv model zip, safely (see the module docstring)."""
    meta = read_meta(path)
    try:
        policy = build_policy(meta)
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{path}: {META_ENTRY} describes no valid network ({exc!r})") from None
    weights = read_weights(path)
    try:
        policy.load_state_dict(weights, strict=True)
    except (RuntimeError, TypeError) as exc:
        raise CheckpointError(f"{path}: weights do not fit the network in {META_ENTRY} ({exc})") from None
    policy.set_training_mode(False)
    return policy, meta


def batch_logits(policy, observations: torch.Tensor) -> torch.Tensor:
    """The policy's logits (unmasked) for a batch of observations: the actor's path of the network only."""
    latent = policy.mlp_extractor.forward_actor(policy.pi_features_extractor(observations))
    if isinstance(policy, LearnerPolicy):
        return policy.action_logits(observations, latent)
    return policy.action_net(latent)


ACTIVATION_NAMES = {module: name for name, module in ACTIVATIONS.items()}


def PlayingNetwork(policy) -> ActorNetwork:  # noqa: N802 - it was a class, and reads as one where it is made
    """The actor's path of a loaded policy, for play (the league's snapshots, native policy seats):
    `ktenv.agents.network.ActorNetwork` (numpy float32, frozen weights, the same logits as `batch_logits` to
    float rounding) made from the torch modules, with the critic's path where it shares the first layer (the
    policy-guided search's cutoff value). The PPO update and the learner's own rollout keep torch
    (gradients; bfloat16 on wide batches)."""
    def arrays(linear: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
        return (np.ascontiguousarray(linear.weight.detach().float().numpy().T),
                linear.bias.detach().float().numpy().copy())

    first = policy.pi_features_extractor.linear
    if not (isinstance(first[0], nn.Linear) and isinstance(first[1], nn.ReLU)):
        raise TypeError(f"PlayingNetwork: unexpected features extractor {first}")
    def mlp(net: nn.Module) -> list[tuple[np.ndarray, np.ndarray, str]]:
        """An MLP as (weights [in, out], bias, activation name): SB3 builds it Linear, activation, ..."""
        layers: list[tuple[np.ndarray, np.ndarray, str]] = []
        for module in net:
            if isinstance(module, nn.Linear):
                layers.append((*arrays(module), "none"))
            elif type(module) in ACTIVATION_NAMES and layers and layers[-1][2] == "none":
                layers[-1] = (*layers[-1][:2], ACTIVATION_NAMES[type(module)])
            else:
                raise TypeError(f"PlayingNetwork: unexpected MLP {net}")
        return layers

    # the critic, when it reads the actor's first layer (share_features_extractor): its MLP and the value head
    shared = policy.vf_features_extractor is policy.pi_features_extractor
    critic = mlp(policy.mlp_extractor.value_net) + [(*arrays(policy.value_net), "none")] if shared else None
    rows = getattr(policy, "rows", None)
    row_weights = ([(arrays(e), arrays(c)) for e, c in zip(policy.row_embed, policy.row_context)]
                   if rows is not None else None)
    steps = [arrays(c) for c in policy.row_step_context] if rows is not None else None
    return ActorNetwork(arrays(first[0]), mlp(policy.mlp_extractor.policy_net), arrays(policy.action_net), critic,
                        policy.pi_features_extractor.focus, getattr(policy, "steer", None), rows, row_weights, steps)

"""MaskablePPO's rollout buffer without two copies of every observation it does not need.

A 4,096-step rollout of ktenv observations is 116 MB. sb3-contrib's buffer copies it once per rollout to
put the games' rows together (``swap_and_flatten``: [steps, games] -> [games x steps]) and then each
minibatch twice (numpy's fancy indexing, then ``torch.tensor``): 15% of a training run. Here the
rollout is flattened step-major with a reshape (a view: PPO samples the rows in a random permutation,
so only their order in the flat array changes, the same for every field), and a minibatch is handed
to torch without a second copy (the indexing already made a fresh array).

With ``bfloat16_observations`` (set where the policy's first layer multiplies in bfloat16 anyway,
training/policy.py), the observations are stored in bfloat16 as they come, and each minibatch is gathered
from there: one copy instead of two per step, half the bytes to gather, and no cast in each of the PPO
epochs' forward passes (the policy takes them as they are: `LearnerPolicy`).
"""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer, MaskableRolloutBufferSamples


class FlatRolloutBuffer(MaskableRolloutBuffer):
    bfloat16_observations = False
    _bfloat16: torch.Tensor | None = None  # [steps, games, obs], kept from one rollout to the next

    @staticmethod
    def swap_and_flatten(arr: np.ndarray) -> np.ndarray:
        shape = arr.shape
        return arr.reshape(shape[0] * shape[1], *shape[2:]) if len(shape) >= 3 else arr.reshape(-1, 1)

    def to_torch(self, array: np.ndarray, copy: bool = True) -> torch.Tensor:
        return torch.as_tensor(array, device=self.device)

    def add(self, obs, action, reward, episode_start, value, log_prob, action_masks=None) -> None:
        """As sb3's `RolloutBuffer.add`, but with ``bfloat16_observations`` the observations are stored
        in bfloat16 only (cast as they are copied in; the float32 array stays untouched)."""
        if not self.bfloat16_observations:
            return super().add(obs, action, reward, episode_start, value, log_prob, action_masks=action_masks)
        if self._bfloat16 is None or self._bfloat16.shape != self.observations.shape:
            self._bfloat16 = torch.empty(self.observations.shape, dtype=torch.bfloat16)
        self._bfloat16[self.pos].copy_(torch.from_numpy(np.asarray(obs, np.float32)))
        if action_masks is not None:
            self.action_masks[self.pos] = action_masks.reshape((self.n_envs, self.mask_dims))
        self.actions[self.pos] = action.reshape((self.n_envs, self.action_dim))
        self.rewards[self.pos] = reward
        self.episode_starts[self.pos] = episode_start
        self.values[self.pos] = value.detach().cpu().numpy().flatten()
        self.log_probs[self.pos] = log_prob.detach().cpu().numpy().flatten()
        self.pos += 1
        self.full = self.pos == self.buffer_size

    def _get_samples(self, batch_inds: np.ndarray, env=None) -> MaskableRolloutBufferSamples:
        if not self.bfloat16_observations:
            return super()._get_samples(batch_inds, env)
        rest = (self.actions[batch_inds], self.values[batch_inds].flatten(), self.log_probs[batch_inds].flatten(),
                self.advantages[batch_inds].flatten(), self.returns[batch_inds].flatten(),
                self.action_masks[batch_inds].reshape(-1, self.mask_dims))
        flat = self._bfloat16.view(-1, self._bfloat16.shape[-1])  # step-major, as swap_and_flatten
        observations = flat.index_select(0, torch.from_numpy(batch_inds))
        return MaskableRolloutBufferSamples(observations, *map(self.to_torch, rest))

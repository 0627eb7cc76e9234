// A trained policy network playing a seat inside native code: the league's snapshots (`ppo:PATH`,
// `ppo-sample:PATH`) in batched games, so that their turns never go back to Python.
//
// The network is training/policy.py's actor path, as `PlayingNetwork` computes it in numpy: symlog of the
// observation, the shared first layer and ReLU, the policy MLP, the action head. float32 throughout; the sums
// run in a fixed order of their own, so the logits equal PlayingNetwork's to float rounding (not bit for bit:
// numpy's matrix products block their sums differently) and are the same on every thread. The choice is that
// of the arena's agent of the same name (agents/ppo.py): the most likely legal action (`ppo:`), or one drawn
// from the masked softmax as numpy's Generator.choice draws (`ppo-sample:`), with default_rng(the seat's seed).
//
// Optionally the critic too (the policy-guided search values a rollout's cutoff by it): the value MLP `vf` and
// the value head, after the same first layer (our policies share it between actor and critic:
// training/policy.py, share_features_extractor).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agents/pcg64.hpp"

namespace ktenv::agents {

enum class Activation : int { NONE = 0, RELU = 1, TANH = 2, ELU = 3 };  // the codes the binding takes

// out[0..n) = activation(bias + x W) for x[in] and W stored [in, out] (a row per input).
struct Dense {
  int in = 0, out = 0;
  std::vector<float> weight, bias;
  Activation activation = Activation::NONE;
};

struct PolicyNetwork {
  int observation_size = 0, features = 0;
  // [observation + focus_width, features]: a row per observation entry, then one per focus entry; then ReLU
  std::vector<float> first, first_bias;
  // The focus (ktenv/gamekit/focus.py): extra inputs gathered from the observation. The first entry of
  // focus_anchor that is nonzero in the observation picks its row of focus_gather [anchors, focus_width]:
  // observation entries, or -1 (0.0) and -2 (1.0). No anchor set: the focus is all zeros.
  std::vector<int> focus_anchor, focus_gather;
  int focus_width = 0;
  // The steer (ktenv/gamekit/steer.py): where obs[steer_gate] is nonzero and an entry of steer_anchor is (the
  // first such picks row r), the softmax of the logits of steer_sources is sent to steer_targets by
  // steer_weights [anchors, sources, targets], and each target's logit gets log(q + 1e-6) added. Gate -1: none.
  // steer_extra: logits the head gives after the actions, for the steer alone (sources may index them).
  int steer_gate = -1, steer_extra = 0;
  std::vector<int> steer_anchor, steer_sources, steer_targets;
  std::vector<float> steer_weights;
  // Row scores (ktenv/gamekit/rows.py): action `action + k` of a block gets e_k . c added, where e_k =
  // ReLU(embed(symlog of row k of its table: obs[start + column * rows + k])) and c = context(the policy MLP's
  // output); embed and context have no activation of their own.
  struct RowBlock {
    int action = 0, start = 0, rows = 0;
    Dense embed, context;
  };
  std::vector<RowBlock> row_blocks;
  // Row scores of steps: action `action + k` gets, for each step s, e_r . c_s added, r = rows[(anchor row * actions
  // + k) * steps + s] (-1: nothing), e_r row r's embedding in row block `block`, c_s = contexts[s](the policy
  // MLP's output); the anchor row is the first entry of `anchor` that is nonzero in the observation (none: nothing).
  struct StepRows {
    int action = 0, block = 0, actions = 0, steps = 0;
    std::vector<int> anchor, rows;
    std::vector<Dense> contexts;
  };
  std::vector<StepRows> step_rows;
  std::vector<Dense> hidden;             // the policy MLP, in order
  Dense head;                            // the logits (no activation)
  std::vector<Dense> value_hidden;       // the critic's MLP, in order (optional: see has_value)
  Dense value_head;                      // V (one output, no activation); out == 0: no critic given
  bool sample = false;                   // draw from the masked softmax (ppo-sample:), else the best legal action
  std::string name;                      // the seat's spec, for the caller
  int widest = 0;                        // the widest hidden layer (scratch size)

  int n_actions() const { return head.out - steer_extra; }
  // Unmasked logits of one observation (float32[observation_size]) into out[0, n_actions), the steer's own
  // after them (out holds head.out floats); a and b: scratch of `widest` floats each.
  void logits(const float* obs, float* out, float* a, float* b) const;
  bool has_value() const { return value_head.out == 1; }
  // The critic's estimate V of one observation (has_value() only); a and b: scratch as for logits.
  float value(const float* obs, float* a, float* b) const;

 private:
  // a[features] = ReLU(first-layer bias + symlog(obs, focus) W): the layer the actor and the critic share.
  void features_of(const float* obs, float* a) const;
  // The focus entries' contributions to a (before the ReLU).
  void add_focus(const float* obs, float* a) const;
  // The row scores' additions to the logits out, from the latent h (scratch: `widest` floats).
  void add_row_scores(const float* obs, const float* h, float* out, float* scratch) const;
  void add_step_scores(const float* obs, const float* h, float* out, float* scratch) const;
  // e[width] = ReLU(embedding of row k of the block's table)
  static void embed_row(const RowBlock& block, const float* obs, int k, float* e);
  // The steer's additions to the logits out (scratch: `widest` floats).
  void add_steer(const float* obs, float* out, float* scratch) const;
};

// Checked: the shapes chain (first layer -> hidden layers -> head), known activations; throws
// std::invalid_argument naming what is wrong.
std::shared_ptr<const PolicyNetwork> make_policy_network(PolicyNetwork net);

// One seat's player: the network of the episode under way, its generator and scratch.
class PolicyPlayer {
 public:
  // The network of the next episode and the seed of its generator (numpy.random.default_rng(seed)).
  void reset(std::shared_ptr<const PolicyNetwork> network, std::uint64_t seed);
  // The action for this observation and mask (nonzero = legal); -1 when the mask allows nothing.
  int act(const float* obs, const std::int8_t* mask);
  const std::shared_ptr<const PolicyNetwork>& network() const { return net_; }

 private:
  std::shared_ptr<const PolicyNetwork> net_;
  Pcg64 rng_;
  std::vector<float> a_, b_, logits_;
  std::vector<double> weight_;  // exp(logit - best) of the legal actions, 0 elsewhere (sampling)
};

}  // namespace ktenv::agents

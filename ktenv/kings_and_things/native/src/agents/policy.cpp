// The policy network's forward pass and choice (see policy.hpp). Built with -O3 (CMakeLists.txt): the
// inner loops run over a layer's outputs, contiguous in the weight rows, and vectorize.
#include "agents/policy.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ktenv::agents {
namespace {

// out[o] += x * row[o] for o in [0, n): one input's contribution to every output.
inline void add_row(float* __restrict out, const float* __restrict row, float x, int n) {
  for (int o = 0; o < n; ++o) out[o] += x * row[o];
}

void apply(Activation activation, float* h, int n) {
  switch (activation) {
    case Activation::NONE: return;
    case Activation::RELU:
      for (int i = 0; i < n; ++i) h[i] = std::max(h[i], 0.0f);
      return;
    case Activation::TANH:
      for (int i = 0; i < n; ++i) h[i] = std::tanh(h[i]);
      return;
    case Activation::ELU:
      for (int i = 0; i < n; ++i) h[i] = h[i] > 0.0f ? h[i] : std::expm1(h[i]);
      return;
  }
}

// out = activation(bias + x W); inputs that are 0 (most of them after a ReLU) add nothing and are skipped.
void dense(const Dense& layer, const float* x, float* out) {
  std::copy(layer.bias.begin(), layer.bias.end(), out);
  for (int i = 0; i < layer.in; ++i)
    if (x[i] != 0.0f) add_row(out, &layer.weight[static_cast<std::size_t>(i) * layer.out], x[i], layer.out);
  apply(layer.activation, out, layer.out);
}

void check_dense(const Dense& layer, int in, const std::string& what) {
  if (layer.in != in)
    throw std::invalid_argument(what + ": takes " + std::to_string(layer.in) + " inputs, the layer before gives " +
                                std::to_string(in));
  if (layer.out < 1) throw std::invalid_argument(what + ": no outputs");
  if (layer.weight.size() != static_cast<std::size_t>(layer.in) * layer.out ||
      layer.bias.size() != static_cast<std::size_t>(layer.out))
    throw std::invalid_argument(what + ": weights or bias of the wrong size");
  int code = static_cast<int>(layer.activation);
  if (code < 0 || code > static_cast<int>(Activation::ELU))
    throw std::invalid_argument(what + ": unknown activation code " + std::to_string(code));
}

}  // namespace

// symlog(x) = sign(x) log(1 + |x|) is 0 where x is: only the observation's nonzero entries (about 9% of it)
// read their row of the first layer.
void PolicyNetwork::features_of(const float* obs, float* a) const {
  std::copy(first_bias.begin(), first_bias.end(), a);
  for (int j = 0; j < observation_size; ++j) {
    float x = obs[j];
    if (x == 0.0f) continue;
    float v = std::copysign(std::log1p(std::fabs(x)), x);
    add_row(a, &first[static_cast<std::size_t>(j) * features], v, features);
  }
  if (focus_width > 0) add_focus(obs, a);
  apply(Activation::RELU, a, features);
}

void PolicyNetwork::add_focus(const float* obs, float* a) const {
  const std::size_t anchors = focus_anchor.size();
  std::size_t row = 0;
  while (row < anchors && obs[focus_anchor[row]] == 0.0f) ++row;
  if (row == anchors) return;  // no anchor set: the focus is zeros, which add nothing
  const int* gather = &focus_gather[row * static_cast<std::size_t>(focus_width)];
  for (int k = 0; k < focus_width; ++k) {
    const int at = gather[k];
    const float x = at >= 0 ? obs[at] : (at == -2 ? 1.0f : 0.0f);
    if (x == 0.0f) continue;
    const float v = std::copysign(std::log1p(std::fabs(x)), x);
    add_row(a, &first[static_cast<std::size_t>(observation_size + k) * features], v, features);
  }
}

void PolicyNetwork::logits(const float* obs, float* out, float* a, float* b) const {
  features_of(obs, a);
  for (const Dense& layer : hidden) {
    dense(layer, a, b);
    std::swap(a, b);
  }
  dense(head, a, out);
  if (!row_blocks.empty()) add_row_scores(obs, a, out, b);
  if (!step_rows.empty()) add_step_scores(obs, a, out, b);
  if (steer_gate >= 0) add_steer(obs, out, b);
}

void PolicyNetwork::embed_row(const RowBlock& block, const float* obs, int k, float* e) {
  const int width = block.embed.out, columns = block.embed.in;
  std::copy(block.embed.bias.begin(), block.embed.bias.end(), e);
  for (int c = 0; c < columns; ++c) {
    const float x = obs[block.start + c * block.rows + k];
    if (x == 0.0f) continue;
    add_row(e, &block.embed.weight[static_cast<std::size_t>(c) * width], std::copysign(std::log1p(std::fabs(x)), x),
            width);
  }
  apply(Activation::RELU, e, width);
}

void PolicyNetwork::add_row_scores(const float* obs, const float* h, float* out, float* scratch) const {
  for (const RowBlock& block : row_blocks) {
    const int width = block.embed.out;
    float* context = scratch;
    float* e = scratch + width;
    dense(block.context, h, context);
    for (int k = 0; k < block.rows; ++k) {
      embed_row(block, obs, k, e);
      float score = 0.0f;
      for (int w = 0; w < width; ++w) score += e[w] * context[w];
      out[block.action + k] += score;
    }
  }
}

void PolicyNetwork::add_step_scores(const float* obs, const float* h, float* out, float* scratch) const {
  for (const StepRows& steps : step_rows) {
    const std::size_t anchors = steps.anchor.size();
    std::size_t row = 0;
    while (row < anchors && obs[steps.anchor[row]] == 0.0f) ++row;
    if (row == anchors) continue;  // nothing moving: no step scores
    const RowBlock& block = row_blocks[steps.block];
    const int width = block.embed.out;
    float* e = scratch;
    float* contexts = scratch + width;
    for (int s = 0; s < steps.steps; ++s) dense(steps.contexts[s], h, contexts + s * width);
    for (int k = 0; k < steps.actions; ++k) {
      float score = 0.0f;
      for (int s = 0; s < steps.steps; ++s) {
        const int r = steps.rows[(row * steps.actions + k) * steps.steps + s];
        if (r < 0) continue;
        embed_row(block, obs, r, e);
        float dot = 0.0f;
        for (int w = 0; w < width; ++w) dot += e[w] * contexts[s * width + w];
        score += dot;
      }
      out[steps.action + k] += score;
    }
  }
}

void PolicyNetwork::add_steer(const float* obs, float* out, float* scratch) const {
  if (obs[steer_gate] == 0.0f) return;
  const std::size_t anchors = steer_anchor.size();
  std::size_t row = 0;
  while (row < anchors && obs[steer_anchor[row]] == 0.0f) ++row;
  if (row == anchors) return;
  const std::size_t ns = steer_sources.size(), nt = steer_targets.size();
  float top = out[steer_sources[0]];
  for (int a : steer_sources) top = std::max(top, out[a]);
  float total = 0.0f;
  for (std::size_t j = 0; j < ns; ++j) total += scratch[j] = std::exp(out[steer_sources[j]] - top);
  const float* w = &steer_weights[row * ns * nt];
  float* q = scratch + ns;
  std::fill(q, q + nt, 0.0f);
  for (std::size_t j = 0; j < ns; ++j)
    for (std::size_t t = 0; t < nt; ++t) q[t] += scratch[j] / total * w[j * nt + t];
  for (std::size_t t = 0; t < nt; ++t) out[steer_targets[t]] += std::log(q[t] + 1e-6f);
}

float PolicyNetwork::value(const float* obs, float* a, float* b) const {
  if (!has_value()) throw std::logic_error("policy network: made without its value head");
  features_of(obs, a);
  for (const Dense& layer : value_hidden) {
    dense(layer, a, b);
    std::swap(a, b);
  }
  float v = 0.0f;
  dense(value_head, a, &v);
  return v;
}

std::shared_ptr<const PolicyNetwork> make_policy_network(PolicyNetwork net) {
  if (net.observation_size < 1 || net.features < 1)
    throw std::invalid_argument("policy network: the first layer has no inputs or no outputs");
  if (net.focus_width < 0 ||
      net.first.size() != static_cast<std::size_t>(net.observation_size + net.focus_width) * net.features ||
      net.first_bias.size() != static_cast<std::size_t>(net.features))
    throw std::invalid_argument("policy network: first layer weights or bias of the wrong size");
  if (net.focus_width > 0 || !net.focus_anchor.empty()) {
    if (net.focus_anchor.empty() || net.focus_width < 1 ||
        net.focus_gather.size() != net.focus_anchor.size() * static_cast<std::size_t>(net.focus_width))
      throw std::invalid_argument("policy network: focus gather table of the wrong size");
    for (int i : net.focus_anchor)
      if (i < 0 || i >= net.observation_size)
        throw std::invalid_argument("policy network: focus anchor outside the observation");
    for (int i : net.focus_gather)
      if (i < -2 || i >= net.observation_size)
        throw std::invalid_argument("policy network: focus entry outside the observation");
  }
  if (net.steer_gate >= 0 || !net.steer_anchor.empty()) {
    const std::size_t ns = net.steer_sources.size(), nt = net.steer_targets.size();
    if (net.steer_gate < 0 || net.steer_gate >= net.observation_size || net.steer_anchor.empty() || ns == 0 ||
        nt == 0 || net.steer_weights.size() != net.steer_anchor.size() * ns * nt)
      throw std::invalid_argument("policy network: steer tables of the wrong size");
    for (int i : net.steer_anchor)
      if (i < 0 || i >= net.observation_size)
        throw std::invalid_argument("policy network: steer anchor outside the observation");
    for (const auto* actions : {&net.steer_sources, &net.steer_targets})
      for (int a : *actions)
        if (a < 0 || a >= net.head.out) throw std::invalid_argument("policy network: steer action outside the head");
  }
  if (net.steer_extra < 0 || net.steer_extra >= net.head.out || (net.steer_extra > 0 && net.steer_gate < 0))
    throw std::invalid_argument("policy network: steer logits without a steer, or more than the head gives");
  int width = net.features;
  net.widest = std::max(width, static_cast<int>(net.steer_sources.size() + net.steer_targets.size()));
  for (std::size_t k = 0; k < net.hidden.size(); ++k) {
    check_dense(net.hidden[k], width, "policy network: hidden layer " + std::to_string(k));
    width = net.hidden[k].out;
    net.widest = std::max(net.widest, width);
  }
  check_dense(net.head, width, "policy network: action head");
  for (std::size_t k = 0; k < net.row_blocks.size(); ++k) {
    const auto& block = net.row_blocks[k];
    const std::string what = "policy network: row block " + std::to_string(k);
    check_dense(block.context, width, what + " context");
    check_dense(block.embed, block.embed.in, what + " embedding");
    if (block.embed.out != block.context.out || block.embed.activation != Activation::NONE ||
        block.context.activation != Activation::NONE)
      throw std::invalid_argument(what + ": embedding and context of different widths, or with an activation");
    if (block.rows < 1 || block.action < 0 || block.action + block.rows > net.head.out - net.steer_extra ||
        block.start < 0 ||
        static_cast<long>(block.start) + static_cast<long>(block.rows) * block.embed.in > net.observation_size)
      throw std::invalid_argument(what + ": actions beyond the head or rows beyond the observation");
    net.widest = std::max(net.widest, 2 * block.embed.out);
  }
  for (std::size_t k = 0; k < net.step_rows.size(); ++k) {
    const auto& steps = net.step_rows[k];
    const std::string what = "policy network: step rows " + std::to_string(k);
    if (steps.block < 0 || steps.block >= static_cast<int>(net.row_blocks.size()) || steps.actions < 1 ||
        steps.steps < 1 || static_cast<int>(steps.contexts.size()) != steps.steps || steps.anchor.empty() ||
        steps.rows.size() != steps.anchor.size() * static_cast<std::size_t>(steps.actions * steps.steps) ||
        steps.action < 0 || steps.action + steps.actions > net.head.out - net.steer_extra)
      throw std::invalid_argument(what + ": block, actions, anchor or rows of the wrong size");
    const auto& block = net.row_blocks[steps.block];
    for (int i : steps.anchor)
      if (i < 0 || i >= net.observation_size) throw std::invalid_argument(what + ": anchor outside the observation");
    for (int r : steps.rows)
      if (r < -1 || r >= block.rows) throw std::invalid_argument(what + ": a row outside its table");
    for (const Dense& context : steps.contexts) {
      check_dense(context, width, what + " context");
      if (context.out != block.embed.out || context.activation != Activation::NONE)
        throw std::invalid_argument(what + ": a context of another width than the embedding, or with an activation");
    }
    net.widest = std::max(net.widest, (1 + steps.steps) * block.embed.out);
  }
  if (net.head.activation != Activation::NONE)
    throw std::invalid_argument("policy network: the action head gives raw logits (no activation)");
  if (net.value_head.out != 0 || !net.value_hidden.empty()) {  // the critic, after the shared first layer
    width = net.features;
    for (std::size_t k = 0; k < net.value_hidden.size(); ++k) {
      check_dense(net.value_hidden[k], width, "policy network: value layer " + std::to_string(k));
      width = net.value_hidden[k].out;
      net.widest = std::max(net.widest, width);
    }
    check_dense(net.value_head, width, "policy network: value head");
    if (net.value_head.out != 1 || net.value_head.activation != Activation::NONE)
      throw std::invalid_argument("policy network: the value head gives one raw number (one output, no activation)");
  }
  return std::make_shared<const PolicyNetwork>(std::move(net));
}

void PolicyPlayer::reset(std::shared_ptr<const PolicyNetwork> network, std::uint64_t seed) {
  if (!network) throw std::invalid_argument("policy seat: no network");
  net_ = std::move(network);
  rng_ = Pcg64(seed);
  auto widest = static_cast<std::size_t>(net_->widest);
  if (a_.size() < widest) a_.assign(widest, 0.0f), b_.assign(widest, 0.0f);
  auto n = static_cast<std::size_t>(net_->head.out);
  if (logits_.size() < n) logits_.assign(n, 0.0f), weight_.assign(n, 0.0);
}

// agents/ppo.py's PPOAgent.act: the first best legal logit, or numpy's Generator.choice over the masked
// softmax (float64): the cumulative probabilities scaled by their total, the first action whose cumulative
// share passes one uniform draw.
int PolicyPlayer::act(const float* obs, const std::int8_t* mask) {
  const PolicyNetwork& net = *net_;
  const int n = net.n_actions();
  net.logits(obs, logits_.data(), a_.data(), b_.data());
  int best = -1;
  for (int k = 0; k < n; ++k)
    if (mask[k] && (best < 0 || logits_[k] > logits_[best])) best = k;
  if (best < 0 || !net.sample) return best;
  const double top = logits_[best];
  double total = 0.0;
  for (int k = 0; k < n; ++k) {
    weight_[k] = mask[k] ? std::exp(static_cast<double>(logits_[k]) - top) : 0.0;
    total += weight_[k];
  }
  double end = 0.0;  // the last cumulative probability (1 up to rounding)
  for (int k = 0; k < n; ++k) end += weight_[k] / total;
  const double u = rng_.random();
  double cumulative = 0.0;
  for (int k = 0; k < n; ++k) {
    if (!mask[k]) continue;
    cumulative += weight_[k] / total;
    if (cumulative / end > u) return k;
  }
  return best;  // unreachable: the last legal action's share is end / end = 1 > u
}

}  // namespace ktenv::agents

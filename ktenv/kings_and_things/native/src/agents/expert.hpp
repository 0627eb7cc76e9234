// The `expert` agent (agents/kings_and_things/expert.py, ExpertAgent, built on GreedyAgent) in native code, so that search
// rollouts, batched games and the imitation teacher play expert seats without a Python call per decision.
//
// Bit-exact with the Python agent, as the native greedy is (greedy.hpp): the same scores for every legal
// action (float64, numpy's float32 where numpy computes in float32), the same tie-break noise (numpy's
// default_rng(seed)), the same move plan carried from MOVE_START to MOVE_SELECT and MOVE_STACK
// (ExpertAgent.memory["move"]), hence the same choices. The decisions ExpertAgent leaves to GreedyAgent
// are scored by greedy.cpp's handlers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agents/greedy.hpp"
#include "agents/pcg64.hpp"
#include "agents/view.hpp"

namespace ktenv::agents {

// What the expert reads beyond the greedy plan (built by ktenv/kings_and_things/native/expert.py from the same layout).
struct ExpertPlan {
  std::shared_ptr<const GreedyPlan> base;
  // flat offsets of row 0 of the extra columns read
  int g_round = 0, p_fort_levels = 0, p_citadels = 0;
  int t_mine_screen = 0, t_selected = 0, t_mp = 0, t_reg_thing = 0, t_reg_b_item = 0;
  int e_mp = 0, h_reg_mv_sel = 0, r_ev_p = 0;
  std::vector<std::int64_t> steps;   // agents/kings_and_things/view.py hex_distances: steps[a * h + b]
  std::vector<std::int64_t> move_cost;  // per terrain (agents/kings_and_things/view.py MOVE_COST)
  std::vector<double> event_play;    // agents/kings_and_things/expert.py EVENT_PLAY by Thing id (-1: not listed)
  // Thing ids named by the expert's handlers, by Thing id (0/1)
  std::vector<std::uint8_t> mother_lode, willing_workers, big_juju, balloon;
  std::vector<std::uint8_t> special_hero;  // hero faces ExpertAgent.score_hero_choose prefers
};

std::shared_ptr<const ExpertPlan> make_expert_plan(std::shared_ptr<const GreedyPlan> base,
                                                   const std::map<std::string, std::int64_t>& ints,
                                                   const std::map<std::string, std::vector<double>>& tables);

class Expert {
 public:
  Expert(std::shared_ptr<const ExpertPlan> plan, std::uint64_t seed);
  Expert(std::shared_ptr<const ExpertPlan> plan, const std::uint32_t* seed_words, std::size_t n_words);

  // As Greedy::act: obs float32[size], mask int8[n_actions]; -1 when the mask allows nothing.
  int act(const float* obs, const std::int8_t* mask);
  void reset(std::uint64_t seed) {
    rng_ = Pcg64(seed);
    move_ = {};
  }
  void reset(const std::uint32_t* seed_words, std::size_t n_words) {
    rng_ = Pcg64(seed_words, n_words);
    move_ = {};
  }
  // ExpertAgent.scores before the noise (as Greedy::scores). A MOVE_START sets the move plan, as the
  // Python agent's does; nothing is drawn.
  int scores(const float* obs, const std::int8_t* mask, int* legal, double* out);
  // The same two from seat's facts read from the state itself (View::read(state ...)): the same results
  // as on encode(s, obs_plan, seat), without encoding it.
  int act(const State& s, const observation::Plan& obs_plan, int seat, const std::int8_t* mask);
  int scores(const State& s, const observation::Plan& obs_plan, int seat, const std::int8_t* mask, int* legal,
             double* out);
  const View& view() const { return view_; }

  // After scores() or act() of a MOVE_START: move the stack of `action` (a HEX action scored there) with the plan
  // made for it, whatever the expert would have started itself (a search choosing the stack, or the learner a
  // teacher watches: ExpertAgent.played); false, and nothing changed, for an action not scored at the decision
  // asked last.
  bool follow(int action);

  const ExpertPlan& plan() const { return *plan_; }
  const GreedyPlan& layout() const { return *plan_->base; }
  void set_plan(std::shared_ptr<const ExpertPlan> plan);

  // ExpertAgent.memory["move"]: the stack's hex, its target and the counters it wants
  struct MovePlan {
    bool set = false;
    int hex = -1, target = -1, need = 0;
  };

 private:
  int scores_read(const int* legal, int n, double* out);  // on the view just read
  template <class Read>
  int act_on(const std::int8_t* mask, Read&& read);

  std::shared_ptr<const ExpertPlan> plan_;
  View view_;
  Pcg64 rng_;
  MovePlan move_;
  std::vector<std::pair<int, MovePlan>> started_;  // the last MOVE_START's plan per HEX action
  std::vector<int> legal_;
  std::vector<double> score_;
};

}  // namespace ktenv::agents

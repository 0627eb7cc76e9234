// ktenv/kings_and_things/worlds.py's sample_world in C++ (see worlds.hpp). Every step below names the Python line it
// mirrors; the order of the draws is the contract (tests/test_worlds.py compares the two).
#include "search/worlds.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/battle_sides.hpp"
#include "engine/machine.hpp"
#include "game.hpp"

namespace ktenv::search {
namespace {

struct Marker {
  int n, thing_action;  // Things in the game; first action of the Thing block
  ThingFlags& out;

  void id(std::int64_t v) const {
    if (v >= 0 && v < n) out[v] = true;
  }
  // THING: a Thing id, or a list of them (other values name none)
  void thing(std::int32_t v) const { id(v); }
  template <class List>
  void thing(const List& values) const {
    for (auto v : values) id(v);
  }
  // FLAGS: nonzero at the index of each Thing referred to
  template <class List>
  void flags(const List& values) const {
    int i = 0;
    for (auto v : values) {
      if (v) id(i);
      ++i;
    }
  }
  // ACTION: an action of the Thing block names its Thing
  void action(std::int32_t v) const {
    if (v >= thing_action && v < thing_action + n) id(v - thing_action);
  }
  template <class List>
  void action(const List& values) const {
    for (auto v : values) action(static_cast<std::int32_t>(v));
  }
};

constexpr int kFacts = 0
#define KTENV_COUNT_FACT(name) +1
    KTENV_THING_FACTS(KTENV_COUNT_FACT)
#undef KTENV_COUNT_FACT
    ;
using Facts = std::array<std::int64_t, kFacts>;

Facts facts_of(const State& s, int c) {
  Facts f{};
  int k = 0;
#define KTENV_READ_FACT(name) f[k++] = static_cast<std::int64_t>(s.name[c]);
  KTENV_THING_FACTS(KTENV_READ_FACT)
#undef KTENV_READ_FACT
  return f;
}

// _by_facts: numpy.lexsort over the facts, the last fact first; equal facts keep their id order.
std::vector<int> by_facts(const State& s, const std::vector<int>& slots) {
  std::vector<std::pair<Facts, int>> keyed;
  keyed.reserve(slots.size());
  for (int c : slots) keyed.emplace_back(facts_of(s, c), c);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    for (int k = kFacts - 1; k >= 0; --k)
      if (a.first[k] != b.first[k]) return a.first[k] < b.first[k];
    return false;
  });
  std::vector<int> out;
  out.reserve(slots.size());
  for (const auto& e : keyed) out.push_back(e.second);
  return out;
}

void move_slot(const State& truth, int slot, State& world, int thing) {
#define KTENV_MOVE_FACT(name) world.name[thing] = truth.name[slot];
  KTENV_THING_FACTS(KTENV_MOVE_FACT)
#undef KTENV_MOVE_FACT
}

// RI.6: another side's battle target, named before `player` chose, is redrawn among the sides it
// could name (active sides other than itself, not neutral).
void redraw_secret_choices(State& w, int player, Dice& dice) {
  Battle* b = w.frame<Battle>();
  if (b == nullptr) return;
  bool any = false;
  for (int side = 0; side < kSides; ++side)
    if (side != player && b->targets[side] >= 0) any = true;
  if (!any) return;
  const Ids live = battle_sides::active_sides(w);
  for (int side = 0; side < kSides; ++side) {
    if (side == player || b->targets[side] < 0) continue;
    std::vector<int> options;
    for (int o : live)
      if (o != side && o != NEUTRAL) options.push_back(o);
    if (!options.empty()) b->targets[side] = options[dice.below(static_cast<std::int64_t>(options.size()))];
  }
}

}  // namespace

void referenced_things(const State& s, ThingFlags& out) {
  out.fill(false);
  const Marker mark{s.n.Things, s.t->layout.thing, out};
#define KTENV_MARK_FIELD(cls, field, kind) \
  if (const auto* f = s.frame<cls>()) mark.kind(f->field);
  KTENV_FRAME_THINGS(KTENV_MARK_FIELD)
#undef KTENV_MARK_FIELD
  for (int c = 0; c < s.n.Things; ++c)
    if (s.thing_bearer[c] >= 0) {
      out[c] = true;
      mark.id(s.thing_bearer[c]);
    }
}

void unknown_slots(const State& s, int player, std::vector<int>& board, std::vector<int>& loose) {
  ThingFlags referenced;
  referenced_things(s, referenced);
  const int n = s.n.Players;
  board.clear();
  loose.clear();
  for (int c = 0; c < s.n.Things; ++c) {
    if (referenced[c] || s.thing_in_play[c]) continue;
    const int owner = s.thing_owner[c], place = s.thing_place[c];
    const bool other = owner >= 0 && owner < n && owner != player;
    const bool trade = s.phase == PHASE_RECRUIT && s.thing_selected[c];  // public (R8.1.1)
    if (place == BOARD && other && !s.thing_public[c] && !s.thing_face_up[c] && s.t->THING_KIND[c] == CREATURE)
      board.push_back(c);
    else if ((place == SCREEN && other && !trade) || place == CUP)
      loose.push_back(c);
  }
}

void sample_world(const State& truth, int player, Dice& dice, State& world) {
  if (player < 0 || player >= truth.n.Players)
    throw std::invalid_argument("sample_world: player " + std::to_string(player) + " is not a seat of this game");
  for (int h = 0; h < truth.n.Hexes; ++h)
    if (truth.hex_down[h])
      throw std::invalid_argument("sample_world: face-down tiles (Mysterious Kadab) are drawn by the Python sampler");
  world = truth;
  std::vector<int> board, loose;
  unknown_slots(truth, player, board, loose);
  if (board.size() + loose.size() > 1) {
    std::vector<int> slots = by_facts(truth, board), more = by_facts(truth, loose);
    slots.insert(slots.end(), more.begin(), more.end());
    std::vector<int> ids(board);  // the identities to deal, by id
    ids.insert(ids.end(), loose.begin(), loose.end());
    std::sort(ids.begin(), ids.end());
    std::vector<std::int64_t> creatures, rest;
    for (int c : ids)
      if (truth.t->THING_KIND[c] == CREATURE) creatures.push_back(c);
    dice.shuffle(creatures);
    rest.assign(creatures.begin() + static_cast<std::ptrdiff_t>(board.size()), creatures.end());
    for (int c : ids)
      if (truth.t->THING_KIND[c] != CREATURE) rest.push_back(c);
    dice.shuffle(rest);
    std::size_t i = 0;
    for (; i < board.size(); ++i) move_slot(truth, slots[i], world, static_cast<int>(creatures[i]));
    for (std::int64_t c : rest) move_slot(truth, slots[i++], world, static_cast<int>(c));
    reindex(world);  // before redraw_secret_choices reads the battle's sides
  }
  if (truth.hex_stack.size() > 1) {
    std::vector<std::int32_t> stack(truth.hex_stack);
    std::sort(stack.begin(), stack.end());
    dice.shuffle(stack);
    world.hex_stack = stack;
  }
  redraw_secret_choices(world, player, dice);
  world.rng = Dice::seeded(dice.next64());
  machine::edited(world);
}

}  // namespace ktenv::search

// ktenv/kings_and_things/engine/powers.py: R21 "Kings & Things Encounter", the fifteen player powers. Each function is
// the Python hook implementation of the same name; hooks.hpp calls it only in games with
// encounter_powers, in the Python hooks' registration order.
#include "powers.hpp"

#include <algorithm>

#include "common.hpp"
#include "dice.hpp"
#include "machine.hpp"
#include "movement.hpp"

namespace ktenv::powers {
namespace M = movement;
namespace {

// numpy's negative index: -1 is the last entry (hex -1 of an off-board hero marks the last hex, as in Python)
int wrap(int i, int n) { return i < 0 ? i + n : i; }

bool is_creature(const State& s, int c) { return s.t->THING_KIND[c] == CREATURE; }
bool is_town(const State& s, int c) { return s.t->THING_KIND[c] == CITY || s.t->THING_KIND[c] == VILLAGE; }
int cost_of(const State& s, int hx) { return s.t->move_cost[s.hex_terrain[hx]]; }

// R21.2 / R21.9: +1 to the recruitment roll of these heroes (Python's _PLUS_ONE, in its order)
struct PlusOne {
  int power, face_a, face_b;
};
constexpr PlusOne PLUS_ONE[] = {{AVIATOR, hero::GHAOG_II, hero::LORD_OF_THE_EAGLES},
                                {MAGICIAN, hero::ARCH_CLERIC, hero::ARCH_MAGE}};

// R21.13: the Recruiter's targets for values 4-6; else twice the value
int recruiter_target(int value) {
  switch (value) {
    case 4: return 7;
    case 5: return 8;
    case 6: return 9;
    default: return 2 * value;
  }
}

// ----- R21.2 Aviator

// The Aviator's flight of this round (a past round's is dropped at the next pause), or nullptr.
const AviatorFlight* flight(const State& s) {
  const AviatorFlight* fly = s.frame<AviatorFlight>();
  return fly != nullptr && fly->round == s.round ? fly : nullptr;
}
AviatorFlight* flight(State& s) { return const_cast<AviatorFlight*>(flight(static_cast<const State&>(s))); }

// The mover's unmoved non-flying creatures that may be declared, if the power is unused.
Ids aviator_creatures(const State& s, int p) {
  if (!has(s, p, AVIATOR) || flight(s) != nullptr) return {};
  return where(s.n.Things, [&](int c) {
    return s.thing_owner[c] == p && s.thing_place[c] == BOARD && is_creature(s, c) && !s.t->THING_FLYING[c] &&
           s.thing_status[c] == UNMOVED && s.thing_mp[c] > 0;
  });
}

// Declining leads somewhere: a counter may join the move, or a pin may be challenged.
bool aviator_pass_ok(State& s, int hx) {
  M::Members m = M::selectable(s, hx);
  if (!m.things.empty() || !m.heroes.empty()) return true;
  return !contains(M::turn(s)->challenged, hx) && M::pin_challengeable(s, static_cast<int>(s.actor), hx);
}

// The Aviator's flyer of this round if it fights in this battle for `side`, else -1.
int flyer_in_battle(const State& s, int side) {
  const AviatorFlight* fly = flight(s);
  if (!has(s, side, AVIATOR) || fly == nullptr) return -1;
  int c = fly->flyer;
  bool ok = s.thing_place[c] == BOARD && s.thing_owner[c] == side && s.thing_hex[c] == s.frame<Battle>()->hex;
  return ok ? c : -1;
}

// ----- R21.7 Tax Farmer

// Own hexes other than the one marked now (not the same hex twice in a row).
Ids tax_hexes(const State& s, int p) {
  int marked = s.power_hex[p];
  return where(s.n.Hexes, [&](int h) { return s.hex_owner[h] == p && h != marked; });
}

// ----- R21.10 Nomad

// MP spent this turn by fort / town `i` (a list per hex / per Thing, grown as needed).
int spent_of(const Series& spent, int i) { return i < static_cast<int>(spent.size()) ? spent[i] : 0; }
void spend(Series& spent, int i, int value) {
  if (i >= static_cast<int>(spent.size())) spent.resize(i + 1, 0);
  spent[i] = value;
}

// RD10.16: adjacent own hexes without enemies, MP permitting, with no fort (for a fort) or no income
// counter (for a town) there; nothing leaves a hex where enemies stand (R11.5). Neighbour order.
Ids nomad_dests(const State& s, int p, int hx, int left, bool fort) {
  HexFlags presence = M::enemy_presence(s, p);
  Ids out;
  if (presence[hx]) return out;
  for (int d = 0; d < 6; ++d) {
    int h = s.t->neighbours[hx][d];
    if (h < 0) continue;
    bool ok = s.hex_owner[h] == p && !presence[h] && cost_of(s, h) <= left;
    ok = ok && (fort ? s.hex_fort[h] == 0 : s.hex_income[h] < 0);
    if (ok) out.push_back(h);
  }
  return out;
}

// Own Towers and Keeps (not Castles, not Citadels) that can still move this turn.
Ids nomad_forts(State& s, int p) {
  const Series& spent = M::turn(s)->fort_spent;
  Ids out;
  for (int h = 0; h < s.n.Hexes; ++h)
    if (s.hex_owner[h] == p && s.hex_fort[h] >= 1 && s.hex_fort[h] <= 2 &&
        !nomad_dests(s, p, h, MP - spent_of(spent, h), true).empty())
      out.push_back(h);
  return out;
}

// Own cities and villages on the board that can still move this turn (in hex order).
Ids nomad_towns(State& s, int p) {
  const Series& spent = M::turn(s)->town_spent;
  Ids out;
  for (int h = 0; h < s.n.Hexes; ++h) {
    int c = s.hex_income[h];
    if (s.hex_owner[h] != p || c < 0 || !is_town(s, c)) continue;
    if (!nomad_dests(s, p, s.thing_hex[c], MP - spent_of(spent, c), false).empty()) out.push_back(c);
  }
  return out;
}

Ids nomad_move_dests(State& s) {
  const NomadMove& nomad = *s.frame<NomadMove>();
  const MovementTurn& turn = *M::turn(s);
  int hx = nomad.hex, c = nomad.town;
  int left = MP - (c >= 0 ? spent_of(turn.town_spent, c) : spent_of(turn.fort_spent, hx));
  return nomad_dests(s, static_cast<int>(s.actor), hx, left, c < 0);
}

// ----- R21.11 Gambler

// R21.11: up to 3, and no more than either player has (the opponent has as much gold).
int stake_cap(const State& s, const Series& sides) {
  std::int64_t cap = MAX_STAKE;
  for (int p : sides) cap = std::min<std::int64_t>(cap, s.gold[p]);
  return static_cast<int>(cap);
}

const Series& sides_of(const State& s) { return s.frame<Battle>()->order; }  // the Gambler's battle's sides

}  // namespace

bool has(const State& s, int player, int power) {
  return s.cfg->encounter_powers && 0 <= player && player < n_players(s) && s.power[player] == power;
}

int holder(const State& s, int power) {
  if (!s.cfg->encounter_powers) return -1;
  for (int p = 0; p < n_players(s); ++p)
    if (s.power[p] == power) return p;
  return -1;
}

// ----- R21.0 dealing

// R21.0 / RD10.16: as configured, else distinct powers uniformly at random from the game's dice.
void deal(State& s) {
  if (!s.cfg->encounter_powers) return;
  if (!s.cfg->powers.empty()) {
    for (int p = 0; p < static_cast<int>(s.cfg->powers.size()); ++p) s.power[p] = static_cast<std::int8_t>(s.cfg->powers[p]);
    return;
  }
  Ids pool = where(COUNT, [](int) { return true; });
  for (int p = 0; p < n_players(s); ++p) {
    int i = static_cast<int>(s.rng.below(pool.size()));
    s.power[p] = static_cast<std::int8_t>(pool[i]);
    pool.erase_at(i);
  }
}

// ----- interrupts (asked before any phase runner resumes)

bool pending(State& s) {
  if (!s.cfg->encounter_powers) return false;
  const AviatorFlight* fly = s.frame<AviatorFlight>();
  if (fly != nullptr && fly->round != s.round) s.drop<AviatorFlight>();
  if (BruteScreens* brute = s.frame<BruteScreens>()) {
    Series still;
    for (int p : brute->over)
      if (screen_size(s, p) > SCREEN_LIMIT) still.push_back(p);
    brute->over = still;
    if (still.empty()) s.drop<BruteScreens>();  // else the screen check that follows asks the discards (R17.1.2)
  }
  LuckyReroll* lucky = s.frame<LuckyReroll>();
  if (lucky == nullptr) return false;
  int code = dice::BATTLE + lucky->side;
  if (lucky->die >= 0) {  // the re-roll was made (and offered to the Lucky Charm): use it
    int die = lucky->die;
    dice::set_die(s, code, die, dice::take(s, REROLL)[0]);
    s.drop<LuckyReroll>();
    return false;
  }
  dice::Thrown shown = dice::peek(s, code);
  lucky->shown.assign(shown.begin(), shown.begin() + std::min(shown.size(), dice::SHOWN));
  s.decision = decision::LUCKY_REROLL;
  s.actor = lucky->side;
  return true;
}

// ----- R21.1 Amoeba

// R21.1 / RD10.16: the first hit scored against the Amoeba's side in a round is ignored (a hit the
// Marksman's owner would place goes first, else one of the side's own to assign).
void amoeba(State& s, PerSide& received) {
  int p = holder(s, AMOEBA);
  Battle& b = *s.frame<Battle>();
  if (p < 0 || b.amoeba_round[p] == b.round) return;
  if (b.marksman_hits > 0 && b.marksman_target == p)
    b.marksman_hits -= 1;
  else if (received[p] > 0)
    received[p] -= 1;
  else
    return;
  b.amoeba_round[p] = b.round;
  // an ignored hit is no hit for RD7.4 (as the Golem's, C.7): else a battle where only the Amoeba's side is
  // hit, once a round, and nobody can retreat would never end
}

// ----- R21.2 Aviator

// R21.2: the Aviator's creature of this round flies too (creatures::flying).
ThingFlags flyers(const State& s, const ThingFlags& printed) {
  ThingFlags out = printed;
  if (const AviatorFlight* fly = flight(s)) out[fly->flyer] = true;
  return out;
}

// Hexes where a move may start by declaring the Aviator's flyer (it may be pinned there), ascending.
Ids aviator_hexes(const State& s, int p) {
  HexFlags at{};
  for (int c : aviator_creatures(s, p)) at[s.thing_hex[c]] = true;
  return where(s.n.Hexes, [&](int h) { return at[h]; });
}

// R21.2: when a move starts in `hx`, the Aviator may declare one creature there a flyer.
bool aviator_offer(State& s, int hx) {
  for (int c : aviator_creatures(s, static_cast<int>(s.actor)))
    if (s.thing_hex[c] == hx) {
      s.decision = decision::AVIATOR_CREATURE;
      return true;
    }
  return false;
}

void legal_aviator(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int hx = M::move(s)->start;
  for (int c : aviator_creatures(s, static_cast<int>(s.actor)))
    if (s.thing_hex[c] == hx) mask[lay.thing + c] = 1;
  if (aviator_pass_ok(s, hx)) mask[PASS] = 1;
}

void apply_aviator(State& s, const ActionLayout& lay, int action) {
  if (action != PASS) {
    s.drop<AviatorFlight>();  // a past round's flyer (R21.2)
    AviatorFlight fly;
    fly.flyer = action - lay.thing;
    fly.round = static_cast<std::int32_t>(s.round);
    s.push(fly);
  }
  M::start_from(s, M::move(s)->start);
}

// RD10.16: own hexes without enemy counters within 4 hexes (a flyer's path), room permitting.
Ids flyer_retreat_hexes(const State& s, int side) {
  int c = flyer_in_battle(s, side);
  const Battle& b = *s.frame<Battle>();
  if (c < 0 || b.forced || b.force_side >= 0) return {};  // a forced retreat moves the whole side (RD7.4, C.1)
  int hx = b.hex, nh = s.n.Hexes;
  HexCounts room = room_for(s, side);
  HexFlags ok{};
  for (int h = 0; h < nh; ++h) ok[h] = s.t->distance[hx][h] <= FLY_RETREAT && s.hex_owner[h] == side && room[h] > 0;
  ok[hx] = false;
  for (int t = 0; t < s.n.Things; ++t)
    if (s.thing_place[t] == BOARD && is_creature(s, t) && s.thing_owner[t] != side) ok[wrap(s.thing_hex[t], nh)] = false;
  for (int f = 0; f < s.n.Faces; ++f)
    if (s.hero_owner[f] != side && s.hero_owner[f] >= 0) ok[wrap(s.hero_hex[f], nh)] = false;
  return where(nh, [&](int h) { return ok[h]; });
}

bool can_fly_away(const State& s, int side) { return !flyer_retreat_hexes(s, side).empty(); }

// RETREAT: THING (the Aviator's flyer) retreats alone.
void retreat_options(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int side = s.frame<Battle>()->side;
  if (can_fly_away(s, side)) mask[lay.thing + flyer_in_battle(s, side)] = 1;
}

// RETREAT answered with the flyer: ask where it goes (the side is asked again afterwards).
bool retreat_alone(State& s, const ActionLayout& lay, int action) {
  if (!(lay.thing <= action && action < lay.hero)) return false;
  flight(s)->retreating = action - lay.thing;
  s.decision = decision::AVIATOR_RETREAT;
  return true;
}

void legal_fly_retreat(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : flyer_retreat_hexes(s, s.frame<Battle>()->side)) mask[lay.hex + h] = 1;
}

void apply_fly_retreat(State& s, const ActionLayout& lay, int action) {
  AviatorFlight& fly = *flight(s);
  int c = fly.retreating;
  fly.retreating = -1;
  set_hex(s, c, action - lay.hex);
  s.thing_face_up[c] = false;  // R13.8.6: face down again, still known to all (RI.4)
  s.decision = decision::NONE;  // the battle asks the rest of the side again (R13.8)
}

// ----- R21.2 / R21.9 / R21.13 hero recruitment

// R21.2 (Ghaog II, Lord of the Eagles) and R21.9 (Arch Cleric, Arch Mage): +1 to the roll.
int hero_roll_bonus(const State& s, int player, int face) {
  for (const PlusOne& plus : PLUS_ONE)
    if ((face == plus.face_a || face == plus.face_b) && has(s, player, plus.power)) return 1;
  return 0;
}

// R7.5: twice the combat value; R21.13 Recruiter: 4 -> 7, 5 -> 8, 6 -> 9.
int hero_target(const State& s, int player, int face) {
  int value = s.t->HERO_COMBAT[face];
  return has(s, player, RECRUITER) ? recruiter_target(value) : 2 * value;
}

// RD5.2: gold before the roll only up to certain success (the powers' +1 counted).
int bonus_cap(const State& s, int player, int face) {
  return std::max(0, hero_target(s, player, face) - 2 - hero_roll_bonus(s, player, face));
}

// ----- R21.3 Builder: 4 gold a level (R14.1: 5)

int build_cost(const State& s, int player, int standard) { return has(s, player, BUILDER) ? 4 : standard; }

// ----- R21.4 Brute

// An eliminated Thing goes to the cup; a Brute's own Charge creature goes behind his screen instead
// (R17.1 applies: over 10, he discards at the next pause).
void eliminate(State& s, int c) {
  int owner = s.thing_owner[c];
  common::to_cup(s, c);
  if (has(s, owner, BRUTE) && is_creature(s, c) && s.t->THING_CHARGE[c]) {
    set_place(s, c, SCREEN);
    set_owner(s, c, owner);
    if (screen_size(s, owner) > SCREEN_LIMIT) {
      BruteScreens* brute = s.frame<BruteScreens>();
      if (brute == nullptr) brute = &s.push(BruteScreens{});
      if (!contains(brute->over, owner)) {
        brute->over.push_back(owner);
        std::sort(brute->over.begin(), brute->over.end());
      }
    }
  }
}

// ----- R21.5 Lucky

// After a side's battle roll: the Lucky player may re-roll one own die, once per round.
void after_battle_roll(State& s, int side, int n) {
  const Battle& b = *s.frame<Battle>();
  if (n && has(s, side, LUCKY) && b.lucky_round[side] != b.round) {
    LuckyReroll lucky;
    lucky.side = side;
    s.push(lucky);
  }
}

void legal_reroll(State& s, const ActionLayout&, std::int8_t* mask) {
  int n = static_cast<int>(s.frame<LuckyReroll>()->shown.size());
  for (int i = 0; i < n; ++i) mask[NUMBER + i] = 1;
  mask[PASS] = 1;
}

void apply_reroll(State& s, const ActionLayout&, int action) {
  s.decision = decision::NONE;
  LuckyReroll& lucky = *s.frame<LuckyReroll>();
  if (action == PASS) {
    s.drop<LuckyReroll>();
    return;
  }
  Battle& b = *s.frame<Battle>();
  b.lucky_round[lucky.side] = b.round;
  lucky.die = action - NUMBER;
  dice::roll(s, REROLL, 1);  // roll event (R18.5): read by `pending` once any Lucky Charm window closed
}

// ----- R21.6 Explorer: 5 or 6 no defenders, 1-4 that many (R12.2.2: 1 or 6 none, 2-5 that many)

int defenders(const State& s, int player, int roll) {
  if (has(s, player, EXPLORER)) return roll >= 5 ? 0 : roll;
  return (roll == 1 || roll == 6) ? 0 : roll;
}

// ----- R21.7 Tax Farmer

// End of the Income phase: the Tax Farmer marks a hex (mandatory when there is one).
bool tax_farmer_ask(State& s) {
  int p = holder(s, TAX_FARMER);
  if (p < 0) return false;
  if (!s.alive[p] || tax_hexes(s, p).empty()) {
    s.power_hex[p] = -1;  // the old mark ends with this phase
    return false;
  }
  s.decision = decision::TAX_FARMER_HEX;
  s.actor = p;
  return true;
}

void legal_tax(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : tax_hexes(s, static_cast<int>(s.actor))) mask[lay.hex + h] = 1;
}

void apply_tax(State& s, const ActionLayout& lay, int action) {
  s.power_hex[s.actor] = static_cast<std::int8_t>(action - lay.hex);
  s.decision = decision::NONE;
}

// ----- R21.8 King of Things: one more free Thing

int extra_free_things(const State& s, int player) { return has(s, player, KING_OF_THINGS) ? 1 : 0; }

// ----- R21.9 Magician

// R21.9 / RD10.16: in a battle with the Magician as a side, every other side's magic creatures and
// heroes attack in the melee step (the neutral side's too).
bool magic_to_melee(const State& s, int side) {
  int m = holder(s, MAGICIAN);
  if (m < 0 || m == side) return false;
  const Battle* b = s.frame<Battle>();
  return b != nullptr && contains(b->order, m);
}

// ----- R21.10 Nomad

// MOVE_START for the Nomad: THING (own city or village) moves it; YES moves a Tower or Keep.
void nomad_options(State& s, const ActionLayout& lay, std::int8_t* mask) {
  int p = static_cast<int>(s.actor);
  if (!has(s, p, NOMAD)) return;
  for (int c : nomad_towns(s, p)) mask[lay.thing + c] = 1;
  if (!nomad_forts(s, p).empty()) mask[YES] = 1;
}

// MOVE_START answered with a Nomad move (else false: a normal move or the Balloon).
bool nomad_start(State& s, const ActionLayout& lay, int action) {
  if (!has(s, static_cast<int>(s.actor), NOMAD)) return false;
  if (action == YES) {
    s.decision = decision::NOMAD_FORT;
    return true;
  }
  int c = action - lay.thing;
  if (lay.thing <= action && action < lay.hero && is_town(s, c)) {
    NomadMove nomad;
    nomad.hex = s.thing_hex[c];
    nomad.town = c;
    s.push(nomad);
    s.decision = decision::NOMAD_DEST;
    return true;
  }
  return false;
}

void legal_nomad_fort(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : nomad_forts(s, static_cast<int>(s.actor))) mask[lay.hex + h] = 1;
}

void apply_nomad_fort(State& s, const ActionLayout& lay, int action) {
  NomadMove nomad;
  nomad.hex = action - lay.hex;
  s.push(nomad);
  s.decision = decision::NOMAD_DEST;
}

void legal_nomad_dest(State& s, const ActionLayout& lay, std::int8_t* mask) {
  for (int h : nomad_move_dests(s)) mask[lay.hex + h] = 1;
}

// The fort or town enters the hex and pays its terrain cost (R11.1.2).
void apply_nomad_dest(State& s, const ActionLayout& lay, int action) {
  int dest = action - lay.hex;
  const NomadMove nomad = *s.frame<NomadMove>();
  MovementTurn& turn = *M::turn(s);
  int src = nomad.hex, c = nomad.town;
  s.drop<NomadMove>();
  int cost = cost_of(s, dest);
  if (c >= 0) {
    spend(turn.town_spent, c, spent_of(turn.town_spent, c) + cost);
    common::move_town(s, c, src, dest);
  } else {
    int spent = spent_of(turn.fort_spent, src);
    spend(turn.fort_spent, src, 0);  // the fort's points go with it
    spend(turn.fort_spent, dest, spent + cost);
    common::move_fort(s, src, dest);
  }
  s.decision = decision::NONE;
}

// ----- R21.11 Gambler

// First thing in a battle: the Gambler may stake (two-sided battles against a player).
bool battle_start(State& s) {
  Battle& b = *s.frame<Battle>();
  if (!s.cfg->encounter_powers || b.powers_applied) return false;
  b.powers_applied = true;
  int g = holder(s, GAMBLER);
  const Series& sides = sides_of(s);
  if (g < 0 || !contains(sides, g) || sides.size() != 2 || contains(sides, NEUTRAL) || stake_cap(s, sides) < 1)
    return false;
  s.decision = decision::GAMBLER_STAKE;
  s.actor = g;
  return true;
}

void legal_stake(State& s, const ActionLayout&, std::int8_t* mask) {
  int cap = stake_cap(s, sides_of(s));
  for (int k = 0; k <= cap; ++k) mask[NUMBER + k] = 1;
}

void apply_stake(State& s, const ActionLayout&, int action) {
  int k = action - NUMBER;
  if (k) {
    for (int p : sides_of(s)) s.gold[p] -= k;
    s.frame<Battle>()->stake = k;
  }
  s.decision = decision::NONE;
}

// R21.11 / RD10.16: the side holding the hex takes both stakes (the defender unless the attacker won).
void battle_end(State& s, int won) {
  Battle& b = *s.frame<Battle>();
  int k = b.stake;
  b.stake = 0;
  if (!k) return;
  int taker = won >= 0 ? won : b.defender;
  const auto& stakers = b.order;
  if (std::find(stakers.begin(), stakers.end(), taker) != stakers.end()) {
    s.gold[taker] += 2 * k;
    return;
  }
  for (int p : stakers) s.gold[p] += k;  // neither staker holds the hex (a third player's): stakes back
}

// ----- R21.12 Populous: n value-1 attackers in a step roll 3n - 1 dice (battle_sides::populous_dice)

bool populous(const State& s, int side) { return has(s, side, POPULOUS); }

// ----- R21.14 Trafficker: one counter a Thing (R8.1.1: two; still at most five Things)

int trade_ratio(const State& s, int player) { return has(s, player, TRAFFICKER) ? 1 : 2; }

// ----- R21.15 Vandal

// R13.10 step 2: a damage roll of 1 or 6 destroys or reduces. R21.15: only a 1 after the Vandal conquered
// the hex in this battle; 1, 2 or 3 after the Vandal lost the hex.
bool damage_destroys(const State& s, int roll) {
  if (s.cfg->encounter_powers) {
    const Battle& b = *s.frame<Battle>();
    int won = b.winner, loser = b.defender;
    if (won >= 0 && won != NEUTRAL && won != loser && s.hex_owner[b.hex] == won) {
      if (has(s, won, VANDAL)) return roll == 1;
      if (has(s, loser, VANDAL)) return roll <= 3;
    }
  }
  return roll == 1 || roll == 6;
}

// DECISIONS (machine.hpp declares it: a part of KTENV_PARTS)
void register_rules(Registry& r) {
  r.decision(decision::TAX_FARMER_HEX, legal_tax, apply_tax);
  r.decision(decision::GAMBLER_STAKE, legal_stake, apply_stake);
  r.decision(decision::AVIATOR_CREATURE, legal_aviator, apply_aviator);
  r.decision(decision::AVIATOR_RETREAT, legal_fly_retreat, apply_fly_retreat);
  r.decision(decision::LUCKY_REROLL, legal_reroll, apply_reroll);
  r.decision(decision::NOMAD_FORT, legal_nomad_fort, apply_nomad_fort);
  r.decision(decision::NOMAD_DEST, legal_nomad_dest, apply_nomad_dest);
}

}  // namespace ktenv::powers

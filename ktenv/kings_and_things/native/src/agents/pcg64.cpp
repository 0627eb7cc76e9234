// numpy's SeedSequence and PCG64 (see pcg64.hpp).
#include "agents/pcg64.hpp"

namespace ktenv::agents {
namespace {

// numpy/random/bit_generator.pyx
constexpr std::uint32_t INIT_A = 0x43b0d7e5u, MULT_A = 0x931e8875u, INIT_B = 0x8b51f9ddu, MULT_B = 0x58f38dedu;
constexpr std::uint32_t MIX_MULT_L = 0xca01f9ddu, MIX_MULT_R = 0x4973f715u;
constexpr int XSHIFT = 16;
constexpr std::size_t POOL = 4;

std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= MULT_A;
  value *= hash_const;
  value ^= value >> XSHIFT;
  return value;
}

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = MIX_MULT_L * x - MIX_MULT_R * y;
  result ^= result >> XSHIFT;
  return result;
}

// PCG_DEFAULT_MULTIPLIER_128 (numpy/random/src/pcg64/pcg64.h)
constexpr unsigned __int128 MULTIPLIER =
    (static_cast<unsigned __int128>(0x2360ed051fc65da4ull) << 64) | 0x4385df649fccf645ull;

}  // namespace

std::array<std::uint32_t, 4> seed_pool(const std::uint32_t* words, std::size_t n_words) {
  std::array<std::uint32_t, 4> pool{};
  std::uint32_t hash_const = INIT_A;
  for (std::size_t i = 0; i < POOL; ++i) pool[i] = hashmix(i < n_words ? words[i] : 0u, hash_const);
  for (std::size_t src = 0; src < POOL; ++src)
    for (std::size_t dst = 0; dst < POOL; ++dst)
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src], hash_const));
  for (std::size_t src = POOL; src < n_words; ++src)
    for (std::size_t dst = 0; dst < POOL; ++dst) pool[dst] = mix(pool[dst], hashmix(words[src], hash_const));
  return pool;
}

void generate_state(const std::array<std::uint32_t, 4>& pool, std::uint32_t* out, std::size_t n) {
  std::uint32_t hash_const = INIT_B;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t v = pool[i % POOL];
    v ^= hash_const;
    hash_const *= MULT_B;
    v *= hash_const;
    v ^= v >> XSHIFT;
    out[i] = v;
  }
}

Pcg64::Pcg64(std::uint64_t seed) {
  const std::uint32_t words[2] = {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  seed_from(words, (seed >> 32) ? 2 : 1);
}

Pcg64::Pcg64(const std::uint32_t* words, std::size_t n_words) { seed_from(words, n_words); }

void Pcg64::seed_from(const std::uint32_t* words, std::size_t n_words) {
  // PCG64.__init__: generate_state(4, uint64) = two 128-bit numbers, the high 64 bits first;
  // pcg_setseq_128_srandom_r(initstate, initseq)
  std::uint32_t s[8];
  generate_state(seed_pool(words, n_words), s, 8);
  std::uint64_t w[4];
  for (int i = 0; i < 4; ++i)
    w[i] = static_cast<std::uint64_t>(s[2 * i]) | (static_cast<std::uint64_t>(s[2 * i + 1]) << 32);
  const unsigned __int128 initstate = (static_cast<unsigned __int128>(w[0]) << 64) | w[1];
  const unsigned __int128 initseq = (static_cast<unsigned __int128>(w[2]) << 64) | w[3];
  state_ = 0;
  has32_ = false;
  inc_ = (initseq << 1) | 1u;
  next64();
  state_ += initstate;
  next64();
}

std::uint64_t Pcg64::next64() {
  state_ = state_ * MULTIPLIER + inc_;  // step, then the XSL-RR output of the new state
  const std::uint64_t folded = static_cast<std::uint64_t>(state_ >> 64) ^ static_cast<std::uint64_t>(state_);
  const unsigned rot = static_cast<unsigned>(state_ >> 122);
  return (folded >> rot) | (folded << ((64u - rot) & 63u));
}

std::uint32_t Pcg64::next32() {
  if (has32_) {
    has32_ = false;
    return high32_;
  }
  const std::uint64_t next = next64();
  has32_ = true;
  high32_ = static_cast<std::uint32_t>(next >> 32);
  return static_cast<std::uint32_t>(next);
}

// numpy/random/src/distributions/distributions.c: random_bounded_uint64_fill for a range that fits 32 bits,
// buffered_bounded_lemire_uint32
std::uint64_t Pcg64::integers(std::uint64_t n) {
  const std::uint64_t rng = n - 1;
  if (rng == 0) return 0;
  if (rng == 0xFFFFFFFFull) return next32();
  const std::uint32_t rng_excl = static_cast<std::uint32_t>(rng) + 1;
  std::uint64_t m = static_cast<std::uint64_t>(next32()) * rng_excl;
  std::uint32_t leftover = static_cast<std::uint32_t>(m);
  if (leftover < rng_excl) {
    const std::uint32_t threshold = (0xFFFFFFFFu - static_cast<std::uint32_t>(rng)) % rng_excl;
    while (leftover < threshold) {
      m = static_cast<std::uint64_t>(next32()) * rng_excl;
      leftover = static_cast<std::uint32_t>(m);
    }
  }
  return m >> 32;
}

}  // namespace ktenv::agents

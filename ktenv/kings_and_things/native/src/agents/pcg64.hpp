// numpy's default generator in C++: `numpy.random.default_rng(seed)` (SeedSequence seeding, PCG64 XSL-RR)
// and `Generator.random()` (53-bit doubles), bit for bit, so that a native agent breaks ties with the
// very numbers its Python twin draws. Public algorithms: M. O'Neill's PCG (pcg-random.org) and numpy's
// SeedSequence (numpy/random/bit_generator.pyx).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace ktenv::agents {

// numpy.random.SeedSequence(entropy).pool for an entropy given as its 32-bit words, least significant
// first (a Python int of any size; 0 is the single word 0).
std::array<std::uint32_t, 4> seed_pool(const std::uint32_t* words, std::size_t n_words);
// SeedSequence.generate_state(n, numpy.uint32) from that pool.
void generate_state(const std::array<std::uint32_t, 4>& pool, std::uint32_t* out, std::size_t n);

class Pcg64 {
 public:
  explicit Pcg64(std::uint64_t seed = 0);                    // numpy.random.default_rng(seed)
  Pcg64(const std::uint32_t* words, std::size_t n_words);    // ... seeded with a Python int of these words
  std::uint64_t next64();
  double random() { return static_cast<double>(next64() >> 11) * (1.0 / 9007199254740992.0); }
  // numpy's PCG64 next_uint32: the low half of a 64-bit output, its high half kept for the next call
  std::uint32_t next32();
  // Generator.integers(n) for 1 <= n <= 2**32: Lemire's bounded method on next32 (no draw when n is 1)
  std::uint64_t integers(std::uint64_t n);

 private:
  void seed_from(const std::uint32_t* words, std::size_t n_words);
  unsigned __int128 state_ = 0, inc_ = 0;
  bool has32_ = false;
  std::uint32_t high32_ = 0;
};

}  // namespace ktenv::agents

// The game's own random generator, bit for bit the Python engine's (ktenv/rng.py): SplitMix64,
// d6 = next % 6 + 1, below(n) = next % n, Fisher-Yates shuffle from the top. Scripted dice (a test's
// stated rolls) come first, as in Python.
#pragma once

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ktenv {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

struct Dice {
  std::uint64_t state = 0;
  std::deque<int> script;  // scripted dice, returned by d6() before any random one

  static Dice seeded(std::uint64_t seed) {
    Dice d;
    d.state = seed * kGolden + 0x632BE59BD9B4E019ULL;  // wraps mod 2**64, as Python's mask does
    return d;
  }

  std::uint64_t next64() {
    std::uint64_t z = (state += kGolden);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  int d6() {
    if (!script.empty()) {
      int v = script.front();
      script.pop_front();
      return v;
    }
    return static_cast<int>(next64() % 6) + 1;
  }

  int two_d6() { return d6() + d6(); }

  std::int64_t below(std::int64_t n) {
    if (n <= 0) throw std::invalid_argument("below() needs a positive bound");
    return static_cast<std::int64_t>(next64() % static_cast<std::uint64_t>(n));
  }

  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::int64_t i = static_cast<std::int64_t>(items.size()) - 1; i > 0; --i) {
      std::int64_t j = below(i + 1);
      std::swap(items[i], items[j]);
    }
  }
};

}  // namespace ktenv

#pragma once
// Fast seedable random numbers: SplitMix64 to expand seeds, xoshiro256** for streams.
// Same seed => same sequence on every platform (no std:: distributions involved).
#include <cstdint>
#include <limits>

namespace kibitz {

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  using result_type = std::uint64_t;

  constexpr explicit Rng(std::uint64_t seed = 0x4B1B17Aull) { reseed(seed); }

  constexpr void reseed(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  constexpr result_type operator()() { return next(); }

  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-64 * n).
  constexpr std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }

  // Uniform double in [0, 1).
  constexpr double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // A value with few bits set (about 8 of 64): useful when searching for magic multipliers.
  constexpr std::uint64_t sparse() { return next() & next() & next(); }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

}  // namespace kibitz

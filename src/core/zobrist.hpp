#pragma once
// Zobrist key tables, generated at compile time from a seed so every build and every run
// hashes identically (hashes are stored in databases and checked in golden tests).
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/rng.hpp"

namespace kibitz {

template <std::size_t N>
struct ZobristTable {
  std::array<std::uint64_t, N> keys{};

  constexpr explicit ZobristTable(std::uint64_t seed) {
    for (auto& k : keys) k = splitmix64(seed);
  }
  constexpr std::uint64_t operator[](std::size_t i) const { return keys[i]; }
  static constexpr std::size_t size() { return N; }
};

}  // namespace kibitz

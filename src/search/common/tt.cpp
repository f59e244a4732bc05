#include "search/common/tt.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace kibitz::search {

// Data word: move 16 | score 16 | eval 16 | depth 8 | bound 2 | generation 6.
std::uint64_t TranspositionTable::pack(std::uint16_t move, int score, int eval, int depth,
                                       Bound bound, std::uint8_t generation) {
  const auto clamp16 = [](int v) {
    return static_cast<std::uint16_t>(static_cast<std::int16_t>(std::clamp(v, -32767, 32767)));
  };
  return std::uint64_t{move} | std::uint64_t{clamp16(score)} << 16 |
         std::uint64_t{clamp16(eval)} << 32 |
         std::uint64_t{static_cast<std::uint8_t>(std::clamp(depth, 0, 255))} << 48 |
         std::uint64_t{static_cast<std::uint8_t>(bound)} << 62 |
         std::uint64_t{static_cast<std::uint8_t>(generation & 63)} << 56;
}

TTData TranspositionTable::unpack(std::uint64_t data) {
  TTData d;
  d.move = static_cast<std::uint16_t>(data);
  d.score = static_cast<std::int16_t>(data >> 16);
  d.eval = static_cast<std::int16_t>(data >> 32);
  d.depth = static_cast<std::uint8_t>(data >> 48);
  d.bound = static_cast<Bound>(data >> 62);
  return d;
}

void TranspositionTable::Free::operator()(Cluster* p) const {
  ::operator delete[](p, std::align_val_t{64});
}

void TranspositionTable::resize(std::size_t megabytes) {
  megabytes = std::clamp<std::size_t>(megabytes, 1, kMaxMegabytes);
  // The same size again (Gomocup sends max_memory every game) keeps the table: reallocating
  // and zeroing 64 MB took ~100 ms, charged to the first move when a manager suspends the
  // engine between the INFO line and its turn (seen as 1,040-1,130 ms answers at 1,000 ms).
  if (clusters_ && megabytes == megabytes_) return;
  const std::size_t bytes = megabytes << 20;
  std::size_t clusters = std::bit_floor(bytes / sizeof(Cluster));
  auto* raw =
      static_cast<Cluster*>(::operator new[](clusters * sizeof(Cluster), std::align_val_t{64}));
  clusters_.reset(raw);
  mask_ = clusters - 1;
  megabytes_ = megabytes;
  clear();
}

void TranspositionTable::clear() {
  // Zero data word = empty entry (every stored entry has a non-zero bound).
  std::memset(static_cast<void*>(clusters_.get()), 0, (mask_ + 1) * sizeof(Cluster));
  generation_ = 0;
}

bool TranspositionTable::probe(std::uint64_t key, TTData& out) const {
  const Cluster& c = clusters_[key & mask_];
  for (const Entry& e : c.entries) {
    const std::uint64_t data = e.data.load(std::memory_order_relaxed);
    const std::uint64_t check = e.check.load(std::memory_order_relaxed);
    if (data != 0 && (check ^ data) == key) {
      out = unpack(data);
      return true;
    }
  }
  return false;
}

void TranspositionTable::store(std::uint64_t key, std::uint16_t move, int score, int eval,
                               int depth, Bound bound) {
  Cluster& c = clusters_[key & mask_];
  Entry* target = nullptr;
  int worst = INT32_MAX;
  for (Entry& e : c.entries) {
    const std::uint64_t data = e.data.load(std::memory_order_relaxed);
    const std::uint64_t check = e.check.load(std::memory_order_relaxed);
    if (data != 0 && (check ^ data) == key) {
      const TTData old = unpack(data);
      if (move == 0) move = old.move;  // keep the best move an upper-bound search cannot give
      // Keep a clearly deeper result of this search unless the new one is exact.
      if (bound != Bound::kExact && generation_of(data) == generation_ && depth + 3 < old.depth)
        return;
      target = &e;
      break;
    }
    // Empty entries go first, then stale ones (older generations), then the shallowest.
    const int age = (generation_ - generation_of(data)) & 63;
    const int value = data == 0 ? INT32_MIN : static_cast<int>((data >> 48) & 0xFF) - 8 * age;
    if (value < worst) {
      worst = value;
      target = &e;
    }
  }
  const std::uint64_t data = pack(move, score, eval, depth, bound, generation_);
  target->data.store(data, std::memory_order_relaxed);
  target->check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
  const std::size_t clusters = std::min<std::size_t>(250, mask_ + 1);
  int used = 0;
  for (std::size_t i = 0; i < clusters; ++i)
    for (const Entry& e : clusters_[i].entries) {
      const std::uint64_t data = e.data.load(std::memory_order_relaxed);
      used += data != 0 && generation_of(data) == generation_;
    }
  return static_cast<int>(used * 1000 / (clusters * kEntriesPerCluster));
}

}  // namespace kibitz::search

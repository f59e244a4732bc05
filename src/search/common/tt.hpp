#pragma once
// The transposition table every alpha-beta search shares (Lazy SMP threads included).
// Power-of-two count of 64-byte clusters of four 16-byte entries, sized in MB by the user.
// Lockless by design: an entry is two relaxed 64-bit atomics, the data word and the key
// XOR the data (Hyatt's scheme), so a torn write from another thread fails the key check
// instead of returning mixed data. Entries age by a 6-bit search generation; replacement
// prefers empty, then stale, then shallow entries.
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace kibitz::search {

enum class Bound : std::uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

// What a probe returns (copied out of the table, so it stays valid under races).
struct TTData {
  std::uint16_t move = 0;  // the game's move bits (0 = none)
  std::int16_t score = 0;  // relative to the node (see score_to_tt)
  std::int16_t eval = 0;   // static evaluation
  std::uint8_t depth = 0;
  Bound bound = Bound::kNone;

  template <class Move>
  Move move_as() const {
    static_assert(sizeof(Move) == sizeof(std::uint16_t) && std::is_trivially_copyable_v<Move>,
                  "the transposition table stores 16-bit moves");
    return std::bit_cast<Move>(move);
  }
};

class TranspositionTable {
 public:
  static constexpr int kEntriesPerCluster = 4;
  static constexpr std::size_t kMaxMegabytes = 1 << 20;

  explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

  // Reallocates to the largest power-of-two cluster count that fits in `megabytes` (>= 1)
  // and clears it; the size it already has changes nothing. Not safe while a search runs.
  void resize(std::size_t megabytes);
  void clear();
  std::size_t megabytes() const { return megabytes_; }

  // Starts a new search: entries from earlier searches become replaceable first.
  void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63); }
  std::uint8_t generation() const { return generation_; }

  bool probe(std::uint64_t key, TTData& out) const;
  // Starts loading the cluster of `key` into the cache, for a probe that comes a little later.
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&clusters_[key & mask_]); }
  void store(std::uint64_t key, std::uint16_t move, int score, int eval, int depth, Bound bound);
  template <class Move>
  void store(std::uint64_t key, Move move, int score, int eval, int depth, Bound bound) {
    store(key, std::bit_cast<std::uint16_t>(move), score, eval, depth, bound);
  }

  // Per mille of a sample of entries written in the current search (UCI `hashfull`).
  int hashfull() const;

 private:
  struct Entry {
    std::atomic<std::uint64_t> check;  // key ^ data
    std::atomic<std::uint64_t> data;
  };
  struct alignas(64) Cluster {
    Entry entries[kEntriesPerCluster];
  };
  static_assert(sizeof(Cluster) == 64);

  static std::uint64_t pack(std::uint16_t move, int score, int eval, int depth, Bound bound,
                            std::uint8_t generation);
  static TTData unpack(std::uint64_t data);
  static std::uint8_t generation_of(std::uint64_t data) { return (data >> 56) & 63; }

  struct Free {
    void operator()(Cluster* p) const;
  };
  std::unique_ptr<Cluster[], Free> clusters_;
  std::size_t mask_ = 0;
  std::size_t megabytes_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace kibitz::search

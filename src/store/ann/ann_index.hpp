#pragma once
// Approximate nearest-neighbour retrieval of similar positions (hnswlib) over policy
// embeddings. One index per board size (the embedding is that size's policy: size*size + 1
// values), kept in memory, saved next to the database as "<db>.<size>x<size>.ann" and
// rebuilt from the database when the file is missing, unreadable or out of step with it.
//
// Embedding: the element-wise square root of the (normalised) policy, so the L2 distance
// between two embeddings is the Hellinger distance of the two distributions (sqrt(2 - 2 BC)
// with BC their Bhattacharyya coefficient): 0 for the same policy, sqrt(2) for disjoint ones.
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "store/position_store.hpp"

namespace kibitz::store {

struct AnnOptions {
  int m = 16;                           // hnswlib M (links per node)
  int ef_construction = 200;            // hnswlib build-time beam
  int ef_search = 64;                   // hnswlib query-time beam (at least k)
  std::size_t initial_capacity = 1024;  // grows by doubling
};

struct AnnNeighbour {
  std::int64_t position_id = 0;
  float distance = 0;  // Hellinger distance, 0..sqrt(2)
};

std::vector<float> policy_embedding(std::span<const float> policy);

class AnnIndex {
 public:
  ~AnnIndex();
  AnnIndex(const AnnIndex&) = delete;
  AnnIndex& operator=(const AnnIndex&) = delete;

  // Loads "<store.path()>.<size>x<size>.ann", or builds the index from the store's positions
  // of that size (each embedded by its newest context's policy) when the file is missing,
  // unreadable or holds a different number of positions than the store. An in-memory store
  // path (":memory:" or empty) never touches files.
  static Result<std::unique_ptr<AnnIndex>> open(PositionStore& store, int board_size,
                                                const AnnOptions& options = {});

  int board_size() const { return size_; }
  std::size_t dimension() const { return dim_; }
  std::size_t count() const;
  bool rebuilt() const { return rebuilt_; }  // open() had to rebuild from the database
  // Adds (or replaces) a position's embedding; the policy must have dimension() values.
  Result<void> add(std::int64_t position_id, std::span<const float> policy);
  // Adds the positions of its board size that other processes put into the database since
  // the index was opened or last caught up; returns how many. It reads again from the
  // largest id seen before the previous catch-up, so a position whose transaction committed
  // after a later-numbered one's is not missed.
  Result<std::size_t> catch_up(PositionStore& store);
  // The k nearest positions to a policy, nearest first.
  Result<std::vector<AnnNeighbour>> nearest(std::span<const float> policy, int k) const;
  // Writes the index file (atomically: a temporary file renamed over it).
  Result<void> save() const;
  const std::string& file() const { return file_; }

  // The index file of a database for one board size ("" for an in-memory database).
  static std::string file_for(const std::string& db_path, int board_size);
  // The number of positions an index file holds, after the checks open() makes before
  // loading it; an error for a file open() would rebuild as unreadable. Never rebuilds (for
  // `kibitz go db stats`).
  static Result<std::size_t> file_count(const std::string& file, int board_size);

 private:
  AnnIndex() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int size_ = 0;
  std::size_t dim_ = 0;
  bool rebuilt_ = false;
  std::string file_;
};

}  // namespace kibitz::store

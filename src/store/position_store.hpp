#pragma once
// The persistent position database of the Go deep search (DESIGN.md: store/). A position is
// keyed by its symmetry hash plus board size, komi and rules, and holds several analysis
// contexts (the same position met at different moments, searched with different budgets).
// Moves and policies are stored in the position's canonical orientation (the transform that
// gives the smallest hash); the caller maps them to and from the board it holds.
//
// Runtime polymorphism is fine here: one call per lookup or store, never inside a search.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace kibitz::store {

struct PositionKey {
  std::uint64_t sym_hash = 0;
  int board_size = 19;
  double komi = 7.5;
  std::string rules = "tromp-taylor";
  bool operator==(const PositionKey&) const = default;
};

// One analysis of a position.
struct PositionContext {
  int move = -1;           // canonical point index x + y * size; size * size = pass
  double uncertainty = 0;  // of the search that produced it, 0..1
  std::uint32_t deep_visits = 0;
  std::vector<float> policy;      // size * size + 1 visit fractions (canonical, last = pass)
  double winrate = 0.5;           // for the side to move, 0..1
  double score_lead = 0;          // for the side to move, points
  int game_phase = 0;             // stones on the board
  int recursion_depth = 0;        // metadata: depth of the deep search that stored it
  int move_number = 0;            // metadata: moves played before the position
  std::int64_t timestamp = 0;     // unix seconds
  std::string source = "search";  // "search" (the engine) or "ingest" (a game record)
};

struct StoredPosition {
  std::int64_t id = 0;
  PositionKey key;
  std::vector<PositionContext> contexts;  // oldest first
};

// Context selection (the seed's get_best_context) and pruning.
struct ContextPolicy {
  double phase_weight = 0.5;    // game-phase similarity
  double quality_weight = 0.3;  // deep search quality
  double recency_weight = 0.2;  // temporal relevance
  double recency_half_life_s = 30.0 * 24 * 3600;
  int max_contexts = 5;  // kept per position (0: no limit)
};

// Score of context c for a query at `game_phase` stones on a board of `board_points` points:
//   phase_weight   * (1 - min(1, |game_phase - c.game_phase| / board_points))
// + quality_weight * c.deep_visits / (the largest deep_visits among `contexts`)
// + recency_weight * 0.5 ^ (age / recency_half_life_s)      (age = now - c.timestamp, >= 0)
double context_score(const std::vector<PositionContext>& contexts, std::size_t i, int game_phase,
                     int board_points, std::int64_t now, const ContextPolicy& policy);
// The index of the best-scoring context (ties: the newer one); contexts must not be empty.
std::size_t select_context(const std::vector<PositionContext>& contexts, int game_phase,
                           int board_points, std::int64_t now, const ContextPolicy& policy);
// Prune key of a context: deep_visits * 0.5 ^ (age / recency_half_life_s).
double prune_key(const PositionContext& c, std::int64_t now, const ContextPolicy& policy);
// The indices of the contexts to keep (at most max_contexts, highest prune_key first, ties:
// newer first), in ascending order.
std::vector<std::size_t> contexts_to_keep(const std::vector<PositionContext>& contexts,
                                          std::int64_t now, const ContextPolicy& policy);

// What every store checks before it writes: the board size (2 to 25: GTP's column letters),
// a finite komi and non-empty rules; a move and a policy that fit the board, and finite values.
Result<void> check_position_key(const PositionKey& key);
Result<void> check_position_context(const PositionContext& c, int board_size);
// Policies are stored as float32 little-endian, whatever the host's byte order.
std::string policy_to_bytes(const std::vector<float>& policy);
std::vector<float> policy_from_bytes(const unsigned char* data, std::size_t count);

struct AddResult {
  std::int64_t position_id = 0;
  bool new_position = false;
  int contexts = 0;  // the position's contexts after the add (and the prune)
};

struct StoreStats {
  std::int64_t positions = 0;
  std::int64_t contexts = 0;
  std::int64_t file_bytes = 0;  // the database file with its WAL
  int schema_version = 0;
  std::vector<std::pair<int, std::int64_t>> positions_by_size;  // {board size, positions}
  std::int64_t ingested_contexts = 0;                           // source == "ingest"
};

struct PruneReport {
  std::int64_t contexts_removed = 0;
  std::int64_t positions_removed = 0;  // left without contexts
};

class PositionStore {
 public:
  virtual ~PositionStore() = default;
  virtual Result<std::optional<StoredPosition>> find(const PositionKey& key) = 0;
  virtual Result<std::optional<StoredPosition>> find_by_id(std::int64_t id) = 0;
  // Adds one context (creating the position when new) and prunes the position's contexts by
  // `policy` (contexts_to_keep), in one transaction.
  virtual Result<AddResult> add_context(const PositionKey& key, const PositionContext& context,
                                        const ContextPolicy& policy, std::int64_t now) = 0;
  // Every position in id order (export, ANN rebuild); stops early when `fn` returns false.
  Result<void> for_each(const std::function<bool(const StoredPosition&)>& fn) {
    return for_each_after(0, fn);
  }
  // The same for the positions whose id is above `after_id` (an index catching up with what
  // other processes added).
  virtual Result<void> for_each_after(std::int64_t after_id,
                                      const std::function<bool(const StoredPosition&)>& fn) = 0;
  virtual Result<StoreStats> stats() = 0;
  // Prunes every position to policy.max_contexts and drops contexts older than
  // `older_than_s` seconds (0: none by age); positions left empty go too.
  virtual Result<PruneReport> prune(const ContextPolicy& policy, std::int64_t now,
                                    std::int64_t older_than_s) = 0;
  virtual const std::string& path() const = 0;
};

}  // namespace kibitz::store

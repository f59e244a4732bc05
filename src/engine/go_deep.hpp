#pragma once
// The Go deep search (seeds/001): the generic uncertainty-triggered recursive deep search
// (search/mcts/deep_search.hpp) over the persistent position database (store/), with its
// configuration (configs/go.yaml and presets), the per-move log lines and the statistics
// block. GoEngine::genmove hands its standard search to GoDeep::decide when one is attached.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.hpp"
#include "core/time_budget.hpp"
#include "games/go/board.hpp"
#include "search/mcts/deep_search.hpp"
#include "store/ann/ann_index.hpp"
#include "store/position_store.hpp"

namespace kibitz::engine {

struct GoDeepConfig {
  bool enabled = true;                  // deep_search.enabled
  std::uint64_t standard_visits = 800;  // standard.visits
  search::DeepSearchOptions deep;       // rag_query, deep_mcts, recursion (see configs/go.yaml)
  // Adaptive recursion depth from the clock (the seed's future enhancement 1): with a game
  // clock, more than adaptive_deep_s seconds left: depth 3; more than adaptive_standard_s: 2;
  // else 1. Without a clock: recursion.max_recursion_depth.
  bool adaptive = true;
  double adaptive_deep_s = 60;
  double adaptive_standard_s = 30;
  // Under a clock or a fixed move time, all deep work of a move stops at this many times the
  // move's own budget.
  double time_factor = 4.0;
  // Under a game clock the standard search has this share of the move's budget: the time a
  // certain position does not use pays for the deep searches of uncertain ones.
  double standard_time_share = 0.5;
  // The root's deep search continues the engine's own tree (its standard visits count, and the
  // deep statistics stay for the next moves) instead of a fresh tree. Off by default: measured
  // no better at equal time (BENCHMARKS.md), and a fresh tree lets a game replay from the cache.
  bool continue_tree = false;
  // database.path: an SQLite file ("" or ":memory:": not kept) or postgresql://...
  std::string db_path = "kibitz-go.db";
  store::ContextPolicy contexts;  // context_selection
  bool ann_enabled = true;        // ann.enabled: index positions, allow hints
  bool ann_blend = true;          // ann.blend_priors (weight in deep.ann_blend_weight)
  int ann_neighbours = 8;         // ann.neighbours
  double ann_max_distance = 0.5;  // ann.max_distance (Hellinger)
  store::AnnOptions ann;          // ann.m, ann.ef_construction, ann.ef_search
  int score_playouts = 32;        // playouts estimating a stored context's score lead
  // Engine (engine.*): threads, seed and resignation of the GTP engine.
  int threads = 1;
  std::uint64_t seed = 0x4D435453ull;
  bool resign = true;
};

// Reads a go.yaml: every key above under its section; `preset` (when not empty) picks
// presets.<preset>.<key> before <key>. Unknown sections, keys and presets are errors.
Result<GoDeepConfig> load_go_config(const Config& config, std::string_view preset = {});
Result<GoDeepConfig> load_go_config_file(const std::string& path, std::string_view preset = {});
std::vector<std::string> go_config_presets(const Config& config);

// The rules text of the database key: the scoring and the options that change analyses.
std::string go_rules_key(const go::Rules& rules);
store::PositionKey go_position_key(const go::Position& pos);
// Point index of a board point in the canonical layout (x + y * size, pass = size * size)
// and back. -1 / Move::none() for anything else.
int go_canonical_index(go::Move m, int t, int size);
go::Move go_from_canonical(int index, int t, int size);
// The root visit distribution as a policy of size*size + 1 values in canonical orientation.
std::vector<float> go_canonical_policy(const search::MctsResult<go::Move>& r, int t, int size);

// The cache the deep search reads and writes: exact lookups by symmetry hash (the context
// chosen by game phase, quality and recency; its move mapped to the asking board), stores
// (new positions also go into the ANN index), and prior hints from the ANN neighbours of a
// policy. Thread-safe (one mutex: the database connection is not shared between threads).
class GoPositionCache {
 public:
  GoPositionCache(store::PositionStore& db, store::AnnIndex* ann, const GoDeepConfig& config);
  std::optional<search::CachedAnalysis<go::Move>> lookup(const go::Position& pos);
  search::StoreOutcome store(const go::Position& pos, const search::DeepAnalysis<go::Move>& a,
                             int depth);
  std::vector<std::pair<go::Move, float>> similar(const go::Position& pos,
                                                  const search::MctsResult<go::Move>& r);
  // Adds an ingested context (a game record's move with a search's statistics).
  Result<store::AddResult> add(const go::Position& pos, const store::PositionContext& ctx);
  const std::string& last_error() const { return last_error_; }

 private:
  std::mutex mutex_;
  store::PositionStore& db_;
  store::AnnIndex* ann_;
  GoDeepConfig config_;
  std::string last_error_;  // the last database error (the search goes on without the cache)
};

// What genmove reports about a decision.
struct GoDeepReport {
  search::DeepSource source = search::DeepSource::kStandard;
  double uncertainty = 1.0;
  int contexts = 0;
  int depth = 0;  // deepest recursion level reached
  std::int64_t time_ms = 0;
};

class GoDeep {
 public:
  // Opens (creating) the database at config.db_path and its ANN index.
  static Result<std::unique_ptr<GoDeep>> open(const GoDeepConfig& config);
  ~GoDeep();

  const GoDeepConfig& config() const { return config_; }
  search::DeepStats& stats() { return stats_; }
  store::PositionStore& db() { return *db_; }
  store::AnnIndex* ann() { return ann_.get(); }
  GoPositionCache& cache() { return *cache_; }

  // Opens the ANN index of a board size (decide() does it for the position it is given;
  // ingestion calls it before adding).
  void prepare(int board_size);
  // Logging on `log` (stderr by default; null: silent): the trace lines and the per-move line.
  void set_log(std::FILE* log, bool trace);
  // The recursion depth for a clock with `seconds_left` (< 0: no clock).
  int depth_for(double seconds_left) const;
  // The deep decision after the standard search; prints the per-move line.
  search::DeepAnalysis<go::Move> decide(const go::Position& pos,
                                        const search::MctsResult<go::Move>& standard,
                                        TimeBudget& budget, double seconds_left,
                                        std::int64_t started_ms,
                                        search::Mcts<go::Position>* tree = nullptr);
  // The seed's statistics block.
  std::string stats_block(std::string_view title) const;
  Result<void> save_index();

 private:
  explicit GoDeep(const GoDeepConfig& config);
  GoDeepConfig config_;
  std::unique_ptr<store::PositionStore> db_;
  std::unique_ptr<store::AnnIndex> ann_;
  std::unique_ptr<GoPositionCache> cache_;
  search::DeepStats stats_;
  std::unique_ptr<search::DeepSearch<go::Position, GoPositionCache>> search_;
  std::FILE* log_ = stderr;
  bool trace_ = true;
  int board_size_ = 19;  // of the position being decided (for move texts in the trace)
};

const char* deep_source_text(search::DeepSource s);

}  // namespace kibitz::engine

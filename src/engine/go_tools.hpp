#pragma once
// The deep search's tools behind `kibitz go`: the seed's test match (self-play of a few
// dozen moves that shows when deep searches trigger, the cache at work and the database
// growing) and ingestion of game records into the position database (the seed's transfer
// learning).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/go_deep.hpp"
#include "engine/go_engine.hpp"

namespace kibitz::engine {

struct GoSelfplayOptions {
  int moves = 40;  // per game (fewer when the game ends)
  int games = 1;
  int size = 9;
  double komi = 7.0;
  std::uint64_t visits = 0;      // standard visits per move (0: the deep configuration's)
  std::int64_t movetime_ms = 0;  // instead of visits
  int threads = 1;
  std::uint64_t seed = 0x4D435453ull;
  bool deep = true;  // false: standard search only (for comparisons)
};

struct GoSelfplayGame {
  std::vector<go::Move> moves;
  int standard = 0, cached = 0, deep = 0;  // moves decided each way
  std::uint64_t playouts = 0;              // every search of the game
  std::int64_t time_ms = 0;
  std::vector<std::int64_t> move_ms;
  std::vector<search::DeepSource> sources;
};

struct GoSelfplayReport {
  std::vector<GoSelfplayGame> games;
  std::int64_t positions_before = 0, positions_after = 0;
  std::int64_t contexts_before = 0, contexts_after = 0;
};

// Plays the games with one engine (both colours, its tree reused), `deep` attached unless
// options.deep is false (then deep may be null). Writes the seed's lines to `log` (null:
// silent): "Move 12: Kibitz (Black) thinking...", the deep search's trace and per-move line,
// then each game's statistics block and the database growth.
Result<GoSelfplayReport> run_go_selfplay(const GoSelfplayOptions& options,
                                         std::shared_ptr<GoDeep> deep, std::FILE* log);

struct GoIngestOptions {
  std::vector<std::string> paths;  // SGF files, or directories searched for *.sgf
  std::uint64_t visits = 800;      // search per position
  int threads = 1;
  bool all = false;   // store every position, not only those above the uncertainty threshold
  int max_moves = 0;  // positions per game (0: all)
  bool progress = true;
};

struct GoIngestReport {
  int files = 0;
  int games = 0;
  std::vector<std::string> errors;  // one line per file that could not be read or replayed
  std::int64_t positions = 0;       // searched
  std::int64_t stored = 0;          // contexts added
  std::int64_t new_positions = 0;
};

// The files a list of paths names: files as given, directories searched recursively for
// *.sgf (sorted). An error names a path that does not exist.
Result<std::vector<std::string>> go_sgf_files(const std::vector<std::string>& paths);

// Searches every position of every game's main line (`visits` each) and stores those above
// the uncertainty threshold (or all) with the record's move as the context's move and the
// search's policy, win rate and uncertainty (source "ingest").
Result<GoIngestReport> run_go_ingest(const GoIngestOptions& options, GoDeep& deep);

}  // namespace kibitz::engine

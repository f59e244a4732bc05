#pragma once
// Fitting the move-prediction model (pattern_model.hpp) to game records, and measuring how
// well a model predicts the moves of other records. `kibitz go train-patterns` drives both.
//
// Training reads the records twice. The first pass counts the nested shape patterns around
// every move played; the dictionary keeps those played at least `min_count` times. The
// second pass turns every position into a competition (Coulom 2007): each legal move, pass
// included, is a team of its feature values and the move played wins. The gammas are then
// fitted by minorization-maximization (core/bradley_terry.hpp). Every step is
// deterministic: the same records and options give the same file.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "games/go/pattern_model.hpp"
#include "games/go/playout_model.hpp"

namespace kibitz::go {

struct PatternTrainOptions {
  std::vector<std::string> inputs;  // SGF files, directories, archives (sgf_collection.hpp)
  int max_games = 0;                // stop after this many games used (0: all)
  int stride = 1;                   // use every stride-th record
  int min_count = 10;               // dictionary: patterns played at least this often
  int iterations = 20;
  double prior = 1.0;    // virtual wins and losses of every gamma (bradley_terry.hpp)
  bool progress = true;  // progress lines on stderr (when it is a terminal)
};

struct PatternTrainStats {
  int games = 0;        // records used
  int bad_records = 0;  // records that could not be read or replayed to the end (their
                        // positions up to the bad move are used)
  std::uint64_t positions = 0, candidates = 0;
  std::array<int, kNumPatternSizes> patterns_by_size{};
  std::vector<double> log_likelihood;  // mean per position, before each iteration and at the end
  double seconds = 0;
};

Result<PatternModel> train_pattern_model(const PatternTrainOptions& options,
                                         PatternTrainStats& stats);

struct PredictionStats {
  int games = 0, bad_records = 0;
  std::uint64_t positions = 0, candidates = 0;
  // Positions whose move played ranked first, in the top 5, in the top 10 (ties count
  // against the model: a move is ranked below every other move as strong as it).
  std::uint64_t top1 = 0, top5 = 0, top10 = 0;
  double mean_log_likelihood = 0;  // of the move played
  double scoring_seconds = 0;      // spent computing features and strengths
  double percent(std::uint64_t n) const { return positions ? 100.0 * n / positions : 0.0; }
  double candidates_per_second() const {
    return scoring_seconds > 0 ? candidates / scoring_seconds : 0;
  }
};

// Fitting the playout patterns (playout_model.hpp): every position whose last move is a point
// is a competition between the empty points around that move that a playout may play
// (playout_acceptable()) and a "tenuki" team; the point played wins when it is one of them,
// tenuki otherwise. Codes seen as candidates at least `min_count` times go to the file.
struct PlayoutTrainStats {
  int games = 0, bad_records = 0;
  std::uint64_t positions = 0, candidates = 0;
  std::uint64_t local = 0;  // positions whose move played was one of the local points
  int patterns = 0;         // codes written
  std::vector<double> log_likelihood;
  double seconds = 0;
};

Result<PlayoutModel> train_playout_model(const PatternTrainOptions& options,
                                         PlayoutTrainStats& stats);

// Every position of the records (same selection options as training: inputs, max_games,
// stride; the rest is ignored).
Result<PredictionStats> measure_pattern_model(const PatternModel& model,
                                              const PatternTrainOptions& options);

}  // namespace kibitz::go

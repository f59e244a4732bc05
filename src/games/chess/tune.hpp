#pragma once
// Texel tuning: fit the evaluation weights (eval.hpp) to game results. Each position's trace
// is computed once and kept as a sparse list of (parameter, coefficient); the weights then
// minimise the mean squared error between sigmoid(K * eval / 400) and the result with
// full-batch Adam. Deterministic: the gradient is summed in fixed blocks, in order, whatever
// the number of threads.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "games/chess/eval.hpp"

namespace kibitz::chess {

// Positions as sparse traces with their results (white's view: 1 won, 0.5 drawn, 0 lost).
class TuneDataset {
 public:
  struct Term {
    std::uint16_t index;  // parameter
    std::int16_t coeff;   // white minus black count
  };

  void add(const Position& pos, double result);
  void add(const EvalTrace& trace, double result);

  std::size_t size() const { return result_.size(); }
  std::size_t terms() const { return terms_.size(); }
  // Position i's non-zero coefficients, game phase, endgame scales and result.
  const Term* begin(std::size_t i) const { return terms_.data() + offset_[i]; }
  const Term* end(std::size_t i) const { return terms_.data() + offset_[i + 1]; }
  int phase(std::size_t i) const { return phase_[i]; }
  int scale(std::size_t i, Color c) const { return scale_[i][c]; }
  double result(std::size_t i) const { return result_[i]; }

 private:
  std::vector<Term> terms_;
  std::vector<std::uint32_t> offset_{0};
  std::vector<std::uint8_t> phase_;
  std::vector<std::array<std::uint8_t, 2>> scale_;
  std::vector<float> result_;
};

// One data line: "FEN | result"; the result is 1.0, 0.5 or 0.0 (any number in [0, 1], or
// 1-0, 0-1, 1/2-1/2).
Result<std::pair<Position, double>> parse_tune_line(std::string_view line);

struct TuneLoadReport {
  std::size_t lines = 0;    // lines read
  std::size_t loaded = 0;   // positions kept
  std::size_t skipped = 0;  // malformed lines (blank lines and # comments are not counted)
};

// Reads a data file. A malformed line is skipped and reported through `warn` as
// "<path>:<line>: <problem>"; the result is an error when the file cannot be read or holds no
// usable position.
Result<TuneDataset> load_tune_data(const std::string& path, TuneLoadReport& report,
                                   const std::function<void(const std::string&)>& warn);

struct TuneOptions {
  int epochs = 300;
  double learning_rate = 1.0;  // Adam's step size, in centipawns per epoch
  std::optional<double> k;     // sigmoid scale; fitted to the starting weights when absent
  int threads = 1;
};

// Mean squared error of sigmoid(k * eval / 400) against the results (eval in white's view,
// tapered without rounding).
double tune_error(const TuneDataset& data, const EvalParams& params, double k, int threads = 1);

// The k minimising tune_error for these weights (a scan, then golden-section refinement).
double fit_k(const TuneDataset& data, const EvalParams& params, int threads = 1);

struct TuneResult {
  EvalParams params;  // rounded to whole centipawns
  double k;
  double initial_error;
  double final_error;  // with the rounded weights
};

// Runs the optimisation from `start`; on_epoch(epoch, error) is called after every epoch
// (1..epochs) with the error of the unrounded weights that epoch's gradient was taken at.
TuneResult tune(const TuneDataset& data, const EvalParams& start, const TuneOptions& options,
                const std::function<void(int, double)>& on_epoch = {});

}  // namespace kibitz::chess
